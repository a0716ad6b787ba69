"""One scored alignment of a lazy snippet against the original, with an explicit margin.

The question the instant merge answers is *where does each section of the snippet land, and is
that the only good answer?* This module answers it as one dynamic programme over all sections in
order, instead of a chain of placement rules:

- the snippet is a sequence of lines and markers (a marker at each end is implied: a snippet need
  not show the file's first or last line); a marker skips any run of original lines for free
  (the code it stands for is kept);
- a snippet line matched to an equal original line earns by how distinctive that line is (a
  unique signature strongly, a line the file repeats by its count, a `}` or `end` weakly);
- a snippet line matched to a similar original line (a change: Dice over distinct words >= 0.6,
  or the same assignment target, `x = 1` -> `x = 2`) earns less than an equal line;
- a snippet line matched to nothing is an insertion; it earns nothing, and costs when the
  original already has it (a pasted twin of existing code; the same cost when such a line is
  written as a change of another line), and costs EDGE when it is a section's first or last line
  (a lazy snippet shows context at its sections' edges);
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
`b()` is unique (earns UNIQUE), `x = 2` is similar to the `x = 1` after `b()` (a change, earns
CHANGE * its similarity);
the reading that changes the first `x = 1` instead needs `b()` as an insertion (a twin of existing
code, costs) and scores far lower, so the margin is large.

Knows lines, markers (markers.py) and anchors' idea of a generic line; does not know tokens,
languages or how the merged file's whitespace is written; whether a merge is trusted is
opinion.py's question.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from fastapply.merge.align import line_costs as costs
from fastapply.merge.align.line_costs import NEG
from fastapply.merge.text.markers import is_elision
from fastapply.merge.snippet.sections import CANONICAL_MARKER

MARKER = None  # a marker item in the snippet's sequence
MAX_CELLS = 1_000_000  # original x snippet lines above which callers do not align (the DP is quadratic)


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
    places: tuple[int, int] | None  # the weakest line's place and its runner-up (original line numbers)
    original_index: tuple[int, ...]  # non-blank original line k is original line original_index[k]
    snippet_index: tuple[int, ...]  # non-blank snippet line k is snippet line snippet_index[k]

    def result_keys(self, original: Sequence[str], snippet: Sequence[str]) -> list[str]:
        """The reading's file as its non-blank lines, stripped: what two readings are compared by."""
        return [line.strip() for line in reading_lines(self, original, snippet) if line.strip()]


def reading_lines(alignment: Alignment, original: Sequence[str], snippet: Sequence[str]) -> list[str]:
    """The reading as a file: original lines kept as they are (whitespace included), a changed
    line written as the snippet has it, new lines before the original line they precede, deleted
    lines gone with the blank lines between them."""
    matched = {s.original: s for s in alignment.steps if s.original is not None}
    inserted: dict[int, list[str]] = {}
    for s in alignment.steps:
        if s.original is None:
            inserted.setdefault(s.at, []).append(snippet[alignment.snippet_index[s.snippet]])
    gone = set(alignment.deleted)
    idx = alignment.original_index
    out: list[str] = []
    k = 0  # non-blank position of the next non-blank original line
    for line in original:
        if not line.strip():
            if not (0 < k < len(idx) and k - 1 in gone and k in gone):  # a blank inside a deleted run goes
                out.append(line)
            continue
        out.extend(inserted.get(k, ()))
        if k not in gone:
            step = matched.get(k)
            out.append(line if step is None or step.kind == "equal" else snippet[alignment.snippet_index[step.snippet]])
        k += 1
    out.extend(inserted.get(len(idx), ()))
    return out


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
        items.append(costs.key(line))
        where.append(k)
    if items[-1] is not MARKER:
        items.append(MARKER)
    return items, where


def _insert_cost(items: Sequence[str | None], j: int, O) -> float:
    """What inserting line item j costs: a twin of existing code costs its weight, and a section's
    first or last line inserted costs EDGE per edge (a lazy snippet shows context at its sections'
    edges; new code there could go anywhere in the marker's skip). Symmetric, so the backward pass
    charges the same."""
    edges = (items[j - 1] is MARKER) + (items[j + 1] is MARKER)
    return O.twin(items[j]) + costs.EDGE * edges


def _line_scores(items: Sequence[str | None], j: int, O, forbid: dict | None) -> tuple[np.ndarray, float]:
    """Line item j's match scores and insertion cost, with the places `forbid` rules out for it
    ({j: (original lines it may not match, whether it may not be inserted)}: a rival reading)."""
    sc = O.scores(items[j])
    insert = _insert_cost(items, j, O)
    if forbid and j in forbid:
        lines, no_insert = forbid[j]
        if lines:
            sc = sc.copy()
            sc[list(lines)] = NEG
        if no_insert:
            insert = -NEG
    return sc, insert


def _forward(items: Sequence[str | None], O, forbid: dict | None = None,
             unforbidden: tuple[np.ndarray, list[np.ndarray | None]] | None = None,
             ) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """F[j][i]: the best score of items[:j] against the original's first i lines; and, per line
    item, the scores after the deletions allowed before it (for the traceback). With `unforbidden`
    (this pass without `forbid`), the rows before the first item `forbid` names are copied from it:
    they do not depend on that item."""
    n, m = O.n, len(items)
    F = np.full((m + 1, n + 1), NEG)
    F[0, 0] = 0.0
    cumdel = O.cumdel
    D_all: list[np.ndarray | None] = []
    start = 0
    if unforbidden is not None and forbid:
        start = min(forbid)
        F[: start + 1] = unforbidden[0][: start + 1]
        D_all = list(unforbidden[1][:start])
    for j in range(start, m):
        item = items[j]
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
        sc, insert = _line_scores(items, j, O, forbid)
        nxt = D - insert  # inserted
        nxt[1:] = np.maximum(nxt[1:], D[:-1] + sc)  # matched to line i-1
        F[j + 1] = np.maximum(nxt, NEG)
    return F, D_all


