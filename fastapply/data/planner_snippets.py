"""Planner-style snippets from real (before, after) pairs: the shapes real coding assistants write.

Where `snippets.py` writes well-posed snippets under our own convention (enough context, a marker
at every elided edge), this module imitates what planners actually send (issue 9), so the instant
merge can be property-tested on them (right or refused, never wrong) and the model trained on them:

- `agent`:         Morph-style tool call: changed regions with 1-3 lines of context, `... existing code ...`;
- `chat`:          a chat answer: framed notes as markers (`# ... rest of the file unchanged ...`),
                   blank lines around markers;
- `skeleton`:      each region under its enclosing header line (`class A:` / `impl X {`), a marker
                   indented inside it;
- `diff_in_lazy`:  context plus `-` removed and `+` added lines, `@@` between regions;
- `minimal`:       the changed lines with at most one line of context (edge and lone edits);
- `inline`:        markers indented like the code they stand in for;
- `missing_edges`: like `agent` but without the leading and trailing markers.

Two more, in EXTRA_STYLES (the pattern grid uses them; `STYLES`, which the generated sets draw
from, is unchanged so those sets stay as they were):

- `context_above`: 2-4 lines above each change and none below, the change ending its section;
- `context_below`: the change opening its section, 2-4 lines below it.

`planner_snippet(before, after, language, style, rng)` returns a `PlannerSnippet` or None when the
pair has no change. Nothing here checks that a snippet is well-posed: an ambiguous one must be
refused by the merge, which is the point of the property test.

This module knows text and diffs, not the merge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fastapply.data.snippets import _indent, _lines, changed_regions, comment_prefix

STYLES = ("agent", "chat", "skeleton", "diff_in_lazy", "minimal", "inline", "missing_edges")
EXTRA_STYLES = ("context_above", "context_below")
_NOTES = ("... existing code ...", "... rest of the file unchanged ...", "... unchanged ...", "...",
          "... other methods unchanged ...", "... existing tests ...")


@dataclass(frozen=True)
class PlannerSnippet:
    """A snippet in one planner style, and the file it should produce."""

    style: str
    text: str
    expected: str


def _marker(language: str, indent: str, rng: random.Random, style: str) -> str:
    note = rng.choice(_NOTES) if style == "chat" else "... existing code ..."
    return f"{indent if style in ('inline', 'skeleton') else ''}{comment_prefix(language)} {note}"


def _header(lines: list[str], at: int) -> int | None:
    """The nearest line above `at` indented less than it (its enclosing header), or None."""
    depth = len(_indent(lines[at])) if at < len(lines) and lines[at].strip() else 0
    for i in range(at - 1, -1, -1):
        if lines[i].strip() and len(_indent(lines[i])) < depth:
            return i
    return None


def _windows(regions, after: list[str], ctx: int, below: int | None = None) -> list[tuple[int, int, list]]:
    """Merge changed regions (in after-coordinates) widened by `ctx` lines above (and `below`
    lines below, `ctx` unless given) into windows."""
    below = ctx if below is None else below
    windows: list[list] = []
    for region in regions:
        lo, hi = max(0, region[2] - ctx), min(len(after), region[3] + below)
        deletion = region[2] == region[3]
        # Context that is only blank lines pins nothing; a deletion needs a line on each side.
        while lo > 0 and (deletion or lo < region[2]) and not any(l.strip() for l in after[lo : region[2]]):
            lo -= 1
        while hi < len(after) and (deletion or hi > region[3]) and not any(l.strip() for l in after[region[3] : hi]):
            hi += 1
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], hi)
            windows[-1][2].append(region)
        else:
            windows.append([lo, hi, [region]])
    return [(lo, hi, regs) for lo, hi, regs in windows]


def planner_snippet(before: str, after: str, language: str, style: str, rng: random.Random) -> PlannerSnippet | None:
    """A snippet of `style` (one of STYLES) turning `before` into `after`, or None without a change."""
    if style not in STYLES + EXTRA_STYLES:
        raise ValueError(f"unknown planner style {style!r}")
    old, new = _lines(before), _lines(after)
    regions = changed_regions(old, new)
    if not regions:
        return None
    ctx = {"minimal": rng.choice((0, 1)), "agent": rng.choice((1, 2, 3))}.get(style, 2)
    below = None
    if style in EXTRA_STYLES:
        wide = rng.choice((2, 3, 4))
        ctx, below = (wide, 0) if style == "context_above" else (0, wide)
    out: list[str] = []
    cursor = 0
    for lo, hi, regs in _windows(regions, new, ctx, below):
        indent = _indent(new[lo]) if lo < len(new) else ""
        if style == "skeleton":
            head = _header(new, lo)
            if head is not None and head >= cursor:
                if head > cursor or (cursor == 0 and head > 0):
                    out.append(_marker(language, "", rng, style))
                out.append(new[head])
                cursor = head + 1
        if lo > cursor or (cursor == 0 and lo > 0):
            if style == "chat" and out:
                out.append("")
            out.append(_marker(language, indent, rng, style))
            if style == "chat":
                out.append("")
        if style == "diff_in_lazy":
            out.extend(_diff_lines(old, new, lo, hi, regs))
        else:
            out.extend(new[lo:hi])
        cursor = hi
    if cursor < len(new):
        out.append(_marker(language, _indent(new[cursor]), rng, style))
    if style == "missing_edges":
        while out and out[0].lstrip().startswith(comment_prefix(language) + " ..."):
            out.pop(0)
        while out and out[-1].lstrip().startswith(comment_prefix(language) + " ..."):
            out.pop()
    if style == "diff_in_lazy":
        out = ["@@ -0,0 +0,0 @@" if l.lstrip().startswith(comment_prefix(language) + " ...") else l for l in out]
    return PlannerSnippet(style, "\n".join(out) + "\n", after)


def _diff_lines(old: list[str], new: list[str], lo: int, hi: int, regs) -> list[str]:
    """After-lines [lo, hi) with each changed region shown as `-` old lines and `+` new ones."""
    out: list[str] = []
    j = lo
    for i1, i2, j1, j2 in regs:
        out.extend(new[j:j1])
        out.extend("-" + l for l in old[i1:i2])
        out.extend("+" + l for l in new[j1:j2])
        j = j2
    out.extend(new[j:hi])
    return out
