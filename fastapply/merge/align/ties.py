"""Tie-breakers: of several equal places of a section with no anchor, the one the snippet settles.

A section with no anchor that fits several places equally well (floating.py raises `Ambiguous`,
marked `floating`) is settled by these rules, tried in this order by lazy.py, else refused:

1. **a changed line** (`pinned_place`): the one place whose stretch holds the line's old form;
2. **open blocks** (`enclosed_place`): the one place the marker reaches inside the blocks the
   previous section left open;
3. **twins** (`twin_free_stretch`): the one place whose whole reading pastes no second copy of an
   original line (which also rules out a place that leaves no room for the sections after it).

Each rule's detail follows.

## A changed line

The section may change a line (an edited copy,
edits.same_edit: the same leading name, a line continued or reworded at its end) whose old form
sits after one of those places only. That line settles the place: an edit of `description(str:
string): Command;` belongs where `description(str: string): Command;` is, not after the other three
`* @param {string} str` lines. It is a fact about the original (the old line exists there and
nowhere else after the first place), not a resemblance score: every original line the changed
line could be an edit of lies in one place's stretch.

A place's *stretch* runs from it to the next rival place (the last one's to the window's end). In
that stretch the section's lines are anchored again (`place(i, cursor, lo, hi, pinned=True)`,
lazy.py: unique lines within the stretch), so the usual edge rules read the changed line as the
edit of its old form.

Worked example: `* @param {string} str` at original lines 44, 228, 246, 255; the section goes on
`* @return {(Command | string)}`, `*/`, `description(str: string, args?: ...): Command;`. The old
forms of that last line (`description(str: string): Command;`, `description(): string;`) lie at
231-232 only, in the stretch [228, 246): the section is anchored there (`* @param` at 228,
`* @return` at 229) and its last line replaces line 231.

## Open blocks

A section that ends inside blocks it opened (`func (r plainTextRender) Render(...) {`, then
`if len(args) > 0 {`, then a marker) and a next section that closes as many blocks itself (`}`,
`return`, `}`) are the two ends of the same blocks: the marker between them stands for lines inside
those blocks. A place of the next section that the marker reaches only by keeping the lines that
close them (the old function's `}` and a twin function's header) would have the next section's
closers close blocks the previous section never opened: the twin's. The place is decided by the
bracket structure of the lines the marker keeps, not by any resemblance: of the rival places, those
whose kept lines keep the running depth above zero stay; exactly one must.

Worked example: section 4 shows `func (_ plainTextRender) Render(...) {` down to
`_, err = w.Write([]byte(fmt.Sprintf(format, args...)))` (two blocks open), then a marker; section
5 is `_, err = w.Write([]byte(format))`, `}`, `return`, `}`, which occurs in that function (line 87)
and in its twin `htmlPlainRender` (line 100). The marker keeps `} else {` to reach 87 (depth 2,
1, 2) but `}`, `return err`, `}` to reach 100 (depth 0): line 87.

## Twins

A section the rules above leave undecided is read once per place: the section forced into that place's stretch (up to the next rival place),
the sections after it placed as usual. A reading that shows a line of the original more often than
the original and the snippet together (compare.copied_lines: a section that had to be
inserted beside the lines it repeats because an earlier one took its place) is no reading of the
snippet: the copy guard would refuse it anyway. When exactly one place gives a complete reading
without such copies and every other place's reading (or its best guess, when a later section is
undecided there) has them or cannot be placed at all, that place is the section's. Later sections
with rival places of their own are settled the same way inside each reading (a chain of alike
docstrings, each section changing one), within one budget of readings per merge (lazy.TWIN_READS);
a reading the budget does not allow leaves the choice open.

Worked example: six sections each change the `.expect(...)` of one test; section 4 shows
`.get('/')`, `.set('Host', 'tobi.ferrets.sub.example.com')` and a changed `.expect`, which fit the
tests at lines 63 and 79. Forced to 79, section 5 (the same two lines, another `.expect`) finds no
`.set('Host', 'tobi.ferrets.sub.example.com')` after it and inserts a second copy: only line 63 is
left.

This module knows lines, bracket depth, the copy check and the rival places; placing a section
(`place(i, cursor, lo, hi, pinned=True)`) and reading the snippet with a section forced
(`read(stretch)`) are the caller's (lazy.py).
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from fastapply.merge.text.lines import bracket_balance, collapse, is_generic
from fastapply.merge.align.edge_edits import same_edit
from fastapply.merge.text.compare import copied_lines

MAX_RIVALS = 12  # rival places beyond which a section's first line is too common to pin or read once per place

# --------------------------------------------------------------------------- a changed line


def pinned_stretch(sec: Sequence[str], orig: Sequence[str], key, places: Sequence[int], lo: int,
                   hi: int) -> tuple[int, int, list[int]] | None:
    """(start, end, old forms) of the one rival place's stretch of orig[lo:hi] that holds the
    original lines a changed section line is an edited copy of (their positions), or None.

    A changed line is a non-blank, non-generic section line whose key occurs nowhere in the
    original. Its old forms are looked for from the first place on (the section starts at a place,
    so a line above them is none it can change). A changed line with no old form there, or old
    forms in several stretches (`* @param` edits every doc comment alike), says nothing; two
    changed lines pinning different stretches pin nothing."""
    places = sorted(p for p in places if lo <= p < hi)
    if not 1 < len(places) <= MAX_RIVALS:
        return None
    known = {key(line) for line in orig}
    changed = [l for l in sec if l.strip() and not is_generic(l) and key(l) not in known]
    stretches = [(p, q) for p, q in zip(places, places[1:] + [hi])]
    pinned: set[tuple[int, int]] = set()
    forms: list[int] = []
    heads = {o: _head(orig[o]) for o in range(places[0], hi) if orig[o].strip()}
    for line in changed:
        head = _head(line)
        olds = [o for o, h in heads.items() if _may_edit(head, h) and collapse(orig[o]) != collapse(line)
                and same_edit(line, orig[o])]
        holding = {s for s in stretches if any(s[0] <= o < s[1] for o in olds)}
        if len(holding) == 1:
            pinned |= holding
            forms += olds
    if len(pinned) != 1:
        return None
    start, end = next(iter(pinned))
    return start, end, sorted(forms)


_DECLARE = re.compile(r"^(?:var|let|const)\s+")
_TOKEN = re.compile(r"[^\s(=:{,;]+")


def _head(line: str) -> tuple[str, str]:
    """A line's first three characters and first token, collapsed, without a declaration keyword."""
    text = _DECLARE.sub("", collapse(line))
    token = _TOKEN.match(text)
    return text[:3], token.group(0) if token else ""


