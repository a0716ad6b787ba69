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

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from fastapply.merge.text.lines import is_generic
from fastapply.merge.text.markers import is_elision
from fastapply.merge.snippet.sections import CANONICAL_MARKER

# Calibrated on eval rows by benchmarks/calibrate_aligner.py (its docstring has the run and its numbers).
UNIQUE = 2.25  # an equal, distinctive line the original has once
GENERIC = 0.11  # an equal generic line (`}`, `end`, `else:`)
CHANGE = 0.375  # a changed line earns CHANGE * similarity
CHANGE_MIN = 0.6  # word similarity under which two lines are not one line changed
DELETE = 0.665  # each distinctive original line deleted inside a section
DELETE_GENERIC = 0.133  # each generic original line deleted inside a section
TWIN = 1.0  # an inserted line the original already has (per its distinctiveness weight)
TWIN_CHANGE = 5.32  # TWIN's multiple a changed line that the original already has costs
LEAD_SIM = 0.93  # the similarity of two lines assigning one target (`x = 1`, `x = 2`)
EDGE = 32.0  # a section's first or last line inserted (not matched)
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
    places: tuple[int, int] | None  # the weakest line's place and its runner-up (original line numbers)
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


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")  # the parts of `snake_case`, `camelCase`, `HTTPServer`
_PUNCT = re.compile(r"[^\w\s]")


def _tokens(line: str) -> frozenset[str]:
    """A line's distinct sub-words, lower-cased (its punctuation when it has no word): an
    identifier renamed or extended (`CLP_TEST_ENV` -> `CLP_TEST_ENV_WD`, `setup` -> `s_setup`)
    keeps most of its parts, so the line reads as one line changed, not a new line beside the old.
    Punctuation is what every line of code shares (`halt('a')` and `describe '.halt()'` share five
    marks and one word), so it does not make two lines one line changed."""
    return frozenset(w.lower() for w in _WORD.findall(line)) or frozenset(_PUNCT.findall(line))


_IDENT = re.compile(r"[A-Za-z_]\w*")


def _generic(line: str) -> bool:
    """anchors.is_generic, skipped for lines of two or more identifiers (never generic)."""
    return len(_IDENT.findall(line, 0, 80)) < 2 and is_generic(line)


_LEAD = re.compile(r"^((?:(?:let|const|var|val|my|local|self\.|this\.|@)\s*)?[\w.$\[\]'\"]+)\s*(=(?!=)|:(?!:)|<-|:=)")


_ANNOTATED = re.compile(r"[^=]*=(?!=)")  # after `x:`, a type and then `=`: an annotated assignment


def _lead(line: str) -> str | None:
    """The target a line assigns or the key it sets (`x` of `x = 1`, `"name"` of `"name": 2`):
    two lines with one target are one line changed, however short (`x = 1` -> `x = 2`)."""
    got = _LEAD.match(line)
    if got is None:
        return None
    if got.group(2) == ":" and _ANNOTATED.match(line, got.end()):
        return got.group(1) + "="  # `x: int = 1` assigns the target `x = 1` does
    return got.group(1) + got.group(2)


def _key(line: str) -> str:
    """How a line is compared: stripped, except a generic line (`}`, `end`), which keeps its
    indentation: which block a lone closer closes is said only by its depth."""
    text = line.strip()
    return line.rstrip().expandtabs(4) if _generic(text) else text


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
        items.append(_key(line))
        where.append(k)
    if items[-1] is not MARKER:
        items.append(MARKER)
    return items, where


class _Original:
    """The original's non-blank lines (stripped keys) with what scoring needs, built once: each
    line's weight, whether it is generic, where each key occurs, and an inverted index from token
    occurrences to distinct keys (so a snippet line's similarity to every line costs one bincount
    over the lines that share a token with it, not a Python loop over the file)."""

    def __init__(self, keys: Sequence[str], vocab: frozenset[str] | set[str] = frozenset()):
        self.keys = list(keys)
        self.n = len(self.keys)
        self.where: dict[str, list[int]] = {}
        for i, k in enumerate(self.keys):
            self.where.setdefault(k, []).append(i)
        distinct = list(self.where)
        generic_of = {k: _generic(k) for k in distinct}
        self.generic = np.array([generic_of[k] for k in self.keys], dtype=bool)
        self.weight = np.array([GENERIC if generic_of[k] else UNIQUE / len(self.where[k]) for k in self.keys],
                               dtype=np.float64)
        self.dele = np.where(self.generic, DELETE_GENERIC, DELETE) if self.n else np.zeros(0)
        self.cumdel = np.concatenate([[0.0], np.cumsum(self.dele)])
        # distinct non-generic keys and their tokens; only tokens of the snippet (`vocab`) are indexed
        self._distinct = [k for k in distinct if not generic_of[k]]
        self._key_of = np.full(self.n, -1, dtype=np.int64)  # key index -> distinct index (or -1)
        postings: dict[str, list[int]] = {}
        sizes = []
        for d, k in enumerate(self._distinct):
            toks = _tokens(k)
            sizes.append(len(toks))
            for t in toks & vocab:
                postings.setdefault(t, []).append(d)
            self._key_of[self.where[k]] = d
        self._sizes = np.array(sizes, dtype=np.float64)
        self._leads: dict[str, list[int]] = {}
        for d, k in enumerate(self._distinct):
            if (lead := _lead(k)) is not None:
                self._leads.setdefault(lead, []).append(d)
        self._postings = {t: np.array(v, dtype=np.int64) for t, v in postings.items()}
        self._cache: dict[str, np.ndarray] = {}

    def scores(self, line: str) -> np.ndarray:
        """What matching snippet line `line` to each original line earns (NEG where it cannot)."""
        got = self._cache.get(line)
        if got is not None:
            return got
        row = np.full(self.n, NEG)
        if not is_generic(line) and self._distinct:
            toks = _tokens(line)
            hits = [self._postings[t] for t in toks if t in self._postings]
            same_lead = self._leads.get(_lead(line) or "", ())
            if hits or same_lead:
                shared = np.bincount(np.concatenate(hits), minlength=len(self._distinct)) if hits else 0
                sim = 2 * shared / (len(toks) + self._sizes)
                if same_lead:
                    sim[same_lead] = np.maximum(sim[same_lead], LEAD_SIM)
                ok = sim >= CHANGE_MIN
                # a line the original already has, written as a change of another line, leaves a
                # twin of existing code (the same cost as inserting it)
                earn = np.where(ok, CHANGE * sim - self.twin(line) * TWIN_CHANGE, NEG)
                row = np.where(self._key_of >= 0, earn[np.maximum(self._key_of, 0)], NEG)
        exact = self.where.get(line, [])
        row[exact] = self.weight[exact]
        self._cache[line] = row
        return row

    def twin(self, line: str) -> float:
        """What inserting `line` costs: a line the original already has is a pasted twin."""
        return TWIN * self.weight[self.where[line]].max() if line in self.where else 0.0

    def reversed(self) -> "_Reversed":
        return _Reversed(self)


