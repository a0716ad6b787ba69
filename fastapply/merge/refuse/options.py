"""A refusal's options: the snippet edits (refusal.py's `Option`) that answer it, built from the input.

- `pin_option`, `section_pins`: the unchanged original lines (at most MAX_CONTEXT) between a
  section's edge and the nearest line the file holds once, added above or below the section, that
  pin it to one place (ambiguous-place, and every kind in explain.PINNED); a place where only a
  shorter head (tail) of the section's original lines stands counts too (`_shorter`); a pin of that
  one line alone comes first reaching one more line (`pin_options`);
- `around` (and doubt.py's `beside`, on the marker's side, `open_side`): the original line to show
  around or beside a shown line that may be new or a change (new-or-changed);
- `edge_markers`: a marker at the snippet's start or end where it stops without one;
- `dropped`: a marker where the untrusted candidate drops original lines (unshown-deletion; the
  same lines as `-` lines were measured: one more wrong file, one less right); `deleted_head`:
  the file's head the result drops, as `-` lines, for a snippet that means to delete it;
- `below`: original lines put below a section take the place of its blank padding;
- `trailing_blanks`: a section's blank padding before a marker, removed;
- `weak_edges`: the lines that pin a section whose edge is only lines that pin no place (`}`, a
  repeated line) before new ones, at each place it fits (offered on every refusal but out-of-order).

This module builds options from an `Input` (reading.py); those for sections of new lines are
new_lines.py's, those from the merge's own readings readings.py's; which refusal gets which
options, and its words, are explain.py's.
"""

from __future__ import annotations

import difflib
import re

from fastapply.merge.refuse.reading import (Input, between, holds_once, nth_content, run_at, section_of, section_places,
                                           unique)
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.lines import nearest_distinctive
from fastapply.merge.text.spans import code, cut

MAX_CONTEXT = 16  # original lines an option may add to pin a place
_DROPS = re.compile(r"the result drops (\d+) line\(s\) of the original near line (\d+)")


def reach(inp: Input, i: int, step: int, limit: int = MAX_CONTEXT) -> int | None:
    """From original line i (included) by `step`, the index of the first line that pins a place
    (`unique`), within `limit` lines; None when there is none."""
    q = i
    while 0 <= q < len(inp.original) and abs(q - i) < limit:
        if unique(inp, q):
            return q
        q += step
    return None


def indented(marker: str, like: str) -> str:
    """The marker line at the indentation of the snippet line `like`."""
    return like[: len(like) - len(like.lstrip())] + marker


def _matched_run(inp: Input, k: int, p: int, step: int, stop: int) -> int | None:
    """Walk from snippet line k (at original line p) by `step` while the lines agree (blank lines
    skipped on both sides); the original index the section's edge `stop` lands on, or None when a
    line differs before the edge."""
    i, j = k, p
    while True:
        i += step
        if (i < stop) if step < 0 else (i > stop):
            return j
        if not inp.snippet[i].strip():
            continue
        j += step
        while 0 <= j < len(inp.original) and not inp.original[j].strip():
            j += step
        if not 0 <= j < len(inp.original) or inp.original[j].strip() != inp.snippet[i].strip():
            return None


def pad_after(inp: Input, b: int) -> int:
    """How many blank lines (no marker) follow snippet line b."""
    pad = 0
    while b + 1 + pad < len(inp.snippet) and not inp.snippet[b + 1 + pad].strip() and b + 1 + pad not in inp.markers:
        pad += 1
    return pad


def below(inp: Input, b: int, lo: int, hi: int) -> tuple[Edit, ...]:
    """The edits that put original lines lo..hi below a section ending at snippet line b. The
    section's own blank lines before the next marker stand for the original's first blank lines
    there: they are replaced by the original's (its exact whitespace), so that no blank line is
    left ending the section (a doubt of its own) and none is doubled."""
    pad = pad_after(inp, b)
    insert = Edit("insert", at=b + 2, text="\n".join(inp.original[lo : hi + 1]), original_line=lo + 1)
    if pad and all(lo + d < hi and not inp.original[lo + d].strip() for d in range(pad)):
        return (insert, Edit("remove", start=b + 2, end=b + 1 + pad))
    return (insert,)


