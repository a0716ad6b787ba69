"""The first-generation lazy merge (greedy, one section at a time), kept as a second reading: instant.py

A lazy snippet alternates *sections* (runs of new-file lines) and *markers* (one line standing for
an unchanged run of the original). The convention (see shared/data/README.md):

- two snippet lines adjacent with no marker between them are adjacent in the result, so a
  deletion is shown as context before and context after with nothing between;
- a snippet that does not start (end) with a marker starts (ends) at the file's first (last) line.

So each section replaces one span ``original[start:end]``, and each marker keeps the original lines
between two spans. Locating a span:

1. **head**: the section's first non-blank line that occurs in the original at or after the
   cursor, extended line by line until exactly one place matches; lines before it in the section
   are insertions, unless they equal the lines just before that place (then they are context).
2. **tail**: the same from the section's last lines, searched after the head's matched run; when
   no closing line occurs in the original, the section ends where its head's matched run ends
   (the rest is an insertion).
3. Every comparison runs on a ladder of rungs, `exact` -> `whitespace` (runs of whitespace
   collapsed) -> `fuzzy` (bounded similarity ≥ 0.9 per line); a looser rung is only tried when a
   stricter one cannot place the section. An ambiguous place is never resolved by a looser rung.

Worked example (original on the left, snippet on the right):

    0 import os              # ... existing code ...
    1                        def b():
    2 def a():                   return 2
    3     return 1           <- no marker here: `def c` directly follows in the result
    4                        def c():
    5 def b():                   return 30
    6     return 2           # ... existing code ...
    7
    8 def x():
    9     pass
   10
   11 def c():
   12     return 3
   13
   14 print(c())

One section, open at both ends. Head: `def b():` occurs once at line 5 -> start 5. Tail: the
last line `return 30` is not in the original; `def c():` occurs once after the head's run (line
11), extended back over nothing -> end 13. Result: lines 0-4, the section, lines 13-14; `def x`
(lines 7-10) is deleted because the snippet shows `b` and `c` adjacent.

This module knows lines and markers. It does not know languages, definitions, or whether the
result is trustworthy (guards.py decides that); it reports ambiguity instead of guessing.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable, Sequence

from fastapply.merge.markers import classify, is_elision

RUNGS = ("exact", "whitespace", "fuzzy")
FUZZY_THRESHOLD = 0.9


@dataclass(frozen=True)
class Section:
    """A run of snippet lines between markers; `open_start`/`open_end`: a marker before/after."""

    lines: tuple[str, ...]
    open_start: bool
    open_end: bool
    marker_indent_after: str | None = None


@dataclass(frozen=True)
class Span:
    """Where a section lands: it replaces `original[start:end]`."""

    start: int
    end: int
    rung: str
    ambiguous: bool = False  # True when `start`/`end` is a best guess among several places


@dataclass(frozen=True)
class LazyMerge:
    """The outcome of a lazy merge: `lines` when placed, else `refused_reason` (+ a candidate)."""

    lines: list[str] | None
    refused_reason: str | None
    rung: str | None
    candidate: list[str] | None = None
    spans: tuple[Span, ...] = field(default_factory=tuple)
    shown_lines: int = 0  # non-blank, non-marker snippet lines


# --------------------------------------------------------------------------- snippet structure


def split_sections(snippet: Sequence[str], original: Sequence[str]) -> list[Section]:
    """Cut the snippet at marker lines. Consecutive markers count as one; blank-only sections
    between markers are dropped (a blank line next to a marker carries no position)."""
    original_stripped = frozenset(line.strip() for line in original)
    sections: list[Section] = []
    current: list[str] = []
    open_start = False
    seen_any = False
    for line in snippet:
        if is_elision(line, original_stripped):
            marker = classify(line)
            if current and any(s.strip() for s in current):
                sections.append(Section(tuple(current), open_start, True, marker.indent))
            current = []
            open_start = True
            seen_any = True
            continue
        current.append(line)
    if current and (any(s.strip() for s in current) or not seen_any):
        sections.append(Section(tuple(current), open_start, False))
    elif sections and not current and not seen_any:
        pass
    return sections


def has_markers(snippet: Sequence[str], original: Sequence[str]) -> bool:
    original_stripped = frozenset(line.strip() for line in original)
    return any(is_elision(line, original_stripped) for line in snippet)


# --------------------------------------------------------------------------- line comparison


def _collapse(line: str) -> str:
    return " ".join(line.split())


def _eq_exact(a: str, b: str) -> bool:
    return a == b


def _eq_whitespace(a: str, b: str) -> bool:
    return _collapse(a) == _collapse(b)


def _eq_fuzzy(a: str, b: str) -> bool:
    ca, cb = _collapse(a), _collapse(b)
    if ca == cb:
        return True
    # Short lines (`}`, `end`, `return x`) are too easy to confuse: only equal counts for them.
    if not ca or not cb or min(len(ca), len(cb)) < 12:
        return False
    matcher = difflib.SequenceMatcher(None, ca, cb, autojunk=False)
    if matcher.real_quick_ratio() < FUZZY_THRESHOLD or matcher.quick_ratio() < FUZZY_THRESHOLD:
        return False
    return matcher.ratio() >= FUZZY_THRESHOLD


_EQ: dict[str, Callable[[str, str], bool]] = {
    "exact": _eq_exact, "whitespace": _eq_whitespace, "fuzzy": _eq_fuzzy,
}


@dataclass(frozen=True)
class _Anchor:
    """Section lines `[s, s + n)` equal original lines `[o, o + n)`; `places` = all the places
    that matched as far as the section could tell them apart (one when unique)."""

    s: int
    o: int
    n: int
    places: tuple[int, ...]


class _Ambiguous(Exception):
    """Several places fit equally well; `s` is the section line that could not be pinned."""

    def __init__(self, what: str, places: Sequence[int], s: int = 0, doubt: bool = False):
        super().__init__(what)
        self.what = what
        self.places = tuple(places)
        self.s = s
        self.doubt = doubt  # not several places: an inserted line that may be a changed one
        self.span: Span | None = None


def _find_forward(sec, orig, s_from, s_to, lo, hi, eq, pick_first=False) -> _Anchor | None:
    """First non-blank section line in [s_from, s_to) found in orig[lo:hi], extended forward
    until unique. Raises `_Ambiguous` when several places stay equally good."""
    for s in range(s_from, s_to):
        places = [o for o in range(lo, hi) if eq(orig[o], sec[s])]
        if not places:
            continue  # an inserted line: the anchor is further down
        n = 1
        # Narrow while several places fit, and also while the anchor is only blank lines.
        while (len(places) > 1 or not any(l.strip() for l in sec[s : s + n])) and s + n < s_to:
            narrowed = [o for o in places if o + n < hi and eq(orig[o + n], sec[s + n])]
            if not narrowed:
                break
            places, n = narrowed, n + 1
        if not any(line.strip() for line in sec[s : s + n]):
            continue  # blank lines alone are no anchor, however few of them the original has
        if len(places) > 1 and not pick_first:
            raise _Ambiguous(sec[s], places, s)
        return _Anchor(s, places[0], n, tuple(places))
    return None


def _find_backward(sec, orig, s_from, s_to, lo, hi, eq, pick_first=False) -> _Anchor | None:
    """Mirror of `_find_forward`: the last non-blank line in [s_from, s_to) that occurs in
    orig[lo:hi], extended backward until unique. `o` is the original index of its first line."""
    for s in range(s_to - 1, s_from - 1, -1):
        places = [o for o in range(lo, hi) if eq(orig[o], sec[s])]
        if not places:
            continue
        n = 1
        while (len(places) > 1 or not any(l.strip() for l in sec[s - n + 1 : s + 1])) and s - n >= s_from:
            narrowed = [o for o in places if o - n >= lo and eq(orig[o - n], sec[s - n])]
            if not narrowed:
                break
            places, n = narrowed, n + 1
        if not any(line.strip() for line in sec[s - n + 1 : s + 1]):
            continue
        if len(places) > 1 and not pick_first:
            raise _Ambiguous(sec[s], places, s)
        return _Anchor(s - n + 1, places[0] - n + 1, n, tuple(places))
    return None


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

    Returns None when the section cannot be anchored on this rung; raises `_Ambiguous` when it
    can be anchored in several places that the section's lines cannot tell apart.
    """
    eq = _EQ[rung]
    sec = section.lines
    hi = len(orig) if hi is None else hi
    # Head: where the span starts, and how far the section runs along the original from there.
    if section.open_start:
        try:
            head = _find_forward(sec, orig, 0, len(sec), lo, hi, eq, pick_first)
        except _Ambiguous as amb:
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
    if not section.open_end:
        span = Span(start, hi, rung)
    elif s0 + run >= len(sec):
        span = Span(start, start + run, rung)  # the whole rest of the section is context
    else:
        span, leftover = _tail(sec, orig, s0, start, run, hi, eq, pick_first, rung)
        # Only blank lines left over after all the section's code matched: they are context
        # somewhere below (a deletion) or new spacing; the snippet cannot say which.
        if leftover and not pick_first:
            near = orig[span.end : min(hi, span.end + len(leftover) + 2)]
            doubtful = next((l for l in leftover if any(_similar(l, o) for o in near)), None)
            if doubtful is not None or not any(l.strip() for l in leftover):
                err = _Ambiguous(doubtful or "(blank lines at the end)", (), 0, doubt=True)
                err.span = span
                raise err
    if not pick_first:
        _check_insertions(section, orig, lo, hi, s0, start, span)
    return span