def align(original: Sequence[str], snippet: Sequence[str]) -> Alignment | None:
    """The scored alignment of a lazy snippet's sections against the original (both as lines), or
    None when the snippet has no line to place."""
    items, snippet_index = _items(snippet, original)
    if not any(x is not MARKER for x in items):
        return None
    original_index = [k for k, l in enumerate(original) if l.strip()]
    vocab = frozenset().union(*(costs.tokens(x) for x in items if x is not MARKER))
    O = costs.Original([costs.key(original[k]) for k in original_index], vocab)
    F, D_all = _forward(items, O)
    unforbidden = (F, D_all)
    R, _ = _forward(items[::-1], costs.Reversed(O))
    n, m = O.n, len(items)
    best = F[m, n]
    steps, deleted = _traceback(items, O, F, D_all)
    # max-marginals: the best score with line item j matched at line i = F[j][i] + sc + B[j+1][i+1],
    # where B[j][i] (items[j:] against lines i:) is the reversed pass R[m-j][n-i]
    gaps = []
    line_no = 0
    chosen = {s.snippet: s for s in steps}
    at_line = original_index + [len(original)]  # non-blank position -> original line number
    for j, item in enumerate(items):
        if item is MARKER:
            continue
        k = line_no
        line_no += 1
        if costs.generic(item):
            continue  # a blank, a lone bracket or keyword is never the line that settles a reading
        D = D_all[j]
        sc = O.scores(item)
        after = R[m - j - 1][::-1]  # B[j+1][i] for i = 0..n
        through_match = D[:-1] + sc + after[1:]  # matched at line i
        through_insert = D - _insert_cost(items, j, O) + after  # inserted at position i
        step = chosen[k]
        if step.original is not None:
            through_match = through_match.copy()
            through_match[step.original] = NEG
        else:
            # another place for the same new line inside its section mostly writes the same file
            # (either side of a deleted line): only a match elsewhere counts as a rival
            through_insert = np.full_like(through_insert, NEG)
        alt = max(through_match.max() if n else NEG, through_insert.max())
        gaps.append((best - alt, j, k))
    reading = Alignment(float(best), tuple(steps), tuple(deleted), 0.0, None, None, tuple(original_index),
                        tuple(snippet_index))
    margin, weakest, places = _margin(items, O, best, gaps, chosen, reading, original, snippet, at_line, unforbidden)
    return replace(reading, margin=float(margin), weakest=weakest, places=places)


RIVALS = 12  # rival readings re-aligned per alignment (at most) to find the best one writing a different file
RIVAL_CELLS = 4_000_000  # ... and at most this many snippet x original cells re-aligned in all


def _margin(items, O, best, gaps, chosen, reading, original, snippet, at_line, unforbidden):
    """The lead of the best reading over the best reading that writes a different file, the snippet
    line that rival places elsewhere, and its two places. The least decided lines come first; each
    is re-aligned with its place ruled out (RIVALS times at most): a rival that writes the same file
    (a repeated line matched at its other copy) rules that place out too and goes on. When the
    budget runs out, the max-marginal gap stands (it can only understate the margin)."""
    want = reading.result_keys(original, snippet)
    margin, weakest, places = float("inf"), None, None
    budget = max(1, min(RIVALS, RIVAL_CELLS // max(1, len(items) * O.n)))
    where = lambda st: at_line[st.original if st.original is not None else st.at]
    for gap, j, k in sorted(gaps):
        if gap >= margin:
            break
        if budget <= 0:
            margin, weakest, places = gap, k, (where(chosen[k]), where(chosen[k]))
            break
        step = chosen[k]
        forbid = {j: (_run(O, step.original), step.original is None)}
        while budget > 0:
            budget -= 1
            F, D_all = _forward(items, O, forbid, unforbidden)
            alt = F[len(items), O.n]
            if alt <= NEG / 2:
                break  # nowhere else to go: no rival through this line
            steps, deleted = _traceback(items, O, F, D_all, forbid)
            rival = Alignment(float(alt), tuple(steps), tuple(deleted), 0.0, None, None, reading.original_index,
                              reading.snippet_index)
            other = next(s for s in steps if s.snippet == k)
            if rival.result_keys(original, snippet) != want:
                if best - alt < margin:
                    margin, weakest, places = best - alt, k, (where(step), where(other))
                break
            if other.original is not None:  # the same file: rule this place (and its run of copies) out too
                forbid[j][0].update(_run(O, other.original))
            else:
                forbid[j] = (forbid[j][0], True)
    return margin, weakest, places


def _run(O, i: int | None) -> set[int]:
    """Original line i and the copies of it right before and after it (a run of one repeated
    line: matching any of them writes the same file)."""
    if i is None:
        return set()
    a = b = i
    while a > 0 and O.keys[a - 1] == O.keys[i]:
        a -= 1
    while b + 1 < O.n and O.keys[b + 1] == O.keys[i]:
        b += 1
    return set(range(a, b + 1))


def _traceback(items, O, F, D_all, forbid: dict | None = None) -> tuple[list[Step], list[int]]:
    n = O.n
    j, i = len(items), n
    steps: list[Step] = []
    deleted: list[int] = []
    line_no = sum(1 for x in items if x is not MARKER)
    dele = O.dele
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
        sc, _ = _line_scores(items, j - 1, O, forbid)
        if i > 0 and sc[i - 1] > NEG / 2 and abs(D[i - 1] + sc[i - 1] - target) < eps:
            kind = "equal" if O.keys[i - 1] == item else "change"
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

