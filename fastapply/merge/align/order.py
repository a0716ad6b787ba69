"""Sections placed by order: one of several equal places is the only one that leaves room for the rest.

A section with no anchor that fits several places equally well (floating.py raises `Ambiguous`)
is not always ambiguous for the snippet as a whole: sections come in file order and do not
overlap, so a place that leaves no room for the sections after it is no place at all. A chat
answer that shows the same changed `__eq__` tail twice, or three sections that each change the
same `// Note: ... blocks the goroutine` comment of three functions, has one assignment only:
the first section at the first place, the next at the next.

`forced_place` tries each rival place of such a section and places the sections after it
(`_rest`, recursively forcing their own floating ambiguities the same way). It returns the place
only when exactly one rival lets every later section land, each without doubt or ambiguity, and
every other rival makes some later section impossible (unplaceable or overlapping). A rival after
which the rest is itself ambiguous, or one the section cannot take when placed there alone,
settles nothing: refused as before. The search is bounded
(BUDGET placements); past it the ambiguity stands.

Worked example: sections A, B, C are the same changed comment line; the original has its old
version at lines 130, 137, 144. A at 137 leaves B at 144 and no place for C; A at 144 leaves none
for B; A at 130 leaves B at 137 (C at 144) only. So A lands at 130.

This module knows the order of sections and the exceptions placement raises; how one section is
placed is the caller's (`place(i, cursor, lo, hi)`, lazy.py).
"""

from __future__ import annotations

from typing import Callable

from fastapply.merge.align.edges import Ambiguous, Unplaceable

BUDGET = 200  # section placements one forced choice may try
UNIQUE, IMPOSSIBLE, AMBIGUOUS = "unique", "impossible", "ambiguous"


def forced_place(place: Callable, i: int, n: int, cursor: int, places, budget: list[int] | None = None):
    """(span, lines) for section `i` (of `n`) at the one rival place in `places` after which
    sections i+1.. all land without doubt, or None. `place(i, cursor, lo, hi)` places section i
    after `cursor` (floating within [lo, hi) when given) and raises like lazy placement;
    ambiguities it raises carry `floating` when they come from a section with no anchor."""
    budget = budget if budget is not None else [BUDGET]
    verdict, placed = _choose(place, i, n, cursor, places, budget)
    return placed if verdict == UNIQUE else None


def _choose(place: Callable, i: int, n: int, cursor: int, places, budget: list[int]):
    """(verdict, placed) over the rival places of section i: UNIQUE with the one that works,
    IMPOSSIBLE when none does, AMBIGUOUS when several do or one is itself undecided."""
    starts = sorted({p for p in places if p >= cursor})
    fits = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else None
        if budget[0] <= 0:
            return AMBIGUOUS, None
        budget[0] -= 1
        try:
            placed = place(i, cursor, start, stop)
        except (Ambiguous, Unplaceable):
            return AMBIGUOUS, None  # the rival itself does not hold: only order may eliminate one
        if placed is None or placed[0].start < cursor:
            return AMBIGUOUS, None  # pure context or overlapping: not a choice this settles
        verdict = _rest(place, i + 1, n, placed[0].end, budget)
        if verdict == AMBIGUOUS:
            return AMBIGUOUS, None
        if verdict == UNIQUE:
            fits.append(placed)
    if not fits:
        return IMPOSSIBLE, None
    return (UNIQUE, fits[0]) if len(fits) == 1 else (AMBIGUOUS, None)


def _rest(place: Callable, i: int, n: int, cursor: int, budget: list[int]) -> str:
    """Whether sections i..n-1 land after `cursor`: UNIQUE (each in one way), IMPOSSIBLE (one
    cannot, or would overlap the one before), or AMBIGUOUS."""
    for k in range(i, n):
        if budget[0] <= 0:
            return AMBIGUOUS
        budget[0] -= 1
        try:
            placed = place(k, cursor, None, None)
        except Unplaceable:
            return IMPOSSIBLE
        except Ambiguous as amb:
            if amb.doubt or not getattr(amb, "floating", False) or len(amb.places) < 2:
                return AMBIGUOUS
            return _choose(place, k, n, cursor, amb.places, budget)[0]
        if placed is None:
            continue
        if placed[0].start < cursor:
            return IMPOSSIBLE
        cursor = placed[0].end
    return UNIQUE
