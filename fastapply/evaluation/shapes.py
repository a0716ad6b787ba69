"""What a wrong file got wrong, in one word: the shape of its difference from the real commit.

`fastapply eval` counts wrong files first; this module says which kind each is, from the three
files alone (original, expected, result), so that a set nobody may read row by row (a held-out
seed, a benchmark we do not have) still tells which family of mistakes it hits. Lines are compared
stripped, blank lines aside, as multisets: `extra` are the result's lines the commit does not have,
`missing` the commit's lines the result lacks.

    whitespace        the same lines in the same order: blank lines, indentation or line endings differ
    order             the same lines in another order: a line the file repeats placed at its twin
    kept-old          extra lines, all the original's, nothing missing: code the commit deleted or
                      replaced is kept (a deletion the snippet does not show; a changed line read as new)
    dropped-old       missing lines, all the original's, nothing extra: code the commit kept is gone
                      (a marker laid over the wrong span; a section matched at the wrong place)
    kept-and-dropped  both, all the original's: an edit landed at a twin of its place, or kept one
                      old line and dropped another
    new-lines         a line the original does not have is extra or missing: new code written
                      twice, left out, or written as a change of another line

`wrong_shape(original, expected, result)` names one file's shape; `shape_counts(rows)` counts
the wrong rows of an eval by shape, most common first.

This module knows lines; it does not know how a result was made or what the snippet said.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

SHAPES = ("whitespace", "order", "kept-old", "dropped-old", "kept-and-dropped", "new-lines")


def _code(text: str) -> list[str]:
    """The text's non-blank lines, stripped (line endings, indentation and blank lines set aside)."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def wrong_shape(original: str, expected: str, result: str) -> str:
    """The shape (one of `SHAPES`) of a result that is not the expected file (module docstring)."""
    have, want, old = _code(result), _code(expected), Counter(_code(original))
    if have == want:
        return "whitespace"
    extra, missing = Counter(have) - Counter(want), Counter(want) - Counter(have)
    if not extra and not missing:
        return "order"
    if any(line not in old for line in extra) or any(line not in old for line in missing):
        return "new-lines"
    if extra and missing:
        return "kept-and-dropped"
    return "kept-old" if extra else "dropped-old"


def shape_counts(rows: Sequence[dict], key: str = "wrong_shape") -> list[tuple[str, int]]:
    """The wrong rows (those with a shape under `key`: `wrong_shape`, or a retry row's `first_shape` /
    `second_shape`) counted by shape, most common first."""
    return Counter(r[key] for r in rows if r.get(key)).most_common()


def shape_words(counts) -> str:
    """Shape counts as a summary line says them: "kept-old 5, dropped-old 2" ("" for none); `counts` is
    shape_counts' list or a dict of it."""
    items = counts.items() if isinstance(counts, dict) else counts
    return ", ".join(f"{k} {n}" for k, n in items)
