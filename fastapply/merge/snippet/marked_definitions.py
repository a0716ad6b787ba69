"""Whole definitions between markers: a lazy snippet that is nothing but complete top-level
definitions and marker lines, read as definitions.py reads a marker-free one.

When every header and body line of a rewritten definition changed, no line anchors it, so the
lazy readings place it beside the original or refuse. `read_marked_definitions` reads it by name:
each snippet definition replaces the one original top-level definition of the same kind and name.
It answers only when the snippet leaves no doubt:

- every non-blank line is a marker or lies in a top-level definition (comment lines directly
  above belong to it), every marker at the top level (each definition shown whole; in Python a
  function a marker follows ends in `return` or `raise`, and no marker follows a class);
- each name is defined exactly once at the original's top level, none twice in the snippet, in
  the original's order; a class shows every member the original's has;
- where the snippet puts no marker the original has nothing but blank lines.

It knows markers (markers.py) and definitions (text/outline.py lists them, definitions.py merges
them); it does not know the lazy readings or guards: instant.py calls it when both lazy readings
refuse and runs the guards on what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.snippet import definitions
from fastapply.merge.text import outline, syntax
from fastapply.merge.text.markers import is_elision
from fastapply.merge.text.lines import indent_len

def _marker_lines(snippet: Sequence[str], original: Sequence[str]) -> set[int]:
    known = frozenset(l.strip() for l in original)
    return {k for k, line in enumerate(snippet) if line.strip() and is_elision(line, known)}


def shown_lines(snippet: Sequence[str], original: Sequence[str]) -> int:
    """The snippet's non-blank lines that are not markers (what the deletion guard weighs)."""
    markers = _marker_lines(snippet, original)
    return sum(1 for k, line in enumerate(snippet) if line.strip() and k not in markers)


def _blank(lines: Sequence[str]) -> bool:
    return not any(l.strip() for l in lines)


@dataclass(frozen=True)
class ByName:
    """The reading: the merged lines, and the original ranges [start, end) it replaced."""

    lines: list[str]
    replaced: tuple[tuple[int, int], ...]


def read_marked_definitions(original: Sequence[str], snippet: Sequence[str], language: str | None) -> ByName | None:
    """The original with each of the snippet's whole top-level definitions replacing the
    original definition of the same name (see the module docstring for when it answers), or
    None when the snippet is not of that shape."""
    if not syntax.has_grammar(language):
        return None
    markers = _marker_lines(snippet, original)
    if not markers:
        return None
    if any(indent_len(snippet[k]) for k in markers):
        return None  # an indented marker elides code inside a definition: none is shown whole
    text = "\n".join("" if k in markers else line for k, line in enumerate(snippet))
    if not syntax.parses(text, language):
        return None
    snip_defs = outline.list_definitions(text, language) or []
    orig_defs = outline.list_definitions("\n".join(original), language)
    if not snip_defs or orig_defs is None or any(indent_len(snippet[d.start]) for d in snip_defs):
        return None
    names = [d.key[-1] for d in outline.flatten(orig_defs)]
    spans: list[tuple[int, int]] = []  # each snippet definition's lines, with the comments above it
    targets: list[outline.Definition] = []
    starts: list[int] = []  # where each replaced original definition starts (with its comments)
    floor = 0
    for sd in snip_defs:
        if any(sd.start <= k < sd.end for k in markers) or names.count(sd.key[-1]) != 1:
            return None  # a marker inside it (not whole), or a name that is new or defined twice
        od = next((d for d in orig_defs if d.key == sd.key), None)
        if od is None or (targets and od.start < targets[-1].end):
            return None  # not at the top level of the original, or out of the original's order
        if od.members and not definitions.covers(sd, od):
            return None  # a class (impl, module) shown with some of its members: the others stay
        start = definitions.with_comments(snippet, sd.start, floor, markers)
        # comments the snippet shows above a definition replace the original's; else those stay
        at = definitions.with_comments(original, od.start, 0) if start < sd.start else od.start
        if start < sd.start and start - 1 in markers:
            # comments right below a marker may be the tail of a longer comment: read so when
            # they are the original's, else nothing says where the new ones start
            at = od.start - (sd.start - start)
            if at < 0 or [l.strip() for l in snippet[start:sd.start]] != [l.strip() for l in original[at:od.start]]:
                return None
        spans.append((start, sd.end))
        starts.append(at)
        targets.append(od)
        floor = sd.end
    if language == "python" and not _python_whole(text, snippet, snip_defs, spans):
        return None
    covered = {k for a, b in spans for k in range(a, b)}
    if any(line.strip() and k not in covered and k not in markers for k, line in enumerate(snippet)):
        return None  # code outside the definitions
    if not _gaps_kept(original, snippet, spans, starts, targets, markers):
        return None
    out = list(original)
    for (a, b), at, od in reversed(list(zip(spans, starts, targets))):
        out[at:od.end] = snippet[a:b]
    return ByName(out, tuple((at, od.end) for at, od in zip(starts, targets)))


_TERMINAL = ("return_statement", "raise_statement")


def _python_whole(text: str, snippet: Sequence[str], snip_defs, spans) -> bool:
    """A Python function is shown whole when the snippet's next line is the next definition or
    its body ends in `return` or `raise` (a marker after it may stand for the rest of its body);
    a class only when the next definition follows."""
    tree = syntax.parse_tree(text, "python")
    if tree is None:
        return False
    nodes = {child.start_point[0]: child for child in tree.root_node.named_children}
    for n, (sd, (a, b)) in enumerate(zip(snip_defs, spans)):
        if n + 1 < len(spans) and _blank(snippet[b:spans[n + 1][0]]):
            continue  # the next definition follows directly
        node = nodes.get(sd.start)
        while node is not None and node.type == "decorated_definition":
            node = node.child_by_field_name("definition")
        if node is None or node.type != "function_definition":
            return False
        body = node.child_by_field_name("body")
        last = [c for c in (body.named_children if body is not None else []) if c.type != "comment"]
        if not last or last[-1].type not in _TERMINAL:
            return False
    return True


def _gaps_kept(original: Sequence[str], snippet: Sequence[str], spans, starts, targets, markers: set[int]) -> bool:
    """Every stretch of the snippet around the definitions (before the first, between two, after
    the last) that has no marker stands for original lines that are blank (comment lines
    directly above the next target aside: they stay with it)."""
    bounds = [0] + [k for a, b in spans for k in (a, b)] + [len(snippet)]
    orig_bounds = [0] + [k for at, d in zip(starts, targets) for k in (at, d.end)] + [len(original)]
    for g in range(0, len(bounds), 2):
        s1, s2 = bounds[g], bounds[g + 1]
        if any(s1 <= k < s2 for k in markers):
            continue
        o1, o2 = orig_bounds[g], orig_bounds[g + 1]
        if g // 2 < len(targets):
            o2 = definitions.with_comments(original, o2, o1)
        if not _blank(original[o1:o2]):
            return False
    return True
