"""Locating one section of a lazy snippet in the original for the greedy merge (greedy.py):
the comparison rungs (exact -> whitespace -> fuzzy), the head and tail searches, and the
ambiguity they report instead of guessing. See greedy.py's docstring for the whole algorithm.

This module knows lines and sections; it does not splice, and it does not know markers beyond
what a `Section` holds.
"""

from __future__ import annotations

import difflib
import functools
import operator
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from fastapply.merge.align.anchors import Span
from fastapply.merge.align.edge_edits import another_definition, same_edit
from fastapply.merge.text.compare import similar
from fastapply.merge.text.lines import SAME_NAME, balanced, bracket_balance, collapse, is_generic
from fastapply.merge.text.names import header_name
from fastapply.merge.snippet.sections import Section


RUNGS = ("exact", "whitespace", "fuzzy")


FUZZY_THRESHOLD = 0.9


def _eq_fuzzy(a: str, b: str) -> bool:
    ca, cb = collapse(a), collapse(b)
    if ca == cb:
        return True
    # Short lines (`}`, `end`, `return x`) are too easy to confuse: only equal counts for them.
    if not ca or not cb or min(len(ca), len(cb)) < 12:
        return False
    # difflib's two upper bounds of the ratio (`real_quick_ratio`: the lengths; `quick_ratio`: the
    # characters in common), computed before a matcher is built: most pairs stop here.
    length = len(ca) + len(cb)
    if 2.0 * min(len(ca), len(cb)) / length < FUZZY_THRESHOLD:
        return False
    if 2.0 * sum((_chars(ca) & _chars(cb)).values()) / length < FUZZY_THRESHOLD:
        return False
    matcher = difflib.SequenceMatcher(None, ca, cb, autojunk=False)
    return matcher.ratio() >= FUZZY_THRESHOLD and not _two_headers(ca, cb)


@functools.lru_cache(maxsize=1 << 14)  # each original line is compared with every section line
def _chars(text: str) -> Counter:
    return Counter(text)


def _two_headers(a: str, b: str) -> bool:
    """Two definition headers naming different things: `public function delta($x)` is not
    `public function beta($x)` however alike they read (text.names.header_name). Names at least
    lines.SAME_NAME alike are one definition renamed (`acceptsLanguages` -> `acceptsLanguage`)."""
    x, y = header_name(a), header_name(b)
    if x is None or y is None or x == y:
        return False
    return difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() < SAME_NAME


EQUALS: dict[str, Callable[[str, str], bool]] = {  # how two lines compare on each rung
    "exact": operator.eq, "whitespace": lambda a, b: collapse(a) == collapse(b), "fuzzy": _eq_fuzzy,
}


@dataclass(frozen=True)
class _Anchor:
    """Section lines `[s, s + n)` equal original lines `[o, o + n)`; `places` = all the places
    that matched as far as the section could tell them apart (one when unique)."""

    s: int
    o: int
    n: int
    places: tuple[int, ...]


BLANK_END = "(blank lines at the end)"  # what a doubt names when a section's trailing blank lines are the doubt


class GreedyAmbiguous(Exception):
    """Several places fit equally well; `s` is the section line that could not be pinned."""

    def __init__(self, what: str, places: Sequence[int], s: int = 0, doubt: bool = False,
                 span: Span | None = None, near: int | None = None):
        super().__init__(what)
        self.what = what
        self.places = tuple(places)
        self.s = s
        self.doubt = doubt  # not several places: an inserted line that may be a changed one
        self.span = span  # a best-guess span, if any
        self.near = near  # for a doubt: the similar original line (0-based), if one


def find_anchor(sec, orig, s_from, s_to, lo, hi, eq, pick_first=False, step=1) -> _Anchor | None:
    """First non-blank section line in [s_from, s_to) found in orig[lo:hi], extended forward
    until unique (`step` -1: the last one, extended backward). Raises `GreedyAmbiguous` when
    several places stay equally good."""
    for s in (range(s_from, s_to) if step > 0 else range(s_to - 1, s_from - 1, -1)):
        places = [o for o in range(lo, hi) if eq(orig[o], sec[s])]
        if not places:
            continue  # an inserted line: the anchor is further on
        n = 1
        # Narrow while several places fit, and also while the anchor is only blank lines.
        while (len(places) > 1 or not _shows_code(sec, s, n, step)) and s_from <= s + step * n < s_to:
            narrowed = [o for o in places if lo <= o + step * n < hi and eq(orig[o + step * n], sec[s + step * n])]
            if not narrowed:
                break
            places, n = narrowed, n + 1
        if not _shows_code(sec, s, n, step):
            continue  # blank lines alone are no anchor, however few of them the original has
        if len(places) > 1 and not pick_first:
            raise GreedyAmbiguous(sec[s], places, s)
        back = 0 if step > 0 else n - 1  # `s` and `o` name the anchor's first line
        return _Anchor(s - back, places[0] - back, n, tuple(places))
    return None


