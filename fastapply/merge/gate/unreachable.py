"""Unreachable and orphaned code: a new exit in front of kept code, a kept body without its header.

A lazy snippet often ends an edited block with its exit statement and then a marker; when the
file repeats that exit, a reading may take the snippet's as new and keep the original statements
it replaced after it, where they can never run. The snippet cannot tell which lines its exit
replaces, so the merge must not pick:

- `check_code_after_exit`: an added exit followed, at the same indentation, by a kept line;
- `check_code_after_kept_exit`: the mirror, a line added after a kept exit or a kept implicit
  return (`implicit_return`);
- `check_orphaned_body`: a change that removes a definition's header and a few body lines,
  keeping the rest of the body where it now reads as the block above's;
- `check_pass_added_to_body` (Python): a `pass` added to a block that has statements.

This module knows lines, indentation, definition headers, `pass` and the exit keywords and block
openers of mainstream languages; it does not parse, and it does not know how the result was made
(it aligns the original with the result). Prose (Markdown, reStructuredText, text) is not checked.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.markers import is_marker
from fastapply.merge.text.compare import added, line_opcodes, origins
from fastapply.merge.text.lines import indent_len, indentation, next_non_blank
from fastapply.merge.text.quoting import where_in_inputs
from fastapply.merge.text.spans import code, quote

# A complete exit statement on one line: the keyword, then anything whose brackets balance and
# that does not end in a continuation (an opening bracket, a comma, an operator, a backslash).
_EXIT = re.compile(r"^(return|raise|throw|break|continue)\b")
_CONTINUES = re.compile(r"([({\[,\\+\-*/%&|=?:.]|\band|\bor|=>)\s*$")

# Lines that may follow an exit legitimately at the same indentation: closers and the next
# branch (`}`, `else`, `case`), declarations hoisted or laid out after a return (`function f`,
# `def`, `func`), labels, decorators and attributes, comments, preprocessor lines.
_MAY_FOLLOW = re.compile(
    r"^([})\]]|else\b|elif\b|except\b|finally\b|catch\b|case\b|default\b|end\b|fi\b|done\b|esac\b|"
    r"when\b|rescue\b|ensure\b|"
    r"(export\s+)?(default\s+)?(async\s+)?function\b|def\b|class\b|func\b|fn\b|pub\b|impl\b|type\b|"
    r"@|#|//|/\*|\*|<!--|\w+:\s*$|[A-Za-z_$][\w$]*:(?!:)|;)"
)

PROSE = {"markdown", "md", "rst", "restructuredtext", "text", "txt", "plaintext"}


def is_complete_exit(line: str) -> bool:
    """True when `line` is a one-line exit statement (`return x;`, `raise E`, `break`): it starts
    with an exit keyword, its brackets balance and it does not continue on the next line."""
    text = line.strip()
    if not _EXIT.match(text):
        return False
    code = re.sub(r"(\"[^\"]*\"|'[^']*'|`[^`]*`)", "", text)
    if any(code.count(o) != code.count(c) for o, c in ("()", "[]", "{}")):
        return False
    return not _CONTINUES.search(code.rstrip(";"))


def followed_by(exit_line: str, follower: str, *texts: Sequence[str]) -> bool:
    """True when some `exit_line` in one of `texts` is followed (blank lines aside) by `follower`."""
    want, then = exit_line.strip(), follower.strip()
    for lines in texts:
        for k, line in enumerate(lines):
            if line.strip() == want:
                nxt = next_non_blank(lines, k + 1)
                if nxt is not None and lines[nxt].strip() == then:
                    return True
    return False


def added_run_ends(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]):
    """For each run of lines the merge added (inserted or replaced), the index in `result` of its
    last non-blank line and of the next non-blank result line after the run, when there is one and
    neither the snippet nor the original shows the pair (`followed_by`); runs of blank lines only
    are skipped."""
    for tag, _i1, _i2, j1, j2 in line_opcodes(original, result):
        if tag not in ("insert", "replace"):
            continue
        last = next((k for k in range(j2 - 1, j1 - 1, -1) if result[k].strip()), None)
        nxt = next_non_blank(result, j2)
        if last is not None and nxt is not None and not followed_by(result[last], result[nxt], snippet, original):
            yield last, nxt


def check_code_after_exit(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse a result in which a line the merge added is a complete exit statement followed, at
    the same indentation, by an original line it kept that is not a closer, a next branch, a
    declaration or a comment: code that can never run. Unless the snippet shows the exit line
    followed by that line, or the original already had the pair. None when nothing is found."""
    if language and language.lower() in PROSE:
        return None
    for last, nxt in added_run_ends(original, result, snippet):
        follower = result[nxt]
        if (not is_complete_exit(result[last]) or indentation(follower) != indentation(result[last])
                or _MAY_FOLLOW.match(follower.strip()) or is_marker(follower)):
            continue
        return (  # said in the lines the writer has: the merged file is never written
            f"{where_in_inputs(original, result, snippet, last, nearest=False)} is new and the "
            f"{where_in_inputs(original, result, snippet, nxt, nearest=False)} kept after it could never run: the "
            "snippet's exit may replace the lines its marker hides; include the lines after it in the snippet"
        )
    return None


