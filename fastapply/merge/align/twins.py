"""Floating sections settled by twins: of several equal places, the one whose whole reading pastes no
second copy of an original line, when every other place's reading does or cannot be made.

A section with no anchor that fits several places equally well (floating.py raises `Ambiguous`),
which neither order (order.py), a changed line (pinned.py) nor open blocks (enclosed.py) settle, is
read once per place: the section forced into that place's stretch (up to the next rival place),
the sections after it placed as usual. A reading that shows a line of the original more often than
the original and the snippet together (compare.copied_lines: a section that had to be
inserted beside the lines it repeats because an earlier one took its place) is no reading of the
snippet: the copy guard would refuse it anyway. When exactly one place gives a complete reading
without such copies and every other place's reading (or its best guess, when a later section is
undecided there) has them or cannot be placed at all, that place is the section's. Later sections
with rival places of their own are settled the same way inside each reading (a chain of alike
docstrings, each section changing one), within one budget of readings per merge (lazy.TWIN_READS);
a reading the budget does not allow leaves the choice open.

Worked example: six sections each change the `.expect(...)` of one test; section 4 shows
`.get('/')`, `.set('Host', 'tobi.ferrets.sub.example.com')` and a changed `.expect`, which fit the
tests at lines 63 and 79. Forced to 79, section 5 (the same two lines, another `.expect`) finds no
`.set('Host', 'tobi.ferrets.sub.example.com')` after it and inserts a second copy: only line 63 is
left.

This module knows the copy check and the rival places; reading the snippet with a section forced is
the caller's (`read(force)`, lazy.py).
"""

from __future__ import annotations

from typing import Callable, Sequence

from fastapply.merge.text.compare import copied_lines

MAX_RIVALS = 12  # places beyond which a section's first line is too common to read once per place


def twin_free_stretch(read: Callable, orig: Sequence[str], snippet: Sequence[str], places: Sequence[int],
                      cursor: int, hi: int) -> tuple[int, int] | None:
    """(start, end) of the one rival place's stretch whose complete reading, `read((start, end))`
    (a `Merged`, None when no more readings are allowed), pastes no copy of an original line, or
    None. Every other stretch's reading must paste copies (its candidate, when refused) or place
    nothing; a refused reading whose candidate is clean, or one not made, leaves the choice open."""
    starts = sorted(p for p in set(places) if cursor <= p < hi)
    if not 1 < len(starts) <= MAX_RIVALS:
        return None
    clean: list[tuple[int, int]] = []
    for k, p in enumerate(starts):
        stretch = (p, starts[k + 1] if k + 1 < len(starts) else hi)
        merged = read(stretch)
        if merged is None:
            return None  # no more readings allowed: the choice stays open
        lines = merged.lines if merged.lines is not None else merged.candidate
        if lines is None or copied_lines(orig, lines, snippet):
            continue  # no reading there, or one that pastes a twin
        if merged.lines is None:
            return None  # undecided further on, its best guess clean: the place is not excluded
        clean.append(stretch)
    return clean[0] if len(clean) == 1 else None