def _one_more(inp: Input, q: int, step: int, edge: int) -> int:
    """Where a pin from the section's edge line `edge` out to line q (the one the file holds once) adds
    no other non-blank line, the next non-blank line beyond q (by `step`); else q."""
    if any(inp.original[x].strip() for x in (range(edge + 1, q) if step > 0 else range(q + 1, edge))):
        return q
    return next((j for j in range(q + step, len(inp.original) if step > 0 else -1, step) if inp.original[j].strip()), q)


def pin_options(inp: Input, k: int, p: int) -> tuple[Option, ...]:
    """`pin_option`'s pin reaching one more line where it holds a single line (`_one_more`), then
    the pin itself: a lone line the file holds once may still leave the section to a second reading."""
    return tuple(dict.fromkeys(o for o in (pin_option(inp, k, p, wide=True), pin_option(inp, k, p)) if o is not None))


def pin_option(inp: Input, k: int, p: int, wide: bool = False) -> Option | None:
    """The option that pins snippet line k to original line p: the unchanged original lines
    between its section's edge and the nearest line that occurs once in the file, added above the
    section (or below it when the lines above differ). None when neither side reaches its edge."""
    sec = section_of(inp, k)
    if sec is None:
        return None
    a, b = sec
    top = _matched_run(inp, k, p, -1, a)
    if top is not None:
        q = reach(inp, top - 1, -1)
        if q is not None:
            q = _one_more(inp, q, -1, top) if wide else q
            text = "\n".join(inp.original[q:top])
            return Option(f"add the unchanged original lines {q + 1}-{top} above snippet line {a + 1} (for the place "
                          f"at original line {p + 1})", (Edit("insert", at=a + 1, text=text, original_line=q + 1),))
    bottom = _matched_run(inp, k, p, +1, b)
    if bottom is not None:
        q = reach(inp, bottom + 1, +1)
        if q is not None:
            q = _one_more(inp, q, +1, bottom) if wide else q
            return Option(f"add the unchanged original lines {bottom + 2}-{q + 1} below snippet line {b + 1} (for the "
                          f"place at original line {p + 1})", below(inp, b, bottom + 1, q))
    return None


def around(inp: Input, k: int, at: int) -> tuple[Option, ...]:
    """Options for snippet line k that may change original line `at` or be new beside it: the
    unchanged lines around `at` (a change), or `at` itself above or below it (a new line)."""
    sec = section_of(inp, k)
    if sec is None:
        return ()
    a, b = sec
    out = []
    for top, what in ((at, "if it changes that line"), (at + 1, "if it is new after it")):
        q = reach(inp, top - 1, -1)
        if q is not None:
            out.append(Option(f"add the unchanged original lines {q + 1}-{top} above snippet line {a + 1} {what}",
                              (Edit("insert", at=a + 1, text="\n".join(inp.original[q:top]), original_line=q + 1),)))
    for bottom, what in ((at, "if it changes that line"), (at - 1, "if it is new before it")):
        q = reach(inp, bottom + 1, +1)
        if q is not None:
            out.append(Option(f"add the unchanged original lines {bottom + 2}-{q + 1} below snippet line {b + 1} {what}",
                              (Edit("insert", at=b + 2, text="\n".join(inp.original[bottom + 1 : q + 1]),
                                    original_line=bottom + 2),)))
    return tuple(out)


def open_side(inp: Input, k: int) -> int:
    """+1 when snippet line k ends its section (a marker or the end after it), else -1."""
    sec = section_of(inp, k)
    if sec is None:
        return 1
    return 1 if sec[1] - k <= k - sec[0] else -1


