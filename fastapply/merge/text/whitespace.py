"""Blank runs the snippet does not show keep the original's length, whichever merger wrote them.

Blank lines next to a marker (or at a snippet's end) carry no content; a merger that keeps them
beside the original's own doubles a run. `keep_original_whitespace` (called by instant.py on the
result it writes) shortens a maximal blank run between two non-blank lines whose length the
snippet shows nowhere to the original's: the run between the two lines' originals when the diff
pairs both, else the original's run on the paired line's side (at least one blank line).

`dedent` removes a snippet's common indentation and keeps whitespace-only lines (the lines the
whole-definition merger writes).

Not done here, measured (2026-11-26, seven tuned sets): writing every paired line with the
original's whitespace turned 15-17 right files wrong per 700-row set and fixed none; lengthening
a shorter run back turned rights wrong too. Runs at the file's edges and indentation are left as
the merger wrote them. This module knows
lines, not markers.
"""

from __future__ import annotations

import os
from typing import Sequence

from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import collapse, indentation

__all__ = ["dedent", "keep_original_whitespace"]


def dedent(text: str) -> str:
    """`text` without the indentation all its non-blank lines share. Unlike `textwrap.dedent`, a
    whitespace-only line keeps its whitespace beyond that margin: the snippet shows it so (a
    blank line indented to its block), and the merger writes it as shown."""
    lines = text.split("\n")
    margin = os.path.commonprefix([indentation(l) for l in lines if l.strip()])
    if not margin:
        return text
    return "\n".join(l[len(margin):] if l.startswith(margin) else "" if margin.startswith(l) else l for l in lines)


def keep_original_whitespace(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> list[str]:
    """`result` with every blank run the snippet does not show no longer than the original's
    (module docstring)."""
    origin: list[int | None] = [None] * len(result)  # each result line's original index, where the diff pairs one
    for tag, i1, i2, j1, j2 in line_opcodes([l.rstrip() for l in original], [l.rstrip() for l in result]):
        if tag == "equal":
            origin[j1:j2] = range(i1, i2)
    return _settle_blank_runs(list(result), origin, original, snippet)


def _settle_blank_runs(out: list[str], origin: list[int | None], original: Sequence[str],
                       snippet: Sequence[str]) -> list[str]:
    shown = _shown_runs(snippet)
    settled: list[str] = []
    j = 0
    while j < len(out):
        if out[j].strip():
            settled.append(out[j])
            j += 1
            continue
        b = j
        while b < len(out) and not out[b].strip():
            b += 1
        run = out[j:b]
        if 0 < j and b < len(out) and (collapse(out[j - 1]), b - j, collapse(out[b])) not in shown:
            run = _original_run(run, origin[j - 1], origin[b], original)
        settled.extend(run)
        j = b
    return settled


def _original_run(run: list[str], above: int | None, below: int | None, original: Sequence[str]) -> list[str]:
    """The blank run between two result lines (their original indexes, None for a new line), no
    longer than the original's there."""
    if above is not None and below is not None and below > above:
        between = original[above + 1 : below]
        if between and len(between) < len(run) and not any(l.strip() for l in between):
            return list(between)  # the original's own neighbours: the original's own run
        return run
    if below is not None:  # new code above an original line: no longer than the original's run above it
        k = below
        while k > 0 and not original[k - 1].strip():
            k -= 1
        return run[: max(1, below - k)]
    if above is not None:  # new code below an original line: no longer than the original's run below it
        k = above + 1
        while k < len(original) and not original[k].strip():
            k += 1
        return run[: max(1, k - above - 1)]
    return run


def _shown_runs(snippet: Sequence[str]) -> set[tuple[str, int, str]]:
    """(line above, blank lines, line below) for every blank run the snippet shows between two
    non-blank lines, on collapsed text (a `+` diff prefix read both with and without)."""
    found = _runs([_keys(line) for line in snippet])
    if any(line.startswith("-") for line in snippet):  # a diff's removed lines stand between no shown lines
        found |= _runs([_keys(line) for line in snippet if not line.startswith("-")])
    return found


def _runs(keys: Sequence[tuple[str, ...]]) -> set[tuple[str, int, str]]:
    rows = [k for k, key in enumerate(keys) if key]
    return {(up, b - a - 1, down) for a, b in zip(rows, rows[1:]) for up in keys[a] for down in keys[b]}


def _keys(line: str) -> tuple[str, ...]:
    """A snippet line's collapsed text (and without a `+` diff prefix); () for a blank line."""
    text = collapse(line)
    if not text or text == "+":
        return ()
    if text.startswith("+"):
        return (text, collapse(text[1:]))
    return (text,)
