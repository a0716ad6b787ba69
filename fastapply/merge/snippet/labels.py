"""Label lines: a planner's notes in a snippet (`// NEW:`, `# BEGIN REPLACE`, `<!-- changed -->`), not code.

A planner marks what it changed with a comment that names the change rather than the code: a line
whose whole text is a comment saying new, added, changed, replaced, begin/end (of a replacement, of
new code, ...), optionally followed by `:` and a note. The merge writes every line a snippet shows,
so such a line would land in the file as a comment nobody wrote. `check_labels(snippet, original)`
refuses (kind form) a snippet holding one the original does not, naming each and offering the
snippet without them (`detail["labels"]`: their line numbers; the auto strategy answers with this
refusal too, as a model would copy the label); a comment the file should hold is written as that
comment, in words of the code. Measured on the added lines of the real commits at hand (train-pairs
and the foreign-a pairs, 28,474 lines): none is such a label. A block keyword alone in lower case
(`#   end`) is commented-out code, not a label: on the Debian and foreign release sets every line the
pattern matched was one, in a Ruby doc comment's example (twenty-seventh session).

This module knows comment openers and label words; it knows no merge and no language.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.refuse.refusal import Edit, Option, Reason, Refusal
from fastapply.merge.text.spans import quote

_WORDS = r"(?:new|add(?:ed)?|changed?|modified|updated?|replaced?|removed?|edit(?:ed)?|fix(?:ed)?|begin|end|start)"
_TAIL = (r"(?:\s+(?:code|line|lines|replace(?:ment)?|change[sd]?|edit|addition|here|this|block|section"
         r"|of (?:new|changed?) code))*")
LABEL = re.compile(rf"^\s*(?:#|//|--|/\*|<!--|;)\s*(?:<-+\s*)?{_WORDS}{_TAIL}\s*(?::.*)?(?:\*/|-->)?\s*$", re.I)
# `#   end`, `-- begin`: a block keyword alone in lower case is commented-out code (a Ruby or Lua doc
# comment's example), not a label; a planner's bare label shouts (`# END`) or says more (`# end of new code`)
_CODE_WORD = re.compile(r"^\s*(?:#|//|--|;)\s*(?:begin|end|start)\s*$")


def label_lines(snippet: Sequence[str], original: Sequence[str]) -> list[int]:
    """The indexes of the snippet's label lines (module docstring) the original does not hold."""
    found = [k for k, line in enumerate(snippet) if LABEL.match(line) and not _CODE_WORD.match(line)]
    if not found:
        return found  # the common case: no label, and no set of the original's lines to build
    held = {line.strip() for line in original}
    return [k for k in found if snippet[k].strip() not in held]


def check_labels(snippet: Sequence[str], original: Sequence[str]) -> Reason | None:
    """A form refusal naming the snippet's label lines, with the option that removes them; None
    when it has none. `snippet` is the snippet as sent (its line numbers are the option's)."""
    found = label_lines(snippet, original)
    if not found:
        return None
    named = ", ".join(f"{k + 1} ({quote(snippet[k], 40)})" for k in found[:3])
    cause = (f"snippet line{'s' if len(found) > 1 else ''} {named} read{'' if len(found) > 1 else 's'} as a note "
             "about the edit, not code, and the merge would write it into the file")
    fix = "remove it; a comment the file should hold is written as that comment"
    option = Option(f"remove the label line{'s' if len(found) > 1 else ''} {', '.join(str(k + 1) for k in found)}",
                    tuple(Edit("remove", start=k + 1, end=k + 1) for k in found))
    return Reason(Refusal("form", cause, fix, options=(option,), detail={"labels": tuple(k + 1 for k in found)}))
