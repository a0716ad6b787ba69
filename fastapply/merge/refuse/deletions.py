"""Options for a deletion a snippet shows by the lines around it, at an edge the file repeats.

A section whose lines are all original lines, with one the file holds once (its anchor) and, at
its top or bottom, lines the file holds more than once (`/**`, `}`, a blank-led `};`), reads as
unchanged where those edge lines follow (precede) the anchor in the file: the merge then finds
nothing to change ("no-change"). A planner who meant to delete the lines between the anchor and a
later `/**` (an earlier one, for the top edge) pins that edge where it means it:

- `deletion_edges`: for each place the edge lines fit beyond the anchor (between the sections
  around it, at most `limit`: the nearest and the farthest half), the unchanged original lines
  next to the edge there, up to a line the file holds once. The place right next to the anchor
  is the reading the merge already has (nothing deleted) and is not offered. The edge lines that
  follow (precede) the anchor in the file may stay with it and only the rest be pinned beyond
  (`/// Z SHell (zsh)`, `Zsh,` kept, the `}` after them closing a later block the intent deletes).

This module builds options from an `Input` (reading.py); which refusal gets them is explain.py's.
"""

from __future__ import annotations

from fastapply.merge.refuse.options import below, reach
from fastapply.merge.refuse.reading import Input, between, holds_once, run_at, section_places
from fastapply.merge.refuse.refusal import Edit, Option

DELETES = "if you delete the original"  # how these options state their reading (evaluation/agreement.py reads it)


def _content_from(inp: Input, i: int, count: int, step: int) -> list[int]:
    """`count` non-blank original indexes from i (included) by `step`."""
    out = []
    while 0 <= i < len(inp.original) and len(out) < count:
        if inp.original[i].strip():
            out.append(i)
        i += step
    return out


def deletion_edges(inp: Input, limit: int = 16) -> tuple[Option, ...]:
    """The options that pin each all-original section's repeated edge lines beyond its anchor
    (see the module docstring)."""
    places = section_places(inp)
    where = {line.strip(): i for i, line in enumerate(inp.original)}
    out: list[Option] = []
    for n, (a, b) in enumerate(inp.sections):
        content = [k for k in range(a, b + 1) if inp.snippet[k].strip()]
        if not content or any(not inp.counts.get(inp.snippet[k].strip()) for k in content):
            continue
        anchors = [k for k in content if holds_once(inp, k)]
        if not anchors:
            continue
        lo, hi = between(inp, places, n)
        tail = [k for k in content if k > anchors[-1]]
        head = [k for k in content if k < anchors[0]]
        # the edge lines beyond the anchor, all of them or all but those that follow it in the file
        # (`Zsh,` right after `/// Z SHell (zsh)`, then a `}` that closes a later block)
        for t in range(len(tail)):
            kept = _content_from(inp, where[inp.snippet[anchors[-1]].strip()] + 1, t, +1)
            if t and [inp.original[i].strip() for i in kept] != [inp.snippet[k].strip() for k in tail[:t]]:
                break
            anchor = kept[-1] if t else where[inp.snippet[anchors[-1]].strip()]
            _tail(inp, out, [inp.snippet[k].strip() for k in tail[t:]], anchor, hi, b, limit)
        for t in range(len(head)):
            kept = _content_from(inp, where[inp.snippet[anchors[0]].strip()] - 1, t, -1)
            if t and [inp.original[i].strip() for i in kept] != [inp.snippet[k].strip() for k in head[::-1][:t]]:
                break
            first = kept[-1] if t else where[inp.snippet[anchors[0]].strip()]
            _head(inp, out, [inp.snippet[k].strip() for k in head[: len(head) - t]], first, lo, a, limit)
    return tuple(out)


def _tail(inp: Input, out: list[Option], texts: list[str], anchor: int, hi: int, b: int, limit: int) -> None:
    """The options that pin the edge lines `texts` (below snippet line b) at each later place
    beyond original line `anchor` but the next one, into `out`."""
    after = _content_from(inp, anchor + 1, 1, +1)
    fits = [p for p in run_at(inp.original, texts) if anchor < p < hi and p not in after]
    for p in fits[: limit // 2] + fits[max(limit // 2, len(fits) - (limit - limit // 2)):]:
        end = _content_from(inp, p, len(texts), +1)[-1]
        q = reach(inp, end + 1, +1)
        if q is not None:
            opt = Option(f"add the unchanged original lines {end + 2}-{q + 1} below snippet line {b + 1} "
                         f"{DELETES} lines {anchor + 2}-{p}", below(inp, b, end + 1, q))
            if opt not in out:
                out.append(opt)


def _head(inp: Input, out: list[Option], texts: list[str], first: int, lo: int, a: int, limit: int) -> None:
    """The options that pin the edge lines `texts` (above snippet line a) at each earlier place
    before original line `first` but the one right before it, into `out`."""
    before = _content_from(inp, first - 1, len(texts), -1)
    fits = [p for p in run_at(inp.original, texts) if lo < p and _content_from(inp, p, len(texts), +1)[-1] < first
            and p not in before[-1:]]
    fits = fits[::-1]  # nearest the anchor first
    for p in fits[: limit // 2] + fits[max(limit // 2, len(fits) - (limit - limit // 2)):]:
        q = reach(inp, p - 1, -1)
        if q is not None:
            opt = Option(f"add the unchanged original lines {q + 1}-{p} above snippet line {a + 1} {DELETES} "
                         f"lines {_content_from(inp, p, len(texts), +1)[-1] + 2}-{first}",
                         (Edit("insert", at=a + 1, text="\n".join(inp.original[q:p]), original_line=q + 1),))
            if opt not in out:
                out.append(opt)

