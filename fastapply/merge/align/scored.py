"""One scored alignment of a lazy snippet against the original, with an explicit margin.

The question the instant merge answers is *where does each section of the snippet land, and is
that the only good answer?* This module answers it as one dynamic programme over all sections in
order, instead of a chain of placement rules:

- the snippet is a sequence of lines and markers (a marker at each end is implied: a snippet need
  not show the file's first or last line); a marker skips any run of original lines for free
  (the code it stands for is kept);
- a snippet line matched to an equal original line earns by how distinctive that line is (a
  unique signature strongly, a line the file repeats by its count, a `}` or `end` weakly);
- a snippet line matched to a similar original line (a change) earns less than an equal line and
  more than nothing;
- a snippet line matched to nothing is an insertion; it earns nothing, and costs when the
  original already has it (a pasted twin of existing code);
- an original line between two lines of one section that the snippet does not keep is a deletion
  with a cost (a lazy snippet shows a deletion by showing the lines around it next to each other).
  A deletion is never made at a section's edge: there a marker keeps the code.

The alignment works on non-blank lines, compared stripped (blank lines and indentation are a
separate concern, settled by the merger that writes the file). It returns its best reading and,
for every snippet line, how much worse the best reading is that places that line anywhere else
(max-marginals from a forward and a backward pass): `margin` is the smallest such gap over the
snippet's distinctive lines. Ties are never broken silently: a margin of 0 says two readings
score the same.

Worked example. Original `a() / x = 1 / b() / x = 1 / c()`, snippet `# ... / b() / x = 2 / # ...`:
`b()` is unique (earns 3), `x = 2` is similar to the `x = 1` after `b()` (a change, earns ~0.7);
the reading that changes the first `x = 1` instead needs `b()` as an insertion (a twin of existing
code, costs) and scores far lower, so the margin is large.

Knows lines, markers (markers.py) and anchors' idea of a generic line; does not know tokens,
languages or how the merged file's whitespace is written.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from fastapply.merge.text.lines import is_generic
from fastapply.merge.text.markers import is_elision
from fastapply.merge.snippet.sections import CANONICAL_MARKER

UNIQUE = 3.0  # an equal, distinctive line the original has once
GENERIC = 0.3  # an equal generic line (`}`, `end`, `else:`)
CHANGE = 1.0  # a changed line earns CHANGE * similarity
CHANGE_MIN = 0.6  # word similarity under which two lines are not one line changed
DELETE = 0.5  # each distinctive original line deleted inside a section
DELETE_GENERIC = 0.1  # each generic original line deleted inside a section
TWIN = 1.0  # an inserted line the original already has (per its distinctiveness weight)
NEG = -1e9

MARKER = None  # a marker item in the snippet's sequence


@dataclass(frozen=True)
class Step:
    """One snippet line's place in a reading: the original line it matches (or None: inserted)."""

    snippet: int  # index into the snippet's non-blank lines
    original: int | None  # index into the original's non-blank lines
    kind: str  # "equal" | "change" | "insert"
    at: int = 0  # an inserted line goes right before original non-blank line `at` (len = at the end)


@dataclass(frozen=True)
class Alignment:
    """The best reading of a snippet against an original and how clear it is."""

    score: float
    steps: tuple[Step, ...]
    deleted: tuple[int, ...]  # original non-blank line indices (into `original_index`) the reading deletes
    margin: float  # best score minus the best score with some distinctive snippet line placed elsewhere
    weakest: int | None  # the snippet line (non-blank index) with the smallest margin
    original_index: tuple[int, ...]  # non-blank original line k is original line original_index[k]
    snippet_index: tuple[int, ...]  # non-blank snippet line k is snippet line snippet_index[k]

    def result_keys(self, original: Sequence[str], snippet: Sequence[str]) -> list[str]:
        """The reading's file as its non-blank lines, stripped: what two readings are compared by."""
        at = {s.original: s for s in self.steps if s.original is not None}
        inserted_before: dict[int, list[str]] = {}
        n = len(self.original_index)
        for s in self.steps:
            if s.original is None:
                inserted_before.setdefault(s.at, []).append(snippet[self.snippet_index[s.snippet]].strip())
        gone = set(self.deleted)
        out: list[str] = []
        for k in range(n + 1):
            out.extend(inserted_before.get(k, ()))
            if k == n:
                break
            if k in gone:
                continue
            step = at.get(k)
            out.append(snippet[self.snippet_index[step.snippet]].strip() if step else original[self.original_index[k]].strip())
        return out


