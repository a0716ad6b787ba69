"""Tie-breakers: of several equal places of a section with no anchor, the one the snippet settles.

A section that fits several places equally well (floating.py raises `Ambiguous`) is settled by
these rules, tried in this order by lazy.py, else refused. A place's *stretch* runs from it to the
next rival place (the last one's to the window's end).

1. **a changed line** (`pinned_place`): the section edits a line (edge_edits.same_edit) whose old
   form lies in one stretch only; a fact about the original, not a resemblance score;
2. **open blocks** (`enclosed_place`): the previous section leaves blocks open and this one closes
   as many; the one place the marker reaches without closing them (the bracket depth of the lines
   it keeps stays above zero) is the section's, not a twin block's;
3. **twins** (`twin_free_stretch`): the one place whose whole reading, later sections placed as
   usual, pastes no second copy of an original line (compare.copied_lines); a budget of readings
   per merge (lazy.TWIN_READS) leaves the choice open beyond it.

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
from fastapply.merge.text.names import undeclared

MAX_RIVALS = 12  # rival places beyond which a section's first line is too common to pin or read once per place

# --------------------------------------------------------------------------- a changed line


def pinned_stretch(sec: Sequence[str], orig: Sequence[str], key, places: Sequence[int], lo: int,
                   hi: int) -> tuple[int, int, list[int]] | None:
    """(start, end, old forms) of the one rival place's stretch of orig[lo:hi] that holds the
    old forms (edited copies, from the first place on) of the section's changed lines (non-blank,
    non-generic, key nowhere in the original), or None: no old form, old forms in several
    stretches, or two changed lines pinning different stretches."""
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


_TOKEN = re.compile(r"[^\s(=:{,;]+")


def _head(line: str) -> tuple[str, str]:
    """A line's first three characters and first token, collapsed, without a declaration keyword."""
    text = undeclared(collapse(line))
    token = _TOKEN.match(text)
    return text[:3], token.group(0) if token else ""


def _may_edit(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """A cheap necessary condition for edge_edits.same_edit (same leading name, a shared prefix, the same
    name declared another way all start alike): lines that start differently are not compared."""
    return a[0] == b[0] or (a[1] != "" and a[1] == b[1])


def pinned_place(place: Callable, i: int, sec: Sequence[str], orig: Sequence[str], key,
                 places: Sequence[int], cursor: int, hi: int):
    """(span, lines) for section `i` placed within the stretch `pinned_stretch` finds, or None
    (no stretch, no placing there without doubt, or no old form replaced: the lines were new)."""
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


def depths(lines: Sequence[str]) -> tuple[int, int]:
    """How many blocks `lines` open and leave open (final running bracket depth above the lowest
    reached), and how many they close that they did not open (the lowest depth, negated)."""
    depth = lowest = 0
    for line in lines:
        depth += bracket_balance([line])
        lowest = min(lowest, depth)
    return depth - lowest, -lowest


def enclosed_places(prev: Sequence[str], sec: Sequence[str], orig: Sequence[str], cursor: int,
                    places: Sequence[int]) -> list[int]:
    """The rival places (after `cursor`, the previous section's end) that the lines the marker
    keeps reach without closing the blocks the previous section left open, when the section closes
    at least as many blocks itself; all places when that structure is absent (nothing to settle)."""
    d = depths(prev)[0]
    if d <= 0 or depths(sec)[1] < d:
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
    """(span, lines) for section `i` placed within the stretch of the one place `enclosed_places`
    leaves, or None."""
    if not prev:
        return None
    ordered = sorted(p for p in places if cursor <= p < hi)
    inside = enclosed_places(prev, sec, orig, cursor, ordered)
    if len(inside) != 1 or len(ordered) < 2:
        return None
    start = inside[0]
    return _place_within(place, i, cursor, start, next((p for p in ordered if p > start), hi))


def _place_within(place: Callable, i: int, cursor: int, start: int, end: int):
    """(span, lines) for section `i` placed inside [start, end), or None."""
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
    """(start, end) of the one rival place's stretch whose complete reading `read((start, end))`
    pastes no copy of an original line while every other one pastes copies or places nothing, or
    None (a refused reading with a clean candidate, or one not made, leaves the choice open)."""
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
