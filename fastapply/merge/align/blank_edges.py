"""Blank lines at a section's edges: which belong to the section and which to the original.

`trim_blank_edges`: blank lines next to a section's markers carry no position; `blank_only`: a
first section with only blank lines above its matched run starts at line 1; `blank_separation`:
new lines between a marker and a matched run that opens with blank lines go beyond those (the
original's separation between blocks); `sibling_spacing`: after a new sibling block, the
original's spacing between siblings.

This module knows lines and sections, not anchors or candidates (edges.py uses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from fastapply.merge.snippet.sections import Section
from fastapply.merge.text.imports import bound_names
from fastapply.merge.text.lines import blank_ends, bracket_balance, next_non_blank


@dataclass(frozen=True)
class Trimmed:
    """A section without the blank lines at its marker edges (kept aside in `lead`/`trail`)."""

    section: Section
    lines: tuple[str, ...]
    lead: tuple[str, ...]
    trail: tuple[str, ...]

    @cached_property
    def balance(self) -> int:
        """`bracket_balance(lines)`, computed once: placement asks for the balance of all but a
        few edge lines once per candidate place, which is this minus those lines' balance."""
        return bracket_balance(self.lines)


def trim_blank_edges(section: Section) -> Trimmed:
    """Blank lines next to a marker (or at the snippet's start) carry no position; at the end of
    a snippet that runs to the file's end they are the file's own last lines."""
    lines = list(section.lines)
    a, b = blank_ends(lines)
    if not section.open_end and b > a:
        b = len(lines)  # the file's last lines: blank lines there are content
    return Trimmed(section, tuple(lines[a:b]), tuple(lines[:a]), tuple(lines[b:]))


def blank_only(lines: Sequence[str]) -> bool:
    """True for a non-empty run of blank lines (above a first section's matched run, no
    forgotten marker can have meant to keep them). Not mirrored at the file's end: a snippet's
    trailing blank lines are unreliable."""
    return bool(lines) and not any(line.strip() for line in lines)


# A comment line, which belongs to the line after it (`// Counts ...`, `# note`, `-- note`). Not a
# decorator or attribute: one that ends a section before a marker is refused as dangling
# (gate/dangling.py); laid above the next definition it wrote a tuned row wrong.
_LEAD_IN = re.compile(r"^(//|/\*|\*|--|#(?!\[|include\b|define\b|if|endif\b|else\b|pragma\b|import\b|!))")


def _import(line: str) -> bool:
    return bool(line.strip()) and bool(bound_names([line.strip()]))


def blank_separation(run: Sequence[str], beyond: str, new_edge: str = "", tail: bool = False) -> int:
    """How many blank lines that open a matched run (`run`, read away from the new lines) belong
    on the far side of new lines inserted between a marker and that run.

    Not when the new line next to `beyond` (the code the marker keeps; `new_edge`) and `beyond`
    are both imports, nor at a section's `tail` when it is a comment (it goes right above
    `beyond`)."""
    if not beyond.strip() or (tail and _LEAD_IN.match(new_edge.strip())) or (_import(new_edge) and _import(beyond)):
        return 0
    return next_non_blank(run, 0) or 0  # none when the run is all blank


def sibling_spacing(orig: Sequence[str], at: int, trail: int) -> int:
    """How many of a section's `trail` blank lines to keep after a new sibling block inserted at
    original index `at`: the blank lines right above `at`, at least one, at most `trail`."""
    k = 0
    while at - k - 1 >= 0 and not orig[at - k - 1].strip():
        k += 1
    return max(1, min(k, trail))
