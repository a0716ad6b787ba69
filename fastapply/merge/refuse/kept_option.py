"""The other reading of an orphaned definition: an option that shows it kept.

`gate/orphans.py` refuses a merged file that keeps a definition the edit left unused while the
snippet never shows it (its refusal carries `detail["orphan"]` and `detail["removes"]`, the
definition's first original line). refuse/removal.py offers the options that show it deleted;
`with_kept_option(refusal, original, snippet, language)` adds the one that shows it kept (and every
other orphan the check found, `detail["orphans"]`, named in `detail["names"]`): its first line, as a section of its own between markers, before the first section placed below it (or after
the snippet's last marker when none is). A snippet that shows the definition's first line is one
the check lets pass, so either answer settles the refusal.

No option is offered when a use of the definition that the merged file lost stands under one of the
snippet's markers (`_kept_under_marker`: between a section's last line, where it first stands after
the line that pins the section, and the nearest place after it where the next section's first line
stands): the snippet keeps that use, so the definition is unused only because the merge misread the
marker, and showing it kept would let that misreading through (ftune row 698, clap: the retry wrote
a file that drops the 21 lines under a marker).

It decides nothing and changes no sentence: which reading the planner meant is the planner's.
This module knows the refused input (reading.py); it does not know why the definition is unused.
"""

from __future__ import annotations

import re

from fastapply.merge.refuse.options import indented
from fastapply.merge.refuse.reading import read_input, section_places
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.text.lines import block_end


def _place(inp, places: list[int], k: int) -> int | None:
    """The snippet line (1-based) before which original line k goes as a section of its own, or None."""
    below = [n for n, p in enumerate(places) if p > k]
    if below:
        if below[0] > 0 and places[below[0] - 1] > k:
            return None  # out of order: no place between them
        a = inp.sections[below[0]][0]
        if not any(inp.is_marker(j) for j in range(inp.sections[below[0] - 1][1] + 1 if below[0] else 0, a)):
            return None  # the section above runs into this one: no marker keeps the line between them
        return a + 1
    if inp.markers[-1] > (inp.sections[-1][1] if inp.sections else -1):
        return inp.markers[-1] + 2
    return None


def _kept_under_marker(inp, heads: list[int], names: list[str]) -> bool:
    """Whether an original line that uses one of `names` (outside its definition at `heads`) stands
    under a marker of the snippet: after a section's last line (an original line, at e: where it
    first stands after the line that pins the section, `section_places`) and a marker, and before
    the nearest original line after e that is the next section's first content line."""
    uses: set[int] = set()
    for h, name in zip(heads, names):
        word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
        own = range(h, block_end(inp.original, h))
        uses |= {i for i, line in enumerate(inp.original) if i not in own and word.search(line)}
    places = section_places(inp)
    for n, ((a0, b0), (a1, _)) in enumerate(zip(inp.sections, inp.sections[1:])):
        if places[n] is None or not any(inp.is_marker(j) for j in range(b0 + 1, a1)):
            continue
        last, first = inp.snippet[b0].strip(), inp.snippet[a1].strip()
        # the section's last line: an original line, where it first stands after the line that pins the section
        e = next((i for i in range(places[n], len(inp.original)) if inp.original[i].strip() == last), None)
        if e is None:
            continue
        s = next((i for i in range(e + 1, len(inp.original)) if inp.original[i].strip() == first), None)
        if s is not None and any(e < u < s for u in uses):
            return True
    return False


def with_kept_option(refusal: Refusal, original: str, snippet: str, language: str | None = None) -> Refusal:
    """`refusal` with the option that shows the orphaned definitions kept (module docstring; every one
    `detail["orphans"]` names, so one revision settles them all) after its other options; unchanged
    when it names no orphan or a place is a guess."""
    k = refusal.detail.get("removes")
    if "orphan" not in refusal.detail or not isinstance(k, int):
        return refusal
    inp = read_input(original, snippet, language)
    heads = sorted(set(refusal.detail.get("orphans") or [k]))
    if not inp.markers or not all(0 <= h < len(inp.original) for h in heads):
        return refusal
    places = section_places(inp)
    if any(p is None for p in places):
        return refusal  # a section without a place: where the line goes is a guess
    # each orphan's name, as the check found it (`detail["names"]`, in `detail["orphans"]`' order)
    named = dict(zip(refusal.detail.get("orphans") or [k], refusal.detail.get("names") or [refusal.detail["orphan"]]))
    names = [named.get(h) for h in heads]
    if all(names) and _kept_under_marker(inp, heads, names):
        return refusal  # the merge lost a use the snippet keeps: keeping the definition hides that
    edits = []
    for h in heads:
        at = _place(inp, places, h)
        if at is None:
            return refusal
        head = inp.original[h]
        edits += [Edit("insert", at=at, text=head, original_line=h + 1), Edit("marker", at=at, text=indented(inp.marker, head))]
    lines = ", ".join(str(h + 1) for h in heads)
    option = Option(f"show original line{'s' if len(heads) > 1 else ''} {lines} kept: "
                    f"add {'each' if len(heads) > 1 else 'it'} as a section of its own between markers", tuple(edits))
    return refusal.with_(options=refusal.options + (option,))
