"""Whole definitions: a snippet of complete functions, methods or classes, with no markers.

Each definition in the snippet that exists in the original (same kind, same name, same enclosing
class or impl) replaces that definition; a definition that does not exist goes next to the
snippet neighbour it follows (or precedes) in the original. A class in the snippet that shows
only some of the original class's members is merged member by member instead of replacing the
class, so `class A:` + one method does not delete A's other methods.

Definitions come from tree-sitter (text/outline.py: Python, JavaScript, TypeScript/TSX, Go, Rust). Comment lines
directly above a definition belong to it only when the snippet shows comments there too (a
snippet that omits a doc comment should not delete it).

A marker-free snippet whose last definition is cut short (its first lines only, up to the snippet's
end) still parses in Python and would replace the original one, deleting the rest: `cut_short`
names that case, so instant.py reads the snippet as an excerpt instead (definitions compared from
their header line: a decorator or comment the snippet adds above it does not hide the cut).

This module does not know markers or lazy sections; it refuses (with a reason) rather than guess
where a definition goes, and leaves trust decisions to guards.py.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.text import syntax
from fastapply.merge.text.outline import CONTAINERS, Definition, flatten, list_definitions
from fastapply.merge.result import Merged
from fastapply.merge.text.lines import indentation
from fastapply.merge.text.whitespace import dedent
from fastapply.merge.text.spans import code, quote

# --------------------------------------------------------------------------- merging


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    lines: tuple[str, ...]


def with_comments(lines: Sequence[str], start: int, floor: int, stop: set[int] = frozenset()) -> int:
    """Move `start` up over comment lines directly above it (no blank line between, not above
    `floor`, not onto a line in `stop`: markers)."""
    while (start - 1 >= floor and start - 1 not in stop
           and lines[start - 1].strip().startswith(("#", "//", "/*", "*", "///"))):
        start -= 1
    return start


def _reindent(lines: Sequence[str], have: str, want: str) -> list[str]:
    return [want + line[len(have):] if line.strip() and line.startswith(have) else line for line in lines]


def merge_definitions(original: Sequence[str], snippet: Sequence[str], language: str | None) -> Merged:
    """Merge a marker-free snippet of whole definitions into the original (lists of lines)."""
    if not syntax.has_grammar(language):
        return Merged(None, "no grammar to find definitions in this language")
    snippet_text = textwrap.dedent("\n".join(snippet))  # what the parser reads
    snip_lines = dedent("\n".join(snippet)).split("\n")  # what is written: whitespace-only lines as shown
    shown = sum(1 for line in snip_lines if line.strip())
    snip_defs = _snippet_definitions(snippet_text, language)
    if snip_defs is None:
        return Merged(None, "the snippet is not a complete definition (it does not parse)", shown_lines=shown)
    orig_text = "\n".join(original)
    orig_defs = list_definitions(orig_text, language) or []
    if not snip_defs:
        return Merged(None, "the snippet has no markers and no complete definition", shown_lines=shown)
    reason = _outside_code(snip_lines, snip_defs, original) or cut_short(snip_lines, flatten(snip_defs), original,
                                                                          flatten(orig_defs))
    if reason:
        return Merged(None, reason, shown_lines=shown)
    edits: list[_Edit] = []
    reason = _plan(list(original), snip_lines, snip_defs, orig_defs, flatten(orig_defs), edits)
    merged = _apply(list(original), edits) if edits else None
    if reason:
        return Merged(None, reason, candidate=merged, shown_lines=shown)
    if merged is None:
        return Merged(None, "the snippet's definitions could not be placed", shown_lines=shown)
    return Merged(merged, None, "exact", shown_lines=shown)


def shows_definitions(snippet: Sequence[str], language: str | None) -> bool:
    """True when the marker-free snippet parses as one or more whole definitions."""
    if not syntax.has_grammar(language):
        return False
    return bool(_snippet_definitions(textwrap.dedent("\n".join(snippet)), language))


def _snippet_definitions(text: str, language: str | None) -> list[Definition] | None:
    """The snippet's definitions; JS/TS methods shown without their class are read inside a
    stand-in class (line numbers shifted back). None when the snippet does not parse."""
    if syntax.parses(text, language):
        return list_definitions(text, language) or []
    if language in ("javascript", "typescript", "tsx"):
        wrapped = "class __Snippet__ {\n" + text + "\n}"
        if syntax.parses(wrapped, language):
            holders = list_definitions(wrapped, language) or []
            if len(holders) == 1:  # a stray `}` in the snippet closes the stand-in class early
                return [_shift_def(m, -1) for m in holders[0].members]
    return None


def _shift_def(d: Definition, by: int) -> Definition:
    return Definition(d.key[1:], d.kind, d.start + by, d.end + by, d.body_empty,
                      tuple(_shift_def(m, by) for m in d.members))


def _outside_code(snip_lines, snip_defs, original) -> str | None:
    """Lines outside every definition must be blank, comments, or lines the original has."""
    covered = {k for d in snip_defs for k in range(d.start, d.end)}
    known = {line.strip() for line in original}
    for i, line in enumerate(snip_lines):
        s = line.strip()
        if i in covered or not s or s.startswith(("#", "//", "/*", "*")) or s in known:
            continue
        return f"the snippet has code outside any definition ({quote(s, 40)}) and no markers to place it"
    return None


def _find(target: Definition, scope: Sequence[Definition], everywhere: Sequence[Definition]) -> Definition | None:
    same = [d for d in scope if d.key[-1] == target.key[-1]]
    if len(same) == 1:
        return same[0]
    if not same:
        # A method shown without its class: match by name anywhere when that is unique.
        anywhere = [d for d in everywhere if d.key[-1] == target.key[-1]]
        if len(anywhere) == 1 and target.kind not in CONTAINERS:
            return anywhere[0]
    return None


def _plan(orig, snip, snip_defs, scope, everywhere, edits: list[_Edit]) -> str | None:
    """Add an edit per snippet definition in `snip_defs` (matched within `scope`)."""
    placed: dict[int, Definition] = {}  # snippet index -> original definition it maps to
    for i, sd in enumerate(snip_defs):
        same = [d for d in scope if d.key[-1] == sd.key[-1]]
        if len(same) > 1:
            return f"{code(sd.key[-1])} is defined {len(same)} times in the original; use markers with context"
        od = _find(sd, scope, everywhere)
        if od is None:
            twins = [d for d in everywhere if d.key[-1] == sd.key[-1]]
            if len(twins) > 1:  # not new: it exists in several places and the snippet names none
                where = ", ".join(".".join(part.split()[-1] for part in d.key) for d in twins[:4])
                return (f"{code(sd.key[-1])} is defined {len(twins)} times in the original ({where}); show its "
                        "enclosing definition or an unchanged line next to it so the snippet names one")
            continue
        placed[i] = od
        if sd.kind in CONTAINERS and od.members and not covers(sd, od):
            if _header(snip, sd) != _header(orig, od):
                return f"{code(sd.key[-1])} shows only some members and a changed header; show the whole of it"
            reason = _plan(orig, snip, sd.members, od.members, everywhere, edits)
            if reason:
                return reason
            continue
        s_start, o_start = sd.start, od.start
        if (s_comments := with_comments(snip, sd.start, 0)) < sd.start:
            s_start, o_start = s_comments, with_comments(orig, od.start, 0)
        new = _reindent(snip[s_start : sd.end], indentation(snip[sd.start]), indentation(orig[od.start]))
        edits.append(_Edit(o_start, od.end, tuple(new)))
    for i, sd in enumerate(snip_defs):
        if i in placed:
            continue
        reason = _insert(orig, snip, snip_defs, placed, i, edits)
        if reason:
            return reason
    return None


def covers(sd: Definition, od: Definition) -> bool:
    """True when the snippet's container `sd` shows every member of the original's `od` by name."""
    names = {m.key[-1] for m in sd.members}
    return all(m.key[-1] in names for m in od.members)


def _header(lines: Sequence[str], d: Definition) -> str:
    return " ".join(lines[d.start].split())


def _insert(orig, snip, snip_defs, placed, i, edits) -> str | None:
    """Insert a new definition after its nearest placed predecessor, else before its successor."""
    sd = snip_defs[i]
    s_start = with_comments(snip, sd.start, snip_defs[i - 1].end if i else 0)
    body = snip[s_start : sd.end]
    prev = next((j for j in range(i - 1, -1, -1) if j in placed), None)
    if prev is not None:
        od = placed[prev]
        gap = snip[snip_defs[prev].end : s_start]
        new = list(gap) + _reindent(body, indentation(snip[sd.start]), indentation(orig[od.start]))
        edits.append(_Edit(od.end, od.end, tuple(new)))
        return None
    nxt = next((j for j in range(i + 1, len(snip_defs)) if j in placed), None)
    if nxt is not None:
        od = placed[nxt]
        n_start = with_comments(snip, snip_defs[nxt].start, sd.end)
        gap = snip[sd.end : n_start]
        at = with_comments(orig, od.start, 0)
        new = _reindent(body, indentation(snip[sd.start]), indentation(orig[od.start])) + list(gap)
        edits.append(_Edit(at, at, tuple(new)))
        return None
    # No neighbour: appending at the end is only a guess, so it becomes the candidate.
    edits.append(_Edit(len(orig), len(orig), tuple([""] + list(body))))
    return f"{code(sd.key[-1])} is new and the snippet shows no existing neighbour to place it by"


def _apply(orig: list[str], edits: Sequence[_Edit]) -> list[str] | None:
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    for a, b in zip(ordered, ordered[1:]):
        if b.start < a.end:
            return None
    out = list(orig)
    for e in reversed(ordered):
        out[e.start : e.end] = list(e.lines)
    return out


CHANGED_IN_HEAD = 2  # lines a cut-short excerpt may change in place


def cut_short(snip_lines: Sequence[str], snip_defs: Sequence, original: Sequence[str],
              orig_defs: Sequence) -> str | None:
    """A refusal reason when a definition running into the snippet's end (`snip_defs`, all of
    them, nested ones included) is the first lines of the original's one of its name (`_head_of`:
    equal, or with a line or two edited in place) and nothing more; else None."""
    if not snip_defs:
        return None
    end = max(d.end for d in snip_defs)
    if any(l.strip() for l in snip_lines[end:]):
        return None
    for last in (d for d in snip_defs if d.end == end):
        theirs = _only(orig_defs, last.key)
        if theirs is None:
            continue
        mine = _from_header([l.strip() for l in snip_lines[last.start : last.end] if l.strip()], last.key[-1])
        old = _from_header([l.strip() for l in original[theirs.start : theirs.end] if l.strip()], last.key[-1])
        if mine and len(mine) < len(old) and _head_of(mine, old):
            return (f"the snippet ends inside {code(mine[0])}, which the original goes on after "
                    f"({code(old[len(mine)])}): add a marker after it, or show the definition whole")
    return None


def _head_of(mine: list[str], old: list[str]) -> bool:
    """`mine` is `old`'s first lines, ending on an unchanged one: equal, or with at most CHANGED_IN_HEAD
    edited in place (an excerpt that stops inside the definition, not a shorter rewrite of it)."""
    changed = sum(1 for a, b in zip(mine, old) if a != b)
    return mine[-1] == old[len(mine) - 1] and (changed == 0 or changed <= CHANGED_IN_HEAD and 2 * changed < len(mine))


def _from_header(lines: list[str], name: str) -> list[str]:
    """`lines` from the first one naming the definition (its header): a decorator, annotation
    or comment above it, which the snippet may add, is not part of what it cuts short."""
    return next((lines[i:] for i, line in enumerate(lines) if name in line), lines)


def _only(defs: Sequence, key: tuple[str, ...]):
    """The one definition whose key ends with `key` (a method shown without its class), or None."""
    found = [d for d in defs if d.key[-len(key):] == key]
    return found[0] if len(found) == 1 else None
