"""Two versions of a file compared line by line: the opcodes between them, and the lines one has
copied.

- `line_opcodes`: difflib's opcodes of two line lists, near-linear on long files that differ in
  a few places (the common head and tail, `common_ends`, are trimmed first); `origins`: where
  each kept line came from, `added`: which lines are new; `most_alike`: the lines most like one line (difflib ratio, ties kept);
- `copied_lines`: the distinctive lines a result has more often than the original and the
  snippet each have them (a block kept twice, or new code shaped like old).

This module knows lines only; which copies are allowed is the gate's business (gate/).
"""

from __future__ import annotations

import difflib
from typing import Iterable, Sequence

from fastapply.merge.text.lines import collapse, distinctive, remembered, stripped_counts


_RECENT: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple] = {}  # the last pairs compared (the guards
# on one result each ask for the same opcodes: a dozen difflib runs per merge became one)
_RECENT_SIZE = 16


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib opcodes of two line lists, after trimming their common head and tail (a merge
    changes a few places of a long file; difflib alone is quadratic on repetitive files).
    Remembers the last few pairs it compared."""
    return list(remembered(_RECENT, _RECENT_SIZE, (tuple(a), tuple(b)), lambda: tuple(_opcodes(a, b))))


def _opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    if len(a) + len(b) <= 4000:  # small: difflib's own alignment (quadratic only on big files)
        return difflib.SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes()
    head, tail = common_ends(a, b)
    mid = difflib.SequenceMatcher(None, list(a[head : len(a) - tail]), list(b[head : len(b) - tail]), autojunk=False)
    ops = [("equal", 0, head, 0, head)] if head else []
    ops += [(t, i1 + head, i2 + head, j1 + head, j2 + head) for t, i1, i2, j1, j2 in mid.get_opcodes()]
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def added(ops: Sequence[tuple[str, int, int, int, int]]) -> set[int]:
    """The indices in the second list of the lines the opcodes insert or replace (new there)."""
    return {j for tag, _i1, _i2, j1, j2 in ops if tag in ("insert", "replace") for j in range(j1, j2)}


def origins(ops: Sequence[tuple[str, int, int, int, int]]) -> dict[int, int]:
    """Each line the opcodes keep (`equal`), by its index in the second list -> its index in the first."""
    return {j1 + k: i1 + k for tag, i1, _i2, j1, j2 in ops if tag == "equal" for k in range(j2 - j1)}


def common_ends(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """How many leading and trailing lines two line lists share (never overlapping)."""
    n = min(len(a), len(b))
    head = 0
    while head < n and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    return head, tail


def copied_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> dict[str, int]:
    """The distinctive lines (stripped) the result has more often than the original and the
    snippet each have them, with their count in the result (in the result's order): what
    `snippet_checks.check_copied_lines` weighs."""
    before = stripped_counts(original)
    shown = stripped_counts(snippet)
    return {line: n for line, n in stripped_counts(result).items()
            if n > 1 and distinctive(line) and n > max(before.get(line, 0), shown.get(line, 0))}


def most_alike(want: str, lines: Iterable[tuple[int, str]], floor: float = -1.0) -> list[int]:
    """The indices of the `(index, text)` lines whose difflib ratio to `want` is highest and at
    least `floor`, ties in order."""
    m = difflib.SequenceMatcher(None, autojunk=False)
    m.set_seq2(want)
    best, at = floor, []
    for i, text in lines:
        m.set_seq1(text)
        if m.real_quick_ratio() < best or m.quick_ratio() < best:
            continue
        r = m.ratio()
        if r > best:
            best, at = r, [i]
        elif r == best:
            at.append(i)
    return at


def similar(a: str, b: str) -> bool:
    """Two lines that differ beyond whitespace but are mostly the same text (an edited line)."""
    ca, cb = collapse(a), collapse(b)
    if min(len(ca), len(cb)) < 5 or ca == cb:
        return False
    return difflib.SequenceMatcher(None, ca, cb, autojunk=False).ratio() >= 0.6