def _shows_code(sec, s: int, n: int, step: int) -> bool:
    """Whether the n section lines from `s` walking by `step` hold a non-blank line."""
    return any(l.strip() for l in (sec[s : s + n] if step > 0 else sec[s - n + 1 : s + 1]))


def _extend_forward(sec, orig, s, o, s_to, hi, eq) -> int:
    n = 0
    while s + n < s_to and o + n < hi and eq(orig[o + n], sec[s + n]):
        n += 1
    return n


def _extend_backward(sec, orig, s, o, s_from, lo, eq) -> int:
    n = 0
    while s - n - 1 >= s_from and o - n - 1 >= lo and eq(orig[o - n - 1], sec[s - n - 1]):
        n += 1
    return n


# --------------------------------------------------------------------------- locating a section


def locate(
    section: Section, orig: Sequence[str], lo: int, rung: str, hi: int | None = None,
    pick_first: bool = False,
) -> Span | None:
    """Place `section` in `orig[lo:hi]` using one rung's comparison.

    Returns None when the section cannot be anchored on this rung; raises `GreedyAmbiguous` when it
    can be anchored in several places that the section's lines cannot tell apart.
    """
    eq = EQUALS[rung]
    sec = section.lines
    hi = len(orig) if hi is None else hi
    # Head: where the span starts, and how far the section runs along the original from there.
    if section.open_start:
        try:
            head = find_anchor(sec, orig, 0, len(sec), lo, hi, eq, pick_first)
        except GreedyAmbiguous as amb:
            head = _head_before_tail(sec, orig, lo, hi, eq, amb) if section.open_end else None
            if head is None:
                raise
        if head is None:
            return None
        back = _extend_backward(sec, orig, head.s, head.o, 0, lo, eq)
        s0, start = head.s - back, head.o - back
        run = _extend_forward(sec, orig, s0, start, len(sec), hi, eq)
    else:
        s0, start = 0, lo
        run = _extend_forward(sec, orig, 0, lo, len(sec), hi, eq)
    # Tail: where the span ends.
    leftover: list[str] = []
    if not section.open_end:
        span = Span(start, hi, rung)
    elif s0 + run >= len(sec):
        span = Span(start, start + run, rung)  # the whole rest of the section is context
    else:
        span, leftover = _tail(sec, orig, s0, start, run, hi, eq, pick_first, rung)
    span = replace(span, skip=blank_lead(section, s0))
    if leftover and not pick_first:
        # Only blank lines left over after all the section's code matched: they are context
        # somewhere below (a deletion) or new spacing; the snippet cannot say which. (Read by
        # the convention they would be dropped like `blank_lead`'s; this doubt stays because it
        # also stops placements that are wrong elsewhere: dropping it wrote 2 more wrong files
        # in the generated planner set for 3 more right ones.)
        near = range(span.end, min(hi, span.end + len(leftover) + 2))
        doubtful = next((l for l in leftover if any(_similar(l, orig[o]) for o in near)), None)
        if doubtful is not None or not any(l.strip() for l in leftover):
            raise GreedyAmbiguous(doubtful or BLANK_END, (), 0, True, span, next(
                (o for o in near if doubtful is not None and _similar(doubtful, orig[o])), None))
    if not pick_first:
        _check_insertions(section, orig, lo, s0, start, span)
    return span


def blank_lead(section: Section, s0: int) -> int:
    """How many leading section lines to leave out: the `s0` lines before the head's matched run
    when the section follows a marker and they are all blank (they carry no position)."""
    if section.open_start and s0 > 0 and not any(line.strip() for line in section.lines[:s0]):
        return s0
    return 0


