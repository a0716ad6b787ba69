"""Copies a merge may rightly add: the two exemptions of the copied-lines guard.

The copied-lines guard (snippet_checks.check_copied_lines) refuses a merge in which a distinctive
line occurs more often than in the original or in the snippet: usually a moved or edited block
kept at its old place too. Two shapes of an extra copy are no such block:

`copies_in_new_blocks`: a new block brings the copies (a new test repeating the file's idiom
lines). Every extra copy lies in a run the merge inserted between original lines, shown whole by
the snippet, opening with a distinctive line the original does not have once, a closed block,
with more new distinctive lines than copied ones.

`copies_replace_changed_lines`: a changed line becomes one the file already has elsewhere. Every
extra copy takes the place of one similar original line the snippet does not show, and the
unchanged lines the snippet shows around it (up to `CONTEXT` non-blank lines each side) match
the lines around that replaced line by at least `MARGIN` more than those around any original
twin of the copy (a section meant for the twin shows the twin's surroundings).

This module knows lines, brackets, indentation and markers; it does not know languages or how the
merge placed the lines.
"""

from __future__ import annotations

import difflib
from collections import Counter
from typing import Sequence

from fastapply.merge.text.compare import copied_lines, line_opcodes
from fastapply.merge.text.lines import distinctive, indent_len, indentation, run_starts, stripped_counts
from fastapply.merge.text.markers import is_marker

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


def _new_block(run: Sequence[str], known: Counter, shown: list[str], copied: dict[str, int]) -> bool:
    """One inserted run passes the tests of the module docstring (its head may also be a line the
    original repeats: an idiom such as `assert.response(app,` names no existing block)."""
    body = [l.strip() for l in run if l.strip()]
    if (not body or known.get(body[0], 0) == 1 or not distinctive(body[0]) or not closed_block(run)
            or not run_starts(shown, body)):
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
    known = stripped_counts(original)
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


SIMILAR = 0.75  # difflib ratio above which a replaced original line counts as the copy's old form
CONTEXT = 3  # non-blank snippet lines compared on each side of the copy
MARGIN = 1  # how many more of them the replaced line's place must match than any twin's


def _similar(old: str, new: str) -> bool:
    """Same indentation and most characters shared: `new` reads as an edit of `old`."""
    if old.strip() == new.strip() or indentation(old) != indentation(new):
        return False
    return difflib.SequenceMatcher(None, old.strip(), new.strip(), autojunk=False).ratio() >= SIMILAR


def _context(lines: Sequence[str], at: int, step: int, stop=None) -> list[str | None]:
    """Up to CONTEXT non-blank stripped lines from `at` walking by `step`; a line for which
    `stop` is true ends the walk (a marker: what lies beyond it is unknown)."""
    out: list[str | None] = []
    k = at + step
    while 0 <= k < len(lines) and len(out) < CONTEXT:
        if lines[k].strip():
            if stop is not None and stop(lines[k]):
                break
            out.append(lines[k].strip())
        k += step
    return out


def _agreement(shown: tuple[list, list], place: tuple[list, list]) -> int:
    """How many of the snippet's context lines (`shown`: above, below, nearest first) equal the
    line at the same distance around a place of the original (`place`, same shape)."""
    return sum(a == b for side, other in zip(shown, place) for a, b in zip(side, other))


def _replaced_partner(original: Sequence[str], result: Sequence[str], ops, j: int) -> int | None:
    """The original line result[j] took the place of: in the `replace` opcode holding j, the most
    similar original line (`_similar`), or None when j is not in one or none is similar."""
    for tag, i1, i2, j1, j2 in ops:
        if j1 <= j < j2:
            if tag != "replace":
                return None
            best = max(range(i1, i2), key=lambda i: difflib.SequenceMatcher(
                None, original[i].strip(), result[j].strip(), autojunk=False).ratio())
            return best if _similar(original[best], result[j]) else None
    return None


def copies_replace_changed_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when the result has copied lines (compare.copied_lines) and each extra copy is
    a snippet line that took the place of the similar original line it changed, at the place the
    snippet's context points to rather than the twin's (see the module docstring). False when
    there are no copied lines."""
    copied = copied_lines(original, result, snippet)
    if not copied:
        return False
    ops = line_opcodes(original, result)
    before = stripped_counts(original)
    after = stripped_counts(result)
    shown_count = stripped_counts(snippet)
    for line, n in copied.items():
        extra = n - max(before.get(line, 0), shown_count.get(line, 0))
        twins = [i for i, l in enumerate(original) if l.strip() == line]
        spots = [k for k, l in enumerate(snippet) if l.strip() == line]
        if not twins or not spots:
            return False
        explained = 0
        for j, l in enumerate(result):
            if l.strip() != line:
                continue
            i = _replaced_partner(original, result, ops, j)
            old = original[i].strip() if i is not None else None
            if old is None or old in shown_count or after.get(old, 0) >= before[old]:
                continue  # not a changed line: no similar original line it replaced and the snippet dropped
            if any(_fits(snippet, k, _around(original, i), [_around(original, t) for t in twins]) for k in spots):
                explained += 1
        if explained < extra:
            return False
    return True


def _around(lines: Sequence[str], at: int) -> tuple[list, list]:
    return _context(lines, at, -1), _context(lines, at, +1)


def _fits(snippet: Sequence[str], k: int, here, twins) -> bool:
    """The snippet's context around its line k (up to a marker) matches the replaced line's place
    (`here`) by MARGIN more than the place of any twin."""
    context = (_context(snippet, k, -1, is_marker), _context(snippet, k, +1, is_marker))
    score = _agreement(context, here)
    return all(score >= _agreement(context, t) + MARGIN for t in twins)
