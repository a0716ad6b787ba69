"""Out-of-order sections: the snippet's sections pinned at places that do not rise in snippet order.

`out_of_order(inp)` finds the sections whose unique lines are all found, but in another order than
the snippet's, keeps the longest run whose places rise, and names one section outside it as moved;
the option is the move (with a marker where the moved lines need one) that puts them in file order.
A planner's most common hidden cause of "could not be found after the previous section" (issue 20).

This module knows the read input (reading.py) and refusals; it decides nothing about merging.
"""

from __future__ import annotations

from fastapply.merge.refuse.options import indented
from fastapply.merge.refuse.reading import Input, section_places
from fastapply.merge.snippet.sections import starting
from fastapply.merge.text.lines import nearest_distinctive
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.text.spans import apart, code


def _longest_increasing(items: list[tuple[int, int]]) -> set[int]:
    """The section indexes of the longest run of `items` (index, place) whose places increase."""
    best: list[list[int]] = []
    for n, (_, p) in enumerate(items):
        prev = [best[m] for m in range(n) if items[m][1] < p]
        best.append(max(prev, key=len, default=[]) + [n])
    chain = max(best, key=len, default=[])
    return {items[n][0] for n in chain}


def out_of_order(inp: Input) -> Refusal | None:
    """An out-of-order refusal when the sections' pinned places do not rise in snippet order."""
    places = section_places(inp)
    known = [(n, p) for n, p in enumerate(places) if p is not None]
    if len(known) < 2 or all(known[m][1] < known[m + 1][1] for m in range(len(known) - 1)):
        return None
    if len({p for _, p in known}) < len(known):
        return None  # one line the file holds once pins two sections: one of them shows it as new, not moved
    keep = _longest_increasing(known)
    moved = next(n for n, _ in known if n not in keep)
    p = places[moved]
    a, b = inp.sections[moved]
    later = [n for n, q in known if n in keep and q > p]
    edits: list[Edit]
    if later:
        target = later[0]
        ta = inp.sections[target][0]
        if not any(m < ta for m in inp.markers) and inp.sections[target] == inp.sections[0]:
            return _order_refusal(inp, moved, target, p, ())
        end = b + 1 if b + 1 in inp.markers else b
        edits = [Edit("move", at=ta + 1, start=a + 1, end=end + 1)]
        if end == b:
            edits.append(Edit("marker", at=ta + 1, text=indented(inp.marker, inp.snippet[a])))
        where = f"before the section {_starting(inp, ta, target, _first(inp, moved))} (line {ta + 1})"
    else:
        target = max(n for n in keep)
        tail = next((m for m in inp.markers if m > inp.sections[target][1]), None)
        if tail is None:
            return _order_refusal(inp, moved, target, p, ())
        end = b + 1 if b + 1 in inp.markers and b + 1 != tail else b
        edits = [Edit("marker", at=tail + 1, text=indented(inp.marker, inp.snippet[a])),
                 Edit("move", at=tail + 1, start=a + 1, end=end + 1)]
        where = f"after the section {_starting(inp, inp.sections[target][0], target, _first(inp, moved))}"
    says = f"move snippet lines {a + 1}-{b + 1} {where}"
    return _order_refusal(inp, moved, target, p, (Option(says, tuple(edits)),), where)


def _order_refusal(inp: Input, moved: int, target: int, place: int, options: tuple[Option, ...],
                   where: str = "") -> Refusal:
    first = _first(inp, moved)
    other = inp.sections[target][0]
    other_place = section_places(inp)[target]
    cause = (f"the snippet's sections are out of file order: section {moved + 1} (starting "
             f"{code(apart(inp.snippet[first], inp.snippet[other]))}) is at original line {place + 1}, but section "
             f"{target + 1} ({_starting(inp, other, target, first)}) comes "
             f"{'before' if target < moved else 'after'} it in the snippet and at line {(other_place or 0) + 1} in the file")
    fix = f"move section {moved + 1} {where}: sections must follow the file's order" if where else (
        "put the sections in the order their lines have in the file")
    return Refusal("out-of-order", cause, fix, (inp.oline(place),) + ((inp.oline(other_place),) if other_place is not None else ()),
                   (inp.sline(first), inp.sline(other)), options)


def _first(inp: Input, n: int) -> int:
    """The snippet index of section n's first distinctive line (its first line where it has none)."""
    a, b = inp.sections[n]
    return nearest_distinctive(inp.snippet[a : b + 1], 0) + a


def _starting(inp: Input, k: int, n: int, beside: int) -> str:
    """"starting `X`" for snippet line k of section n (sections.starting), quoted apart from snippet
    line `beside` (the other section the sentence names: two first lines alike read apart)."""
    a, b = inp.sections[n]
    return starting(apart(inp.snippet[k], inp.snippet[beside]), inp.snippet[a : b + 1], k - a)
