"""A refusal's options: the snippet edits (refusal.py's `Option`) that answer it, built from the input.

- `pin_option`, `section_pins`: the unchanged original lines (at most MAX_CONTEXT) between a
  section's edge and the nearest line the file holds once, added above or below the section, that
  pin it to one place (ambiguous-place, and every kind in explain.PINNED);
- `around`, `beside` (on the marker's side, `open_side`): the original line to show around or
  beside a shown line that may be new or a change (new-or-changed);
- `edge_markers`: a marker at the snippet's start or end where it stops without one;
- `dropped`: a marker where the untrusted candidate drops original lines (unshown-deletion; the
  same lines as `-` lines were measured: one more wrong file, one less right); `deleted_head`:
  the file's head the result drops, as `-` lines, for a snippet that means to delete it;
- `settle`: a section of new lines like one original line, closed in for each reading (changed, new);
  `new_places`: the same at the places a section none of whose lines the file has most likely goes;
- `below`: original lines put below a section take the place of its blank padding;
- `trailing_blanks`: a section's blank padding before a marker, removed.

This module builds options from an `Input` (reading.py); those from the merge's own readings are
readings.py's; which refusal gets which options, and its words, are explain.py's.
"""

from __future__ import annotations

import difflib
import re

from fastapply.merge.refuse.reading import Input, nearest_distinctive, section_of, unique
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.lines import is_generic

MAX_CONTEXT = 8  # original lines an option may add to pin a place
_DROPS = re.compile(r"the result drops (\d+) line\(s\) of the original near line (\d+)")


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


def below(inp: Input, b: int, lo: int, hi: int) -> tuple[Edit, ...]:
    """The edits that put original lines lo..hi below a section ending at snippet line b. The
    section's own blank lines before the next marker stand for the original's first blank lines
    there: they are replaced by the original's (its exact whitespace), so that no blank line is
    left ending the section (a doubt of its own) and none is doubled."""
    pad = 0
    while b + 1 + pad < len(inp.snippet) and not inp.snippet[b + 1 + pad].strip() and b + 1 + pad not in inp.markers:
        pad += 1
    insert = Edit("insert", at=b + 2, text="\n".join(inp.original[lo : hi + 1]), original_line=lo + 1)
    if pad and all(lo + d < hi and not inp.original[lo + d].strip() for d in range(pad)):
        return (insert, Edit("remove", start=b + 2, end=b + 1 + pad))
    return (insert,)


def pin_option(inp: Input, k: int, p: int) -> Option | None:
    """The option that pins snippet line k to original line p: the unchanged original lines
    between its section's edge and the nearest line that occurs once in the file, added above the
    section (or below it when the lines above differ). None when neither side reaches its edge."""
    sec = section_of(inp, k)
    if sec is None:
        return None
    a, b = sec
    top = _matched_run(inp, k, p, -1, a)
    if top is not None:
        q = top - 1
        while q >= 0 and top - q <= MAX_CONTEXT and not unique(inp, q):
            q -= 1
        if q >= 0 and top - q <= MAX_CONTEXT:
            text = "\n".join(inp.original[q:top])
            return Option(f"add the unchanged original lines {q + 1}-{top} above snippet line {a + 1} (for the place "
                          f"at original line {p + 1})", (Edit("insert", at=a + 1, text=text, original_line=q + 1),))
    bottom = _matched_run(inp, k, p, +1, b)
    if bottom is not None:
        q = bottom + 1
        while q < len(inp.original) and q - bottom <= MAX_CONTEXT and not unique(inp, q):
            q += 1
        if q < len(inp.original) and q - bottom <= MAX_CONTEXT:
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
        q = top - 1
        while q >= 0 and top - q <= MAX_CONTEXT and not unique(inp, q):
            q -= 1
        if q >= 0 and top - q <= MAX_CONTEXT:
            out.append(Option(f"add the unchanged original lines {q + 1}-{top} above snippet line {a + 1} {what}",
                              (Edit("insert", at=a + 1, text="\n".join(inp.original[q:top]), original_line=q + 1),)))
    for bottom, what in ((at, "if it changes that line"), (at - 1, "if it is new before it")):
        q = bottom + 1
        while q < len(inp.original) and q - bottom <= MAX_CONTEXT and not unique(inp, q):
            q += 1
        if q < len(inp.original) and q - bottom <= MAX_CONTEXT:
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