def _tail(sec, orig, s0, start, run, hi, eq, pick_first, rung) -> tuple[Span, list[str]]:
    """The span's end, and the section lines left over after it (inserted there)."""
    tail = _find_backward(sec, orig, s0 + run, len(sec), start + run, hi, eq, pick_first)
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


def _similar(a: str, b: str) -> bool:
    ca, cb = _collapse(a), _collapse(b)
    if not ca or not cb:
        return False
    if ca == cb:
        return True
    if min(len(ca), len(cb)) < 5:
        return False  # `}` vs `})`: too short to say anything
    return difflib.SequenceMatcher(None, ca, cb, autojunk=False).ratio() >= 0.6


def _check_insertions(section, orig, lo, hi, s0, start, span: Span) -> None:
    """Lines a section shows before its first anchored line are read as insertions before the
    span. When one of them resembles an original line just before the span, it may instead be a
    changed version of that line (the snippet left out the context that would tell): refuse."""
    sec = section.lines
    if section.open_start and s0 > 0:
        near = orig[max(lo, start - s0 - 2) : start]
        doubtful = next((l for l in sec[:s0] if any(_similar(l, o) for o in near)), None)
        if doubtful is not None:
            err = _Ambiguous(doubtful, (), 0, doubt=True)
            err.span = span
            raise err