def edge_markers(inp: Input, lead: bool, trail: bool) -> tuple[Option, ...]:
    """Options that add a marker at the snippet's start (`lead`) and/or end (`trail`)."""
    n = len(inp.snippet)
    first = next((k for k, l in enumerate(inp.snippet) if l.strip()), 0)
    last = max((k for k, l in enumerate(inp.snippet) if l.strip()), default=0)
    start = Edit("marker", at=first + 1, text=indented(inp.marker, inp.snippet[first] if n else ""))
    end = Edit("marker", at=last + 2, text=indented(inp.marker, inp.snippet[last] if n else ""))
    out = []
    if lead and trail:
        out.append(Option("add a marker line at the start and at the end of the snippet", (start, end)))
    if lead:
        out.append(Option("add a marker line at the start of the snippet (the file goes on above it)", (start,)))
    if trail:
        out.append(Option("add a marker line at the end of the snippet (the file goes on below it)", (end,)))
    return tuple(out)


def deleted_head(inp: Input, lo: int, hi: int) -> Option | None:
    """The option that says the snippet means to delete original lines lo..hi-1 above its first
    line (the file's head): those lines as `-` lines at the snippet's start; below its last line
    (the file's tail, `guards.check_tail_dropped`), at its end."""
    if not inp.snippet or not 0 <= lo < hi <= len(inp.original):
        return None
    if any(line.strip() for line in inp.original[:lo]):  # the file's tail, below the snippet's last line
        return Option(f"show the original lines {lo + 1}-{hi} as `-` lines at the end of the snippet if you delete them",
                      (Edit("deleted", at=len(inp.snippet) + 1, text="\n".join(inp.original[lo:hi]),
                            original_line=lo + 1),))
    return Option(f"show the original lines {lo + 1}-{hi} as `-` lines at the start of the snippet if you delete them",
                  (Edit("deleted", at=1, text="\n".join(inp.original[lo:hi]), original_line=lo + 1),))


def dropped(inp: Input, sentence: str, candidate: str | None) -> tuple[Option, ...]:
    """A marker where the candidate drops original lines: between the two snippet lines the
    deletion sits between (the largest deletion, or the one at the sentence's line)."""
    if candidate is None:
        return ()
    cand = candidate.splitlines()
    ops = [op for op in difflib.SequenceMatcher(a=inp.original, b=cand, autojunk=False).get_opcodes()
           if op[0] in ("delete", "replace") and any(l.strip() for l in inp.original[op[1]:op[2]])]
    m = _DROPS.search(sentence)
    if m is not None:
        ops = [op for op in ops if op[1] <= int(m.group(2)) - 1 < op[2]] or ops
    out = []
    for tag, i1, i2, j1, j2 in sorted(ops, key=lambda op: op[1] - op[2])[:2]:
        above = next((cand[j].strip() for j in range(j1 - 1, -1, -1) if cand[j].strip()), None)
        below = next((cand[j].strip() for j in range(j2, len(cand)) if cand[j].strip()), None)
        at = None
        for k, line in enumerate(inp.snippet):
            if above is not None and line.strip() == above:
                nxt = next((j for j in range(k + 1, len(inp.snippet)) if inp.snippet[j].strip()), None)
                if nxt is None or below is None or inp.snippet[nxt].strip() == below or tag == "replace":
                    at = k + 1
                    break
            if above is None and below is not None and line.strip() == below:
                at = k
                break
        if at is None or at in inp.markers or (at - 1) in inp.markers:
            continue
        like = inp.snippet[at - 1] if at > 0 else inp.snippet[at]
        first = cut(inp.original[nearest_distinctive(inp.original[i1:i2], 0) + i1])
        out.append(Option(f"add a marker line before snippet line {at + 1} to keep original lines {i1 + 1}-{i2} "
                          f"({code(first)})", (Edit("marker", at=at + 1, text=indented(inp.marker, like)),)))
    return tuple(out)