def _may_edit(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """A cheap necessary condition for edge_edits.same_edit (same leading name, a shared prefix, the same
    name declared another way all start alike): lines that start differently are not compared."""
    return a[0] == b[0] or (a[1] != "" and a[1] == b[1])


def pinned_place(place: Callable, i: int, sec: Sequence[str], orig: Sequence[str], key,
                 places: Sequence[int], cursor: int, hi: int):
    """(span, lines) for section `i` placed within the stretch `pinned_stretch` finds, or None:
    no stretch, the section cannot be placed there without doubt, or placed there it replaces no
    old form of its changed lines (then they were new lines, not edits, and pinned nothing).
    `place(i, cursor, lo, hi, pinned=True)` places it anchored on the lines unique in [lo, hi)."""
    stretch = pinned_stretch(sec, orig, key, places, cursor, hi)
    if stretch is None:
        return None
    start, end, forms = stretch
    placed = _place_within(place, i, cursor, start, end)
    if placed is None:
        return None
    span, lines = placed
    if not any(span.start <= o < span.end and orig[o] not in lines for o in forms):
        return None  # the changed line replaces no old form of it: it was no edit of one
    return placed


# --------------------------------------------------------------------------- open blocks


def open_depth(lines: Sequence[str]) -> int:
    """How many blocks `lines` open and leave open: the final running bracket depth above the
    lowest it reached (a section that closes one block and opens two leaves two open)."""
    depth, lowest = _depths(lines)
    return depth - lowest


def closed_depth(lines: Sequence[str]) -> int:
    """How many blocks `lines` close that they did not open: minus the lowest running depth."""
    return -_depths(lines)[1]


def _depths(lines: Sequence[str]) -> tuple[int, int]:
    """The final running bracket depth of `lines` and the lowest it reached (0 at most)."""
    depth = lowest = 0
    for line in lines:
        depth += bracket_balance([line])
        lowest = min(lowest, depth)
    return depth, lowest


def enclosed_places(prev: Sequence[str], sec: Sequence[str], orig: Sequence[str], cursor: int,
                    places: Sequence[int]) -> list[int]:
    """The rival places (after `cursor`, the previous section's end) that the lines the marker
    keeps reach without closing the blocks the previous section left open, when the section closes
    at least as many blocks itself; all places when that structure is absent (nothing to settle)."""
    d = open_depth(prev)
    if d <= 0 or closed_depth(sec) < d:
        return list(places)
    kept = []
    for p in places:
        depth = d
        for line in orig[cursor:p]:
            depth += bracket_balance([line])
            if depth <= 0:
                break
        else:
            kept.append(p)
    return kept


def enclosed_place(place: Callable, i: int, prev: Sequence[str] | None, sec: Sequence[str],
                   orig: Sequence[str], places: Sequence[int], cursor: int, hi: int):
    """(span, lines) for section `i` at the one place `enclosed_places` leaves, placed within its
    stretch (up to the next rival place) by `place(i, cursor, lo, hi, pinned=True)`; None when no
    previous section, not exactly one place, or the section cannot be placed there."""
    if not prev:
        return None
    ordered = sorted(p for p in places if cursor <= p < hi)
    inside = enclosed_places(prev, sec, orig, cursor, ordered)
    if len(inside) != 1 or len(ordered) < 2:
        return None
    start = inside[0]
    return _place_within(place, i, cursor, start, next((p for p in ordered if p > start), hi))


def _place_within(place: Callable, i: int, cursor: int, start: int, end: int):
    """(span, lines) for section `i` placed by `place(i, cursor, start, end, pinned=True)` inside
    [start, end), or None: it cannot be placed there without doubt, or lands outside."""
    try:
        placed = place(i, cursor, start, end, pinned=True)
    except Exception:  # Ambiguous, Unplaceable: the stretch settles nothing
        return None
    if placed is None or not start <= placed[0].start <= placed[0].end <= end:
        return None
    return placed


# --------------------------------------------------------------------------- twins


def twin_free_stretch(read: Callable, orig: Sequence[str], snippet: Sequence[str], places: Sequence[int],
                      cursor: int, hi: int) -> tuple[int, int] | None:
    """(start, end) of the one rival place's stretch whose complete reading, `read((start, end))`
    (a `Merged`, None when no more readings are allowed), pastes no copy of an original line, or
    None. Every other stretch's reading must paste copies (its candidate, when refused) or place
    nothing; a refused reading whose candidate is clean, or one not made, leaves the choice open."""
    starts = sorted(p for p in set(places) if cursor <= p < hi)
    if not 1 < len(starts) <= MAX_RIVALS:
        return None
    clean: list[tuple[int, int]] = []
    for k, p in enumerate(starts):
        stretch = (p, starts[k + 1] if k + 1 < len(starts) else hi)
        merged = read(stretch)
        if merged is None:
            return None  # no more readings allowed: the choice stays open
        lines = merged.lines if merged.lines is not None else merged.candidate
        if lines is None or copied_lines(orig, lines, snippet):
            continue  # no reading there, or one that pastes a twin
        if merged.lines is None:
            return None  # undecided further on, its best guess clean: the place is not excluded
        clean.append(stretch)
    return clean[0] if len(clean) == 1 else None
