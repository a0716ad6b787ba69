"""Kept code: a marker stands for original code that stays, and no result may drop it.

`check_marker_kept_nothing`: a snippet shows `P`, a marker, then `N`; `P` occurs once in the
original and in the result, the original has other lines between `P` and its first `N`, and the
result has `N` right after `P`: the merge laid the marker over nothing.

On model answers only (guards.check_answer; a deterministic merge cannot fail these):
`check_marker_gaps` (the answer drops the original line after a line the snippet shows right
before a marker) and `check_kept_after_marker` (the same for a changed last line, beyond the old
line it changed). Never the mirror case, a line right after a marker: planners put a marker
before a changed line whose deleted predecessor they cannot show.

Unchanged results: a merge that changes nothing is right only when the edit was applied already;
`guards.check_changed` refuses the cases where the snippet's edges pin nothing, and
`check_unchanged_suspect` two more, where the snippet meant a change it could not show:

- **a tail it would delete**: the snippet ends without a marker while the original goes on with
  non-blank lines after the snippet's last line;
- **a near twin**: the snippet is one short section (up to `SHORT` non-blank lines) between two
  markers, and a line it shows has a near twin in the original (ratio at least `TWIN`, not
  equal, not itself shown): the planner most likely means the twin changed into it.

A result that changes nothing but blank lines and trailing whitespace (`check_whitespace_only`) is
unchanged in substance and not written, unless the snippet shows that spacing on purpose (a run of
blank lines between two lines it shows, of another length than the original's): a snippet whose code
is in the file already changes nothing (applied already), and one that meant a change the merge read
as none (a deletion shown by generic lines, a changed line matched to its twin) would write only its
spacing. On the 32 measured sets
(2026-11-28) 14 merges changed only whitespace, every one a wrong file (6 on tuning sets, 8 held out).

This module knows lines and markers; it does not parse and does not know how the result was made.
"""

from __future__ import annotations

import difflib
from difflib import SequenceMatcher
from itertools import groupby
from typing import Sequence

from fastapply.merge.snippet.sections import is_gap
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import is_generic, next_non_blank, stripped_counts
from fastapply.merge.text.markers import is_elision
from fastapply.merge.text.spans import apart, code, quote


def _next_shown(lines: Sequence[str], start: int) -> str | None:
    """The first non-blank line at or after `start`, stripped, or None."""
    return next((l.strip() for l in lines[start:] if l.strip()), None)