_WORD = re.compile(r"\w+|[^\w\s]")


def _similarity(a: str, b: str) -> float:
    """Word-multiset similarity of two stripped lines (Dice over tokens): cheap, order-blind."""
    ta, tb = Counter(_WORD.findall(a)), Counter(_WORD.findall(b))
    total = sum(ta.values()) + sum(tb.values())
    return 2 * sum((ta & tb).values()) / total if total else 0.0


def _items(snippet: Sequence[str], original: Sequence[str]) -> tuple[list[str | None], list[int]]:
    """The snippet as non-blank lines and markers (consecutive markers merged, one implied at each
    end), and each line's index in the snippet."""
    known = frozenset(l.strip() for l in original)
    items: list[str | None] = [MARKER]
    where: list[int] = []
    for k, line in enumerate(snippet):
        if not line.strip():
            continue
        if line.strip() == CANONICAL_MARKER or is_elision(line, known):
            if items[-1] is not MARKER:
                items.append(MARKER)
            continue
        items.append(line.strip())
        where.append(k)
    if items[-1] is not MARKER:
        items.append(MARKER)
    return items, where


def _weights(keys: Sequence[str]) -> np.ndarray:
    counts = Counter(keys)
    return np.array([GENERIC if is_generic(k) else UNIQUE / counts[k] for k in keys], dtype=np.float64)


def _scores(line: str, keys: Sequence[str], weight: np.ndarray, where: dict[str, list[int]],
            cache: dict[str, np.ndarray]) -> np.ndarray:
    """What matching `line` to each original line earns (NEG where it cannot match)."""
    got = cache.get(line)
    if got is not None:
        return got
    row = np.full(len(keys), NEG)
    exact = where.get(line, [])
    row[exact] = weight[exact]
    if not is_generic(line):
        for i, key in enumerate(keys):
            if row[i] == NEG and not is_generic(key):
                sim = _similarity(line, key)
                if sim >= CHANGE_MIN:
                    row[i] = CHANGE * sim
    cache[line] = row
    return row


def _forward(items: Sequence[str | None], keys: Sequence[str], weight: np.ndarray,
             where: dict[str, list[int]], cache: dict) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """F[j][i]: the best score of items[:j] against keys[:i]; and, per line item, the scores
    after the deletions allowed before it (for the traceback)."""
    n, m = len(keys), len(items)
    F = np.full((m + 1, n + 1), NEG)
    F[0, 0] = 0.0
    dele = np.where([is_generic(k) for k in keys], DELETE_GENERIC, DELETE) if n else np.zeros(0)
    cumdel = np.concatenate([[0.0], np.cumsum(dele)])
    D_all: list[np.ndarray | None] = []
    for j, item in enumerate(items):
        base = F[j]
        if item is MARKER:
            F[j + 1] = np.maximum.accumulate(base)
            D_all.append(None)
            continue
        if j > 0 and items[j - 1] is not MARKER:  # inside a section: deletions before this line
            D = np.maximum.accumulate(base + cumdel) - cumdel
        else:
            D = base
        D_all.append(D)
        sc = _scores(item, keys, weight, where, cache)
        twin = TWIN * weight[where[item]].max() if item in where else 0.0
        nxt = D - twin  # inserted
        nxt[1:] = np.maximum(nxt[1:], D[:-1] + sc)  # matched to keys[i-1]
        F[j + 1] = np.maximum(nxt, NEG)
    return F, D_all


