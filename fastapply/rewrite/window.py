"""The windowed rewrite: when the instant merge knows where it is unsure, the model rewrites only
that window of the file, and the result is spliced back.

`choose_window(lines, regions)` takes the undecided original line ranges the instant merge
reports (`MergeResult.regions`), joins them, widens the span to the enclosing top-level blocks
(up to the nearest line at column 0 above, and down to the line at column 0 that closes or
follows it, blank lines at its end left out), and returns it, or None when there is nothing to
gain (no regions, or the window would be most of the file, or longer than `MAX_LINES`).
`strip_edge_markers(text)` drops marker lines at the very start or end of the model's answer for
a window: they stand for the code outside it, which the splice puts back.
`split_around(text, window)` cuts the original into head, window and tail (LF line endings).

Worked example: a 2,500-line file whose instant merge refused with regions [(1200, 1204)] inside
a 30-line function gets a window of about 36 lines; the model reads and writes those, and the
edit costs what an edit of a 40-line file costs.

This module knows lines and indentation, nothing about tokens or models.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

MAX_LINES = 240  # a longer window is not cheaper enough to risk: rewrite the whole file instead
MOST_OF_FILE = 0.7  # a window over this share of the file gains little


@dataclass(frozen=True)
class Window:
    start: int  # first original line, 0-based
    end: int  # one past the last


def _top_level(line: str) -> bool:
    return bool(line.strip()) and not line[:1].isspace()


def _closes(line: str) -> bool:
    return line.strip()[:1] in ("}", ")", "]") or line.strip() == "end"


def choose_window(lines: Sequence[str], regions: Sequence[tuple[int, int]]) -> Window | None:
    """The window the model rewrites for these undecided regions, or None (see the module doc)."""
    n = len(lines)
    if n == 0:
        return None
    # A region at the very end (an append after the last line) is clamped onto the last line.
    spans = [(min(max(0, s), n - 1), min(n, max(e, s + 1))) for s, e in regions if e > s]
    if not spans:
        return None
    lo = min(s for s, _ in spans)
    hi = max(e for _, e in spans)
    first = next((k for k in range(lo, hi) if lines[k].strip()), None)
    above = next((k for k in range(lo - 1, -1, -1) if lines[k].strip()), None)
    if first is not None and first > lo and _top_level(lines[first]) and above is not None and not _top_level(lines[above]):
        # blank lines between a block's body and a top-level line: the window starts at that line
        # rather than taking in the whole block above (a top-level one-liner above is kept as context)
        lo = first
    if lo > 0 and _closes(lines[lo]):
        lo -= 1  # a region starting on a block's closing line belongs to that block
    while lo > 0 and not _top_level(lines[lo]):
        lo -= 1
    while hi < n and not _top_level(lines[hi]):
        hi += 1
    if hi < n and _closes(lines[hi]):
        hi += 1  # the block's closing line belongs to it
    # Whole blocks only, without the blank lines around them: a window that starts or ends inside
    # another block reads, to a model trained on whole files, like a truncated file (measured: it
    # dropped the partial block), and blank lines at its edges were dropped or doubled.
    while hi > lo + 1 and not lines[hi - 1].strip():
        hi -= 1
    if hi - lo > MAX_LINES or hi - lo > MOST_OF_FILE * n:
        return None
    return Window(lo, hi)


def split_around(lf_text: str, window: Window) -> tuple[str, str, str]:
    """(head, window text, tail) of an LF-normalised file; head + window + tail == lf_text."""
    lines = lf_text.split("\n")
    final_newline = lf_text.endswith("\n")
    if final_newline:
        lines.pop()
    head = "".join(line + "\n" for line in lines[: window.start])
    middle = "".join(line + "\n" for line in lines[window.start : window.end])
    rest = lines[window.end :]
    tail = "\n".join(rest) + ("\n" if final_newline and rest else "")
    if not rest and not final_newline and middle:
        middle = middle[:-1]
    return head, middle, tail


def strip_edge_markers(text: str) -> str:
    """The window answer without marker lines (and the blank lines next to them) at its very
    start or end: there they stand for the head and tail of the file, which the splice restores.
    A marker anywhere else stays (and the markers guard refuses it)."""
    from fastapply.merge.text.markers import is_marker

    lines = text.split("\n")
    final = lines and lines[-1] == ""
    if final:
        lines.pop()
    while lines and is_marker(lines[0]):
        lines.pop(0)
    while lines and is_marker(lines[-1]):
        lines.pop()
    return "\n".join(lines) + ("\n" if final and lines else "")
