"""The other reading of a new definition laid over the end of the one above it.

A snippet adds a new definition (`def test_multiple_default_help(runner):`) between a marker and
an unchanged next definition (`def test_nargs_envvar(runner):`). Its first lines look like the
end of the definition above it (`@click.command()`, `assert not result.exception`), so a reading
may match them there: the new header then lands inside the old body and takes over its tail
(landing.check_definition_split refuses that). The other reading inserts the whole new
definition just before the next unchanged line at its depth, the old body kept whole.

`insert_before_next` builds that reading from the refused one, only when the new definition is
*whole* and *new*: its name occurs nowhere in the original (no copy, rename or move of an existing
definition), the snippet shows it whole (header to the end of its body, its non-blank lines in a
row with no marker among them), its brackets balance, and the refused reading changed nothing of
the old definition before the new header (so nothing but the relanding differs). The caller
checks the result with every guard.

Worked example (original, snippet, refused reading, this reading):

    def a():            # ... existing ...       def a():             def a():
        x()             def b():                     x()                  x()
        assert ok           y()                  def b():                 assert ok
                            assert ok                y()
    def c():                                         assert ok        def b():
        z()             def c():                                          y()
                            # ... existing ...   def c():                 assert ok
                                                     z()
                                                                      def c():
                                                                          z()

This module knows lines and indentation; it does not place sections or run guards.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.lines import bracket_balance
from fastapply.merge.text.conventions import indent_width as _depth
from fastapply.merge.gate.landing import definition_split
from fastapply.merge.text.compare import line_opcodes

_NAME = re.compile(r"(?:def|fn|func|function|fun|sub|class|struct|trait|enum|interface|module|impl)\s+"
                   r"(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")


def defined_name(header: str) -> str | None:
    """The name a definition header defines (`def test_x(runner):` -> `test_x`), or None."""
    m = _NAME.search(header)
    return m.group(1) if m else None


def _shown_whole(block: Sequence[str], snippet: Sequence[str]) -> bool:
    """The block's non-blank lines occur in the snippet in a row (blank lines between them aside)."""
    want = [l.strip() for l in block if l.strip()]
    shown = [l.strip() for l in snippet if l.strip()]
    n = len(want)
    return any(shown[k : k + n] == want for k in range(len(shown) - n + 1))


def insert_before_next(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> list[str] | None:
    """The reading that inserts the new definition `result` laid inside an original definition's
    body (landing.definition_split) whole, just before the next original line at its depth, with
    the original body kept; None when the definition is not whole and new (module docstring) or
    the refused reading does not have the expected shape."""
    split = definition_split(original, result, snippet)
    if split is None:
        return None
    j, parent, end, _ = split
    header = result[j]
    name = defined_name(header.strip())
    if name is None or any(re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", l) for l in original):
        return None  # not a new name: a copy, rename or move of an existing definition
    orig_of: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag == "equal":
            orig_of.update({j1 + k: i1 + k for k in range(j2 - j1)})
    depth = _depth(header)
    a = j  # decorators and other new lines at the header's depth right above it belong to it
    while a > 0 and result[a - 1].strip() and a - 1 not in orig_of and _depth(result[a - 1]) == depth:
        a -= 1
    b = j + 1
    while b < len(result) and (not result[b].strip() or _depth(result[b]) > depth):
        b += 1
    if b >= len(result) or orig_of.get(b) != end:
        return None  # the definition must end right before the original's next line at its depth
    block = list(result[a:b])
    while block and not block[-1].strip():
        block.pop()
    rp = next((k for k, i in orig_of.items() if i == parent), None)
    if rp is None or rp >= a or bracket_balance(block) != 0 or not _shown_whole(block, snippet):
        return None
    if any(k not in orig_of and result[k].strip() for k in range(rp, a)):
        return None  # the reading changed the old definition too: more than a relanding differs
    body_end = end
    while body_end > parent and not original[body_end - 1].strip():
        body_end -= 1
    gap = list(original[body_end:end])  # the blank lines that separate definitions here
    return list(result[:rp]) + list(original[parent:end]) + block + gap + list(result[b:])
