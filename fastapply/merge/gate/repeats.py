"""Repeats checks: a merge that leaves the same structure twice where the snippet shows it once.

A lazy snippet's new code often looks like the code it replaces; a reading that treats it as
*added* keeps the original next to it. `landing.check_definition_kept_twice` catches an identical
header kept twice; these catch what it cannot see:

- `check_name_defined_twice`: the same name defined twice in one block, with different headers
  (a block defines a name once: the snippet's definition was meant to replace the original one);
- `check_stutter`: the result reads X, G, X, one X (two lines or more) new from the snippet, the
  other the original's, G a short run of original lines the snippet does not show; the snippet's
  X may be the original one with G deleted. Not when X is generic lines ending a new block and G
  opens a definition;
- `check_context_opener_twice`: a block opener the snippet shows next to a marker (context)
  twice in the result as siblings.

Each returns None or a one-sentence reason. This module knows lines, indentation and a few
definition shapes of mainstream languages (`def`, `fn`, `func`, `function`, `exports.x =`,
`key: ...`, PHP methods, Ruby `def`, Lua `function M.f(`); it does not parse and does not know how
the result was made.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from fastapply.merge.text.compare import added, copied_lines, line_opcodes
from fastapply.merge.text.lines import indent_len, is_generic
from fastapply.merge.text.names import defined_name, header_name
from fastapply.merge.snippet.sections import split_sections
from fastapply.merge.text.spans import code, quote
from fastapply.merge.text.quoting import placed_in_inputs


def names_defined_twice(lines: Sequence[str]) -> set[tuple[str, int]]:
    """(name, indentation) pairs that one block defines twice: two lines at the same indentation
    with no less-indented non-blank line between them define the same name."""
    twice = set()
    open_blocks: dict[int, set[str]] = {}
    for line in lines:
        if not line.strip():
            continue
        depth = indent_len(line)
        for deeper in [d for d in open_blocks if d > depth]:
            del open_blocks[deeper]
        name = defined_name(line)
        if name is None:
            continue
        seen = open_blocks.setdefault(depth, set())
        if name in seen:
            twice.add((name, depth))
        seen.add(name)
    return twice


def check_name_defined_twice(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when one block of the result defines a name twice although the original's block
    does not and the snippet shows that name's definition at most once: the snippet's new
    definition was pasted beside the original one instead of replacing it."""
    twice = names_defined_twice(result)
    new = twice - names_defined_twice(original) if twice else twice
    if not new:
        return None
    shown = Counter(defined_name(line) for line in snippet)
    for name, _ in sorted(new):
        if shown[name] < 2:
            return (f"{code(name)} would be defined twice in one block (the original's definition kept beside the "
                    "snippet's); include the lines around it so the snippet's definition replaces the original one")
    return None


STUTTER_RUN = 2  # lines of X, the run the result has twice
STUTTER_GAP = 3  # at most this many original lines between the two copies


def check_stutter(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the result reads X, G, X (see the module docstring): one copy of X new from the
    snippet, the other the original's, G a short run of original lines the snippet does not
    show. The snippet's X may be the original one with G deleted; the snippet cannot settle it."""
    new_at = added(line_opcodes(original, result))
    if not new_at:
        return None  # one copy must be new
    new = [j in new_at for j in range(len(result))]
    text = [line.strip() for line in result]
    shown = {line.strip() for line in snippet}
    k = STUTTER_RUN
    for a in range(len(text) - k + 1):
        run = text[a : a + k]
        if not any(run) or not (all(new[a : a + k]) or not any(new[a : a + k])):
            continue
        for gap in range(1, STUTTER_GAP + 1):
            b = a + k + gap
            if b + k > len(text):
                break
            if text[b] != run[0] or text[b : b + k] != run or new[a] == new[b] or not (
                    all(new[b : b + k]) or not any(new[b : b + k])):
                continue
            between = text[a + k : b]
            if any(new[a + k : b]) or not any(between) or any(line in shown for line in between if line):
                continue
            generic = all(not line or is_generic(line) for line in run)
            if generic and header_name(next(l for l in between if l)) is not None and new[a]:
                continue  # `}` and a blank line end a new definition before a sibling as short as it
            at = next((a + j for j in reversed(range(k)) if run[j] and not is_generic(run[j])),
                      next(a + j for j in reversed(range(k)) if run[j]))  # the last line that says something
            return (f"the lines {placed_in_inputs(original, result, snippet, at)} would appear twice around {gap} "
                    f"original line(s) the snippet does not show ({quote(next(l for l in between if l), 50)}): the "
                    "snippet may mean the original ones, with those lines deleted; include the lines just around them")
    return None


# --------------------------------------------------------------------------- context opener twice

_CONTROL = re.compile(
    r"^(}\s*)?(if|for|while|switch|try|else|elif|except|catch|finally|with|do|case|select|match|loop|unless)\b"
)


def check_context_opener_twice(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when a block opener the snippet shows next to a marker appears twice in the result
    as siblings (same indentation, nothing shallower between) though the original and the
    snippet each have it once. Control-flow openers may repeat in a block and do not count."""
    for line in sorted(copied_context(original, result, snippet)):
        if not line.endswith(("{", ":")) or _CONTROL.match(line):
            continue
        at = [k for k, l in enumerate(result) if l.strip() == line]
        for x, y in zip(at, at[1:]):
            width = indent_len(result[x])
            if indent_len(result[y]) == width and all(not l.strip() or indent_len(l) >= width for l in result[x + 1 : y]):
                return (
                    f"{quote(line)} (lines {x + 1} and {y + 1}) would open two sibling blocks; the snippet shows "
                    f"it once, next to a marker, as context: include the lines around it"
                )
    return None


def marker_context(snippet: Sequence[str], original: Sequence[str]) -> set[str]:
    """The lines (stripped) a snippet shows right next to its markers: each section's first
    non-blank line after a marker and its last non-blank line before one."""
    out: set[str] = set()
    for section in split_sections(snippet, original):
        shown = [line.strip() for line in section.lines if line.strip()]
        if shown and section.open_start:
            out.add(shown[0])
        if shown and section.open_end:
            out.add(shown[-1])
    return out


def copied_context(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> set[str]:
    """The marker-context lines (`marker_context`) that `result` has more often than the original
    and the snippet each have them (compare.copied_lines): context read as new code."""
    return set(copied_lines(original, result, snippet)) & marker_context(snippet, original)