def _edge_run(inp: Input, sec: tuple[int, int], step: int) -> list[int]:
    """The snippet indexes of the section's lines from its top (step +1) or bottom (-1) while they
    are original lines (any non-blank line the original has)."""
    a, b = sec
    out = []
    for k in (range(a, b + 1) if step > 0 else range(b, a - 1, -1)):
        text = inp.snippet[k].strip()
        if not text:
            continue
        if inp.counts.get(text, 0) == 0:
            break
        out.append(k)
    return out


def _beyond_alike(inp: Input, sec: tuple[int, int], run: list[int], step: int, fits: list[int],
                  each: int = 3) -> list[int]:
    """Of the places `fits` where a section's edge `run` stands (the place of its first line), the
    `each` whose next original line beyond the run (below a top edge, above a bottom one) is most
    like the section's next line there (difflib ratio at least 0.6), best first."""
    a, b = sec
    inner = [k for k in (range(run[-1] + 1, b + 1) if step > 0 else range(run[0] - 1, a - 1, -1))
             if inp.snippet[k].strip()]
    if not inner:
        return []
    m = difflib.SequenceMatcher(None, autojunk=False)
    m.set_seq2(inp.snippet[inner[0]].strip())
    content = [i for i, line in enumerate(inp.original) if line.strip()]
    where = {i: n for n, i in enumerate(content)}
    scored = []
    for p in fits:
        n = where.get(p)
        beyond = None if n is None else n + len(run) if step > 0 else n - 1
        if beyond is None or not 0 <= beyond < len(content):
            continue
        m.set_seq1(inp.original[content[beyond]].strip())
        if m.real_quick_ratio() >= 0.6 and m.quick_ratio() >= 0.6 and (r := m.ratio()) >= 0.6:
            scored.append((-r, p))
    return [p for _, p in sorted(scored)[:each]]


def _run_places(inp: Input, run: list[int]) -> list[int]:
    """Original indexes where the snippet lines `run` (in order, blank lines skipped) stand one
    after the other: the place of run[0]."""
    return run_at(inp.original, [inp.snippet[k].strip() for k in run])


def section_pins(inp: Input, n: int, limit: int = 6) -> tuple[tuple[Option, ...], tuple[Option, ...]]:
    """Options that pin section n at each place its leading (or trailing) original lines fit: (those,
    those and, in the order of the places, those where only a shorter head (tail) of them stands,
    when the other edge pins the section)."""
    if not 0 <= n < len(inp.sections):
        return (), ()
    sec = inp.sections[n]
    full: list[Option] = []
    out: list[Option] = []
    for step in (+1, -1):
        run = _edge_run(inp, sec, step)
        if not run:
            continue
        if step < 0:
            run = run[::-1]
        places = _run_places(inp, run)
        if len(places) > limit:
            continue
        # the original index of the section's edge line at each place
        ends = [p if step > 0 else nth_content(inp.original, p, len(run) - 1) for p in places]
        # where only a shorter head (tail) of the run is the original's (the rest new lines that
        # repeat original ones found elsewhere), when the section's other edge pins its place
        # (with that edge free, a pin on this one leaves the section to a guess: a wrong file, ftune 300)
        fitted = len(ends)
        if holds_once(inp, sec[1] if step > 0 else sec[0]):
            ends += [e for e in _shorter(inp, run, step, -1, len(inp.original), limit) if e not in ends]
        for m, e in enumerate(ends):
            for opt in pin_options(inp, sec[0] if step > 0 else sec[1], e):
                if m < fitted and opt not in full:
                    full.append(opt)
                if opt not in out:
                    out.append(opt)
    return tuple(full), tuple(out)


