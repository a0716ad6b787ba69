"""Where a section starts and ends: its edges, settled by anchors, structure and edge rules.

Given a section and its anchors (anchors.py), the span it replaces grows from the first and the
last anchor over equal neighbouring lines. What lies beyond (the section's *head* before its
first matched run, its *tail* after its last) is read one of three ways, each a candidate:

- `inserted`: new lines next to the matched run, nothing of the original removed;
- `closed on a match`: the head's first line (tail's last line) matches an original line further
  out, and the original lines in between are replaced (the generic closing tail: new lines, then
  a `}` that closes the block the anchor opened);
- `file edge`: a section without a marker before (after) it starts (ends) at the file's edge.

Candidates are ranked by (bracket balance of the replaced region equals that of its replacement,
fewest original lines deleted without being shown, most lines of context); equal ones that give
different files raise `Ambiguous`. A best candidate that deletes yields to the one reading that
keeps the edge's lines adjacent to the matched run (`adjacent_head`, `_check_split_run`).

Inserted lines next to a marker go through the edge rules (edge_edits.py; doubts.py names the
line); a reading that only adds lines is doubted when a nearby reading would change a similar
line instead (`_rival`), unless they are whole blocks between sibling blocks. Blank lines at a
section's edges: blank_edges.py. This module knows lines, sections and anchors, not guards.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Sequence

from fastapply.merge.align.anchors import LineIndex, Span
from fastapply.merge.text.lines import block_close, bracket_balance, is_generic
from fastapply.merge.align.blank_edges import Trimmed, blank_only, blank_separation, sibling_spacing
from fastapply.merge.align.doubts import doubt_note, replaces_gap, rival_note, starts_alike
from fastapply.merge.align.edge_edits import EdgeDoubt, another_definition, edge_edit, nearest_line, new_siblings_at, same_edit

MAX_CANDIDATES = 30  # places of a generic edge line tried, nearest first
RIVALS = 3  # nearest readings closing on a match that may rival one that only adds lines (`_rival`)
MAX_REGION = 400  # a replaced region longer than this is no candidate (the deletion guard's domain)


class Ambiguous(Exception):
    """Several readings fit equally well (`places`, 0-based), or an inserted line may be a changed
    one (`doubt`). `guess`: the best reading's (span, lines), if any; a doubt at a section's edge
    may name its rival: `other` ("start" | "end", index), `pair` (original index, shown line)
    the line it changes, `alternative` its (span, lines)."""

    def __init__(self, line: str, places: Sequence[int] = (), doubt: bool = False, guess=None, regions=(),
                 note: str | None = None, other: tuple[str, int] | None = None,
                 pair: tuple[int, str] | None = None):
        super().__init__(line)
        self.line, self.places, self.doubt, self.guess, self.regions = line, tuple(places), doubt, guess, tuple(regions)
        self.note, self.other, self.pair, self.alternative = note, other, pair, None


class Unplaceable(Exception):
    """No place in the window fits the section."""

    def __init__(self, detail: str = ""):
        super().__init__(detail)
        self.detail = detail


@dataclass(frozen=True)
class _Cand:
    at: int  # start (head) or end (tail) in the original
    valid: bool
    deleted: int
    context: int
    inserted: tuple[str, ...]  # section lines inserted beyond the matched run (edge rules apply)
    replaced: int = 0  # original lines the reading replaces
    new: tuple[str, ...] = ()  # the non-blank lines it shows beyond its matched runs
    after_block: bool = False  # its `inserted` lines follow the closing line of the anchor's block
    rival: tuple[int, str] | None = None  # (original line, new line it would become): starts_alike

    def rank(self) -> tuple:
        return (not self.valid, self.deleted, -self.context)


def _matched(region: Sequence[str], repl: Sequence[str], key) -> tuple[int, int]:
    """(equal lines, edited lines) when `repl` replaces `region`: lines kept verbatim, and
    replaced lines that pair with an edited copy (`same_edit`) in order."""
    if not region or not repl:
        return 0, 0
    m = difflib.SequenceMatcher(None, [key(l) for l in region], [key(l) for l in repl], autojunk=False)
    equal = edited = 0
    for tag, i1, i2, j1, j2 in m.get_opcodes():
        if tag == "equal":
            equal += i2 - i1
        elif tag == "replace":
            j = j1
            for i in range(i1, i2):
                while j < j2 and not same_edit(repl[j], region[i]):
                    j += 1
                if j < j2:
                    edited += 1
                    j += 1
    return equal, edited


def _duplicates(inserted: Sequence[str], nearby_keys: Sequence[str], key) -> int:
    """Inserted distinctive lines that copy an original line nearby: reading them as new lines
    would duplicate that line, so they count against the reading like deleted lines."""
    near = set(nearby_keys)
    return sum(1 for l in inserted if not is_generic(l) and key(l) in near)


def _keyword_twins(inserted: Sequence[str], adjacent_keys: Sequence[str], key) -> int:
    """Inserted keyword lines (`try:`, `else {`, `end`) equal to one of the few original lines
    right beyond the edge: read as new, the block opener or closer would be doubled."""
    near = set(adjacent_keys)
    return sum(1 for l in inserted if is_generic(l) and any(c.isalpha() for c in l) and key(l) in near)


def replace_cand(at, region, repl, key, context, nearby: Sequence[str] = ()) -> _Cand:
    """A reading where `repl` replaces `region`; `nearby`: original keys just beyond the region,
    where a copy of a replacement line means the reading duplicates it."""
    equal, edited = _matched(region, repl, key)
    valid = bracket_balance(region) == bracket_balance(repl)
    inside = {key(l) for l in region}
    dup = _duplicates([l for l in repl if key(l) not in inside], nearby, key)
    return _Cand(at, valid, len(region) - equal - edited + dup, context + equal, (), len(region),
                 tuple(l for l in repl if l.strip()))


def _edited_places(line: str, orig: Sequence[str], lo: int, hi: int) -> list[int]:
    """Original lines in [lo, hi) of which `line` reads as an edited copy (an edge line that
    changed: the section then closes on it instead of on an equal line)."""
    if is_generic(line):
        return []
    return [p for p in range(max(lo, 0), min(hi, len(orig))) if same_edit(line, orig[p])]


def _best(cands: list[_Cand], line: str) -> _Cand:
    cands.sort(key=lambda c: (c.rank(), c.at))
    best = cands[0]
    rivals = sorted({c.at for c in cands if c.rank() == best.rank()})
    if len(rivals) > 1:
        raise Ambiguous(line, rivals, regions=[(min(rivals), max(rivals) + 1)])
    return best


# --------------------------------------------------------------------------- anchored sections


def place_anchored(t: Trimmed, orig: Sequence[str], index: LineIndex, key, anchors, lo: int, hi: int):
    """(Span, lines) for a section with at least one anchor (section index, original index)."""
    sec = t.lines
    (sf, of), (sl, ol) = anchors[0], anchors[-1]
    doubts: list[Ambiguous] = []
    start, keep_lead = _head(t, orig, index, key, sf, of, lo, doubts)
    end, keep_trail = _tail(t, orig, index, key, sl, ol, hi, doubts)
    lines = list(sec)
    if keep_lead:
        lines = list(t.lead) + lines
    if keep_trail:  # True: all of the blank trail; a number: that many of its lines
        lines = lines + list(t.trail)[: None if keep_trail is True else keep_trail]
    if doubts:
        doubt = doubts[0]
        doubt.guess = (Span(start, end, "exact"), lines)
        doubt.regions = ((max(lo, start - 2), min(len(orig), end + 2)),)
        if len(doubts) == 1 and doubt.other is not None:
            doubt.alternative = _alternative(t, doubt.other, start, end, keep_lead, keep_trail)
        raise doubt
    return Span(start, end, "exact"), lines


def _alternative(t: Trimmed, other: tuple[str, int], start: int, end: int, keep_lead: bool,
                 keep_trail: bool) -> tuple[Span, list[str]] | None:
    """The rival reading of a section doubted at one edge: the same lines, the doubted edge moved
    to `other`; None when that changes nothing or crosses the other edge."""
    side, at = other
    a_start, a_end = (at, end) if side == "start" else (start, at)
    if (a_start, a_end) == (start, end) or a_start > a_end:
        return None
    lines = list(t.lines)
    if keep_lead and side == "end":
        lines = list(t.lead) + lines
    if keep_trail and side == "start":
        lines = lines + list(t.trail)
    return Span(a_start, a_end, "exact"), lines


def _head(t: Trimmed, orig, index: LineIndex, key, sf: int, of: int, lo: int, doubts) -> tuple[int, bool]:
    """(start, keep_lead): where the section starts, and whether its blank lead goes with it
    (around new lines inserted there, or at the file's edge)."""
    sec, keys = t.lines, index.keys
    b = index.run(sec, key, sf - 1, of - 1, sf, lo, of, -1)  # equal lines before the first anchor
    s_edge, o_edge = sf - b, of - b
    ins = tuple(sec[:s_edge])
    dup = _duplicates(ins, keys[max(lo, o_edge - len(ins) - 10) : o_edge], key)
    dup += _keyword_twins(ins, keys[max(lo, o_edge - 3) : o_edge], key)
    cands = [_Cand(o_edge, bracket_balance(ins) == 0, dup, b, ins, new=tuple(l for l in ins if l.strip()))]
    if s_edge > 0:
        for p in reversed(index.places(key(sec[0]), lo, o_edge)[-MAX_CANDIDATES:]):
            c = index.run(sec, key, 0, p, s_edge, 0, o_edge)
            if o_edge - (p + c) <= MAX_REGION:
                cand = replace_cand(p, orig[p + c : o_edge], sec[c:s_edge], key, b + c,
                                     keys[max(lo, p - s_edge - 10) : p])
                cands.append(_proven(cand, orig[p + c : o_edge], sec[c:s_edge], sec[s_edge:], sec[c - 1 :: -1]))
                if len(cands) <= 1 + RIVALS:
                    cands[-1] = _with_rival(cands[-1], orig[p + c : o_edge], sec[c:s_edge], p + c, 1)
        for p in _edited_places(sec[0], orig, max(lo, o_edge - 3 * s_edge - 10), o_edge):
            cands.append(replace_cand(p, orig[p + 1 : o_edge], sec[1:s_edge], key, b + 1,
                                       keys[max(lo, p - s_edge - 10) : p]))
        if not t.section.open_start and lo == 0 and 0 < o_edge <= MAX_REGION:
            cands.append(replace_cand(0, orig[:o_edge], sec[:s_edge], key, b))
    best = _best(cands, sec[0])
    if not t.section.open_start and lo == 0 and best.at == o_edge and blank_only(orig[:o_edge]):
        return 0, True  # only blank lines above: the file's edge, the snippet's first lines its own
    split = _check_split_run(best, adjacent_head(sec, index, key, sf, of, o_edge, lo), sec[0],
                             lambda p, c: sec[c : sf - (of - p - c)])
    if split is not None:
        return split, False
    if not best.inserted or not any(l.strip() for l in best.inserted):
        _rival(best, cands, orig, -1, doubts)
        # a replacement from the file's first line, which is blank: the snippet's own blank lead
        # is the file's edge as the snippet shows it (as `blank_only` keeps it)
        edge = best.at == 0 and not t.section.open_start and lo == 0 and bool(orig) and not orig[0].strip()
        return best.at, edge and bool(t.lead)
    r = _edge(list(reversed(best.inserted)), orig, best.at - 1, max(lo, best.at - 40) - 1, doubts)
    if not r:
        _rival(best, cands, orig, -1, doubts)
    if not r and not t.section.open_start and lo == 0 and any(l.strip() for l in orig[: best.at]):
        # No marker before the snippet's first section, new lines first, and the file has code
        # above: they replace the file's head (the convention) or go above it (a forgotten marker).
        doubts.append(Ambiguous(next(l for l in best.inserted if l.strip()), (), doubt=True, note=(
            "the snippet starts with new lines and no marker while the original has code above "
            "the place they go; start with a marker (keep that code) or with its first lines"),
            other=("start", 0)))
    if not r and best.at == o_edge and t.section.open_start and not t.lead and lo < o_edge:
        return o_edge + blank_separation(sec[s_edge : sf + 1], orig[o_edge - 1], sec[0]), True
    return best.at - r, not r


def _tail(t: Trimmed, orig, index: LineIndex, key, sl: int, ol: int, hi: int, doubts) -> tuple[int, bool]:
    """(end, keep_trail): the mirror of `_head`."""
    sec, keys, n = t.lines, index.keys, len(t.lines)
    e = index.run(sec, key, sl + 1, ol + 1, n - sl - 1, ol + 1, hi, 1)  # equal lines after the last anchor
    s_edge, o_edge = sl + 1 + e, ol + 1 + e
    ins = tuple(sec[s_edge:])
    dup = _duplicates(ins, keys[o_edge : min(hi, o_edge + len(ins) + 10)], key)
    dup += _keyword_twins(ins, keys[o_edge : min(hi, o_edge + 3)], key)
    cands = [_Cand(o_edge, bracket_balance(ins) == 0, dup, e, ins, new=tuple(l for l in ins if l.strip()))]
    if s_edge < n:
        for p in index.places(key(sec[-1]), o_edge, hi)[:MAX_CANDIDATES]:
            c = index.run(sec, key, n - 1, p, n - s_edge, o_edge, hi, -1)
            if (p - c + 1) - o_edge <= MAX_REGION:
                cand = replace_cand(p + 1, orig[o_edge : p - c + 1], sec[s_edge : n - c], key, e + c,
                                     keys[p + 1 : min(hi, p + 1 + n - s_edge + 10)])
                sibling = another_definition(sec[s_edge : n - c], orig[o_edge : p - c + 1])  # would overwrite it
                cands.append(_proven(replace(cand, valid=False) if sibling else cand, orig[o_edge : p - c + 1],
                                     sec[s_edge : n - c], sec[s_edge - 1 :: -1], sec[n - c :]))
                if len(cands) <= 1 + RIVALS:
                    cands[-1] = _with_rival(cands[-1], orig[o_edge : p - c + 1][::-1], sec[s_edge : n - c][::-1],
                                            p - c, -1)
        for p in _edited_places(sec[-1], orig, o_edge, min(hi, o_edge + 3 * (n - s_edge) + 10)):
            cands.append(replace_cand(p + 1, orig[o_edge:p], sec[s_edge : n - 1], key, e + 1,
                                       keys[p + 1 : min(hi, p + 1 + n - s_edge + 10)]))
        if not t.section.open_end and hi == len(orig) and 0 < hi - o_edge <= MAX_REGION:
            cand = replace_cand(hi, orig[o_edge:hi], sec[s_edge:], key, e)
            cands.append(_proven(cand, orig[o_edge:hi], sec[s_edge:], sec[s_edge - 1 :: -1], None))
        closed = _block_end(ins, orig, key, o_edge, hi)
        if closed is not None:
            k, q = closed
            cand = replace_cand(q + 1, orig[o_edge:q], ins[:k], key, e + 1,
                                 keys[q + 1 : min(hi, q + 1 + len(ins) + 10)])
            cands.append(replace(cand, valid=cand.valid and bracket_balance(ins[k + 1 :]) == 0, inserted=ins[k + 1 :],
                                 after_block=True))
    best = _best(cands, sec[-1])
    split = _check_split_run(best, adjacent_tail(sec, index, key, sl, ol, o_edge, hi), sec[-1],
                             lambda q, d: sec[sl + 1 + (q - d) - (ol + 1) : n - d])
    if split is not None:
        return split, False
    if not best.inserted or not any(l.strip() for l in best.inserted):
        _rival(best, cands, orig, 1, doubts)
        return best.at, False
    r = _edge(list(best.inserted), orig, best.at, min(hi, best.at + 40), doubts)
    if not r:
        _rival(best, cands, orig, 1, doubts)
    if not r and best.at == o_edge and t.section.open_end and not t.trail and o_edge < hi:
        return o_edge - blank_separation(sec[sl:s_edge][::-1], orig[o_edge], sec[-1], tail=True), True
    if not r and t.section.open_end and len(t.trail) > 1 and new_siblings_at(orig, best.at, best.inserted, 1):
        return best.at, sibling_spacing(orig, best.at, len(t.trail))  # a new sibling before the next one
    if best.after_block and best.at < hi and not orig[best.at].strip():
        return best.at + r, False  # the original's blank line after the block separates the new lines
    return best.at + r, not r


def _block_end(ins, orig, key, o_edge: int, hi: int) -> tuple[int, int] | None:
    """(k, q) when the tail's new lines `ins` close the block the matched run sits in at `ins[k]`,
    new lines follow, and the original closes it at `orig[q]` with the same line: the lines
    before replace the block's rest, those after are new ones after the block."""
    k = block_close(ins)
    if k is None or k == len(ins) - 1:
        return None
    q = block_close(orig[o_edge : min(hi, o_edge + MAX_REGION)])
    if q is None or key(orig[o_edge + q]) != key(ins[k]):
        return None
    return k, o_edge + q


def _check_split_run(best: _Cand, adjacent: list[tuple[int, int]], line: str, middle) -> int | None:
    """When the chosen reading closes an edge on a match that deletes original lines while
    another keeps the edge's lines adjacent (`adjacent_head`) and deletes nothing, take that one if it
    is the only one and its new lines (`middle(place, matched)`) balance; else refuse."""
    if not adjacent or best.deleted == 0 and not best.inserted:
        return None
    good = [p for p, c in adjacent if bracket_balance(middle(p, c)) == 0]
    if len(adjacent) == 1 and good:
        return good[0]
    places = sorted({best.at} | {p for p, _ in adjacent})
    raise Ambiguous(line, places, regions=[(min(places), max(places) + 1)])


def adjacent_head(sec, index: LineIndex, key, sf: int, of: int, o_edge: int, lo: int) -> list[tuple[int, int]]:
    """(place, lines matched) for readings where the section's first lines match the original
    right before the run matched back from the anchor, with only new lines between."""
    found = []
    for p in index.places(key(sec[0]), max(lo, o_edge), of):
        c = index.run(sec, key, 0, p, sf, 0, of)
        kept = of - (p + c)  # the anchor run's last lines, which still match before the anchor
        if c >= 2 and sf - kept > c and any(l.strip() for l in sec[c : sf - kept]):
            found.append((p, c))
    return found


def adjacent_tail(sec, index: LineIndex, key, sl: int, ol: int, o_edge: int, hi: int) -> list[tuple[int, int]]:
    """The mirror of `adjacent_head` for a section's last lines (place of the last line + 1,
    lines matched)."""
    n, found = len(sec), []
    for q in index.places(key(sec[-1]), ol + 1, min(hi, o_edge)):
        d = index.run(sec, key, n - 1, q, n - sl - 1, ol + 1, len(index.keys), -1)
        kept = (q - d + 1) - (ol + 1)
        if d >= 2 and (n - d) - (sl + 1 + kept) > 0 and any(l.strip() for l in sec[sl + 1 + kept : n - d]):
            found.append((q + 1, d))
    return found


def _proven(cand: _Cand, region, repl, inner, outer) -> _Cand:
    """`cand` with nothing counted deleted when its new lines provably replace the gap it
    closes over (doubts.replaces_gap): each replaced line is shown changed, not dropped, and
    counts as context (it pins the reading like a matched line)."""
    if not replaces_gap(region, repl, inner, outer):
        return cand
    return replace(cand, deleted=0, context=cand.context + sum(1 for l in region if l.strip()))


def _with_rival(cand: _Cand, region, repl, at: int, step: int) -> _Cand:
    """`cand` (a reading that replaces `region` by `repl`, both nearest its closing match first,
    `region[0]` at `at`, the next lines `step` away) marked as a rival when its first new line
    is alike to the first original line it replaces (doubts.starts_alike)."""
    k = starts_alike(region, repl)
    if k is None:
        return cand
    return replace(cand, rival=(at + step * k, next(l for l in repl if l.strip())))


def _rival(best: _Cand, cands: list[_Cand], orig, step: int, doubts: list) -> None:
    """Doubt a reading that only adds new lines when one of the nearest readings that close on a
    match further out instead changes the original line inside that match into one of those new
    lines (`_with_rival`): the snippet cannot say which."""
    if doubts or best.replaced or best.deleted or new_siblings_at(orig, best.at, best.inserted, step):
        return
    rival = next((c for c in cands[1 : 1 + RIVALS] if c.rival is not None and c.at != best.at
                  and c.rival[1] in best.new), None)
    if rival is not None:
        at, line = rival.rival
        doubts.append(Ambiguous(line, (), doubt=True, note=rival_note(line, orig, at),
                                other=("start" if step < 0 else "end", rival.at), pair=(at, line)))


def _edge(inserted: list[str], orig: Sequence[str], start: int, stop: int, doubts: list) -> int:
    """Original lines beyond the edge (from `start` towards `stop`, exclusive) that `inserted`
    replaces (edge_edits.edge_edit); a doubt is recorded with a message naming the line."""
    step = 1 if stop >= start else -1
    try:
        inner = nearest_line(orig, start - step, -step)  # the matched line at the edge
        return edge_edit(inserted, [orig[i] for i in range(start, stop, step)], forward=step > 0, inner=inner)
    except EdgeDoubt as doubt:
        at = start + step * doubt.at
        other = ("end", at + 1) if step > 0 else ("start", at)
        doubts.append(Ambiguous(doubt.line, (), doubt=True, note=doubt_note(doubt.shown, orig, at, step),
                                other=other, pair=(at, doubt.shown)))
        return 0
