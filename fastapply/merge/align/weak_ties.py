"""Weak ties: two readings of a section's edge that differ only by weak lines are a tie.

edges.py ranks the readings of a section's head or tail by (balance, unshown deletions, lines of
context) and refuses equal ranks. Context lines are not equal evidence: a `}`, `end)` or blank
line matched at the edge occurs at many places, so a reading that wins only by matching more of
them is a silent tie-break (issue 19: "ties are never broken silently"). `weak_rivals` returns the
places of the best reading and of every reading that gives a different file and has the same
balance, the same unshown deletions and at least as many *distinctive* lines of context; two or
more places make edges.py raise `Ambiguous` (an ambiguous-place refusal whose options are the
places), as it does for equal ranks.

This module knows the candidates' counts only (edges._Cand: valid, deleted, context, weak, at),
not lines or languages. `TIES` (env FASTAPPLY_WEAK_TIES=0 turns it off) exists to measure it.
"""

from __future__ import annotations

import os
from typing import Sequence

TIES = os.environ.get("FASTAPPLY_WEAK_TIES", "1") != "0"


def strong(cand) -> int:
    """Lines of context that are distinctive (not blank, not generic)."""
    return cand.context - cand.weak


def weak_rivals(best, cands: Sequence) -> list[int]:
    """Sorted places of `best` and of the readings that tie with it once weak lines count nothing."""
    places = {best.at}
    for c in cands:
        if c.at != best.at and c.valid == best.valid and c.deleted == best.deleted and strong(c) >= strong(best):
            places.add(c.at)
    return sorted(places)
