"""Options every refusal gets besides its own, so that a revision that settles the refused section
does not leave another one to a guess.

- `with_weak(inp, refusal)`: the pins of each section whose edge is only generic lines
  (`options.weak_edges`), a deletion shown at a repeated edge (`deletions.py`, for no-change), the
  sections with no line the file holds once (`unpinned.py`), and the removal of a section's blank
  padding before a marker where it is not the original's own spacing (`_new_spacing`);
- `with_edges(inp, refusal)`: the marker a snippet lacks at an unmarked edge that is not the file's
  edge (`open_edges`), with the lines that pin a floating edge section.

explain.py applies both to the refusal it built. Neither applies to an out-of-order refusal (its one
option is the move). This module builds options; it does not read refusal sentences.
"""

from __future__ import annotations

from fastapply.merge.refuse.deletions import deletion_edges
from fastapply.merge.refuse.options import edge_markers, pad_after, section_pins, trailing_blanks, weak_edges
from fastapply.merge.refuse.reading import Input
from fastapply.merge.refuse.refusal import Option, Refusal
from fastapply.merge.refuse.unpinned import unpinned
from fastapply.merge.text.lines import distinctive, is_generic


def with_weak(inp: Input, refusal: Refusal) -> Refusal:
    """The refusal with, after its other options, those that pin each section whose edge is only
    generic lines (`weak_edges`) and those that remove each section's blank padding before a marker
    where it is not the original's spacing (`trailing_blanks`, `_new_spacing`: a doubt of its own once
    the refused section is pinned): a revision that
    settles the refused section must not leave another one to a guess (its sentence is unchanged)."""
    if refusal.kind == "out-of-order":
        return refusal
    shown = deletion_edges(inp) if refusal.kind == "no-change" else ()  # a deletion shown at a repeated edge
    padding = tuple(o for o in (trailing_blanks(inp, n) for n in range(len(inp.sections)) if _new_spacing(inp, n))
                    if o is not None)
    extra = tuple(dict.fromkeys(o for o in weak_edges(inp) + shown + unpinned(inp) + padding if o not in refusal.options))
    return refusal.with_(options=refusal.options + extra) if extra else refusal


def _new_spacing(inp: Input, n: int) -> bool:
    """Whether section n's blank padding before a marker is not the original's own spacing after
    its last line (a line the original lacks, or a distinctive one the original never follows with as many
    blank lines): such padding is a doubt (new spacing, or context for lines further down?);
    padding that repeats the original's spacing there is context, and its removal only moves the
    merge's reading (the retry wrote wrong files from it)."""
    b = inp.sections[n][1]
    pad = pad_after(inp, b)
    last = inp.snippet[b].strip()
    if is_generic(last):  # `/**`, `}`: an edge that pins nothing, not a spacing the intent chose
        return False
    for i, line in enumerate(inp.original):
        if line.strip() == last:
            j = i + 1
            while j < len(inp.original) and not inp.original[j].strip():
                j += 1
            if j - i - 1 == pad:
                return False
    return True


def open_edges(inp: Input) -> tuple[bool, bool]:
    """(lead, trail): whether the snippet starts (ends) with a line that is neither a marker nor
    the original's first (last) non-blank line (for a generic one like `}`, with up to two more
    lines the file's), so that it claims the file's edge while the file has more there."""
    content = [k for k, line in enumerate(inp.snippet) if line.strip()]
    held = [line.strip() for line in inp.original if line.strip()]
    if not content or not held:
        return False, False
    first, last = content[0], content[-1]
    head = [inp.snippet[k].strip() for k in content if k < min(inp.markers, default=len(inp.snippet))][:3]
    tail = [inp.snippet[k].strip() for k in content if k > max(inp.markers, default=-1)][-3:]
    # a `}` alone does not say the snippet reaches the file's end: a generic edge line must come
    # with the file's own lines next to it (up to three)
    at_start = head[:1] == held[:1] and (not is_generic(held[0]) or head == held[: len(head)])
    at_end = tail[-1:] == held[-1:] and (not is_generic(held[-1]) or tail == held[len(held) - len(tail):])
    return first not in inp.markers and not at_start, last not in inp.markers and not at_end


def with_edges(inp: Input, refusal: Refusal) -> Refusal:
    """The refusal with, after its own options, the markers a snippet lacks at an unmarked edge
    that is not the file's edge (`open_edges`): such an edge claims the file's start or end, so a
    planner who keeps the code beyond it adds the marker along with whatever else settles the refusal."""
    lead, trail = open_edges(inp)
    if refusal.kind == "out-of-order" or not (lead or trail) or not inp.sections:
        return refusal
    have = {(e.action, e.at) for o in refusal.options for e in o.edits}
    extra = [o for o in edge_markers(inp, lead, trail) if not {(e.action, e.at) for e in o.edits} & have]
    floating = [(n, end) for n, k, end, edge in ((0, inp.sections[0][0], False, lead),
                                                 (len(inp.sections) - 1, inp.sections[-1][1], True, trail))
                if edge and not _pins(inp, k)]
    if floating:
        # a marker lets the edge section float; with no line the file holds once, it floats to a
        # guess: offer the markers only with the unchanged lines that pin each place it fits. Where
        # one open edge floats and the other is pinned, the pinned edge's marker alone comes with
        # those pins too: the floating edge may be the file's own (new code appended at its end)
        markers = extra[:1]
        if lead and trail and len(floating) == 1:
            end = floating[0][1]
            markers += [o for o in edge_markers(inp, end, not end) if o not in markers]
        extra = [Option(f"{o.says}, and {pin.says}", tuple(e for e in o.edits if e.at <= pin.edits[0].at) + pin.edits
                        + tuple(e for e in o.edits if e.at > pin.edits[0].at))
                 for o in markers for n in dict.fromkeys(n for n, _ in floating) for pin in section_pins(inp, n)[1]]
    return refusal.with_(options=refusal.options + tuple(extra)) if extra else refusal


def _pins(inp: Input, k: int) -> bool:
    """Whether snippet line k is a line the original holds once (and not a generic one)."""
    text = inp.snippet[k].strip()
    return inp.counts.get(text) == 1 and distinctive(text) and not is_generic(text)
