"""Options for a line the snippet adds round an original one: the original line it wraps pins it.

A planner that wraps an original line (`with map_exceptions():` above a re-indented
`self._pool.__exit__(...)`, a `try {` above a call) sends the new line, which the file may hold
at several places (every other call site is wrapped already), right above the original line,
which the file holds once. The merge doubts the new line among its copies; the pins it offers are
at those copies, never at the wrapped line's own place, which is where the planner means.

`wrapped(inp)` offers, for each section whose first (last) content line is not one the file holds
once and whose next (previous) content line is one it holds once (and distinctive), the unchanged
original lines above (below) that line's place, up to one the file holds once, put above (below)
the section: the edge line is then new right there. None where the original already has the edge
line next to the wrapped one (nothing new there to pin).

This module builds options from an `Input` (reading.py); which refusal gets them is explain.py's.
"""

from __future__ import annotations

from fastapply.merge.refuse.options import below, reach
from fastapply.merge.refuse.reading import Input, holds_once
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.lines import next_non_blank
from fastapply.merge.text.spans import code, cut


def wrapped(inp: Input) -> tuple[Option, ...]:
    """The options that pin each section's unplaced edge line next to the original line it wraps
    (see the module docstring)."""
    where = {line.strip(): i for i, line in enumerate(inp.original)}
    out: list[Option] = []
    for a, b in inp.sections:
        content = [k for k in range(a, b + 1) if inp.snippet[k].strip()]
        if len(content) < 2:
            continue
        for edge, inner, step in ((content[0], content[1], -1), (content[-1], content[-2], +1)):
            if holds_once(inp, edge) or not holds_once(inp, inner):
                continue
            p = where[inp.snippet[inner].strip()]
            beside = next_non_blank(inp.original, p + step, step)
            if beside is not None and inp.original[beside].strip() == inp.snippet[edge].strip():
                continue  # the original has the edge line there already
            q = reach(inp, p + step, step)
            if q is None or q == p:
                continue
            text = cut(inp.snippet[edge])
            if step < 0:
                says = (f"add the unchanged original lines {q + 1}-{p} above snippet line {edge + 1} if {code(text)} "
                        f"is new right before original line {p + 1}")
                edits = (Edit("insert", at=edge + 1, text="\n".join(inp.original[q:p]), original_line=q + 1),)
            else:
                says = (f"add the unchanged original lines {p + 2}-{q + 1} below snippet line {b + 1} if "
                        f"{code(text)} is new right after original line {p + 1}")
                edits = below(inp, b, p + 1, q)
            option = Option(says, edits)
            if option not in out:
                out.append(option)
    return tuple(out)
