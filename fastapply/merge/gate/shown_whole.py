"""Deletions the snippet shows by showing whole what enclosed them: a block, or a definition.

The unshown-deletions check (snippet_checks.check_unshown_deletions) wants a shown line next to
every run of removed lines. Two readings of "shown" need no neighbour:

- `deletion_in_shown_block`: the deleted lines sat inside a bracketed block the snippet shows from
  opener to closer in one run, no marker between; asked only for short deletions (SHOWN_GAP
  non-blank lines): a long body may have been meant to stay;
- `inside_rewritten_definition`: the snippet shows a definition's header (same name) and runs,
  with no marker, to the next definition's header (or its own end for the file's last): what is
  gone of the old one was rewritten, not forgotten.

This module knows brackets, definition headers (text.names.defined_name), indentation and markers;
it does not parse and does not know how the result was made.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.lines import bracket_balance, indent_width as _depth, is_generic, run_starts, stripped_counts
from fastapply.merge.text.markers import is_marker
from fastapply.merge.text.names import defined_name


def enclosing_block(lines: Sequence[str], at: int) -> tuple[int, int] | None:
    """(opener, closer) indices of the innermost bracketed block around the gap before
    `lines[at]`: the nearest line above whose bracket left open, and the nearest line below that
    closes it; None when the gap is at top level or the brackets never balance."""
    depth, opener = 0, None
    for k in range(at - 1, -1, -1):
        depth += bracket_balance([lines[k]])
        if depth > 0:
            opener = k
            break
    if opener is None:
        return None
    depth = 0
    for k in range(at, len(lines)):
        depth += bracket_balance([lines[k]])
        if depth < 0:
            return opener, k
    return None


def deletion_in_shown_block(original: Sequence[str], result: Sequence[str], snippet: Sequence[str], at: int) -> bool:
    """True when the lines a merge deleted before `result[at]` sat inside a bracketed block the
    snippet shows whole (opener, every kept line and closer in one run, no marker between), a run
    that lies in the result as it stands and holds a distinctive line the original and the result
    each have once (`_pins`: this block, not a look-alike)."""
    span = enclosing_block(result, at)
    if span is None:
        return False
    rows = [k for k, line in enumerate(result) if line.strip()]
    texts = [result[k].strip() for k in rows]
    first, last = rows.index(span[0]), rows.index(span[1])
    block = texts[first : last + 1]
    once = _once(original, result)
    run: list[str] = []
    for line in [*snippet, "// ... existing code ..."]:
        if not is_marker(line):
            if line.strip():
                run.append(line.strip())
            continue
        if any(first >= i and texts[first - i : first - i + len(run)] == run for i in run_starts(run, block)) \
                and any(l in once for l in run):
            return True
        run = []
    return False


def _once(original: Sequence[str], result: Sequence[str]) -> set[str]:
    """Distinctive lines (stripped) the original and the result each have exactly once."""
    before, after = stripped_counts(original), stripped_counts(result)
    return {l for l, n in after.items() if n == 1 and before[l] == 1 and len(l) >= 8 and not is_generic(l)}


def _header_name(line: str) -> str | None:
    """The name a definition header defines (`def f(`, `func (r T) f(`, `function f(`, `class C`),
    or None; object keys (`name: value`) are no headers here."""
    if re.match(r"^\s*['\"]?[\w$]+['\"]?\s*:", line):
        return None
    return defined_name(line)


def inside_rewritten_definition(original: Sequence[str], snippet: Sequence[str], i1: int, i2: int) -> bool:
    """True when the removed original lines `original[i1:i2]` lie inside a definition that the
    snippet shows whole in its new form: a definition header enclosing them (above them and
    shallower) has a header of the same name in the snippet, once, and so does the next header
    after them at that depth or shallower, with no marker between the two snippet headers (or,
    for the file's last definition, no marker after the snippet's header)."""
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
