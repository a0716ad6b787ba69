"""Blank lines at a section's edges: which belong to the section and which to the original.

A section between markers is trimmed of the blank lines next to its markers (they carry no
position; `trim_blank_edges`); a first section without a marker before it and only blank lines
above its matched run starts at the file's first line, with the snippet's own first lines
(`blank_only`); new lines inserted between a marker and a matched run that opens with blank
lines go beyond those blank lines, the original's separation between blocks (`blank_separation`; not for a comment ending a section, which goes right above
the line the marker keeps, nor for a new import next to a kept one).
After a new sibling block, the blank lines before the closing marker take the original's spacing
between siblings (`sibling_spacing`).

This module knows lines and sections, not anchors or candidates (edges.py uses it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Sequence

from fastapply.merge.snippet.sections import Section
from fastapply.merge.text.imports import bound_names
from fastapply.merge.text.lines import blank_ends, bracket_balance


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
    """True for a non-empty run of blank lines. A snippet without a marker before its first
    section starts at the file's edge; when all the original has above the section's matched
    run is blank lines, no forgotten marker can have meant to keep them (a marker stands for
    code), so the section starts at line 1 and the snippet's own first lines (blank or not)
    replace them: a file that loses or keeps its leading blank line as the snippet shows.
    Not mirrored at the file's end: a snippet's trailing blank lines are unreliable (stripped
    text, fences), so the original's last blank lines stay."""
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

    The snippet shows new code, a blank line, then original code; the original has a blank line
    between the code the marker keeps (`beyond`, non-blank) and that code. Read as matched
    context, the blank line would glue the new code to `beyond`; it is the original's separation
    between blocks, kept on its side, and the snippet's blank line separates the new code from
    the run. A snippet that shows blank lines between the marker and its new code (a lead) keeps
    them instead, so this applies only without one.

    Not when the new line next to `beyond` (`new_edge`) is an import and so is `beyond` (imports
    group together: `#include <iostream>` after `#include "shop.h"`), nor at a section's `tail`
    when it is a comment (ending a section before its marker): it belongs to `beyond`, the code
    the marker keeps next, and goes right above it, after the original's blank line."""
    if not beyond.strip() or (tail and _LEAD_IN.match(new_edge.strip())) or (_import(new_edge) and _import(beyond)):
        return 0
    k = 0
    while k < len(run) and not run[k].strip():
        k += 1
    return k if k < len(run) else 0


def sibling_spacing(orig: Sequence[str], at: int, trail: int) -> int:
    """How many of a section's `trail` blank lines (before its closing marker) to keep after a
    new sibling block inserted at original index `at`, before the next one: the original's own
    spacing between siblings (the blank lines right above `at`), at least one, at most `trail`.
    Blank lines next to a marker carry no position; the marker keeps the original's spacing."""
    k = 0
    while at - k - 1 >= 0 and not orig[at - k - 1].strip():
        k += 1
    return max(1, min(k, trail))