def beside(inp: Input, k: int, line: int, side: int, what: str) -> Option | None:
    """Show original `line` unchanged on the marker's side of snippet line k: at the edge of k's
    section (after its last line when `side` > 0, before its first line otherwise), since the
    section's lines from k to that edge are the new run the doubt is about."""
    text = inp.original[line]
    sec = section_of(inp, k) or (k, k)
    if side > 0:
        return Option(f"add the unchanged original line {line + 1} (`{text.strip()[:60]}`) after snippet line "
                      f"{sec[1] + 1} {what}", (Edit("insert", at=sec[1] + 2, text=text, original_line=line + 1),))
    return Option(f"add the unchanged original line {line + 1} (`{text.strip()[:60]}`) before snippet line {sec[0] + 1} "
                  f"{what}", (Edit("insert", at=sec[0] + 1, text=text, original_line=line + 1),))


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


def open_edges(inp: Input) -> tuple[bool, bool]:
    """(lead, trail): whether the snippet starts (ends) with a line that is neither a marker nor
    the original's first (last) non-blank line (for a generic one like `}`, with up to two more
    lines the file's), so that it claims the file's edge while the file has more there."""
    content = [k for k, line in enumerate(inp.snippet) if line.strip()]
    held = [line.strip() for line in inp.original if line.strip()]
    if not content or not held:
        return False, False
    first, last = content[0], content[-1]
    head = [inp.snippet[k].strip() for k in content if k < min(inp.markers, default=len(inp.snippet))][:3]
    tail = [inp.snippet[k].strip() for k in content if k > max(inp.markers, default=-1)][-3:]
    # a `}` alone does not say the snippet reaches the file's end: a generic edge line must come
    # with the file's own lines next to it (up to three)
    at_start = head[:1] == held[:1] and (not is_generic(held[0]) or head == held[: len(head)])
    at_end = tail[-1:] == held[-1:] and (not is_generic(held[-1]) or tail == held[len(held) - len(tail):])
    return first not in inp.markers and not at_start, last not in inp.markers and not at_end


def deleted_head(inp: Input, lo: int, hi: int) -> Option | None:
    """The option that says the snippet means to delete original lines lo..hi-1 above its first
    line (the file's head): those lines as `-` lines at the snippet's start."""
    if not inp.snippet or not 0 <= lo < hi <= len(inp.original):
        return None
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
        first = inp.original[nearest_distinctive(inp.original[i1:i2], 0) + i1].strip()[:60]
        out.append(Option(f"add a marker line before snippet line {at + 1} to keep original lines {i1 + 1}-{i2} "
                          f"(`{first}`)", (Edit("marker", at=at + 1, text=indented(inp.marker, like)),)))
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


def _run_places(inp: Input, run: list[int]) -> list[int]:
    """Original indexes where the snippet lines `run` (in order, blank lines skipped) stand one
    after the other: the place of run[0]."""
    texts = [inp.snippet[k].strip() for k in run]
    content = [i for i, line in enumerate(inp.original) if line.strip()]
    out = []
    for n, i in enumerate(content):
        if inp.original[i].strip() == texts[0] and all(
                n + m < len(content) and inp.original[content[n + m]].strip() == texts[m] for m in range(len(texts))):
            out.append(i)
    return out


