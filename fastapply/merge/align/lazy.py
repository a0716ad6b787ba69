"""Lazy snippets: place every section between markers in the original, jointly, and splice.

Each section replaces one span ``original[start:end]``; each marker keeps the original lines
between two spans. Placement, for the snippet as a whole:

1. **Anchors** (anchors.py): distinctive lines unique in the original, chained in order across
   all sections at once; a section without one gets anchors unique in the window between its
   placed neighbours, or is placed by its first/last lines when exactly one place fits (floating.py),
   equal places settled by ties.py, else refused. A section whose first anchor opens a block its
   own lines never close stays inside that block (`inside_block`).
2. **Edges** (edges.py): from its first and last anchors a section's span grows over equal
   neighbouring lines; the lines beyond are inserted or replace original lines up to a matching
   edge line further out; equally good candidates that give different files are refused.
3. **Convention and its exceptions**: a snippet that does not start (end) with a marker starts
   (ends) at the file's edge, unless that deletes original lines the snippet does not show (a
   forgotten marker). Blank lines next to a marker carry no position (blank_edges.py).

Rungs: placement runs on exact lines, then on whitespace-collapsed lines (a re-indented snippet,
re-indented to the original's offset). A looser rung never settles an ambiguity.

This module knows lines and markers. It does not know languages or whether the result is
trustworthy (guards.py decides that); it reports ambiguity instead of guessing.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Sequence

from fastapply.merge.refuse.refusal import prefixed, reason as refusal_reason
from fastapply.merge.align import doubts, edges
from fastapply.merge.align.blank_edges import trim_blank_edges
from fastapply.merge.align.anchors import RUNGS, LineIndex, key_function, unique_anchors
from fastapply.merge.text.lines import bracket_balance, is_generic
from fastapply.merge.align.edges import Ambiguous, Span, Unplaceable
from fastapply.merge.align.floating import place_floating
from fastapply.merge.align.ties import enclosed_place, pinned_place, twin_free_stretch
from fastapply.merge.snippet.sections import (
    Section, has_markers, line_label, reindent, section_label as _label, split_sections, undiff_lazy,
)
from fastapply.merge.result import NO_CODE, Merged
from fastapply.merge.text.spans import quote

INNER_DELETION = 5  # original lines a section may drop between two anchors without two-line pins
TWIN_READS = 40  # whole readings one merge may make to settle rival places by twins (ties.py)
TWIN_LINES = 200_000  # original lines those readings may go over in all (fewer readings of a long file)

__all__ = ["Merged", "Section", "Span", "has_markers", "merge_lazy", "split_sections"]


def merge_lazy(original: Sequence[str], snippet: Sequence[str]) -> Merged:
    """Merge a lazy snippet into the original, both given as lists of lines without newlines."""
    snippet = undiff_lazy(snippet, original) or list(snippet)
    sections = split_sections(snippet, original)
    shown = sum(1 for s in sections for line in s.lines if line.strip())
    if not sections:
        return Merged(None, NO_CODE, None)
    first: Merged | None = None
    for rung in RUNGS:
        result = _merge_rung(list(original), sections, rung, shown)
        if result.lines is not None:
            return result
        if first is None:
            first = result
        if result.rung == "ambiguous":
            break  # a looser rung never settles an ambiguity
    assert first is not None  # its shown_lines is `shown`, its lines None
    return replace(first, rung=None if first.rung == "ambiguous" else first.rung)


def _merge_rung(orig: list[str], sections: list[Section], rung: str, shown: int,
                force: dict[int, tuple[int, int]] | None = None, reads: list[int] | None = None) -> Merged:
    """One rung's placement of all sections; `force`: section -> (start, end) places that section
    within original[start:end] (ties.twin_free_stretch reads the snippet once per rival place that way);
    `reads`: how many more such readings this merge may make (shared by the nested ones)."""
    force = force or {}
    reads = reads if reads is not None else [min(TWIN_READS, TWIN_LINES // max(1, len(orig)))]
    index = LineIndex.build(orig, rung)
    key = key_function(rung)
    trimmed = [trim_blank_edges(s) for s in sections]
    keys: list[str | None] = []
    owner: list[tuple[int, int]] = []
    first_key: list[int] = []  # where each section's keys start in `keys`
    for i, t in enumerate(trimmed):
        first_key.append(len(keys))
        for j, line in enumerate(t.lines):
            keys.append(None if _no_anchor(line) else key(line))
            owner.append((i, j))
    anchors: list[list[tuple[int, int]]] = [[] for _ in sections]
    for g, o in unique_anchors(keys, index):
        i, j = owner[g]
        anchors[i].append((j, o))

    out: list[str] = []
    spans: list[Span] = []
    cursor = 0
    refusal: str | None = None
    doubted = False  # whether `refusal` is a doubt (a new line that may be a changed one)
    alt: tuple[list[str], int] | None = None  # the doubt's rival reading: (its lines so far, its cursor)
    pair: tuple[int, str] | None = None  # the doubt's (original line, shown line): edges.Ambiguous.pair
    regions: list[tuple[int, int]] = []
    prev: list[str] | None = None  # the lines of the last section placed (ties.enclosed_place)
    own_keys: dict[int, list[str | None]] = {}

    def section_keys(i: int) -> list[str | None]:
        """Section i's keys for `unique_anchors`, once per section (the twin readings may place a section
        many times): None for a line that cannot anchor, is not unique in the section, or is not
        in the original at all, none of which any window changes."""
        if i not in own_keys:
            sub = keys[first_key[i] : first_key[i] + len(trimmed[i].lines)]
            counts = Counter(k for k in sub if k is not None)
            own_keys[i] = [k if k is not None and counts[k] == 1 and k in index.positions else None for k in sub]
        return own_keys[i]

    def place(i: int, cursor: int, lo: int | None = None, hi: int | None = None, pinned: bool = False):
        """Section i after `cursor`; a floating one only within [lo, hi) when given (ties.py);
        `pinned`: anchored on its lines unique within [lo, hi) too (ties.pinned_place)."""
        t = trimmed[i]
        end = next((a[0][1] for a in anchors[i + 1 :] if a), len(orig))
        if pinned:
            cursor, end = max(cursor, lo), min(end, hi)
        own = [(j, o) for j, o in anchors[i] if cursor <= o < end]
        if not own:
            own = unique_anchors(section_keys(i), index, cursor, end)
        own = inside_block(own, t.lines, orig, index.keys, key)
        check_inner_deletions(own, t.lines, index.keys, key)
        if own:
            if lo is not None and not pinned:
                raise Ambiguous(t.lines[0])  # anchored: no rival place to force
            return edges.place_anchored(t, orig, index, key, own, cursor, end)
        try:
            return place_floating(t, orig, index, key, max(cursor, lo or 0), min(end, hi if hi is not None else end))
        except Ambiguous as amb:
            amb.floating = True
            raise

    for i, t in enumerate(trimmed):
        hi = next((a[0][1] for a in anchors[i + 1 :] if a), len(orig))
        label = _label(t.section, i)
        follows = alt is not None  # a section after the doubted one goes into its rival reading too
        try:
            if i in force:
                placed = place(i, cursor, *force[i], pinned=True)
            else:
                placed = place(i, cursor)
            if placed is None:
                continue  # only context: changes nothing wherever it lands
            span, lines = placed
        except Ambiguous as amb:
            forced = None
            if getattr(amb, "floating", False) and not amb.doubt and len(amb.places) > 1:
                forced = pinned_place(place, i, t.lines, orig, key, amb.places, cursor, hi)
                if forced is None:
                    forced = enclosed_place(place, i, prev, t.lines, orig, amb.places, cursor, hi)
                if forced is None:
                    forced = _twin_free(orig, sections, rung, shown, i, amb.places, cursor, hi, place, force, reads)
            if forced is not None:
                span, lines = forced
            else:
                reason = _ambiguous_reason(label, amb, t.lines)
                regions.extend(amb.regions)
                if amb.guess is None:
                    return Merged(None, refusal or reason, "ambiguous", None, tuple(spans), shown, tuple(regions))
                if refusal is None and amb.doubt and amb.alternative is not None:
                    a_span, a_lines = amb.alternative
                    if a_span.start >= cursor:
                        alt = (out + orig[cursor : a_span.start] + _reindented(a_lines, orig, a_span, rung),
                               a_span.end)
                        pair = amb.pair
                elif refusal is not None:
                    alt = None  # a second undecided place: the two readings are no longer all there is
                doubted = doubted or (refusal is None and amb.doubt)
                refusal = refusal or reason
                span, lines = amb.guess
        except Unplaceable as err:
            cause = f"{label} could not be found in the original after the previous section"
            if err.detail:
                cause += f" ({err.detail})"
            reason = refusal_reason("line-not-found", cause, "include a few unchanged lines from the original around "
                                    "the change", window=(cursor, hi))
            return Merged(None, refusal or reason, rung, None, tuple(spans), shown, ((cursor, hi),))
        if span.start < cursor:
            return Merged(None, f"{label} overlaps the previous section", rung, None, tuple(spans), shown,
                             ((span.start, cursor),))
        lines = _reindented(lines, orig, span, rung)
        if alt is not None and follows:
            alt = (alt[0] + orig[alt[1] : span.start] + lines, span.end) if alt[1] <= span.start else None
        out.extend(orig[cursor : span.start])
        out.extend(lines)
        cursor = span.end
        spans.append(span)
        prev = lines
    out.extend(orig[cursor:])
    if refusal:
        alternative = alt[0] + orig[alt[1]:] if alt is not None and doubted else None
        if alternative is not None and alternative != out and pair is not None:
            settled = doubts.settled_reading(orig, out, alternative, pair)
            if settled is not None:  # the snippet settles the doubt elsewhere
                return Merged(settled, None, rung, None, tuple(spans), shown)
        return Merged(None, refusal, "ambiguous", out, tuple(spans), shown, tuple(regions), doubted=doubted,
                      alternative=alternative if alternative != out else None)
    return Merged(out, None, rung, None, tuple(spans), shown)


def _twin_free(orig: list[str], sections: list[Section], rung: str, shown: int, i: int, places, cursor: int,
               hi: int, place, force: dict[int, tuple[int, int]], reads: list[int]):
    """(span, lines) for section i at the one rival place whose whole reading pastes no twin
    (ties.twin_free_stretch), or None; later sections' rival places are settled the same way
    inside each reading, all within the `reads` budget."""
    snippet = [line for s in sections for line in s.lines]

    def read(stretch: tuple[int, int]) -> Merged | None:
        if reads[0] <= 0:
            return None
        try:
            place(i, cursor, *stretch, pinned=True)
        except (Ambiguous, Unplaceable):
            return None  # the section itself does not hold there: that says nothing about the place
        reads[0] -= 1
        return _merge_rung(orig, sections, rung, shown, {**force, i: stretch}, reads)

    stretch = twin_free_stretch(read, orig, snippet, places, cursor, hi)
    if stretch is None:
        return None
    try:
        return place(i, cursor, stretch[0], stretch[1], pinned=True)
    except (Ambiguous, Unplaceable):
        return None


def _reindented(lines: list[str], orig: Sequence[str], span: Span, rung: str) -> list[str]:
    return lines if rung == "exact" else reindent(lines, orig[span.start : span.end])


def _ambiguous_reason(label: str, amb: Ambiguous, lines: Sequence[str]) -> str:
    line = line_label(amb.line, lines)
    if amb.note:  # every doubt has one
        return prefixed(label, amb.note)
    places = ", ".join(str(p + 1) for p in amb.places[:4])
    more = "" if len(amb.places) <= 4 else ", ..."
    return (f"{label}: {line} matches {len(amb.places)} places in the original (lines {places}{more}) "
            "equally well; include a distinctive unchanged line next to it")


def _no_anchor(line: str) -> bool:
    """Blank, punctuation-only and lone-keyword lines without an operand (`pass`, `else:`, `end`,
    `fi`) never anchor: unique in one file by chance, they pin a new block's `pass` onto some
    other body. Other lines (`return 0` included) anchor when unique."""
    return not any(c.isalnum() for c in line) or (is_generic(line) and len(re.findall(r"\w+", line)) == 1)


def _run(j: int, o: int, sec: Sequence[str], keys: Sequence[str], key, step: int) -> int:
    """Non-blank lines equal between snippet and original from (j, o) walking by `step`."""
    n = 0
    while 0 <= j < len(sec) and 0 <= o < len(keys) and key(sec[j]) == keys[o]:
        n += bool(sec[j].strip())
        j += step
        o += step
    return n


def inside_block(anchors: list[tuple[int, int]], sec: Sequence[str], orig: Sequence[str], keys: Sequence[str],
                 key) -> list[tuple[int, int]]:
    """The section's anchors without those that lie beyond the end of the block its first anchor
    opens (the section's own lines never close it), when reaching them would delete original
    lines unshown (`check_inner_deletions`): those lines become the section's own."""
    try:
        check_inner_deletions(anchors, sec, keys, key)
        return anchors
    except Ambiguous:
        pass
    j1, o1 = anchors[0]
    if bracket_balance([orig[o1]]) <= 0:
        return anchors  # the first anchor opens no block: nothing says where the section must stay
    kept = [(j, o) for j, o in anchors if _open_between(orig, o1, o) or not _open_between(sec, j1, j)]
    return kept if len(kept) < len(anchors) and all(a in kept for a in anchors[:1]) else anchors


def _open_between(lines: Sequence[str], a: int, b: int) -> bool:
    """True when the running bracket depth over lines[a:b] (line a included, b excluded) rises
    above zero on line a and stays there: line b is still inside the block line a opens."""
    depth = 0
    for k in range(a, b):
        depth += bracket_balance([lines[k]])
        if depth <= 0:
            return False
    return True


def check_inner_deletions(anchors: list[tuple[int, int]], sec: Sequence[str], keys: Sequence[str], key) -> None:
    """Refuse a section whose anchors would delete 5 or more original lines between them unless
    both sides of the deletion are pinned by at least two equal lines: a line that is unique in
    the original but sits in new code elsewhere must not silently drag the section over it."""
    for (j1, o1), (j2, o2) in zip(anchors, anchors[1:]):
        if (o2 - o1) - (j2 - j1) < INNER_DELETION:
            continue
        if _run(j1, o1, sec, keys, key, -1) < 2 or _run(j2, o2, sec, keys, key, +1) < 2:
            line = sec[j2] if _run(j2, o2, sec, keys, key, +1) < 2 else sec[j1]
            raise Ambiguous(line, (o1, o2), regions=((o1, o2 + 1),), note=(
                f"{quote(line)} matches original line {o2 + 1 if line is sec[j2] else o1 + 1}, which would "
                f"delete original lines {o1 + 2}-{o2} that the snippet does not show; include the unchanged "
                "lines around it (or a marker where code is kept)"))