def _head_before_tail(sec, orig, lo, hi, eq, amb: _Ambiguous) -> _Anchor | None:
    """Settle an ambiguous head with a unique tail: of the places the head fits, take the last
    one before the tail (the reading that deletes the least). None when the tail is no help."""
    try:
        tail = _find_backward(sec, orig, amb.s + 1, len(sec), lo, hi, eq)
    except _Ambiguous:
        return None
    if tail is None:
        return None
    before = [o for o in amb.places if o < tail.o]
    if not before:
        return None
    o = max(before)
    n = 1 + _extend_forward(sec, orig, amb.s + 1, o + 1, tail.s, tail.o, eq)
    return _Anchor(amb.s, o, n, tuple(amb.places))


def _edges_anchored(section: Section, span: Span, orig: Sequence[str], eq) -> int:
    """How many of the section's open edges are pinned by an equal line (for comparing rungs)."""
    score = 0
    sec = section.lines
    first = next((l for l in sec if l.strip()), "")
    last = next((l for l in reversed(sec) if l.strip()), "")
    if section.open_start and span.start < len(orig) and eq(orig[span.start], first):
        score += 1
    if section.open_end and span.end > 0 and eq(orig[span.end - 1], last):
        score += 1
    return score


def place(section: Section, orig: Sequence[str], lo: int, next_section: Section | None) -> Span:
    """Run the ladder for one section and return its span.

    Raises LookupError when no rung can place it, and `_Ambiguous` (carrying a best-guess span
    in `.span`, or None) when it fits several places.
    """
    best: Span | None = None
    best_score = -1
    wanted = int(section.open_start) + int(section.open_end)
    doubt: _Ambiguous | None = None
    for rung in RUNGS:
        try:
            span = locate(section, orig, lo, rung)
        except _Ambiguous as amb:
            if best is not None:
                break  # a stricter rung placed it; a looser one only adds doubt
            if amb.doubt:
                # A looser rung may match the doubtful line (a misquoted context line) and
                # settle it, but only at the same place.
                doubt = doubt or amb
                continue
            span = _bounded_retry(section, orig, lo, rung, next_section, amb)
        if span is None:
            continue
        if doubt is not None:
            if doubt.span is not None and _near(doubt.span, span, len(section.lines)):
                return span
            raise doubt
        if span is None:
            continue
        score = _edges_anchored(section, span, orig, _EQ[rung])
        # A looser rung may only widen the stricter rung's span by lines next to it (an edge
        # line that differs in whitespace); it may not move the section somewhere else.
        if best is None or (score > best_score and _near(best, span, len(section.lines))):
            best, best_score = span, score
        if best_score >= wanted:
            break
    if best is None:
        if doubt is not None:
            raise doubt
        raise LookupError
    return best


def _near(strict: Span, loose: Span, size: int) -> bool:
    return (strict.start - size <= loose.start <= strict.start) and (
        strict.end <= loose.end <= strict.end + size
    )