def section_pins(inp: Input, n: int, limit: int = 6) -> tuple[Option, ...]:
    """Options that pin section n at each place its leading (or trailing) original lines fit."""
    if not 0 <= n < len(inp.sections):
        return ()
    sec = inp.sections[n]
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
        for p in places:
            if step > 0:
                opt = pin_option(inp, sec[0], p)
            else:
                last = p  # the run's last line stands where the section ends
                content = [i for i in range(p, len(inp.original)) if inp.original[i].strip()]
                last = content[len(run) - 1] if len(content) >= len(run) else p
                opt = pin_option(inp, sec[1], last)
            if opt is not None and opt not in out:
                out.append(opt)
    return tuple(out)


def _reach(inp: Input, i: int, step: int) -> int | None:
    """From original line i (included) by `step`, the index of the first line that pins a place
    (`unique`), within MAX_CONTEXT lines; None when there is none."""
    q = i
    while 0 <= q < len(inp.original) and abs(q - i) < MAX_CONTEXT:
        if unique(inp, q):
            return q
        q += step
    return None


def similar_line(inp: Input, text: str) -> int | None:
    """The original line most like `text` (difflib ratio of the stripped lines, at least 0.6), or
    None when there is none or two are as like it."""
    want = text.strip()
    if len(want) < 5:
        return None
    m = difflib.SequenceMatcher(None, autojunk=False)
    m.set_seq2(want)
    best, at = 0.6, []
    for i, line in enumerate(inp.original):
        got = line.strip()
        if not got or got == want:
            continue
        m.set_seq1(got)
        if m.real_quick_ratio() < best or m.quick_ratio() < best:
            continue
        r = m.ratio()
        if r > best:
            best, at = r, [i]
        elif r == best:
            at.append(i)
    return at[0] if len(at) == 1 else None


def new_sections(inp: Input, but: tuple[int, int] | None = None) -> tuple[Option, ...]:
    """`settle`'s options for every section (other than `but`) whose lines the original does not
    have at all, by the original line most like its first line: a snippet that sends one such
    section without context mostly sends others, and one revision should settle them all."""
    out: list[Option] = []
    for sec in inp.sections:
        a, b = sec
        texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
        if sec == but or not texts or any(inp.counts.get(t) for t in texts):
            continue
        at = similar_line(inp, texts[0])
        if at is not None:
            out.extend(settle(inp, sec, at) + (settle(inp, sec, at, len(texts))[:1] if len(texts) > 1 else ()))
    return tuple(out)


def _next_content(inp: Input, i: int, step: int) -> int | None:
    """From original line i (included) by `step`, the first non-blank line, or None."""
    while 0 <= i < len(inp.original) and not inp.original[i].strip():
        i += step
    return i if 0 <= i < len(inp.original) else None


