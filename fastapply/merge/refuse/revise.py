"""Apply a refusal's option to the snippet it was about: the edit a planner would make, mechanically.

`revise(snippet, option)` returns the snippet text with every edit of `option` (refusal.py's
`Edit`: insert, marker, deleted, move, remove, added) applied. Line numbers in the edits are the snippet's as
sent (1-based); the edits of one option are applied against those numbers, so they do not shift
each other. The snippet's line ending is kept. `placed(lines, option)` is the same revision line by
line, each line with where it came from (refuse/chained.py maps a second option's numbers back so).

Example:

    >>> from fastapply.merge.refuse.refusal import Edit, Option
    >>> revise("b = 2\\n", Option("start with a marker", (Edit("marker", at=1, text="# ... existing code ..."),)))
    '# ... existing code ...\\nb = 2\\n'

This module edits text; it does not know why the refusal offered the option, nor merge anything.
"""

from __future__ import annotations

from typing import Callable

from fastapply.merge.refuse.refusal import Option
from fastapply.merge.text.markers import is_marker


def _split(text: str) -> tuple[list[str], str, bool]:
    newline = "\r\n" if "\r\n" in text else "\n"
    ends = text.endswith(("\n", "\r"))
    return text.splitlines(), newline, ends


def revise(snippet: str, option: Option, marker: Callable[[str], bool] = is_marker) -> str:
    """`snippet` with `option`'s edits applied; ValueError when an edit's numbers do not fit it.
    Where the lines put below one section and those put above the next meet at the marker between
    them, the same original lines at the end of the one and the start of the other (two sections
    each closed in by the lines between them), the marker stands for nothing: it goes, and the
    shared lines are written once (`_met`; `marker` says which snippet lines are markers)."""
    lines, newline, ends = _split(snippet)
    out = [text for text, _ in _met(placed(lines, option), marker)]
    return newline.join(out) + (newline if ends or not lines else "")


def _met(out: list[tuple[str, tuple[int, int]]], marker: Callable[[str], bool]) -> list[tuple[str, tuple[int, int]]]:
    """`placed`'s lines without each snippet marker whose put lines on both sides overlap: the
    lines put right before it end with the lines put right after it begin with (at least one line
    that is not blank); the marker and the second copy of the overlap go."""
    out = list(out)
    m = 0
    while m < len(out):
        text, (_, i) = out[m]
        if i != -1 or not marker(text):
            m += 1
            continue
        a = m
        while a > 0 and out[a - 1][1][1] != -1:
            a -= 1
        b = m + 1
        while b < len(out) and out[b][1][1] != -1:
            b += 1
        above, below = [t for t, _ in out[a:m]], [t for t, _ in out[m + 1 : b]]
        n = next((n for n in range(min(len(above), len(below)), 0, -1)
                  if above[-n:] == below[:n] and any(t.strip() for t in below[:n])), 0)
        if n:
            del out[m : m + 1 + n]
        m += 1
    return out


def placed(lines: list[str], option: Option) -> list[tuple[str, tuple[int, int]]]:
    """The revised snippet's lines, each with where it came from: (k, -1) for snippet line k (0-based)
    kept, (k, i) for the i-th line put before snippet line k (k = the length: appended).
    ValueError when an edit's numbers do not fit `lines`."""
    n = len(lines)
    before: dict[int, list[str]] = {}  # 0-based index -> lines put before it (n: at the end)
    removed: set[int] = set()
    added: set[int] = set()
    for edit in option.edits:
        if edit.action in ("insert", "marker", "deleted"):
            if edit.at is None or edit.text is None or not 1 <= edit.at <= n + 1:
                raise ValueError(f"{edit.action} at {edit.at} does not fit a snippet of {n} lines")
            text = edit.text.split("\n")
            if edit.action == "deleted":
                text = [f"-{line}" for line in text]
            before.setdefault(edit.at - 1, []).extend(text)
        else:
            if edit.start is None or edit.end is None or not 1 <= edit.start <= edit.end <= n:
                raise ValueError(f"{edit.action} of lines {edit.start}-{edit.end} does not fit a snippet of {n} lines")
            span = range(edit.start - 1, edit.end)
            if edit.action == "added":
                added.update(span)
                continue
            removed.update(span)
            if edit.action == "move":
                if edit.at is None or not 1 <= edit.at <= n + 1 or edit.start <= edit.at <= edit.end:
                    raise ValueError(f"move to {edit.at} does not fit lines {edit.start}-{edit.end}")
                before.setdefault(edit.at - 1, []).extend(lines[k] for k in span)
    out: list[tuple[str, tuple[int, int]]] = []
    for k in range(n + 1):
        out.extend((text, (k, i)) for i, text in enumerate(before.get(k, ())))
        if k < n and k not in removed:
            out.append(("+" + lines[k] if k in added else lines[k], (k, -1)))
    return out
