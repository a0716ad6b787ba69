"""Floating sections settled by the blocks the previous section left open: of several equal places,
the one the marker between the two sections reaches without closing those blocks.

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

This module knows lines and bracket depth; placing a section is the caller's (lazy.py).
"""

from __future__ import annotations

from typing import Callable, Sequence

from fastapply.merge.text.lines import bracket_balance


def open_depth(lines: Sequence[str]) -> int:
    """How many blocks `lines` open and leave open: the final running bracket depth above the
    lowest it reached (a section that closes one block and opens two leaves two open)."""
    depth = lowest = 0
    for line in lines:
        depth += bracket_balance([line])
        lowest = min(lowest, depth)
    return depth - lowest


def closed_depth(lines: Sequence[str]) -> int:
    """How many blocks `lines` close that they did not open: minus the lowest running depth."""
    depth = lowest = 0
    for line in lines:
        depth += bracket_balance([line])
        lowest = min(lowest, depth)
    return -lowest


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
    end = next((p for p in ordered if p > start), hi)
    try:
        placed = place(i, cursor, start, end, pinned=True)
    except Exception:  # Ambiguous, Unplaceable: the stretch settles nothing
        return None
    if placed is None or not start <= placed[0].start <= placed[0].end <= end:
        return None
    return placed
