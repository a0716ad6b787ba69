"""Renamed openers: a changed header whose body the snippet elides is the original header it replaces.

A header absent from the original whose next non-blank line is a marker cannot open a new block
(a new block has no existing body to elide): it is an existing header renamed or re-signed. Read
literally, nothing anchors the section or the new header lands beside the old one. `find_renames`
names the original header each such line replaces when exactly one is clearly the one; the
instant merge then reads the snippet with the original header in its place (`substitute`) and
writes the snippet's header over it in the result (`restore`).

Which original header: an opener at the same indentation, led by the same word, occurring once in
the original and not shown by the snippet, between the snippet's unique lines around it, with
the same name (re-signed) or one at least SAME_NAME alike (lines.identity); the fewest separate
changes wins, a tie is no rename. Headers of one snippet are matched one to one.

This module knows lines, markers and indentation; it does not place sections or judge results.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

from fastapply.merge.text.lines import SAME_NAME, distinctive, identity, indent_width as _width, indentation, is_opener
from fastapply.merge.result import Merged
from fastapply.merge.snippet.sections import CANONICAL_MARKER, is_gap
from fastapply.merge.text.spans import quote

_WORD = re.compile(r"[A-Za-z_$][\w$]*")


@dataclass(frozen=True)
class Rename:
    """Snippet line `at` (text `new`) replaces original line `line` (text `old`)."""

    at: int
    line: int
    new: str
    old: str


def _lead(line: str) -> str | None:
    m = _WORD.search(line)
    return m.group(0) if m else None


def elided_heads(original: Sequence[str], snippet: Sequence[str]) -> list[int]:
    """Snippet lines that open a block, are absent from the original, occur once in the snippet,
    name something (lines.identity), and whose next non-blank line is a marker."""
    known = frozenset(l.strip() for l in original)
    shown = Counter(l.strip() for l in snippet)
    marker = [is_gap(l, known) for l in snippet]
    code = [k for k, l in enumerate(snippet) if l.strip()]
    return [a for a, b in zip(code, code[1:])
            if marker[b] and not marker[a] and is_opener(snippet[a]) and snippet[a].strip() not in known
            and shown[snippet[a].strip()] == 1 and identity(snippet[a]) is not None]


def _window(original: Sequence[str], snippet: Sequence[str], at: int, counts: Counter, shown: Counter) -> tuple[int, int]:
    """The original lines between the snippet's nearest unique distinctive lines around `at`."""
    where = {l.strip(): i for i, l in enumerate(original) if counts[l.strip()] == 1}

    def pin(line: str) -> int | None:
        text = line.strip()
        return where.get(text) if text and shown[text] == 1 and distinctive(text) else None

    lo = next((p for l in reversed(snippet[:at]) if (p := pin(l)) is not None), -1)
    hi = next((p for l in snippet[at + 1:] if (p := pin(l)) is not None), len(original))
    return lo, hi


def _candidates(original: Sequence[str], snippet: Sequence[str], at: int, counts: Counter, shown: Counter) -> list[int]:
    head = snippet[at]
    lo, hi = _window(original, snippet, at, counts, shown)
    return [i for i in range(lo + 1, hi) if original[i].strip() and counts[original[i].strip()] == 1
            and not shown[original[i].strip()] and _width(original[i]) == _width(head)
            and _lead(original[i]) == _lead(head) and is_opener(original[i]) and identity(original[i]) is not None]


def _clear_choice(head: str, options: list[int], original: Sequence[str]) -> int | None:
    """The one original header `head` clearly renames among `options`, or None."""
    name = identity(head)
    scored = []
    for i in options:
        other = identity(original[i])
        if other == name:
            scored.append((0, i))
        elif (m := difflib.SequenceMatcher(None, other, name, autojunk=False)).ratio() >= SAME_NAME:
            scored.append((sum(op[0] != "equal" for op in m.get_opcodes()), i))  # separate places that differ
    scored.sort()
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def find_renames(original: Sequence[str], snippet: Sequence[str]) -> list[Rename]:
    """The snippet's renamed or re-signed headers with elided bodies and the original header each
    replaces (see the module docstring), matched one to one; empty when there are none."""
    heads = elided_heads(original, snippet)
    if not heads:
        return []
    counts = Counter(l.strip() for l in original)
    shown = Counter(l.strip() for l in snippet)
    options = {at: _candidates(original, snippet, at, counts, shown) for at in heads}
    chosen: dict[int, int] = {}
    while True:
        taken = set(chosen.values())
        picks = {at: _clear_choice(snippet[at], [i for i in options[at] if i not in taken], original)
                 for at in heads if at not in chosen}
        claims = Counter(i for i in picks.values() if i is not None)
        new = {at: i for at, i in picks.items() if i is not None and claims[i] == 1}
        if not new:
            break
        chosen.update(new)
    return [Rename(at, i, snippet[at], original[i]) for at, i in sorted(chosen.items())]


