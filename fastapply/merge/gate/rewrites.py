"""Rewritten definitions: removed lines inside a definition the snippet shows whole in its new form.

The unshown-deletions check (snippet_checks.check_unshown_deletions) wants a line the snippet
shows next to every run of removed lines. A definition rewritten from its header to the next
header loses lines that have nothing next to them left to show: a docstring example the new
version drops sits between other rewritten lines. `inside_rewritten_definition` recognises that
case: the snippet shows the definition's header (same name, edited signature allowed) and runs,
with no marker, to the next definition's header (or to its own end for the file's last
definition). Then every line the definition now has is shown, and what is gone of the old one
was rewritten, not forgotten: a forgotten marker there would leave the old definition and the new
one side by side (the same name defined twice), which no reading of such a snippet means.

Example (the original's `first` against the snippet's; `def second` follows in both):

    def first(*decls, **attrs):             def first(*decls, **kwargs):
        '''Shortcut ... equivalent to::         '''Add a ``--yes`` option.'''
            def dropdb(): ...                   def callback(ctx, param, value): ...
        '''                                     kwargs.setdefault("is_flag", True)
        def decorator(f): ...   <- removed      return option(*decls, **kwargs)
        attrs.setdefault(...)               def second(*decls, **attrs):
    def second(*decls, **attrs):            # ... existing code ...

This module knows definition headers (repeats.defined_name), indentation and markers; it does not
parse and does not know how the result was made.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.conventions import indent_width as _depth


def _header_name(line: str) -> str | None:
    """The name a definition header defines (`def f(`, `func (r T) f(`, `function f(`, `class C`),
    or None; object keys (`name: value`) are no headers here."""
    from fastapply.merge.gate.repeats import defined_name

    if re.match(r"^\s*['\"]?[\w$]+['\"]?\s*:", line):
        return None
    return defined_name(line)


def inside_rewritten_definition(original: Sequence[str], snippet: Sequence[str], i1: int, i2: int) -> bool:
    """True when the removed original lines `original[i1:i2]` lie inside a definition that the
    snippet shows whole in its new form: a definition header enclosing them (above them and
    shallower) has a header of the same name in the snippet, once, and so does the next header
    after them at that depth or shallower, with no marker between the two snippet headers (or,
    for the file's last definition, no marker after the snippet's header). The snippet then
    shows every line the definition now has, so what is gone of the old one was rewritten, not
    forgotten: a function whose docstring examples the new version drops has nothing left to
    point at, yet a forgotten marker would leave the old definition and the new one side by
    side (the same name defined twice), which no reading of such a snippet means."""
    run = [line for line in original[i1:i2] if line.strip()]
    if not run:
        return False
    depth = min(_depth(line) for line in run)
    names = [_header_name(line) for line in snippet]
    for head in range(i1 - 1, -1, -1):
        name = _header_name(original[head])
        if not name or _depth(original[head]) >= depth:
            continue
        depth = _depth(original[head])  # the next enclosing header must be shallower still
        if _shown_whole(original, snippet, names, head, i2):
            return True
        if depth == 0:
            break
    return False


def _shown_whole(original: Sequence[str], snippet: Sequence[str], names: list[str | None], head: int, i2: int) -> bool:
    """Whether the snippet shows the definition headed at `original[head]` (reaching past line
    `i2`) whole: its header's name once, and from there to the header of the next definition
    after `i2` at its depth or shallower (or to the snippet's end) no marker."""
    from fastapply.merge.text.markers import is_marker

    level = _depth(original[head])
    if any(_header_name(line) and _depth(line) <= level for line in original[head + 1 : i2]):
        return False  # the definition ends before the removed lines
    starts = [j for j, name in enumerate(names) if name == _header_name(original[head])]
    if len(starts) != 1:
        return False
    after = next((k for k in range(i2, len(original)) if _header_name(original[k]) and _depth(original[k]) <= level), None)
    rest = snippet[starts[0] + 1 :]
    if after is None:
        return not any(is_marker(line) for line in rest)
    ends = [j for j, name in enumerate(names[starts[0] + 1 :]) if name == _header_name(original[after])]
    return bool(ends) and not any(is_marker(line) for line in rest[: ends[0]])