def _tail(sec, orig, s0, start, run, hi, eq, pick_first, rung) -> tuple[Span, list[str]]:
    """The span's end, and the section lines left over after it (inserted there)."""
    tail = find_anchor(sec, orig, s0 + run, len(sec), start + run, hi, eq, pick_first, -1)
    if tail is not None and _own_block_inserted(sec[s0 + run :], sec[tail.s : tail.s + tail.n],
                                                orig[start + run : tail.o], sec[s0 + run : tail.s]):
        tail = None  # the run's `}` closes its own block, wherever a `}` happens to match
    if tail is None:
        # Only insertions after the head's run. Trailing lines equal to the original lines right
        # after the run (typically blank lines) are context, not new copies of them.
        end = start + run
        for t in range(len(sec) - (s0 + run), 0, -1):
            if end + t <= hi and all(eq(orig[end + k], sec[len(sec) - t + k]) for k in range(t)):
                return Span(start, end + t, rung), []
        return Span(start, end, rung), list(sec[s0 + run :])
    fwd = _extend_forward(sec, orig, tail.s + tail.n, tail.o + tail.n, len(sec), hi, eq)
    return Span(start, tail.o + tail.n + fwd, rung), list(sec[tail.s + tail.n + fwd :])


def closes_own_block(rest: Sequence[str]) -> bool:
    """True when the lines after the head's matched run are a complete block of their own
    (balanced, never below zero, ending on a generic closer): where its `}` matches says nothing."""
    code = [line for line in rest if line.strip()]
    return bool(code) and is_generic(code[-1]) and bracket_balance(code[-1:]) < 0 and balanced(code)


OWN_BLOCK_RATIO = 2  # original lines a generic closing tail would replace, per line of the block


def _own_block_inserted(rest: Sequence[str], tail: Sequence[str], region: Sequence[str], repl: Sequence[str]) -> bool:
    """True when the lines after the head's run (`rest`) are a block of their own whose tail
    matched only generic closers (`tail`), and closing there would replace original lines
    (`region`) that do not start like it and are over OWN_BLOCK_RATIO times its lines (`repl`), or
    define another name: the block is inserted after the head's run, not stretched over them."""
    if not closes_own_block(rest) or not all(is_generic(line) for line in tail):
        return False
    if another_definition(repl, region):
        return True  # a new definition before a sibling: closing on the sibling's `}` would overwrite it
    if _opens_alike(region, repl):
        return False
    shown = sum(1 for line in repl if line.strip())
    return sum(1 for line in region if line.strip()) > OWN_BLOCK_RATIO * shown


def _opens_alike(region: Sequence[str], repl: Sequence[str]) -> bool:
    """True when a region and its replacement start with equal or alike lines (a new version)."""
    old = next((l for l in region if l.strip()), None)
    new = next((l for l in repl if l.strip()), None)
    if old is None or new is None or another_definition(repl, region):
        return False  # a new sibling definition (`delta(...)` before `beta(...)`) is no new version of it
    return collapse(old) == collapse(new) or same_edit(new, old) or similar(new, old)


def _similar(a: str, b: str) -> bool:
    """Equal but for whitespace (and not blank), or `edge_edits.similar`."""
    return bool(a.strip()) and collapse(a) == collapse(b) or similar(a, b)


def _check_insertions(section, orig, lo, s0, start, span: Span) -> None:
    """Lines a section shows before its first anchored line are read as insertions before the
    span. When one of them resembles an original line just before the span, it may instead be a
    changed version of that line (the snippet left out the context that would tell): refuse."""
    sec = section.lines
    if section.open_start and s0 > 0:
        near = range(max(lo, start - s0 - 2), start)
        doubtful = next((l for l in sec[:s0] if any(_similar(l, orig[o]) for o in near)), None)
        if doubtful is not None:
            raise GreedyAmbiguous(doubtful, (), 0, True, span, next(o for o in near if _similar(doubtful, orig[o])))


def _head_before_tail(sec, orig, lo, hi, eq, amb: GreedyAmbiguous) -> _Anchor | None:
    """Settle an ambiguous head with a unique tail: of the places the head fits, take the last
    one before the tail (the reading that deletes the least). None when the tail is no help."""
    try:
        tail = find_anchor(sec, orig, amb.s + 1, len(sec), lo, hi, eq, step=-1)
    except GreedyAmbiguous:
        return None
    if tail is None:
        return None
    before = [o for o in amb.places if o < tail.o]
    if not before:
        return None
    o = max(before)
    n = 1 + _extend_forward(sec, orig, amb.s + 1, o + 1, tail.s, tail.o, eq)
    return _Anchor(amb.s, o, n, tuple(amb.places))
