"""Options from whole-file readings: where the merge's untrusted readings (or the scored alignment's) put each section.

When the instant merge refuses it often holds a complete reading (its `candidate`) and, for a choice
between two, the rival (`MergeResult.alternatives`); the scored alignment (align/scored.py) always
reads one (explain.py asks it last). A planner who meant one of them settles the refusal by showing
what that reading has around each section:

- `reading_pins`: the unchanged original lines right above and below each section (each run up to a
  line the file holds once), where the reading put it; a reading that changes nothing pins nothing;
- `gap_options`: where the two readings differ under a marker, the unchanged lines the reading has
  between the two sections around it, in place of the marker and its blank padding.

This module reads lines and readings (text/ compares them); which refusal gets these options is
explain.py's.
"""

from __future__ import annotations

from fastapply.merge.refuse.options import MAX_CONTEXT, below
from fastapply.merge.refuse.reading import Input, run_at, unique
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import run_starts


def _to_original(inp: Input, cand: list[str]) -> dict[int, int]:
    """Each line index of the reading `cand` that is an unchanged original line -> its original index."""
    to_original: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in line_opcodes(inp.original, cand):
        if tag == "equal":
            to_original.update((j1 + d, i1 + d) for d in range(i2 - i1))
    return to_original


def reading_pins(inp: Input, reading: str | None, limit: int = 8) -> tuple[Option, ...]:
    """Options that pin each section where the merge's untrusted `reading` (a whole file: its
    candidate, or a rival) put it: the unchanged original lines the reading has right above the
    section (and right below it), each run up to a line the file holds once. A planner who meant
    that reading adds them; the section then has one place."""
    cand = reading.splitlines() if reading else []
    if not cand or cand == inp.original:  # a reading that changes nothing pins no change
        return ()
    to_original = _to_original(inp, cand)
    out: list[Option] = []
    for (a, b), place in zip(inp.sections[:limit], _placed(inp, cand, limit)):
        if place is None:
            continue
        c, end = place
        edits, words = [], []
        for step, edge in ((-1, c), (+1, end)):
            run: list[int] = []  # original indexes, nearest first
            j = edge + step
            while 0 <= j < len(cand) and j in to_original and len(run) < MAX_CONTEXT:
                run.append(to_original[j])
                if unique(inp, to_original[j]):
                    break
                j += step
            if not run or not unique(inp, run[-1]):
                continue
            lo, hi = min(run), max(run)
            if step < 0:
                edits.append(Edit("insert", at=a + 1, text="\n".join(inp.original[lo : hi + 1]), original_line=lo + 1))
                words.append(f"the unchanged original {_lines(lo, hi)} above snippet line {a + 1}")
                continue
            edits.extend(below(inp, b, lo, hi))
            words.append(f"the unchanged original {_lines(lo, hi)} below snippet line {b + 1}")
        if edits:
            out.append(Option("add " + " and ".join(words) + f" (where the section's lines "
                              f"{a + 1}-{b + 1} would go)", tuple(edits)))
    return tuple(out)


def _lines(lo: int, hi: int) -> str:
    """`line 5` or `lines 5-7` for original indexes lo..hi."""
    return f"line {lo + 1}" if lo == hi else f"lines {lo + 1}-{hi + 1}"


MAX_GAP = 24  # original lines an option may show in place of a marker


def _placed(inp: Input, cand: list[str], limit: int | None = None) -> list[tuple[int, int] | None]:
    """Each section's (the first `limit`'s) [first, last] line index in the reading `cand`, or None
    where its lines do not stand there exactly once."""
    out: list[tuple[int, int] | None] = []
    for a, b in inp.sections[:limit]:
        texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
        at = run_at(cand, texts)
        if len(at) != 1:
            out.append(None)
            continue
        end = at[0]
        for _ in texts[1:]:
            end = next(j for j in range(end + 1, len(cand)) if cand[j].strip())
        out.append((at[0], end))
    return out


def gap_options(inp: Input, reading: str | None, other: str | None) -> tuple[Option, ...]:
    """Where two whole-file readings the merge refused between differ under a marker (what the
    marker keeps), the option that settles it for `reading`: show the unchanged lines `reading`
    has between the two sections around that marker in place of the marker (at most MAX_GAP)."""
    if not reading or not other or reading == other:
        return ()
    cand, rival = reading.splitlines(), other.splitlines()
    places = _placed(inp, cand)
    to_original = _to_original(inp, cand)
    hunks = [(j1, j2) for tag, i1, i2, j1, j2 in line_opcodes(rival, cand) if tag != "equal"]
    out: list[Option] = []
    for n in range(len(inp.sections) - 1):
        (_, b), (c, _) = inp.sections[n], inp.sections[n + 1]
        here, there = places[n], places[n + 1]
        marks = [m for m in inp.markers if b < m < c]
        if here is None or there is None or len(marks) != 1 or not here[1] < there[0]:
            continue
        lo, hi = here[1] + 1, there[0]  # the reading's lines between the two sections
        if not any(lo <= j2 and j1 <= hi for j1, j2 in hunks) or hi - lo > MAX_GAP:
            continue
        if any(j not in to_original for j in range(lo, hi)):
            continue  # only unchanged original lines may stand in for a marker
        # the marker and the blank lines around it give way to the reading's own lines
        first = to_original[lo] if hi > lo else None
        edits = (Edit("remove", start=b + 2, end=c),) + (
            (Edit("insert", at=b + 2, text="\n".join(cand[lo:hi]), original_line=first + 1),) if hi > lo else ())
        says = (f"show the unchanged original lines {first + 1}-{first + hi - lo} in place of the marker at snippet line "
                f"{marks[0] + 1}" if hi > lo else f"remove the marker at snippet line {marks[0] + 1}: nothing stands there")
        out.append(Option(says, edits))
    return tuple(out)