def settle(inp: Input, sec: tuple[int, int], at: int, width: int = 1,
           readings: tuple[str, ...] = ("changed", "after", "before")) -> tuple[Option, ...]:
    """Options for a section of new lines (snippet indexes `sec`) whose first line is like
    original line `at`: the unchanged original lines that close it in on both sides (on one
    side up to a line the file holds once, on the other the nearest non-blank line), for each reading a planner may mean: it changes original lines
    `at`..`at + width - 1`, it is new after `at`, or new before it. The two runs bracket the
    section, so the merge reads the change (or insertion) between them."""
    a, b = sec
    n = len(inp.original)
    head = not any(m < a for m in inp.markers)  # nothing above the section: it starts the file
    tail = not any(m > b for m in inp.markers)  # nothing below: it ends the file
    out = []
    for reading, top, bottom, what in (
            ("changed", at - 1, at + width, f"if it changes original line{'s' if width > 1 else ''} "
                                            f"{at + 1}{f'-{at + width}' if width > 1 else ''}"),
            ("after", at, at + 1, f"if it is new after original line {at + 1}"),
            ("before", at - 1, at, f"if it is new before original line {at + 1}")):
        if reading not in readings:
            continue
        if not (0 <= top < n or head and top < 0) or not (0 <= bottom < n or tail and bottom >= n):
            continue
        if top < 0 or bottom >= n:  # the file's edge closes the section in on that side
            hi, lo = (top + 1, _reach(inp, bottom, +1)) if top < 0 else (_reach(inp, top, -1), bottom - 1)
        else:
            hi, lo = _reach(inp, top, -1), _next_content(inp, bottom, +1)
            if hi is None:  # pinned below instead: the line above only closes the section in
                hi, lo = _next_content(inp, top, -1), _reach(inp, bottom, +1)
        if hi is None or lo is None:
            continue
        edits, words = [], []
        if hi <= top:
            edits.append(Edit("insert", at=a + 1, text="\n".join(inp.original[hi : top + 1]), original_line=hi + 1))
            words.append(f"the unchanged original lines {hi + 1}-{top + 1} above snippet line {a + 1}")
        if bottom <= lo:
            edits.append(Edit("insert", at=b + 2, text="\n".join(inp.original[bottom : lo + 1]), original_line=bottom + 1))
            words.append(f"{'' if edits[:-1] else 'the unchanged original lines '}{bottom + 1}-{lo + 1} below snippet "
                         f"line {b + 1}")
        if edits:
            out.append(Option(f"add {' and '.join(words)} {what}", tuple(edits)))
    return tuple(out)


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_LITERAL = re.compile(r""""[^"]*"|'[^']*'|\b[0-9][0-9a-fA-F.xX_]*\b""")


def _shape(line: str) -> str:
    """The line with its string and number literals emptied: a changed hash, version or message
    keeps the shape of the line it replaces."""
    return _LITERAL.sub(lambda m: m.group(0)[0] * 2 if m.group(0)[0] in "\"'" else "0", line)


def new_places(inp: Input, sec: tuple[int, int], lo: int = 0, hi: int | None = None, each: int = 3) -> tuple[Option, ...]:
    """`settle`'s options for a section none of whose lines the original has, at the places in the
    original lines lo..hi-1 (the window the merge searched) a planner most likely means: it
    changes one of the `each` lines most like its first line (as it is, and with `_shape`'s
    literals emptied), or it
    is new after one of the
    `each` lines that share most of its names (identifiers) with the line and its successor.
    Each option closes the section in with the unchanged lines there, so it has one place."""
    hi = len(inp.original) if hi is None else min(hi, len(inp.original))
    a, b = sec
    texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
    lines = [i for i in range(max(lo, 0), hi) if inp.original[i].strip()]
    if not texts or not lines:
        return ()
    like = []
    for shaped in (lambda x: x, _shape):
        m = difflib.SequenceMatcher(None, autojunk=False)
        m.set_seq2(shaped(texts[0]))
        scored = []
        for i in lines:
            m.set_seq1(shaped(inp.original[i].strip()))
            if m.real_quick_ratio() >= 0.5 and m.quick_ratio() >= 0.5 and m.ratio() >= 0.5:
                scored.append((-m.ratio(), i))
        like.extend(i for _, i in sorted(scored)[:each] if i not in like)
    names = set(_WORD.findall(" ".join(texts)))
    near = []
    for n, i in enumerate(lines):
        around = set(_WORD.findall(inp.original[i])) | (set(_WORD.findall(inp.original[lines[n + 1]]))
                                                         if n + 1 < len(lines) else set())
        shared = len(names & around)
        if shared:
            near.append((-shared, i))
    out: list[Option] = []
    for i in like:
        out.extend(o for o in settle(inp, sec, i, 1, ("changed",)) if o not in out)
        if len(texts) > 1:
            out.extend(o for o in settle(inp, sec, i, len(texts), ("changed",)) if o not in out)
    for _, i in sorted(near)[:each]:
        out.extend(o for o in settle(inp, sec, i, 1, ("after",)) if o not in out)
    return tuple(out)


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
