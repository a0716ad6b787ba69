"""A replaced statement kept beside its replacement: the same target assigned twice, nothing read between.

A planner rewrites a statement and shows only the new one; the merge inserts it and keeps the old
one, which a marker covers (line-level doubts miss it when the two read differently).
`check_replaced_kept` refuses (new-or-changed) when, in one block of the result, two assignments
to the same target follow each other with nothing reading it between, one inserted by the merge
and the other an original line the snippet does not show. An assignment is `target = ...` /
`target := ...`, with an optional declaration keyword and type annotation.

It knows no snippet form and no merge rule: it reads the finished file against the original and
the snippet's lines.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.refuse.refusal import Line, Refusal
from fastapply.merge.text.compare import added, line_opcodes, origins
from fastapply.merge.text.lines import indent_len

_ASSIGN = re.compile(
    r"^(?:(?:let|var|const|my|local|auto|final|val)\s+)?(?:mut\s+)?([A-Za-z_$@][\w$.@]*)\s*"
    r"(?::\s*[\w<>\[\], ]+)?\s*(?::=|(?<![=!<>+\-*/%&|^~])=(?![=>~]))"
)
_REACH = 60  # lines searched below an assignment for the next one to the same target


def _target(line: str) -> tuple[str, int] | None:
    """(target, end of the assignment operator) when `line` assigns, else None."""
    m = _ASSIGN.match(line.strip())
    return (m.group(1), m.end()) if m else None


def check_replaced_kept(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> Refusal | None:
    shown = {line.strip() for line in snippet if line.strip()}
    ops = line_opcodes(original, result)
    inserted = added(ops)
    old_at = origins(ops)  # result index -> original index, for lines the merge kept
    unshown = lambda k: k in old_at and result[k].strip() not in shown  # noqa: E731
    for i, line in enumerate(result):
        found = _target(line)
        if found is None or not (i in inserted or unshown(i)):
            continue
        target, depth = found[0], indent_len(line)
        reads = re.compile(r"(?<![\w$.@])" + re.escape(target) + r"(?![\w$])")
        for j in range(i + 1, min(len(result), i + _REACH)):
            other = result[j]
            if not other.strip():
                continue
            if indent_len(other) < depth:
                break
            again = _target(other) if indent_len(other) == depth else None
            if again is not None and again[0] == target:
                if reads.search(other.strip()[again[1]:]):
                    break
                if (i in inserted and unshown(j)) or (j in inserted and unshown(i)):
                    old, new = (j, i) if unshown(j) else (i, j)
                    cause = (f"`{result[new].strip()[:60]}` assigns `{target}` again right beside the original "
                             f"`{result[old].strip()[:60]}` (original line {old_at[old] + 1}), which the snippet does "
                             "not show, with nothing reading it between: it may replace that line")
                    fix = (f"if it replaces it, show original line {old_at[old] + 1} deleted (the lines around it, or a "
                           "`-` line); if both stay, include that line in the snippet")
                    return Refusal("new-or-changed", cause, fix, original=(Line(old_at[old] + 1, result[old]),))
                break
            if reads.search(other):
                break
    return None