def check_marker_kept_nothing(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse a result where a marker between two shown lines `P` and `N` keeps nothing although
    the original has code between them (module docstring). The reason names both lines."""
    in_original = stripped_counts(original)
    shown = [l for l in snippet if l.strip()]
    marks = [is_elision(l, in_original.keys()) for l in shown]
    in_result = None
    for k in range(1, len(shown) - 1):
        if not marks[k] or marks[k - 1] or marks[k + 1]:
            continue
        if in_result is None:
            in_result = stripped_counts(result)
        before, after = shown[k - 1].strip(), shown[k + 1].strip()
        if in_original[before] != 1 or in_result[before] != 1 or not in_original[after]:
            continue
        at = next(i for i, l in enumerate(original) if l.strip() == before)
        if _next_shown(original, at + 1) in (None, after) or after not in {l.strip() for l in original[at + 1:]}:
            continue
        kept = next(i for i, l in enumerate(result) if l.strip() == before)
        if _next_shown(result, kept + 1) == after:
            return (f"the marker between {quote(before, 50)} and {quote(after, 50)} keeps original code, but the merge "
                    "dropped it there; show the lines the change needs around it")
    return None


def check_marker_gaps(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the snippet shows a line right before a marker and the answer drops the
    original line that follows it there, a line the snippet shows nowhere. Not the mirror case
    (measured: 6 right files of 3,200 would be refused)."""
    known = frozenset(l.strip() for l in original)
    shown = {l.strip() for l in snippet} | {l[1:].strip() for l in snippet if l[:1] in "+-"}
    where_o, where_r = unique_places(original), unique_places(result)
    lines = [l for l in snippet if l.strip()]
    for near, line in zip(lines, lines[1:]):
        text = near.strip()
        if not is_elision(line, known) or text not in where_o or text not in where_r or is_elision(near, known):
            continue
        beyond_o = next_non_blank(original, where_o[text] + 1)
        if beyond_o is None or original[beyond_o].strip() in shown:
            continue
        beyond_r = next_non_blank(result, where_r[text] + 1)
        if beyond_r is None or result[beyond_r].strip() != original[beyond_o].strip():
            return (f"the snippet keeps the code after {quote(text, 50)} with a marker, but "
                    f"the answer drops {quote(original[beyond_o], 50)} there")
    return None


CHANGED_RATIO = 0.5  # a deleted line at least this similar to the snippet's last line is the line it changed


def check_kept_after_marker(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse an answer that deletes original code a marker keeps: where the answer deletes more
    non-blank lines than it writes, its last line there, shown once in the snippet as a
    distinctive line followed by a marker, keeps the code after it; deleted lines after the old
    line it changed (the most similar deleted one), or any net deletion without one, are not
    shown deleted."""
    known = frozenset(l.strip() for l in original)
    shown = [l for l in snippet if l.strip()]
    counts = stripped_counts(shown)
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
            return (f"the snippet keeps the code after {quote(last, 50)} with a marker, but the answer "
                    f"deletes {len(after)} line(s) there ({quote(original[after[0]], 50)})")
    return None


def unique_places(lines: Sequence[str]) -> dict[str, int]:
    """Distinctive lines (stripped) that occur exactly once, with their index."""
    counts = stripped_counts(lines)
    return {l.strip(): k for k, l in enumerate(lines) if counts[l.strip()] == 1 and not is_generic(l)}


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


def same_code(original: Sequence[str], result: Sequence[str]) -> bool:
    """Whether two files hold the same lines once blank lines and trailing whitespace are set aside."""
    return [l.rstrip() for l in original if l.strip()] == [l.rstrip() for l in result if l.strip()]


def check_whitespace_only(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse a result that differs from the original only in blank lines and trailing whitespace
    (module docstring), unless each change is a run of blank lines the snippet shows whole, between
    two lines it shows, at another length than the original's (`_run_shown`: spacing the planner
    wrote on purpose). The reason names the first original line of code next to the change."""
    if list(original) == list(result) or not same_code(original, result):
        return None
    changes = [op for op in SequenceMatcher(None, original, result, autojunk=False).get_opcodes() if op[0] != "equal"]
    if all(_run_shown(original, result, snippet, op) for op in changes):
        return None
    at = next((i for i, (a, b) in enumerate(zip(original, result)) if a != b), min(len(original), len(result)))
    near = next_non_blank(original, at)  # a line that says where, never the blank line itself
    if near is None:
        near = next_non_blank(original, min(at, len(original) - 1), -1)
    where = f" (first next to original line {near + 1} {quote(original[near])})" if near is not None else ""
    return (f"the snippet would change nothing but blank lines or trailing whitespace{where}: every line of code "
            f"it shows is already in the file where it fits; if the edit is applied already there is nothing to do, "
            f"and if it deletes or changes lines, show the lines around the change (or the deleted lines with `-`)")


def _run_shown(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
               op: tuple[str, int, int, int, int]) -> bool:
    """Whether a change of blank lines (`op`, an opcode from original to result) makes the run of
    blank lines around it as long as the snippet shows it between the two lines it shows around it
    (not at the file's edge), and another length than the original's run there."""
    _, i1, i2, j1, j2 = op
    if any(l.strip() for l in original[i1:i2]) or any(l.strip() for l in result[j1:j2]):
        return False  # a line of code respaced: not a blank run
    a, b = _blank_run(result, j1, j2)
    c, d = _blank_run(original, i1, i2)
    if a == 0 or b == len(result) or b - a == d - c:
        return False
    above, below, run = result[a - 1].strip(), result[b].strip(), b - a
    return any(snippet[k].strip() == above and snippet[k + run + 1].strip() == below
               and not any(l.strip() for l in snippet[k + 1:k + run + 1]) for k in range(len(snippet) - run - 1))


def _blank_run(lines: Sequence[str], start: int, end: int) -> tuple[int, int]:
    """The run of blank lines [start, end) lies in, widened to the non-blank lines around it."""
    while start > 0 and not lines[start - 1].strip():
        start -= 1
    while end < len(lines) and not lines[end].strip():
        end += 1
    return start, end


def check_unchanged_suspect(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None) -> str | None:
    """Refuse a result equal to the original when the snippet stops before a tail it would
    delete, or is one short section with a near twin in the file (module docstring)."""
    if snippet is None or list(original) != list(result):
        return None
    last = tail_it_would_delete(original, snippet)
    if last is not None:
        return (f"the snippet would change nothing, yet it ends at {quote(last)} without a marker while the file "
                f"goes on; end it with a marker to keep the rest, or show the lines around what it deletes")
    twin = near_twin(original, snippet)
    if twin is not None:
        return (f"the snippet would change nothing: {code(apart(twin[0], twin[1]))} is already in the file, and so is the similar "
                f"{code(apart(twin[1], twin[0]))}, which it may mean to change; include the lines around the change")
    return None
