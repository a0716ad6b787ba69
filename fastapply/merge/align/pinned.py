"""Floating sections pinned by a changed line: of several equal places, the one whose stretch of the
original holds the old form of a line the section changes, when no other place's stretch does.

A section with no anchor whose first line occurs at several places (floating.py raises
`Ambiguous`) is not always ambiguous: the section may change a line (an edited copy,
edits.same_edit: the same leading name, a line continued or reworded at its end) whose old form
sits after one of those places only. That line settles the place: an edit of `description(str:
string): Command;` belongs where `description(str: string): Command;` is, not after the other three
`* @param {string} str` lines. It is a fact about the original (the old line exists there and
nowhere else after the first place), not a resemblance score: every original line the changed
line could be an edit of lies in one place's stretch.

A place's *stretch* runs from it to the next rival place (the last one's to the window's end). In
that stretch the section's lines are anchored again (`place(i, cursor, lo, hi, pinned=True)`,
lazy.py: unique lines within the stretch), so the usual edge rules read the changed line as the
edit of its old form.

Worked example: `* @param {string} str` at original lines 44, 228, 246, 255; the section goes on
`* @return {(Command | string)}`, `*/`, `description(str: string, args?: ...): Command;`. The old
forms of that last line (`description(str: string): Command;`, `description(): string;`) lie at
231-232 only, in the stretch [228, 246): the section is anchored there (`* @param` at 228,
`* @return` at 229) and its last line replaces line 231.

This module knows lines and the rival places; placing a section is the caller's.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from fastapply.merge.align.anchors import collapse
from fastapply.merge.text.lines import is_generic
from fastapply.merge.align.edge_edits import same_edit

MAX_PLACES = 12  # rival places beyond which a section's first line is too common to pin by stretch


def pinned_stretch(sec: Sequence[str], orig: Sequence[str], key, places: Sequence[int], lo: int,
                   hi: int) -> tuple[int, int, list[int]] | None:
    """(start, end, old forms) of the one rival place's stretch of orig[lo:hi] that holds the
    original lines a changed section line is an edited copy of (their positions), or None.

    A changed line is a non-blank, non-generic section line whose key occurs nowhere in the
    original. Its old forms are looked for from the first place on (the section starts at a place,
    so a line above them is none it can change). A changed line with no old form there, or old
    forms in several stretches (`* @param` edits every doc comment alike), says nothing; two
    changed lines pinning different stretches pin nothing."""
    places = sorted(p for p in places if lo <= p < hi)
    if not 1 < len(places) <= MAX_PLACES:
        return None
    known = {key(line) for line in orig}
    changed = [l for l in sec if l.strip() and not is_generic(l) and key(l) not in known]
    stretches = [(p, q) for p, q in zip(places, places[1:] + [hi])]
    pinned: set[tuple[int, int]] = set()
    forms: list[int] = []
    heads = {o: _head(orig[o]) for o in range(places[0], hi) if orig[o].strip()}
    for line in changed:
        head = _head(line)
        olds = [o for o, h in heads.items() if _may_edit(head, h) and collapse(orig[o]) != collapse(line)
                and same_edit(line, orig[o])]
        holding = {s for s in stretches if any(s[0] <= o < s[1] for o in olds)}
        if len(holding) == 1:
            pinned |= holding
            forms += olds
    if len(pinned) != 1:
        return None
    start, end = next(iter(pinned))
    return start, end, sorted(forms)


_DECLARE = re.compile(r"^(?:var|let|const)\s+")
_TOKEN = re.compile(r"[^\s(=:{,;]+")


def _head(line: str) -> tuple[str, str]:
    """A line's first three characters and first token, collapsed, without a declaration keyword."""
    text = _DECLARE.sub("", collapse(line))
    token = _TOKEN.match(text)
    return text[:3], token.group(0) if token else ""


def _may_edit(a: tuple[str, str], b: tuple[str, str]) -> bool:
    """A cheap necessary condition for edge_edits.same_edit (same leading name, a shared prefix, the same
    name declared another way all start alike): lines that start differently are not compared."""
    return a[0] == b[0] or (a[1] != "" and a[1] == b[1])


def pinned_place(place: Callable, i: int, sec: Sequence[str], orig: Sequence[str], key,
                 places: Sequence[int], cursor: int, hi: int):
    """(span, lines) for section `i` placed within the stretch `pinned_stretch` finds, or None:
    no stretch, the section cannot be placed there without doubt, or placed there it replaces no
    old form of its changed lines (then they were new lines, not edits, and pinned nothing).
    `place(i, cursor, lo, hi, pinned=True)` places it anchored on the lines unique in [lo, hi)."""
    stretch = pinned_stretch(sec, orig, key, places, cursor, hi)
    if stretch is None:
        return None
    start, end, forms = stretch
    try:
        placed = place(i, cursor, start, end, pinned=True)
    except Exception:  # Ambiguous, Unplaceable: the stretch settles nothing
        return None
    if placed is None:
        return None
    span, lines = placed
    if not start <= span.start <= span.end <= end:
        return None
    if not any(span.start <= o < span.end and orig[o] not in lines for o in forms):
        return None  # the changed line replaces no old form of it: it was no edit of one
    return placed
