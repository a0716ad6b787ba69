"""Text conventions of the instant merge, handled once so the mergers only see lists of lines.

- `split_text` / `join_lines`: a file's lines without newlines, and back: the original's line
  endings (CRLF in, CRLF out; CR-only in, CR-only out; a mixed file's unchanged lines keep their
  own), its final newline and its byte-order mark are kept;
- `unfence`: a snippet wrapped in a ``` fence is unwrapped (blank lines are content otherwise);
- `convert_indent`: a snippet indented with spaces for a tab-indented original (or the reverse)
  is converted when that makes more of its lines match.

This module knows text and indentation; it does not know snippets' markers or merging.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from fastapply.merge.text.lines import blank_ends
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.syntax import language_from_path


_LINE_END = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Text:
    lines: list[str]
    newline: str  # the file's most common line ending: "\n", "\r\n" or "\r" (classic Mac)
    final_newline: bool
    bom: str
    endings: tuple[str, ...] = ()  # each line's own ending, only for a file that mixes them ("" after the last line)


def split_text(text: str) -> Text:
    """A file's lines without their endings. Any of `\r\n`, `\r` and `\n` ends a line (a CR-only
    file is as many lines as it has CRs, not one). A file that mixes endings keeps each line's own
    in `endings`, so `join_lines` gives the lines it did not change their own ending back."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    text = text[len(bom):]
    if "\r" not in text:  # the common case, fast
        lines = text.split("\n")
        ends = None
    else:
        lines = _LINE_END.split(text)
        ends = _LINE_END.findall(text)
    final = len(lines) > 1 and lines[-1] == ""
    if final:
        lines.pop()
    if ends is None:
        return Text(lines, "\n", final, bom)
    counts = {e: ends.count(e) for e in ("\n", "\r\n", "\r")}
    newline = max(counts, key=lambda e: (counts[e], e == "\r\n"))  # ties: CRLF, as before
    mixed = sum(1 for c in counts.values() if c) > 1
    endings = tuple(ends + ([] if final else [""])) if mixed else ()
    return Text(lines, newline, final, bom, endings)


def join_lines(lines: list[str], like: Text) -> str:
    """`lines` as a file in `like`'s conventions: its BOM, final newline and line endings. Where
    `like` mixes endings, a line of the result that the diff matches to one of `like`'s lines
    keeps that line's ending; a new line takes the most common one."""
    if like.endings and lines:
        return like.bom + _join_mixed(lines, like)
    body = "\n".join(lines)
    if lines and like.final_newline:
        body += "\n"
    if like.newline != "\n":
        body = body.replace("\n", like.newline)
    return like.bom + body


def _join_mixed(lines: list[str], like: Text) -> str:
    ends = [like.newline] * len(lines)
    for tag, i1, i2, j1, _ in line_opcodes(like.lines, lines):
        if tag == "equal":
            ends[j1 : j1 + i2 - i1] = [end or like.newline for end in like.endings[i1:i2]]
    ends[-1] = (ends[-1] or like.newline) if like.final_newline else ""
    return "".join(line + end for line, end in zip(lines, ends))


_FENCE = re.compile(r"^\s*(```|~~~)[\w+-]*\s*$")
_OPENING = re.compile(r"^\s*(```|~~~)[^`\s]*(?:[ \t]+[^`]*)?$")  # an info string: ```python:src/app.py, ```ts title="x"


def unfence(lines: list[str]) -> list[str]:
    """Drop a ``` fence around the snippet (its opening line may name a language and a path). Blank
    lines are content otherwise (a file may start or end with one), so they are only trimmed around a
    fence."""
    a, b = blank_ends(lines)
    if b - a >= 2 and _OPENING.match(lines[a]) and _FENCE.match(lines[b - 1]):
        return lines[a + 1 : b - 1]
    return lines


_HEADER = re.compile(r"^\s*(?:#|//|--|/\*|<!--|;)\s*(?:(?:file|filepath|file path|filename|path)\s*:?\s*)?"
                     r"(?P<path>[\w./\\-]+\.\w+)\s*(?:\*/|-->)?\s*$", re.I)


def drop_path_header(lines: list[str], original: list[str], path: str | None = None) -> list[str]:
    """`lines` without a first line that is a comment naming a file (`// File: src/app.ts`, `# app.py`):
    a planner's header, not code. Only where the original does not hold that line, the named file has
    an extension the merge knows, and it is `path` (or its base name) when `path` is given."""
    first = next((k for k, line in enumerate(lines) if line.strip()), None)
    if first is None or (m := _HEADER.match(lines[first])) is None:
        return lines
    named = m.group("path").replace("\\", "/")
    if language_from_path(named) is None:
        return lines
    if path is not None and named.rsplit("/", 1)[-1] != path.replace("\\", "/").rsplit("/", 1)[-1]:
        return lines
    header = lines[first].strip()
    if any(line.strip() == header for line in original):
        return lines
    return lines[:first] + lines[first + 1 :]


def _indent_unit(lines: list[str]) -> int:
    unit = math.gcd(*(len(l) - len(l.lstrip(" ")) for l in lines if l.startswith(" ") and l.strip()))
    return unit if 2 <= unit <= 8 else 4


def convert_indent(snippet: list[str], original: list[str]) -> tuple[list[str], bool]:
    """Convert the snippet's tabs to the original's spaces (or spaces to tabs) when the original
    is consistently indented one way, the snippet consistently the other, and converting makes
    more snippet lines occur verbatim in the original (mixed files are left alone)."""
    tabs_orig = sum(1 for l in original if l.startswith("\t"))
    spaces_orig = sum(1 for l in original if l.startswith(" ") and l.strip())
    if min(tabs_orig, spaces_orig) > 0.1 * max(tabs_orig, spaces_orig, 1):
        return snippet, False
    indented = [l for l in snippet if l.strip() and l[:1] in " \t"]
    want = "\t" if tabs_orig > spaces_orig else " "
    if not indented or any(l.startswith(want) for l in indented):
        return snippet, False
    if want == "\t":
        unit = _indent_unit(snippet)

        def convert(line: str) -> str:
            body = line.lstrip(" ")
            width = len(line) - len(body)
            return "\t" * (width // unit) + " " * (width % unit) + body
    else:
        unit = _indent_unit(original)

        def convert(line: str) -> str:
            body = line.lstrip("\t")
            return " " * (unit * (len(line) - len(body))) + body

    known = set(original)
    converted = [convert(l) if l.strip() else l for l in snippet]
    before = sum(1 for l in indented if l in known)
    after = sum(1 for l in converted if l.strip() and l[:1] in " \t" and l in known)
    return (converted, True) if after > before else (snippet, False)


def is_whole_file(original: list[str], snippet: list[str]) -> bool:
    """A marker-free snippet is the whole new file when it opens and closes like the original."""
    first_o = next((l.strip() for l in original if l.strip()), "")
    first_s = next((l.strip() for l in snippet if l.strip()), "")
    last_o = next((l.strip() for l in reversed(original) if l.strip()), "")
    last_s = next((l.strip() for l in reversed(snippet) if l.strip()), "")
    return first_o == first_s and (last_o == last_s or len(snippet) * 2 >= len(original))
