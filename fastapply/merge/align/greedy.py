"""The first-generation lazy merge (greedy, one section at a time), kept as a second reading: instant.py

Each section replaces one span ``original[start:end]`` and each marker keeps the original lines
between two spans (the convention: shared/data/README.md). Locating a span:

1. **head**: the section's first non-blank line that occurs in the original at or after the
   cursor, extended until exactly one place matches; lines before it are insertions, unless
   they equal the lines just before that place; blank lines alone there carry no position;
2. **tail**: the same from the section's last lines, after the head's run; with no closing
   line in the original, the section ends where its head's run ends;
3. a ladder of rungs, `exact` -> `whitespace` -> `fuzzy` (similarity >= 0.9 per line), a looser
   one tried only when a stricter one cannot place the section, never to settle an ambiguity.

This module knows lines and markers. It does not know languages, definitions, or whether the
result is trustworthy (guards.py decides that); it reports ambiguity instead of guessing.
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.refuse.refusal import prefixed, reason
from fastapply.merge.align.doubts import doubt_note
from fastapply.merge.align.greedy_locate import BLANK_END, EQUALS, RUNGS, GreedyAmbiguous, Span, find_anchor, locate
from fastapply.merge.snippet.sections import Section, reindent, section_label as _label, split_sections
from fastapply.merge.result import NO_CODE, Merged
from fastapply.merge.text.spans import quote


# --------------------------------------------------------------------------- line comparison


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
    """Run the ladder for one section and return its span; LookupError when no rung places it,
    `GreedyAmbiguous` (a best-guess span in `.span`, or None) when it fits several places."""
    best: Span | None = None
    best_score = -1
    wanted = int(section.open_start) + int(section.open_end)
    doubt: GreedyAmbiguous | None = None
    for rung in RUNGS:
        try:
            span = locate(section, orig, lo, rung)
        except GreedyAmbiguous as amb:
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
        score = _edges_anchored(section, span, orig, EQUALS[rung])
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


def _bounded_retry(section, orig, lo, rung, next_section, amb: GreedyAmbiguous) -> Span:
    """An ambiguous tail can be settled by the next section: the span must end before the next
    section's head. Anything still ambiguous is re-raised with the first place as a guess."""
    eq = EQUALS[rung]
    if next_section is not None and next_section.open_start:
        try:
            nxt = find_anchor(next_section.lines, orig, 0, len(next_section.lines), lo, len(orig), eq)
        except GreedyAmbiguous:
            nxt = None
        if nxt is not None:
            try:
                span = locate(section, orig, lo, rung, hi=nxt.o)
            except GreedyAmbiguous:
                span = None
            if span is not None:
                return span
    raise GreedyAmbiguous(amb.what, amb.places, amb.s, span=locate(section, orig, lo, rung, pick_first=True))


# --------------------------------------------------------------------------- the merge


def merge_lazy(original: Sequence[str], snippet: Sequence[str]) -> Merged:
    """Merge a lazy snippet into the original (lists of lines): the merged lines, or a refusal."""
    sections = split_sections(snippet, original)
    shown = sum(1 for s in sections for line in s.lines if line.strip())
    if not sections:
        return Merged(None, NO_CODE, None)
    out: list[str] = []
    cursor = 0
    spans: list[Span] = []
    refusal: str | None = None
    weakest = 0
    for i, section in enumerate(sections):
        nxt = sections[i + 1] if i + 1 < len(sections) else None
        label = _label(section, i)
        try:
            span = place(section, original, cursor, nxt)
        except GreedyAmbiguous as amb:
            if amb.doubt:
                reason = prefixed(label, _doubt_note(amb, original))
            else:
                reason = (
                    f"{label} matches {len(amb.places)} places in the original "
                    f"(lines {', '.join(str(p + 1) for p in amb.places[:4])}{', ...' if len(amb.places) > 4 else ''}); "
                    "add a few more unchanged lines around it so it is unique"
                )
            refusal = refusal or reason
            if amb.span is None:
                return Merged(None, refusal, None, None, tuple(spans), shown)
            span = amb.span
        except LookupError:
            reason = (
                f"{label} could not be found in the original after the previous section; "
                "include a few unchanged lines from the original around the change"
            )
            return Merged(None, refusal or reason, None, None, tuple(spans), shown)
        if span.start < cursor or span.end < span.start:
            return Merged(None, f"{label} overlaps the previous section", None, None, tuple(spans), shown)
        weakest = max(weakest, RUNGS.index(span.rung))
        lines = list(section.lines[span.skip :])
        if span.rung != "exact":
            lines = reindent(lines, original[span.start : span.end])
        out.extend(original[cursor : span.start])
        out.extend(lines)
        cursor = span.end
        spans.append(span)
    if sections[-1].open_end:  # else the last section runs to the end of the file by convention
        out.extend(original[cursor:])
    rung = RUNGS[weakest]
    if refusal:
        return Merged(None, refusal, rung, out, tuple(spans), shown)
    return Merged(out, None, rung, None, tuple(spans), shown)


def _doubt_note(amb: GreedyAmbiguous, original: Sequence[str]) -> str:
    """A doubt's message: the line, the similar original line it may change (when known), and
    the unchanged line that would settle it (doubts.doubt_note)."""
    if amb.near is None and amb.what == BLANK_END:  # the section's blank padding before a marker
        return reason("new-or-changed", "its blank lines before the marker could be a new line each, or the original's "
                      "spacing further down (the lines between them deleted)", "remove the blank lines before the marker "
                      "(it keeps the original's spacing), or show the unchanged lines below them", shown=BLANK_END, at=None)
    if amb.near is None:
        return reason("new-or-changed",
                      f"{quote(amb.what, 50)} could be a new line or a change to a similar line next to it",
                      "include the unchanged lines around it", shown=amb.what.strip(), at=None)
    step = -1 if amb.span is not None and amb.near < amb.span.start else 1
    return doubt_note(amb.what, original, amb.near, step)