def _bounded_retry(section, orig, lo, rung, next_section, amb: _Ambiguous) -> Span:
    """An ambiguous tail can be settled by the next section: the span must end before the next
    section's head. Anything still ambiguous is re-raised with the first place as a guess."""
    eq = _EQ[rung]
    if next_section is not None and next_section.open_start:
        try:
            nxt = _find_forward(next_section.lines, orig, 0, len(next_section.lines), lo, len(orig), eq)
        except _Ambiguous:
            nxt = None
        if nxt is not None:
            try:
                span = locate(section, orig, lo, rung, hi=nxt.o)
            except _Ambiguous:
                span = None
            if span is not None:
                return span
    err = _Ambiguous(amb.what, amb.places, amb.s)
    err.span = locate(section, orig, lo, rung, pick_first=True)
    raise err


# --------------------------------------------------------------------------- the merge


def merge_lazy(original: Sequence[str], snippet: Sequence[str]) -> LazyMerge:
    """Merge a lazy snippet into the original, both given as lists of lines without newlines.

    Returns the merged lines, or a refusal saying which section could not be placed and why.
    """
    sections = split_sections(snippet, original)
    shown = sum(1 for s in sections for line in s.lines if line.strip())
    if not sections:
        return LazyMerge(None, "the snippet has markers but no code to apply", None)
    out: list[str] = []
    candidate: list[str] = []
    cursor = 0
    spans: list[Span] = []
    refusal: str | None = None
    weakest = 0
    for i, section in enumerate(sections):
        nxt = sections[i + 1] if i + 1 < len(sections) else None
        label = _label(section, i)
        try:
            span = place(section, original, cursor, nxt)
        except _Ambiguous as amb:
            guess = amb.span
            if amb.doubt:
                reason = (
                    f"{label}: `{amb.what.strip()[:50]}` could be a new line or a change to a "
                    "similar line just before it; include the unchanged line before it"
                )
            else:
                reason = (
                    f"{label} matches {len(amb.places)} places in the original "
                    f"(lines {', '.join(str(p + 1) for p in amb.places[:4])}); "
                    "add a few more unchanged lines around it so it is unique"
                )
            refusal = refusal or reason
            if guess is None:
                return LazyMerge(None, refusal, None, None, tuple(spans), shown)
            span = Span(guess.start, guess.end, guess.rung, ambiguous=True)
        except LookupError:
            reason = (
                f"{label} could not be found in the original after the previous section; "
                "include a few unchanged lines from the original around the change"
            )
            return LazyMerge(None, refusal or reason, None, None, tuple(spans), shown)
        if span.start < cursor or span.end < span.start:
            return LazyMerge(None, f"{label} overlaps the previous section", None, None, tuple(spans), shown)
        weakest = max(weakest, RUNGS.index(span.rung))
        lines = _reindent(section, original, span) if span.rung != "exact" else list(section.lines)
        out.extend(original[cursor : span.start])
        out.extend(lines)
        cursor = span.end
        spans.append(span)
    if sections[-1].open_end:
        out.extend(original[cursor:])
    elif cursor < len(original):
        out.extend([])  # the last section runs to the end of the file by convention
    rung = RUNGS[weakest]
    if refusal:
        return LazyMerge(None, refusal, rung, out, tuple(spans), shown)
    return LazyMerge(out, None, rung, None, tuple(spans), shown)


def _label(section: Section, index: int) -> str:
    first = next((line.strip() for line in section.lines if line.strip()), "")
    if len(first) > 50:
        first = first[:47] + "..."
    return f"section {index + 1} (starting `{first}`)"


def _reindent(section: Section, orig: Sequence[str], span: Span) -> list[str]:
    """When a section was placed ignoring whitespace, shift its indentation by the constant
    offset its matched lines show (a method pasted without its class indentation), if any."""
    lines = list(section.lines)
    pairs = []
    region = orig[span.start : span.end]
    for line in lines:
        if not line.strip():
            continue
        for o in region:
            if o.strip() and _collapse(o) == _collapse(line):
                pairs.append((_indent(o), _indent(line)))
                break
    if not pairs:
        return lines
    # Snippet under-indented by a constant prefix.
    o0, s0 = pairs[0]
    if o0.endswith(s0) and len(o0) > len(s0):
        prefix = o0[: len(o0) - len(s0)]
        if all(o == prefix + s for o, s in pairs):
            return [prefix + line if line.strip() else line for line in lines]
    if s0.endswith(o0) and len(s0) > len(o0):
        extra = s0[: len(s0) - len(o0)]
        if all(s == extra + o for o, s in pairs) and all(
            line.startswith(extra) for line in lines if line.strip()
        ):
            return [line[len(extra) :] if line.strip() else line for line in lines]
    return lines


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]