def align(original: Sequence[str], snippet: Sequence[str]) -> Alignment | None:
    """The scored alignment of a lazy snippet's sections against the original (both as lines), or
    None when the snippet has no line to place."""
    items, snippet_index = _items(snippet, original)
    lines = [x for x in items if x is not MARKER]
    if not lines:
        return None
    original_index = [k for k, l in enumerate(original) if l.strip()]
    keys = [original[k].strip() for k in original_index]
    weight = _weights(keys)
    where: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        where.setdefault(k, []).append(i)
    cache: dict[str, np.ndarray] = {}
    F, D_all = _forward(items, keys, weight, where, cache)
    R, _ = _forward(items[::-1], keys[::-1], weight[::-1], {k: [len(keys) - 1 - i for i in v] for k, v in where.items()}, {})
    n, m = len(keys), len(items)
    best = F[m, n]
    steps, deleted = _traceback(items, keys, weight, where, cache, F, D_all)
    # max-marginals: the best score with line item j matched at key i = F[j][i] + sc + B[j+1][i+1],
    # where B[j][i] (items[j:] against keys[i:]) is the reversed pass R[m-j][n-i]
    margin, weakest = float("inf"), None
    line_no = 0
    chosen = {s.snippet: s for s in steps}
    for j, item in enumerate(items):
        if item is MARKER:
            continue
        k = line_no
        line_no += 1
        if is_generic(item):
            continue
        D = D_all[j]
        sc = _scores(item, keys, weight, where, cache)
        after = R[m - j - 1][::-1]  # B[j+1][i] for i = 0..n
        twin = TWIN * weight[where[item]].max() if item in where else 0.0
        through_match = D[:-1] + sc + after[1:]  # matched at key i
        through_insert = D - twin + after  # inserted at position i
        step = chosen[k]
        if step.original is not None:
            through_match = through_match.copy()
            through_match[step.original] = NEG
            # inserting it right where it matched gives another file only if it did not match equal
        alt = max(through_match.max(initial=NEG), through_insert.max(initial=NEG) if step.original is not None else NEG)
        if step.original is None:
            alt = max(alt, through_match.max(initial=NEG))
        gap = best - alt
        if gap < margin:
            margin, weakest = gap, k
    return Alignment(float(best), tuple(steps), tuple(deleted), float(margin), weakest, tuple(original_index),
                     tuple(snippet_index))


def _traceback(items, keys, weight, where, cache, F, D_all) -> tuple[list[Step], list[int]]:
    n = len(keys)
    j, i = len(items), n
    steps: list[Step] = []
    deleted: list[int] = []
    line_no = sum(1 for x in items if x is not MARKER)
    dele = np.where([is_generic(k) for k in keys], DELETE_GENERIC, DELETE) if n else np.zeros(0)
    eps = 1e-9
    while j > 0:
        item = items[j - 1]
        target = F[j, i]
        if item is MARKER:
            prev = F[j - 1, : i + 1]
            # the latest start that reaches the best: a marker keeps as little as it must
            i = int(np.flatnonzero(prev >= target - eps)[-1])
            j -= 1
            continue
        line_no -= 1
        D = D_all[j - 1]
        sc = _scores(item, keys, weight, where, cache)
        twin = TWIN * weight[where[item]].max() if item in where else 0.0
        if i > 0 and sc[i - 1] > NEG / 2 and abs(D[i - 1] + sc[i - 1] - target) < eps:
            kind = "equal" if keys[i - 1] == item else "change"
            steps.append(Step(line_no, i - 1, kind))
            i -= 1
        else:
            steps.append(Step(line_no, None, "insert", i))
        # undo the deletions made before this line: D[i] = base[k] - sum(dele[k:i])
        base = F[j - 1]
        value = D[i]
        k = i
        while k > 0 and abs(base[k] - value) > eps:
            value += dele[k - 1]
            k -= 1
            deleted.append(k)
        i = k
        j -= 1
    steps.reverse()
    deleted.reverse()
    return steps, deleted
