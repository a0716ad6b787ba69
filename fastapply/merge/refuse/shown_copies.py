"""Options for a duplicate refusal whose extra copy may be meant: show the original's copy too.

A duplicate refusal (a definition or distinctive line the merge would hold more often than the
original or the snippet has it) is right when the snippet's copy was pasted beside the original
one. It is also what the merge says when the file is meant to hold the line twice (a new
`def make_users():` written above the test that used to hold the same lines): the guard cannot tell,
because the snippet shows the line fewer times than the result holds it. A planner who means
both copies answers by showing the original's copy as unchanged context, between markers, where
the file has it; the snippet then shows the line as often as the result holds it.

`copies_shown(inp, refusal, candidate)` adds that option (one, before the refusal's own): for each
line the candidate holds more often than the original and the snippet, each original copy the
snippet's sections do not span, shown with its neighbours (until the block holds a line the file
has once) in the gap between the two sections around it, where the snippet already has a marker.
Nothing is offered where a section's place is unknown, the sections are out of file order, a copy
falls inside a section or in a gap without a marker, or the blocks would overlap.

This module builds one option from the candidate and the input; it knows no guard and no sentence.
"""

from __future__ import annotations

from collections import Counter

from fastapply.merge.refuse.options import indented
from fastapply.merge.refuse.reading import Input, holds_once, unique
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.text.lines import distinctive, is_generic, next_non_blank

MAX_BLOCKS = 4  # blocks of original copies one option shows (more reads as a block kept twice, not meant copies)
REACH = 3  # original lines on each side of a copy its block may take to hold a line the file has once


def copies_shown(inp: Input, refusal: Refusal, candidate: str | None) -> Refusal:
    """`refusal` with the option that shows the original's copies of the lines the candidate
    holds too often, when it is a duplicate refusal and such an option can be placed."""
    if refusal.kind != "duplicate" or not candidate:
        return refusal
    option = _option(inp, candidate)
    if option is None or option in refusal.options:
        return refusal
    return refusal.with_(options=(option,) + refusal.options)


def _spans(inp: Input, extra: set[str]) -> list[tuple[int, int]] | None:
    """Each section's [first, last] original index over its lines the file holds once (but not
    the `extra` lines: the snippet's copy of one need not stand at the original's), or None when a
    section has no such line or the sections are not in file order."""
    where = {line.strip(): i for i, line in enumerate(inp.original)}
    spans = []
    for a, b in inp.sections:
        found = [where[inp.snippet[k].strip()] for k in range(a, b + 1)
                 if holds_once(inp, k) and inp.snippet[k].strip() not in extra]
        if not found:
            return None
        spans.append((min(found), max(found)))
    if any(p[1] >= q[0] for p, q in zip(spans, spans[1:])):
        return None
    return spans


def _block(inp: Input, x: int) -> tuple[int, int] | None:
    """Original indexes [lo, hi] around copy x, growing a line a side until the block holds a
    line the file has once (x itself, when it is such a line, with a neighbour on each side)."""
    n = len(inp.original)
    for r in range(1, REACH + 1):
        lo, hi = max(0, x - r), min(n - 1, x + r)
        if any(unique(inp, i) for i in range(lo, hi + 1)):
            while lo < x and not inp.original[lo].strip():
                lo += 1
            while hi > x and not inp.original[hi].strip():
                hi -= 1
            return lo, hi
    return None


def _marker_before(inp: Input, j: int) -> int | None:
    """The marker's snippet index between section j-1 (or the start) and section j, or None."""
    lo = inp.sections[j - 1][1] if j else -1
    found = [m for m in inp.markers if lo < m < inp.sections[j][0]]
    return found[-1] if found else None


def _marker_after_last(inp: Input) -> int | None:
    found = [m for m in inp.markers if m > inp.sections[-1][1]]
    return found[0] if found else None


def _option(inp: Input, candidate: str) -> Option | None:
    if not inp.sections:
        return None
    after = Counter(line.strip() for line in candidate.splitlines())
    shown = Counter(inp.snippet[k].strip() for k in range(len(inp.snippet)) if k not in inp.markers)
    extra = [t for t, n in after.items() if t and distinctive(t) and not is_generic(t)
             and n > max(inp.counts.get(t, 0), shown.get(t, 0)) and inp.counts.get(t, 0) >= 1
             and n <= shown.get(t, 0) + inp.counts[t]]
    spans = _spans(inp, set(extra))
    if not extra or spans is None:
        return None
    copies = sorted({i for i, line in enumerate(inp.original) if line.strip() in extra})
    blocks: list[tuple[int, int]] = []
    for x in copies:
        if any(lo <= x <= hi for lo, hi in spans) or any(lo <= x <= hi for lo, hi in blocks):
            continue
        block = _block(inp, x)
        if block is None:
            return None
        if blocks and block[0] <= blocks[-1][1] + 1:  # touching blocks show as one
            prev = blocks.pop()
            block = (prev[0], max(prev[1], block[1]))
        blocks.append(block)
    if not blocks or len(blocks) > MAX_BLOCKS:
        return None
    gaps: dict[int | None, list[tuple[int, int]]] = {}
    for lo, hi in blocks:
        j = next((j for j, (a, _) in enumerate(spans) if a > hi), None)
        above = spans[-1] if j is None else spans[j - 1] if j else None
        if above is not None and above[1] >= lo:
            return None  # the block reaches into a section's span
        gaps.setdefault(j, []).append((lo, hi))
    edits = []
    for j, shown_blocks in gaps.items():
        m = _marker_before(inp, j) if j is not None else _marker_after_last(inp)
        if m is None:
            return None
        edits.extend(_gap_edits(inp, j, m, shown_blocks))
    says = ", ".join(f"{lo + 1}-{hi + 1}" for lo, hi in blocks)
    return Option("if the file is meant to hold the repeated lines more than once, show the original's copies too: "
                  f"add the unchanged original lines {says} where the file has them, a marker for the lines "
                  "between", tuple(edits))


def _gap_edits(inp: Input, j: int | None, m: int, blocks: list[tuple[int, int]]) -> list[Edit]:
    """The edits that show `blocks` in the gap before section j (after the last section when j is
    None), whose marker is snippet line m: each block, then a marker, except that a block the
    section beside it follows (precedes) with only blank lines between joins that section."""
    edits: list[Edit] = []
    if j is None:
        last = inp.snippet[inp.sections[-1][1]].strip()
        lo, hi = blocks[0]
        above = next_non_blank(inp.original, lo - 1, -1)
        if above is not None and inp.original[above].strip() == last:  # the last section runs into the block
            lines = inp.original[above + 1 : hi + 1]
            edits.append(Edit("insert", at=m + 1, text="\n".join(lines), original_line=above + 2))
            blocks = blocks[1:]
        at = m + 2
    else:
        at = inp.sections[j][0] + 1
    first = inp.snippet[inp.sections[j][0]].strip() if j is not None else None
    for n, (lo, hi) in enumerate(blocks):
        lines = inp.original[lo : hi + 1]
        below = next_non_blank(inp.original, hi + 1)
        if n == len(blocks) - 1 and first is not None and below is not None and inp.original[below].strip() == first:
            edits.append(Edit("insert", at=at, text="\n".join(inp.original[lo:below]), original_line=lo + 1))
            continue  # the block runs into the section after it: no marker between
        edits.append(Edit("insert", at=at, text="\n".join(lines), original_line=lo + 1))
        edits.append(Edit("marker", at=at, text=indented(inp.marker, lines[0])))
    return edits
