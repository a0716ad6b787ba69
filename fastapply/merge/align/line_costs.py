"""What placing one snippet line costs in the scored alignment (scored.py): the line-cost model.

- how two lines are compared (`key`: stripped, a lone closer with its depth) and whether a line is
  generic (`generic`: `}`, `end`, `else:` pin nothing);
- how alike two lines are (`tokens`: sub-words, so `CLP_TEST_ENV` -> `CLP_TEST_ENV_WD` is one line
  changed; `lead`: the target a line assigns, so `x = 1` -> `x: int = 2` is one line changed);
- per original line (`Original`): what matching a snippet line to it earns (an equal line by its
  distinctiveness, a similar one by its similarity), what inserting a line the original already
  has costs (a pasted twin) and what deleting it costs.

Example: in an original with `x = 1` once and `}` ten times, matching `x = 1` earns UNIQUE, each `}`
GENERIC; `x = 2` matched to `x = 1` earns CHANGE * LEAD_SIM (one target, one line changed).

Knows lines and the generic-line idea (text/lines.py); does not know sections, markers or the
dynamic programme (scored.py) that adds these costs up.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from fastapply.merge.text.lines import is_generic

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


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+|[^\W\d_]+")  # the parts of `snake_case`, `camelCase`, `HTTPServer`
_PUNCT = re.compile(r"[^\w\s]")


def tokens(line: str) -> frozenset[str]:
    """A line's distinct sub-words, lower-cased (its punctuation when it has no word): an
    identifier renamed or extended (`CLP_TEST_ENV` -> `CLP_TEST_ENV_WD`, `setup` -> `s_setup`)
    keeps most of its parts, so the line reads as one line changed, not a new line beside the old.
    Punctuation is what every line of code shares (`halt('a')` and `describe '.halt()'` share five
    marks and one word), so it does not make two lines one line changed."""
    return frozenset(w.lower() for w in _WORD.findall(line)) or frozenset(_PUNCT.findall(line))


_IDENT = re.compile(r"[A-Za-z_]\w*")


def generic(line: str) -> bool:
    """anchors.is_generic, skipped for lines of two or more identifiers (never generic)."""
    return len(_IDENT.findall(line, 0, 80)) < 2 and is_generic(line)


_LEAD = re.compile(r"^((?:(?:let|const|var|val|my|local|self\.|this\.|@)\s*)?[\w.$\[\]'\"]+)\s*(=(?!=)|:(?!:)|<-|:=)")


_ANNOTATED = re.compile(r"[^=]*=(?!=)")  # after `x:`, a type and then `=`: an annotated assignment


def lead(line: str) -> str | None:
    """The target a line assigns or the key it sets (`x` of `x = 1`, `"name"` of `"name": 2`):
    two lines with one target are one line changed, however short (`x = 1` -> `x = 2`)."""
    got = _LEAD.match(line)
    if got is None:
        return None
    if got.group(2) == ":" and _ANNOTATED.match(line, got.end()):
        return got.group(1) + "="  # `x: int = 1` assigns the target `x = 1` does
    return got.group(1) + got.group(2)


def key(line: str) -> str:
    """How a line is compared: stripped, except a generic line (`}`, `end`), which keeps its
    indentation: which block a lone closer closes is said only by its depth."""
    text = line.strip()
    return line.rstrip().expandtabs(4) if generic(text) else text


class Original:
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
        generic_of = {k: generic(k) for k in distinct}
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
            toks = tokens(k)
            sizes.append(len(toks))
            for t in toks & vocab:
                postings.setdefault(t, []).append(d)
            self._key_of[self.where[k]] = d
        self._sizes = np.array(sizes, dtype=np.float64)
        self._leads: dict[str, list[int]] = {}
        for d, k in enumerate(self._distinct):
            if (target := lead(k)) is not None:
                self._leads.setdefault(target, []).append(d)
        self._postings = {t: np.array(v, dtype=np.int64) for t, v in postings.items()}
        self._cache: dict[str, np.ndarray] = {}
        self._twins: dict[str, float] = {}

    def scores(self, line: str) -> np.ndarray:
        """What matching snippet line `line` to each original line earns (NEG where it cannot)."""
        got = self._cache.get(line)
        if got is not None:
            return got
        row = np.full(self.n, NEG)
        if not is_generic(line) and self._distinct:
            toks = tokens(line)
            hits = [self._postings[t] for t in toks if t in self._postings]
            same_lead = self._leads.get(lead(line) or "", ())
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
        got = self._twins.get(line)
        if got is None:
            got = self._twins[line] = TWIN * self.weight[self.where[line]].max() if line in self.where else 0.0
        return got


class Reversed:
    """The same original read backwards (for the backward pass): line i is the original's n-1-i
    (what scored._forward reads: n, cumdel, scores, twin)."""

    def __init__(self, forward: Original):
        self._f = forward
        self.n = forward.n
        self.cumdel = np.concatenate([[0.0], np.cumsum(forward.dele[::-1])])

    def scores(self, line: str) -> np.ndarray:
        return self._f.scores(line)[::-1]

    def twin(self, line: str) -> float:
        return self._f.twin(line)
