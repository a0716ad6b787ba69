"""Copies a merge may rightly add: the copied-lines guard's exemption for new blocks.

The copied-lines guard (snippet_checks.check_copied_lines) refuses a merge in which a distinctive
line occurs more often than in the original or in the snippet: the usual cause is a moved or
edited block that the merge kept at its old place too. One shape of an extra copy is no such
block:

`copies_in_new_blocks`: a new block brings the copies. A new test or function written after the
file's existing ones repeats their idiom lines (`router := New()`, `var app = express();`,
`request(app)`), and the snippet that adds it may show one of those lines as context as well, so
the merge has one copy more than either. Told apart by the shape of what the merge inserted:

- every extra copy lies in a run of lines the merge inserted between original lines (nothing of
  the original replaced there but blank lines);
- that run is shown whole by the snippet (its lines follow each other there, no marker between);
- it opens with a distinctive line the original does not have once (a new header, or an idiom the
  original repeats: a renamed or moved block opens with one the original has once, or shows a
  marker inside it);
- it is a closed block (brackets balanced, never closing one it did not open, no line indented
  less than its first line);
- it has more new distinctive lines than copied ones (a block copied with a new name only is not
  new code; a moved block that gained a few lines keeps more copies than it gained).

This module knows lines, brackets and indentation; it does not know languages or how the
merge placed the lines.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.text.compare import copied_lines, line_opcodes
from fastapply.merge.text.lines import distinctive, indent_len

_OPEN, _CLOSE = "([{", ")]}"
MAX_SHIFT = 6  # how far an inserted run may slide along equal lines (difflib picks one of its rotations)


def closed_block(lines: Sequence[str]) -> bool:
    """True when `lines` (blank lines aside) open with their least indented line, never close a
    bracket they did not open and close every one they open (string contents are not told apart:
    a bracket in a string counts, which only makes the test stricter)."""
    body = [l for l in lines if l.strip()]
    if not body or any(indent_len(l) < indent_len(body[0]) for l in body):
        return False
    depth = 0
    for line in body:
        for ch in line:
            if ch in _OPEN:
                depth += 1
            elif ch in _CLOSE:
                depth -= 1
                if depth < 0:
                    return False
    return depth == 0


def _contiguous_in(run: list[str], shown: list[str]) -> bool:
    n = len(run)
    return any(shown[k:k + n] == run for k in range(len(shown) - n + 1))


def _new_block(run: Sequence[str], known: Counter, shown: list[str], copied: dict[str, int]) -> bool:
    """One inserted run passes the tests of the module docstring (its head may also be a line the
    original repeats: an idiom such as `assert.response(app,` names no existing block)."""
    body = [l.strip() for l in run if l.strip()]
    if not body or known.get(body[0], 0) == 1 or not distinctive(body[0]) or not closed_block(run):
        return False
    if not _contiguous_in(body, shown):
        return False
    new = sum(1 for l in body if l not in known and distinctive(l))
    copies = sum(1 for l in body if l in copied)
    return new > copies


def _runs(original: Sequence[str], result: Sequence[str]) -> list[tuple[int, int]]:
    return [(j1, j2) for tag, i1, i2, j1, j2 in line_opcodes(original, result)
            if tag == "insert" or (tag == "replace" and not any(l.strip() for l in original[i1:i2]))]


def _rotations(result: Sequence[str], j1: int, j2: int):
    """The windows an inserted run result[j1:j2] may equally be read as: slid forward or back
    along lines equal at both of its ends."""
    yield j1, j2
    k = 1
    while k <= MAX_SHIFT and j2 + k <= len(result) and result[j1 + k - 1] == result[j2 + k - 1]:
        yield j1 + k, j2 + k
        k += 1
    k = 1
    while k <= MAX_SHIFT and j1 - k >= 0 and result[j1 - k] == result[j2 - k]:
        yield j1 - k, j2 - k
        k += 1


def copies_in_new_blocks(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when the result has copied lines (compare.copied_lines) and every extra copy
    lies in a new block the snippet shows whole (see the module docstring): new code shaped like
    old, not a block kept twice. False when there are no copied lines."""
    copied = copied_lines(original, result, snippet)
    if not copied:
        return False
    known = Counter(l.strip() for l in original)
    shown = [l.strip() for l in snippet if l.strip()]
    covered: Counter = Counter()
    for j1, j2 in _runs(original, result):
        window = next(((a, b) for a, b in _rotations(result, j1, j2)
                       if _new_block(result[a:b], known, shown, copied)), None)
        if window is None:
            if any(l.strip() in copied for l in result[j1:j2]):
                return False  # a copy in an inserted run that is no new block
            continue
        covered.update(l.strip() for l in result[window[0]:window[1]] if l.strip() in copied)
    return all(covered[line] >= n - known.get(line, 0) for line, n in copied.items())