def kept_then_added(result: Sequence[str], ops: Sequence[tuple[str, int, int, int, int]]):
    """For each run of lines the merge added, the result index of the nearest non-blank line
    before it when that line is kept, its original index, and the run's first non-blank line."""
    kept = origins(ops)
    for tag, _i1, _i2, j1, j2 in ops:
        if tag not in ("insert", "replace"):
            continue
        first = next_non_blank(result, j1)
        before = next_non_blank(result, j1 - 1, -1)
        if first is not None and first < j2 and before is not None and before in kept:
            yield before, kept[before], first


def check_code_after_kept_exit(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None = None
) -> str | None:
    """The mirror of `check_code_after_exit`: refuse a result in which an original exit statement
    (or implicit return) the merge kept is followed, at the same indentation, by a line the merge
    added (not a closer, a next branch, a declaration or a comment). Unless the snippet shows the
    kept exit followed by that line, or the original has the pair."""
    if language and language.lower() in PROSE:
        return None
    for before, i, first in kept_then_added(result, line_opcodes(original, result)):
        exit_line, added = result[before], result[first]
        if indentation(added) != indentation(exit_line):
            continue
        if not (is_complete_exit(exit_line) or implicit_return(original, i)):
            continue
        if _MAY_FOLLOW.match(added.strip()) or is_marker(added):
            continue
        if followed_by(exit_line, added, snippet, original):
            continue
        what = ("so it could never run: the snippet's line may replace that exit" if is_complete_exit(exit_line) else
                "its block's last value, which would do nothing there: the snippet's line may replace it")
        return (f"line {first + 1} ({code(added.strip())}) is new and follows the original {code(exit_line.strip())} "
                f"(kept as line {before + 1}), {what}; include the line before it in the snippet")
    return None


_BARE_VALUE = re.compile(r"^[@$]{0,2}[A-Za-z_][\w.]*$")
_STATEMENT_WORDS = frozenset("end else begin pass break continue return retry redo then do fi done esac elif "
                             "rescue ensure super yield next".split())


def implicit_return(original: Sequence[str], i: int) -> bool:
    """True when `original[i]` is a bare value (a name that does nothing as a statement) ending its
    block: its implicit return (Ruby, Scala, Rust, Kotlin's lambdas)."""
    text = original[i].strip()
    if not _BARE_VALUE.match(text) or text in _STATEMENT_WORDS:
        return False
    nxt = next_non_blank(original, i + 1)
    return nxt is not None and indent_len(original[nxt]) < indent_len(original[i])


# --------------------------------------------------------------------------- orphaned bodies
#
# A section fitted on a line its block shares with a sibling (`.setdefault(None, []).append(f))`
# in two methods) can close the gap between the two blocks: the result deletes the second block's
# header and keeps the rest of its body, which now reads as the first block's.


FUSED_BODY = 3  # removed body lines between the header and the kept ones (measured: a rewrite removes more)

_DEFINITION = re.compile(
    r"^((async\s+)?def|class|(export\s+)?(default\s+)?(async\s+)?function|func|"
    r"(pub(\([\w:]+\))?\s+)?(async\s+)?fn)\b.*[:{]$"
)


