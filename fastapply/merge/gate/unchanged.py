"""Unchanged results: when a merge that leaves the file as it was is suspect.

A merge that changes nothing is right only when the edit was applied already;
`guards.check_changed` refuses the cases where the snippet's edges pin nothing.
`check_unchanged_suspect` refuses two more, where the snippet meant a change it could not show:

- **a tail it would delete**: the snippet ends without a marker while the original goes on with
  non-blank lines after the snippet's last line;
- **a near twin**: the snippet is one short section (up to `SHORT` non-blank lines) between two
  markers, and a line it shows has a near twin in the original (ratio at least `TWIN`, not
  equal, not itself shown): the planner most likely means the twin changed into it.

This module knows lines and markers; it does not parse and does not know how the result was made.
"""

from __future__ import annotations

import difflib
from itertools import groupby
from typing import Sequence

from fastapply.merge.snippet.sections import is_gap

SHORT = 3  # a section with at most this many non-blank lines could sit anywhere
TWIN = 0.8  # lines this alike (and not equal) may be one line before and after an edit


def tail_it_would_delete(original: Sequence[str], snippet: Sequence[str]) -> str | None:
    """The snippet's last line when the snippet ends without a marker on a line the original has
    exactly once and the original has non-blank lines after it; else None."""
    known = frozenset(l.strip() for l in original)
    shown = [l for l in snippet if l.strip()]
    if not shown or is_gap(shown[-1], known) or not any(is_gap(l, known) for l in shown):
        return None
    last = shown[-1].strip()
    at = [i for i, l in enumerate(original) if l.strip() == last]
    if len(at) != 1 or not any(l.strip() for l in original[at[0] + 1:]):
        return None
    return last


def near_twin(original: Sequence[str], snippet: Sequence[str]) -> tuple[str, str] | None:
    """(snippet line, original twin) when the snippet is one short section with a marker on each
    side and a
    line it shows has a near twin in the original that the snippet does not show; else None."""
    known = frozenset(l.strip() for l in original)
    body = [l.strip() for l in snippet if l.strip() and not is_gap(l, known)]
    markers = [l for l in snippet if l.strip() and is_gap(l, known)]
    if not body or len(body) > SHORT or not markers:
        return None
    # the snippet's non-blank lines as runs: "m" marker, "s" a section
    kinds = [kind for kind, _ in groupby("m" if is_gap(l, known) else "s" for l in snippet if l.strip())]
    if kinds != ["m", "s", "m"]:
        return None  # not one section between markers: an edge of the file pins it
    shown = set(body)
    others = list(dict.fromkeys(l.strip() for l in original if l.strip() not in shown and len(l.strip()) >= 8))
    for line in body:
        if len(line) < 8:
            continue
        # the most similar twin, the first in file order among equals: never a set's order (the
        # message named a different twin from one process to the next)
        best = None
        matcher = difflib.SequenceMatcher(None, autojunk=False)
        matcher.set_seq2(line)
        for k, other in enumerate(others):
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() >= TWIN and matcher.quick_ratio() >= TWIN:  # symmetric upper bounds
                ratio = (difflib.SequenceMatcher(None, line, other, autojunk=False).ratio(), -k)
                best = ratio if best is None or ratio > best else best
        if best is not None and best[0] >= TWIN:
            return line, others[-best[1]]
    return None


def check_unchanged_suspect(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None) -> str | None:
    """Refuse a result equal to the original when the snippet stops before a tail it would
    delete, or is one short section with a near twin in the file (module docstring)."""
    if snippet is None or list(original) != list(result):
        return None
    last = tail_it_would_delete(original, snippet)
    if last is not None:
        return (f"the snippet would change nothing, yet it ends at `{last[:60]}` without a marker while the file goes "
                "on; end it with a marker to keep the rest, or show the lines around what it deletes")
    twin = near_twin(original, snippet)
    if twin is not None:
        return (f"the snippet would change nothing: `{twin[0][:60]}` is already in the file, and so is the similar "
                f"`{twin[1][:60]}`, which it may mean to change; include the lines around the change")
    return None
