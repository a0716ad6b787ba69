"""How a refusal sentence quotes lines, so that every line it points at can be found by the snippet's writer.

An agent answering a refusal has the original file and its own snippet, not the merged file the
merge refused to write, and a line quoted as `}`, `end`, `*` or a blank line locates nothing in
either. The rules, applied to every refusal sentence and option (refuse/explain.py calls
`placed_lines` last; gate/parses.py calls `where_in_inputs`, gate/snippet_checks.py `placed`):

- `placed(lines, i)`: an original line that is generic (text.lines.is_generic: a blank line, brackets
  alone, a lone keyword) is quoted with its nearest distinctive line: "`*`, below `* @param x`".
  `placed_lines` rewrites every "line N (`...`)" of a sentence so (the original's line N, when the
  quote is that line and it is generic).
- `one_line_ranges`: "lines 24-24" is "line 24", "24-24 before" is "24 before".
- `where_in_inputs(original, result, snippet, r)`: line r of a merged file, said as the original
  line it keeps or the snippet line that wrote it (its nearest distinctive line, quoted), else as a
  line of the merged file.

This module knows line texts and numbers; it decides nothing and reads no refusal's data.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.compare import line_opcodes, origins
from fastapply.merge.text.lines import is_generic, nearest_distinctive
from fastapply.merge.text.spans import code, unquoted

WIDTH = 60  # characters of a line a sentence quotes
_LINE_QUOTE = re.compile(r"\bline (\d+) \(`([^`\n]*)`\)")
_ONE_LINE = re.compile(r"\blines (\d+)-\1\b")
_ONE_MORE = re.compile(r"(?<![\w.`-])(\d+)-\1(?![\w`-])")  # "... and 9-9 below ...", "deletes: 9-9 before ..."
_QUOTED = re.compile(r"(`[^`\n]*`)")


def placed(lines: Sequence[str], i: int) -> str:
    """Line i quoted, and, when it is generic, placed by its nearest distinctive line."""
    text = lines[i].strip()[:WIDTH]
    head = code(text) if text else "a blank line"
    if not is_generic(lines[i]):
        return head
    j = nearest_distinctive(lines, i)
    if j == i:
        return head
    return f"{head}, {'below' if j < i else 'above'} {code(lines[j].strip()[:WIDTH])}"


def placed_lines(original: Sequence[str], text: str) -> str:
    """`text` (read with spans.readable) with each "line N (`q`)" whose q is the original's generic
    line N placed (`placed`), and one-line ranges said as one line."""
    def one(match: re.Match) -> str:
        i = int(match.group(1)) - 1
        if not 0 <= i < len(original) or original[i].strip()[:WIDTH] != unquoted(match.group(2)).strip():
            return match.group(0)
        if not is_generic(original[i]) or nearest_distinctive(original, i) == i:
            return match.group(0)
        return f"line {i + 1} ({placed(original, i)})"
    return _LINE_QUOTE.sub(one, one_line_ranges(text))


def one_line_ranges(text: str) -> str:
    """"lines 24-24" said as "line 24", and any other one-line range "24-24" as "24" ("... and 24-24
    below", "as `-` lines: 24-24 before snippet line 3"); quoted code is left as it is."""
    parts = _QUOTED.split(text)
    return "".join(part if k % 2 else _ONE_MORE.sub(r"\1", _ONE_LINE.sub(r"line \1", part))
                   for k, part in enumerate(parts))


def where_in_inputs(original: str | Sequence[str], result: str | Sequence[str], snippet: str | Sequence[str] | None,
                    r: int, nearest: bool = True) -> str:
    """Where line r (0-based) of the merged `result` is, in the lines the snippet's writer has:
    "original line M (`text`)" for a kept original line, "snippet line K (`text`)" for a line the
    snippet wrote, else "line r of the merged file (`text`)". The line said is r's nearest
    distinctive one (`nearest`), or r itself."""
    res, orig, snip = (_lines(t) for t in (result, original, snippet))
    if not 0 <= r < len(res):
        return f"line {r + 1} of the merged file"
    k = nearest_distinctive(res, r) if nearest else r
    text = res[k].strip()[:WIDTH]
    at = _counterpart(orig, res, k)
    if at is not None:
        return f"original line {at + 1} ({code(text)})"
    at = _counterpart(snip, res, k) if snip else None
    if at is not None:
        return f"snippet line {at + 1} ({code(text)})"
    return f"line {k + 1} of the merged file ({code(text)})"


def _lines(text: str | Sequence[str] | None) -> list[str]:
    if text is None:
        return []
    return text.split("\n") if isinstance(text, str) else list(text)


def _counterpart(lines: list[str], res: list[str], k: int) -> int | None:
    """The line of `lines` that result line k is, by the merge's line diff (text/compare.line_opcodes) of
    the texts as they are (so that of two `end` lines the one at k's indentation is k's), else of the
    stripped texts (a line the merge reindented)."""
    for norm in (str.rstrip, str.strip):
        at = origins(line_opcodes([norm(x) for x in lines], [norm(x) for x in res])).get(k)
        if at is not None:
            return at
    return None
