"""Anchors: snippet lines that pin sections to the original, found for all sections jointly.

An anchor is a *distinctive* snippet line (not blank, not generic: text/lines.is_generic) whose
text occurs exactly once in the original (or in a section's window) and once in the snippet.
The anchors of the whole snippet are chained jointly (a longest increasing subsequence by
original position, as patience diff does), so sections come out in order and do not overlap.
Lines are compared by a *key* per rung (exact, or whitespace collapsed); the original is indexed
once per rung (`LineIndex`), which keeps the merge near-linear on 20,000-line files. `Span` is
where a section lands (both readings' placements return it).

This module knows lines only, not sections' markers or languages.
"""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from fastapply.merge.text.lines import collapse

RUNGS = ("exact", "whitespace")


@dataclass(frozen=True)
class Span:
    """Where a section lands: it replaces `original[start:end]`."""

    start: int
    end: int
    rung: str
    skip: int = 0  # leading section lines left out of the result (blank lines next to a marker)


def key_function(rung: str) -> Callable[[str], str]:
    return (lambda line: line.rstrip()) if rung == "exact" else collapse


@dataclass
class LineIndex:
    """Original line positions by key, for one rung."""

    positions: dict[str, list[int]]
    keys: list[str]

    @classmethod
    def build(cls, lines: Sequence[str], rung: str) -> "LineIndex":
        key = key_function(rung)
        keys = [key(line) for line in lines]
        positions: dict[str, list[int]] = {}
        for i, k in enumerate(keys):
            positions.setdefault(k, []).append(i)
        return cls(positions, keys)

    def places(self, key: str, lo: int = 0, hi: int | None = None) -> list[int]:
        """Positions of `key` in [lo, hi), in order."""
        found = self.positions.get(key, [])
        if lo == 0 and hi is None:
            return found
        a = bisect.bisect_left(found, lo)
        b = bisect.bisect_left(found, hi) if hi is not None else len(found)
        return found[a:b]

    def run(self, lines: Sequence[str], key, j: int, o: int, limit: int, lo: int, hi: int, step: int = 1) -> int:
        """How many of `lines` from index j on equal (by `key`) the original's from line o on, both
        walked by `step`: at most `limit`, over original lines within [lo, hi)."""
        c = 0
        while c < limit and lo <= o + step * c < hi and key(lines[j + step * c]) == self.keys[o + step * c]:
            c += 1
        return c


def longest_chain(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of (snippet index, original index) pairs, given in snippet order,
    whose original indices strictly increase (patience sorting, O(n log n))."""
    tails: list[int] = []  # original index ending the best chain of each length
    tail_at: list[int] = []  # index into pairs of that chain's end
    back: list[int] = [-1] * len(pairs)
    for i, (_, o) in enumerate(pairs):
        k = bisect.bisect_left(tails, o)
        if k == len(tails):
            tails.append(o)
            tail_at.append(i)
        else:
            tails[k] = o
            tail_at[k] = i
        back[i] = tail_at[k - 1] if k > 0 else -1
    chain: list[tuple[int, int]] = []
    i = tail_at[-1] if tail_at else -1
    while i >= 0:
        chain.append(pairs[i])
        i = back[i]
    return chain[::-1]


def unique_anchors(
    keys: Sequence[str | None], index: LineIndex, lo: int = 0, hi: int | None = None
) -> list[tuple[int, int]]:
    """Chained anchors for snippet lines with keys `keys` (None: never an anchor) in
    original[lo:hi]: lines unique there and unique among `keys`, chained in order."""
    counts = Counter(k for k in keys if k is not None)
    pairs = []
    for s, k in enumerate(keys):
        if k is None or counts[k] != 1:
            continue
        places = index.places(k, lo, hi)
        if len(places) == 1:
            pairs.append((s, places[0]))
    return longest_chain(pairs)
