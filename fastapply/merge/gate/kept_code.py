"""Kept code: a marker between two lines the snippet shows stands for original code that stays.

A snippet that shows `P`, a marker, then `N` says: after `P` comes existing code, then `N`. When
`P` occurs exactly once in the original and in the result, the original has other lines after
`P` before its first `N`, and the result has `N` right after `P` (blank lines aside), the merge
laid the marker over nothing: the code it stood for was dropped there or moved away (matched to
a new block the snippet shows further on, `"*.markdown"` read as the new `md` list's line rather
than kept in the `markdown` list the marker elides). `check_marker_kept_nothing` refuses that.

Not the mirror case `N` before `P`, nor a marker next to another marker or the snippet's edge.

This module knows lines and markers; it does not parse and does not know how the result was made.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.text.markers import is_elision


def _next_shown(lines: Sequence[str], start: int) -> str | None:
    """The first non-blank line at or after `start`, stripped, or None."""
    return next((l.strip() for l in lines[start:] if l.strip()), None)


def check_marker_kept_nothing(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse a result where a marker between two shown lines `P` and `N` keeps nothing although
    the original has code between them (module docstring). The reason names both lines."""
    known = frozenset(l.strip() for l in original)
    in_original = Counter(l.strip() for l in original)
    in_result = Counter(l.strip() for l in result)
    shown = [l for l in snippet if l.strip()]
    marks = [is_elision(l, known) for l in shown]
    for k in range(1, len(shown) - 1):
        if not marks[k] or marks[k - 1] or marks[k + 1]:
            continue
        before, after = shown[k - 1].strip(), shown[k + 1].strip()
        if in_original[before] != 1 or in_result[before] != 1 or not in_original[after]:
            continue
        at = next(i for i, l in enumerate(original) if l.strip() == before)
        if _next_shown(original, at + 1) in (None, after) or after not in {l.strip() for l in original[at + 1:]}:
            continue
        kept = next(i for i, l in enumerate(result) if l.strip() == before)
        if _next_shown(result, kept + 1) == after:
            return (f"the marker between `{before[:50]}` and `{after[:50]}` keeps original code, but the merge "
                    "dropped it there; show the lines the change needs around it")
    return None