def trailing_blanks(inp: Input, n: int) -> Option | None:
    """The option that removes section n's blank lines before the marker after it: a marker keeps
    the original's own spacing there, so blank padding the snippet adds is a doubt (new spacing, or
    context for lines further down?) that only its removal settles."""
    if not 0 <= n < len(inp.sections):
        return None
    b = inp.sections[n][1]
    m = next((k for k in inp.markers if k > b), None)
    if m is None or m == b + 1 or any(inp.snippet[k].strip() for k in range(b + 1, m)):
        return None
    return Option(f"remove the blank lines {b + 2}-{m} before the marker at snippet line {m + 1}: the marker keeps "
                  "the original's spacing", (Edit("remove", start=b + 2, end=m),))


def _shorter(inp: Input, run: list[int], step: int, lo: int, hi: int, limit: int) -> list[int]:
    """Where the edge line of `run` (its first line, step +1; its last, -1) stands when only a
    shorter head (tail) of the run is the original's there: the rest of the run is new lines that
    repeat generic original ones (a `/**` opening a new method after the `}` kept above it). The
    original indexes of the edge line, between lo and hi, at the snippet's indentation, nearest
    to the sections around it first (at most `limit`)."""
    edge = inp.snippet[run[0] if step > 0 else run[-1]].rstrip()
    out: list[int] = []
    for m in range(len(run) - 1, 0, -1):
        part = run[:m] if step > 0 else run[len(run) - m:]
        for p in _run_places(inp, part):
            e = p if step > 0 else nth_content(inp.original, p, m - 1)
            if e is not None and lo < e < hi and inp.original[e].rstrip() == edge and e not in out:
                out.append(e)
    out.sort()
    return out if len(out) <= limit else out[: limit // 2] + out[len(out) - (limit - limit // 2):]


def weak_edges(inp: Input, limit: int = 16) -> tuple[Option, ...]:
    """Options that pin each section whose top (or bottom) edge is only original lines that pin
    no place (generic ones like `}`, `});`, `/**`, or lines the file holds more than once) before a
    line the original lacks: such an edge fits wherever the file has those lines, so a revision that
    settles another section leaves this one to a guess (the retry wrote wrong files there). For
    each place the edge lines fit between the sections around it (at the snippet's indentation
    where the file has it there; at most `limit`: the first and the last half), the unchanged lines
    up to a line the file holds once (`pin_option`); then each place where only a shorter head
    (tail) of the edge lines stands (`_shorter`: the rest are new lines that repeat generic ones)."""
    places = section_places(inp)
    out: list[Option] = []
    for n, sec in enumerate(inp.sections):
        lo, hi = between(inp, places, n)
        for step in (+1, -1):
            run = _edge_run(inp, sec, step)
            content = [k for k in range(sec[0], sec[1] + 1) if inp.snippet[k].strip()]
            if not run or len(run) == len(content) or any(holds_once(inp, k) for k in run):
                continue
            if step < 0:
                run = run[::-1]
            fits = [p for p in _run_places(inp, run) if lo < p < hi]
            # at the snippet's own indentation where the file has it there (a `}` closes one depth)
            fits = [p for p in fits if inp.original[p].rstrip() == inp.snippet[run[0]].rstrip()] or fits
            if len(fits) > limit:  # those next to the sections around it: the first and the last,
                # then those where the original line beyond the edge is most like the section's own
                # line there (the code the section changes stands next to its edge)
                kept = fits[: limit // 2] + fits[len(fits) - (limit - limit // 2):]
                fits = kept + [p for p in _beyond_alike(inp, sec, run, step, fits) if p not in kept]
            edge = run[0] if step > 0 else run[-1]
            # the original index of the edge line at each place
            ends = [p if step > 0 else nth_content(inp.original, p, len(run) - 1) for p in fits]
            ends += [e for e in _shorter(inp, run, step, lo, hi, limit) if e not in ends]
            for e in ends:
                out.extend(o for o in (pin_options(inp, edge, e) if e is not None else ()) if o not in out)
    return tuple(out)