def substitute(snippet: Sequence[str], renames: Sequence[Rename]) -> list[str]:
    """The snippet with each renamed header replaced by the original header it stands for."""
    out = list(snippet)
    for r in renames:
        out[r.at] = r.old
    return out


def placing(snippet: Sequence[str], renames: Sequence[Rename], original: Sequence[str]) -> list[str]:
    """The snippet as the merge places it: each renamed header replaced by the original header it
    stands for (`substitute`), and a marker put before a snippet that starts with one when code
    precedes that header in the original (the forgotten start marker, made explicit for the
    greedy reading)."""
    out = substitute(snippet, renames)
    first = next((k for k, line in enumerate(snippet) if line.strip()), None)
    head = next((r for r in renames if r.at == first), None)
    if head is not None and any(line.strip() for line in original[: head.line]):
        out.insert(0, CANONICAL_MARKER)
    return out


def restore(lines: Sequence[str] | None, renames: Sequence[Rename]) -> list[str] | None:
    """A result of the substituted snippet with each original header written as the snippet's
    header; None when some original header does not occur exactly once in it (the merge did not
    read it as the one header the snippet renames)."""
    if lines is None:
        return None
    out = list(lines)
    for r in renames:
        at = [k for k, l in enumerate(out) if l.strip() == r.old.strip()]
        if len(at) != 1:
            return None
        line = out[at[0]]
        out[at[0]] = indentation(line) + r.new.strip()
    return out


def restored(merged: Merged, renames: Sequence[Rename]) -> Merged:
    """A merger's answer for the substituted snippet with the snippet's headers written back in
    its lines, candidate and alternative; refused when the lines do not hold each original header
    exactly once (the merge did not read it as the header the snippet renames)."""
    if not renames:
        return merged
    lines = restore(merged.lines, renames)
    candidate = restore(merged.candidate, renames)
    alternative = restore(merged.alternative, renames)
    if merged.lines is not None and lines is None:
        return replace(merged, lines=None, refused_reason="a renamed header could not be told apart from the "
                       "original one it replaces; include the unchanged lines below the header",
                       candidate=None, alternative=None)
    return replace(merged, lines=lines, candidate=candidate, alternative=alternative)


def _body(lines: Sequence[str], at: int) -> list[str]:
    """The lines after the opener lines[at] that are blank or indented deeper than it: its body
    (with any trailing blank lines dropped)."""
    depth, k = _width(lines[at]), at + 1
    while k < len(lines) and (not lines[k].strip() or _width(lines[k]) > depth):
        k += 1
    while k > at + 1 and not lines[k - 1].strip():
        k -= 1
    return list(lines[at + 1 : k])


def check_bodies_kept(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
                      renames: Sequence[Rename]) -> str | None:
    """A refusal reason when a renamed header's elided body (up to the first line the snippet
    shows again) does not follow the new header in the result, in order; None when every body is
    kept."""
    known = frozenset(l.strip() for l in original)
    snippet = substitute(snippet, renames)  # other renamed headers in the body read as the originals
    back = {r.new.strip(): r.old.strip() for r in renames}
    result = [back.get(l.strip(), l) for l in result]
    for r in renames:
        body = _body(original, r.line)
        after = [l for l in snippet[r.at + 1 :] if l.strip()]
        resume = next((l for l in after if not is_gap(l, known)), None)
        kept = next((body[:q] for q, l in enumerate(body) if resume is not None and l.strip() == resume.strip()), None)
        if kept is None:
            # A line the body does not have: beyond the block (the marker kept all of it), or a
            # changed line inside it, which may replace body lines the marker does not keep.
            kept = [] if resume is not None and _width(resume) > _width(r.new) else body
        want = [l.strip() for l in kept if l.strip()]
        at = [k for k, l in enumerate(result) if l.strip() == r.old.strip()]
        got = [l.strip() for l in result[at[0] + 1 :] if l.strip()][: len(want)] if len(at) == 1 else None
        if got != want:
            return (f"the body of {quote(r.old)}, which the snippet elides under its new header "
                    f"{quote(r.new)}, would not be kept; include its first unchanged lines")
    return None
