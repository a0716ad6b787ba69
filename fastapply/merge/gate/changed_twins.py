"""Copies that a changed line brings with it: when a merge's extra copy of an existing line is a
line the snippet changed, not a block kept twice.

The copied-lines guard (snippet_checks.check_copied_lines) refuses a merge in which a distinctive
line occurs more often than in the original or in the snippet. But a snippet may change a line
into one the file already has elsewhere: `OsStr::from_bytes(&self.as_bytes()[i + 1..]),` becomes
`OsStr::from_bytes(&self.as_bytes()[i..]),`, which another function already returns. The merge
then has the line twice, rightly. `copies_replace_changed_lines` tells that apart from a misplaced
change (the snippet's section, meant for the twin's place, pasted over a similar sibling: the
twin stays there too, so the two look alike) by where the snippet's own context points:

- every extra copy takes the place of one similar original line (a `replace` of the original
  with the result pairs them: same indentation, most characters shared) that the result no
  longer has there and the snippet does not show (the line the snippet changed);
- the unchanged lines the snippet shows around the copy (up to `CONTEXT` non-blank lines on each
  side, up to the nearest marker) match the lines around that replaced line by at least
  `MARGIN` more than they match the lines around any original twin of the copy. A section meant
  for the twin shows the twin's surroundings; one that changed the sibling shows the sibling's.

This module knows lines and markers; it does not know languages or how the merge placed them.
"""

from __future__ import annotations

import difflib
from collections import Counter
from typing import Sequence

SIMILAR = 0.75  # difflib ratio above which a replaced original line counts as the copy's old form
CONTEXT = 3  # non-blank snippet lines compared on each side of the copy
MARGIN = 1  # how many more of them the replaced line's place must match than any twin's


def _similar(old: str, new: str) -> bool:
    """Same indentation and most characters shared: `new` reads as an edit of `old`."""
    if old.strip() == new.strip() or old[: len(old) - len(old.lstrip())] != new[: len(new) - len(new.lstrip())]:
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
    from fastapply.merge.text.compare import copied_lines, line_opcodes

    copied = copied_lines(original, result, snippet)
    if not copied:
        return False
    ops = line_opcodes(original, result)
    before = Counter(l.strip() for l in original)
    after = Counter(l.strip() for l in result)
    shown_count = Counter(l.strip() for l in snippet)
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
    from fastapply.merge.text.markers import is_marker

    context = (_context(snippet, k, -1, is_marker), _context(snippet, k, +1, is_marker))
    score = _agreement(context, here)
    return all(score >= _agreement(context, t) + MARGIN for t in twins)