class _Reversed:
    """The same original read backwards (for the backward pass): line i is the original's n-1-i."""

    def __init__(self, forward: _Original):
        self._f = forward
        self.n = forward.n
        self.keys = forward.keys[::-1]
        self.generic = forward.generic[::-1]
        self.cumdel = np.concatenate([[0.0], np.cumsum(forward.dele[::-1])])

    def scores(self, line: str) -> np.ndarray:
        return self._f.scores(line)[::-1]

    def twin(self, line: str) -> float:
        return self._f.twin(line)


def _insert_cost(items: Sequence[str | None], j: int, O) -> float:
    """What inserting line item j costs: a twin of existing code costs its weight, and a section's
    first or last line inserted costs EDGE per edge (a lazy snippet shows context at its sections'
    edges; new code there could go anywhere in the marker's skip). Symmetric, so the backward pass
    charges the same."""
    edges = (items[j - 1] is MARKER) + (items[j + 1] is MARKER)
    return O.twin(items[j]) + EDGE * edges


def _forward(items: Sequence[str | None], O) -> tuple[np.ndarray, list[np.ndarray | None]]:
    """F[j][i]: the best score of items[:j] against the original's first i lines; and, per line
    item, the scores after the deletions allowed before it (for the traceback)."""
    n, m = O.n, len(items)
    F = np.full((m + 1, n + 1), NEG)
    F[0, 0] = 0.0
    cumdel = O.cumdel
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
        sc = O.scores(item)
        nxt = D - _insert_cost(items, j, O)  # inserted
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
    vocab = frozenset().union(*(_tokens(x) for x in items if x is not MARKER))
    O = _Original([_key(original[k]) for k in original_index], vocab)
    F, D_all = _forward(items, O)
    R, _ = _forward(items[::-1], O.reversed())
    n, m = O.n, len(items)
    best = F[m, n]
    steps, deleted = _traceback(items, O, F, D_all)
    # max-marginals: the best score with line item j matched at line i = F[j][i] + sc + B[j+1][i+1],
    # where B[j][i] (items[j:] against lines i:) is the reversed pass R[m-j][n-i]
    margin, weakest, places = float("inf"), None, None
    line_no = 0
    chosen = {s.snippet: s for s in steps}
    at_line = original_index + [len(original)]  # non-blank position -> original line number
    for j, item in enumerate(items):
        if item is MARKER:
            continue
        k = line_no
        line_no += 1
        if _generic(item):
            continue  # a blank, a lone bracket or keyword is never the line that settles a reading
        D = D_all[j]
        sc = O.scores(item)
        after = R[m - j - 1][::-1]  # B[j+1][i] for i = 0..n
        through_match = D[:-1] + sc + after[1:]  # matched at line i
        through_insert = D - _insert_cost(items, j, O) + after  # inserted at position i
        step = chosen[k]
        here = at_line[step.original if step.original is not None else step.at]
        if step.original is not None:
            through_match = through_match.copy()
            through_match[step.original] = NEG
        else:
            # another place for the same new line inside its section mostly writes the same file
            # (either side of a deleted line): only a match elsewhere counts as a rival
            through_insert = np.full_like(through_insert, NEG)
        a_match = int(np.argmax(through_match)) if n else 0
        a_ins = int(np.argmax(through_insert))
        alt_m = through_match[a_match] if n else NEG
        alt, there = (alt_m, at_line[a_match]) if alt_m >= through_insert[a_ins] else (through_insert[a_ins], at_line[a_ins])
        gap = best - alt
        if gap < margin:
            margin, weakest, places = gap, k, (here, there)
    return Alignment(float(best), tuple(steps), tuple(deleted), float(margin), weakest, places, tuple(original_index),
                     tuple(snippet_index))


def _traceback(items, O, F, D_all) -> tuple[list[Step], list[int]]:
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
        sc = O.scores(item)
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

