"""Unreachable code: a merge that lays a new exit statement in front of original code it keeps.

A lazy snippet often ends an edited block with its exit statement and then a marker:

    func (g *Group) Any(path string) IRoutes {
        for _, m := range anyMethods {
            g.handle(m, path)
        }

        return g.returnObj()
    // ... existing code ...

When the file has `return g.returnObj()` many times, a reading may not anchor the snippet's
`return` on this block's own one and treat it as new: the result then reads `return ...`
followed, at the same indentation in the same block, by the original statements the snippet
replaced (`g.handle(http.MethodPost, ...)`, ..., and the original `return`). Code after a
`return`/`raise`/`throw`/`break`/`continue` at the same indentation can never run, so no edit
means it; the snippet could not tell which original lines its exit replaces (the lines the
marker hides may be deleted or kept), so the merge must not pick.

`check_code_after_exit` refuses such a result, unless the snippet itself shows the exit line
followed by that very line (the snippet asks for it) or the original already had the pair.

This module knows lines, indentation and the exit keywords and block openers of mainstream
languages; it does not parse, and it does not know how the result was made (it aligns the
original with the result). Prose (Markdown, reStructuredText, plain text) is not checked.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.markers import is_marker
from fastapply.merge.snippet_checks import line_opcodes

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

_PROSE = {"markdown", "md", "rst", "restructuredtext", "text", "txt", "plaintext"}


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


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


def _next_code(lines: Sequence[str], start: int) -> int | None:
    """Index of the first non-blank line at or after `start`, or None."""
    for k in range(start, len(lines)):
        if lines[k].strip():
            return k
    return None


def _followed_by(lines: Sequence[str], exit_line: str, follower: str) -> bool:
    """True when some `exit_line` in `lines` is followed (blank lines aside) by `follower`."""
    want, then = exit_line.strip(), follower.strip()
    for k, line in enumerate(lines):
        if line.strip() == want:
            nxt = _next_code(lines, k + 1)
            if nxt is not None and lines[nxt].strip() == then:
                return True
    return False


def check_code_after_exit(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse a result in which a line the merge added is a complete exit statement followed, at
    the same indentation, by an original line it kept that is not a closer, a next branch, a
    declaration or a comment: code that can never run. Unless the snippet shows the exit line
    followed by that line, or the original already had the pair. None when nothing is found."""
    if language and language.lower() in _PROSE:
        return None
    for tag, _i1, _i2, j1, j2 in line_opcodes(original, result):
        if tag not in ("insert", "replace"):
            continue
        last = next((k for k in range(j2 - 1, j1 - 1, -1) if result[k].strip()), None)
        if last is None or not is_complete_exit(result[last]):
            continue
        nxt = _next_code(result, j2)
        if nxt is None:
            continue
        follower = result[nxt]
        if _indent(follower) != _indent(result[last]) or _MAY_FOLLOW.match(follower.strip()) or is_marker(follower):
            continue
        if _followed_by(snippet, result[last], follower) or _followed_by(original, result[last], follower):
            continue
        return (
            f"line {last + 1} (`{result[last].strip()}`) is new and the original line after it "
            f"(`{follower.strip()}`, kept as line {nxt + 1}) could never run: the snippet's exit "
            "may replace the lines its marker hides; include the lines after it in the snippet"
        )
    return None
