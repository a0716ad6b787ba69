"""Whether a refusal sentence points at a line its reader cannot find (issue 20: "no refusal message
points at a blank or a lone bracket line"), counted by `fastapply eval --retry`.

`unplaced(sentence, original)` lists what a sentence points at that locates nothing:

- a quoted generic line (text.lines.is_generic: `}`, `end`, `/**`, a blank line) that no distinctive
  line next to it places: "`}` after `return a`", "`}`, below `return a`", "the line `}` before
  `def g():`" and "snippet line 23 (`end`)" (the writer's own snippet, numbered) place it; "`}`
  matches 3 places" does not (a `-` or `+` quoted as a diff prefix is no line);
- a line number whose original line is generic and that no quote beside it places: "near line 12
  (`{`)" does not locate, "line 12 (`{`, above `extends: latest,`)" does. Numbers that name an edit
  ("add the unchanged original line 4 above snippet line 2") or a candidate place ("for the place at
  original line 9": the ambiguous line's own place) are not pointers;
- a line number of the merged file the refusal did not write ("no longer parses near line 12" of the
  file never written).

A heuristic over the sentence's words (merge/text/quoting.py writes them); it knows no merge rule.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.lines import is_generic
from fastapply.merge.text.quoting import LINE_POINTER, NUMBERED_AFTER, PLACED_BY
from fastapply.merge.text.spans import code, readable, unquoted

_QUOTE = re.compile(r"`([^`\n]*)`")
_REF = re.compile(LINE_POINTER + r"(?! \((?:`[^`]*`|a blank line), (?:below|above) )")  # not placed after it
_MERGED = re.compile(r"no longer (?:parses|balance their brackets) near line \d|new closer `[^`]*` \(line \d")


def unplaced(sentence: str, original: Sequence[str]) -> list[str]:
    """What `sentence` points at that locates nothing in `original` or the snippet (see the module)."""
    out = []
    sentence = readable(sentence)  # a line holding a backtick is quoted fenced (merge/text/spans.py)
    for m in _QUOTE.finditer(sentence):
        text = unquoted(m.group(1))
        if not is_generic(text) or text.strip() in ("-", "+"):
            continue
        after = PLACED_BY.match(sentence, m.end())
        if after and not is_generic(after.group(1)):
            continue
        if re.search(r"`[^`\n]*`\s*(?:after|before)\s*$", sentence[max(0, m.start() - 80) : m.start()]):
            continue  # "`x` after `}`": the quote before places the line it is about
        if re.search(r"(?:\bsnippet lines? |`\), )\d+(?:-\d+)? \($", sentence[max(0, m.start() - 40) : m.start()]) \
                or NUMBERED_AFTER.match(sentence, m.end()):
            continue  # "snippet line 23 (`end`)", "`end` (snippet line 23)": the writer's own snippet, numbered
        out.append(code(text))
    for m in _REF.finditer(sentence):
        i = int(m.group(1)) - 1
        if 0 <= i < len(original) and is_generic(original[i]):
            out.append(f"line {i + 1}")
    out.extend(m.group(0) for m in _MERGED.finditer(sentence))
    return out