def difference_options(inp: Input, reading: str | None, other: str | None) -> tuple[Option, ...]:
    """Where two whole-file readings differ by one run of unchanged original lines only (one keeps
    it, the other drops it) and the snippet shows the lines on both sides of that run next to each
    other (or shows the file's edge there, unmarked), the two options that settle it: those lines
    added there if they stay, or shown as `-` lines there if they go (only where the file holds each
    of them once). A reading's own pins cannot say this: both readings place every section alike."""
    if not reading or not other or reading == other:
        return ()
    first, second = reading.splitlines(), other.splitlines()
    ops = [o for o in line_opcodes(first, second) if o[0] != "equal"]
    if len(ops) != 1 or ops[0][0] not in ("delete", "insert"):
        return ()
    tag, i1, i2, j1, j2 = ops[0]
    keeper, lo, hi = (first, i1, i2) if tag == "delete" else (second, j1, j2)
    to_original = _to_original(inp, keeper)
    run = [to_original.get(j) for j in range(lo, hi)]
    if (None in run or run != list(range(run[0], run[0] + len(run)))
            or not any(keeper[j].strip() for j in range(lo, hi))):
        return ()
    above = next((j for j in range(lo - 1, -1, -1) if keeper[j].strip()), None)
    under = next((j for j in range(hi, len(keeper)) if keeper[j].strip()), None)
    spot = _shown_apart_by_nothing(inp, None if above is None else keeper[above],
                                   None if under is None else keeper[under])
    if spot is None:
        return ()
    k_above, k_under = spot  # snippet indexes (-1 / len: the snippet's edge)
    a, b = (above + 1 if above is not None else 0), (under if under is not None else len(keeper))
    said = f"{run[0] + 1}-{run[-1] + 1}" if len(run) > 1 else f"{run[0] + 1}"
    where = (f"between snippet lines {k_above + 1} and {k_under + 1}" if 0 <= k_above and k_under < len(inp.snippet)
             else f"above snippet line {k_under + 1}" if k_above < 0 else f"below snippet line {k_above + 1}")
    blanks = (Edit("remove", start=k_above + 2, end=k_under),) if k_under > k_above + 1 else ()
    many = len(run) > 1
    kept = Option(f"add the unchanged original line{'s' if many else ''} {said} {where} if "
                  f"{'they stay' if many else 'it stays'}",
                  blanks + (Edit("insert", at=k_above + 2, text="\n".join(keeper[a:b]),
                                 original_line=to_original.get(a, run[0]) + 1),))
    if any(inp.counts[inp.original[i].strip()] > 1 for i in run if inp.original[i].strip()):
        return (kept,)  # `-` lines bind how often each of their texts stays: a repeated line's count says
        # nothing about which copy goes, and a snippet deleting others by adjacency breaks it (debian-f Type.php)
    gone = Option(f"show the original line{'s' if many else ''} {said} as `-` line{'s' if many else ''} {where} "
                  f"if you delete {'them' if many else 'it'}",
                  (Edit("deleted", at=k_under + 1, text="\n".join(inp.original[run[0] : run[-1] + 1]),
                        original_line=run[0] + 1),))
    return (kept, gone)


def _shown_apart_by_nothing(inp: Input, above: str | None, under: str | None) -> tuple[int, int] | None:
    """The snippet indexes of the one place it shows `above` and then `under` with only blank lines
    between (no marker); -1 for `above` None (the snippet's start, unmarked), len(snippet) for
    `under` None (its end, unmarked). None where there is no such place or more than one."""
    content = [k for k, line in enumerate(inp.snippet) if line.strip()]
    if not content or (above is None and under is None):
        return None
    if above is None:
        k = content[0]
        return (-1, k) if k not in inp.markers and inp.snippet[k].strip() == under.strip() else None
    if under is None:
        k = content[-1]
        return (k, len(inp.snippet)) if k not in inp.markers and inp.snippet[k].strip() == above.strip() else None
    texts = [None if k in inp.markers else inp.snippet[k].strip() for k in content]
    places = run_starts(texts, [above.strip(), under.strip()])
    return (content[places[0]], content[places[0] + 1]) if len(places) == 1 else None