def check_orphaned_body(
    original: Sequence[str], result: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse when a change removes a definition's header (`def`, `function`, `func`, `fn`, `class`
    ending in `:` or `{`; the next non-blank original line is indented deeper), adds no line at
    that header's indentation or shallower, and keeps the
    header's next body line right after it: that body now reads as part of the block above.
    A renamed or rewritten header is a replacement at its own indentation, so it passes."""
    if language and language.lower() in PROSE:
        return None
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag not in ("delete", "replace") or i2 >= len(original):
            continue
        kept = next_non_blank(original, i2)
        if kept is None or not _kept_in_place(original, result, kept, i2, j2):
            continue
        header = _removed_owner(original, i1, kept)
        if header is None:
            continue
        width = indent_len(original[header])
        if sum(1 for l in original[header + 1 : kept] if l.strip()) > FUSED_BODY:
            continue  # a long body removed before the kept lines: a rewrite the diff aligns on shared lines
        if not any(l.strip() and indent_len(l) <= width for l in result[j1:j2]):
            return (
                f"the result removes {quote(original[header])} (line {header + 1}) but keeps its body "
                f"from {quote(original[kept])} (line {kept + 1}), which now reads as the block above's; "
                "include the lines around that header in the snippet"
            )
    return None


def _removed_owner(original: Sequence[str], i1: int, kept: int) -> int | None:
    """The definition header among the lines removed from `original[i1]` on that encloses the kept
    line `kept`, the first non-blank one after them (walking up through ever shallower lines), or
    None when an enclosing line is kept or none is a definition's header."""
    width = indent_len(original[kept])
    for k in range(kept - 1, -1, -1):
        if not original[k].strip() or indent_len(original[k]) >= width:
            continue
        if k < i1:
            return None  # an owner above the change is kept: the body still has it
        width = indent_len(original[k])
        if _DEFINITION.match(original[k].strip()):
            return k
        if width == 0:
            return None
    return None


def _kept_in_place(original: Sequence[str], result: Sequence[str], kept: int, i2: int, j2: int) -> bool:
    """True when original line `kept` (the first non-blank one at or after `i2`) follows the change
    in the result too (the lines between are equal)."""
    j = j2 + (kept - i2)
    return j < len(result) and result[j] == original[kept]


# --------------------------------------------------------------------------- no-op statements
#
# Python's `pass` says "this body is empty". A snippet often shows one as context next to a marker
# (`# ... existing code ...`, `        pass`, blank, `    def test_entry_points(self):`); a reading
# that cannot anchor it (the file has many) lays it as new in a body that already has statements,
# where nobody writes it: the snippet meant the `pass` of an empty body (and the lines between
# deleted), not a new one.


def _in_triple_strings(lines: Sequence[str]) -> set[int]:
    """Indices of the lines that open, continue or close a triple-quoted string (docstrings)."""
    inside: set[int] = set()
    quote = None
    for k, line in enumerate(lines):
        for match in re.finditer(r'"""|\'\'\'', line):
            if quote is None:
                quote = match.group()
            elif match.group() == quote:
                quote = None
            inside.add(k)
        if quote is not None:
            inside.add(k)
    return inside


def _block_siblings(lines: Sequence[str], k: int, strings: set[int] = frozenset()) -> list[str]:
    """The other non-blank lines at line `k`'s indentation in its block (up and down until a
    shallower non-blank line), stripped; lines of triple-quoted strings (`strings`) are skipped."""
    width = indent_len(lines[k])
    found = []
    for step in (-1, 1):
        j = k + step
        while 0 <= j < len(lines):
            if lines[j].strip() and j not in strings:
                w = indent_len(lines[j])
                if w < width:
                    break
                if w == width:
                    found.append(lines[j].strip())
            j += step
    return found


def _statements(lines: Sequence[str], k: int, strings: set[int]) -> list[str]:
    """The statements beside line `k` in its block: siblings that are not `pass`, a comment, a
    string (a docstring) or a marker."""
    return [
        s for s in _block_siblings(lines, k, strings)
        if s != "pass" and not s.startswith(("#", '"', "'")) and not is_marker(s)
    ]


def _snippet_writes_pass_beside_code(snippet: Sequence[str]) -> bool:
    """True when the snippet itself shows a `pass` in a block beside statements (`try:`, `pass`,
    `success = True`): it writes that shape, so a merge that lays one there follows it."""
    strings = _in_triple_strings(snippet)
    return any(l.strip() == "pass" and _statements(snippet, k, strings) for k, l in enumerate(snippet))


def check_pass_added_to_body(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse (Python) when the merge adds a `pass` line to a block that has other statements
    (not a docstring, comment or another `pass`), unless the snippet itself shows a `pass`
    beside statements (then it writes that shape)."""
    if (language or "").lower() != "python" or _snippet_writes_pass_beside_code(snippet):
        return None
    passes = [k for k in sorted(added(line_opcodes(original, result))) if result[k].strip() == "pass"]
    strings = _in_triple_strings(result) if passes else set()
    for k in passes:
        if statements := _statements(result, k, strings):
            return (f"line {k + 1} adds `pass` to a block that has statements ({quote(statements[0])}): the "
                    "snippet's `pass` may be an empty body's, with the lines between deleted; include its neighbours")
    return None
