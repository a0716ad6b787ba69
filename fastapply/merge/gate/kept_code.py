"""Kept code: a marker stands for original code that stays, and no result may drop it.

A snippet that shows `P`, a marker, then `N` says: after `P` comes existing code, then `N`. When
`P` occurs exactly once in the original and in the result, the original has other lines after
`P` before its first `N`, and the result has `N` right after `P` (blank lines aside), the merge
laid the marker over nothing: the code it stood for was dropped there or moved away (matched to
a new block the snippet shows further on, `"*.markdown"` read as the new `md` list's line rather
than kept in the `markdown` list the marker elides). `check_marker_kept_nothing` refuses that.

Not the mirror case `N` before `P`, nor a marker next to another marker or the snippet's edge.

Two more checks, on model answers only (guards.check_answer): a deterministic merge places the
snippet's lines and cannot fail them, a model that skips what a marker stands for can.

- `check_marker_gaps`: the snippet shows a line right before a marker; the answer drops the
  original line after it (the code the marker keeps).
- `check_kept_after_marker`: the snippet shows a line right before a marker; the answer deletes
  original lines that followed the place of that line (beyond the one old line it may have
  changed): the marker keeps them. For a last line the original does not have (a changed line:
  `return ctx.fallback` written over `return ctx.default` and the three lines after it, issue 18
  item 1), which `check_marker_gaps` cannot find.

Neither is the mirror case (a line right after a marker): planners put a marker before a changed
line whose deleted predecessor they cannot show.

This module knows lines and markers; it does not parse and does not know how the result was made.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from typing import Sequence

from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import is_generic
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


def check_marker_gaps(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the snippet shows a line right before a marker and the answer drops the
    original line that follows it there, a line the snippet shows nowhere: the marker says that
    code stays. (A model that skips what a marker stands for deletes it while every line the
    snippet shows is present and in order.) Not the mirror case, a line right after a marker:
    planners put a marker before a changed line whose deleted predecessor they cannot show
    (measured: 6 right files of 3,200 would be refused)."""
    known = frozenset(l.strip() for l in original)
    shown = {l.strip() for l in snippet} | {l[1:].strip() for l in snippet if l[:1] in "+-"}
    where_o, where_r = unique_places(original), unique_places(result)
    lines = [l for l in snippet if l.strip()]
    for k, line in enumerate(lines):
        if not is_elision(line, known):
            continue
        for near, step in ((lines[k - 1] if k else None, +1),):
            text = near.strip() if near is not None else None
            if text is None or text not in where_o or text not in where_r or is_elision(near, known):
                continue
            o, r = where_o[text], where_r[text]
            beyond_o = non_blank(original, o, step)
            if beyond_o is None or original[beyond_o].strip() in shown:
                continue
            beyond_r = non_blank(result, r, step)
            if beyond_r is None or result[beyond_r].strip() != original[beyond_o].strip():
                return (f"the snippet keeps the code after `{text[:50]}` with a marker, but "
                        f"the answer drops `{original[beyond_o].strip()[:50]}` there")
    return None


CHANGED_RATIO = 0.5  # a deleted line at least this similar to the snippet's last line is the line it changed


def check_kept_after_marker(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse an answer that deletes original code a marker keeps: for each place where the answer
    deletes original lines (a diff op deleting more non-blank lines than it writes), take the
    answer's last line there (the last line it wrote, or the kept line before a pure deletion). When
    the snippet shows that line once, as a distinctive line followed by a marker, the code after it
    stays; so deleted lines after the old line it changed (the deleted line most similar to it) are
    not shown deleted. Without such an old line, a net deletion there is not shown either.

    Knows the diff of the original to the answer and the snippet's lines; not which reading the
    model meant, nor the lines a marker before a change stands for (not checked: planners put a
    marker before a changed line whose deleted predecessor they cannot show)."""
    known = frozenset(l.strip() for l in original)
    shown = [l for l in snippet if l.strip()]
    counts = Counter(l.strip() for l in shown)
    before_marker = {a.strip() for a, b in zip(shown, shown[1:])
                     if counts[a.strip()] == 1 and not is_generic(a) and not is_elision(a, known) and is_elision(b, known)}
    if not before_marker:
        return None
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag not in ("delete", "replace"):
            continue
        lost = [k for k in range(i1, i2) if original[k].strip()]
        written = [k for k in range(j1, j2) if result[k].strip()]
        if len(lost) <= len(written):
            continue
        last = result[written[-1]] if written else next((result[k] for k in range(j1 - 1, -1, -1) if result[k].strip()), None)
        if last is None or last.strip() not in before_marker:
            continue
        if written:
            ratio = [SequenceMatcher(None, original[k].strip(), last.strip()).ratio() for k in lost]
            best = max(range(len(lost)), key=ratio.__getitem__)
            after = lost[best + 1:] if ratio[best] >= CHANGED_RATIO else lost[len(written):]
        else:
            after = lost
        if after:
            return (f"the snippet keeps the code after `{last.strip()[:50]}` with a marker, but the answer "
                    f"deletes {len(after)} line(s) there (`{original[after[0]].strip()[:50]}`)")
    return None


def unique_places(lines: Sequence[str]) -> dict[str, int]:
    """Distinctive lines (stripped) that occur exactly once, with their index."""
    counts = Counter(l.strip() for l in lines)
    return {l.strip(): k for k, l in enumerate(lines) if counts[l.strip()] == 1 and not is_generic(l)}


def non_blank(lines: Sequence[str], start: int, step: int) -> int | None:
    """The index of the first non-blank line from `start + step` on, walking by `step`, or None."""
    k = start + step
    while 0 <= k < len(lines) and not lines[k].strip():
        k += step
    return k if 0 <= k < len(lines) else None
