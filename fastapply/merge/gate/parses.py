"""The parse clause of the write gate: a result must parse where the original did.

`check_parses(original, result, language)` reads both with the language's tree-sitter grammar (for
Python also Python's own parser, which tree-sitter's error recovery is more lenient than) and refuses
a result that no longer parses. A file no grammar reads (no language, an unknown extension, too
little code to tell) is held to its brackets instead (`_unbalanced`): where the original's balance,
the result's must. It serves the instant merge (guards.run_guards) and model answers
(guards.check_answer) alike.

Given the snippet (the instant merge's lazy and definition readings), an error the merge did not make
is not held against it (`_snippets_own`): every error starts on a line the snippet wrote, new to the
original, and the snippet's section holding it (its lines between two markers) balances its brackets
and parses in none of the places code of its language can stand (the top level, a class body, a
function body, after an `if`, `try` or `switch` clause; in Python also inside the blocks it dedents
out of). No placement can make such lines parse: the planner wrote code this grammar does not
read (TypeScript's `import('./m').T<A>` types, newer than tree-sitter-typescript 0.23) or code that
is wrong as written (Python 2's `print "x"`), and the file is written as the snippet says. A section
that parses somewhere (a class member laid outside its class, an `else:` clause) or is a fragment is
the merge's to place, and its errors are refused. Ruby, Lua and the rest have no such list: no excuse.

Knows text/syntax.py's grammars and text/lines.py's bracket count, and of the snippet only which lines
it wrote; does not know how the result was made.
"""

from __future__ import annotations

import textwrap
from typing import Sequence

from fastapply.merge.text import syntax
from fastapply.merge.text.lines import balanced, bracket_balance
from fastapply.merge.snippet.sections import split_sections
from fastapply.merge.text.quoting import where_in_inputs

# Where code of a language can stand, as (head, tail) around the section, the section indented under
# the head when the head ends with ":" (Python); a language without an entry gets no excuse.
_C_LIKE = [("", ""), ("void _f(void) {\n", "\n}\n"), ("struct _s {\n", "\n};\n"),
           ("void _f(void) {\nswitch (_x) {\n", "\n}}\n")]
_JS = [("", ""), ("class _C {\n", "\n}\n"), ("function _f() {\n", "\n}\n"), ("switch (_x) {\n", "\n}\n")]
_PLACES = {
    # and after the clause a fragment (`else:`, `except E:`, `case 1:`) continues
    "python": [("", ""), ("class _C:\n", ""), ("def _f():\n", ""), ("if _x:\n    pass\n", ""),
               ("try:\n    pass\n", ""), ("match _x:\n", "")],
    "javascript": _JS, "typescript": _JS, "tsx": _JS,
    "java": [("class _C {\n", "\n}\n"), ("class _C { void _f() {\n", "\n}}\n"),
             ("class _C { void _f() { switch (_x) {\n", "\n}}}\n")],
    "csharp": [("", ""), ("class _C {\n", "\n}\n"), ("class _C { void _f() {\n", "\n}}\n"),
               ("class _C { void _f() { switch (_x) {\n", "\n}}}\n")],
    "kotlin": [("", ""), ("class _C {\n", "\n}\n"), ("fun _f() {\n", "\n}\n"), ("fun _f() { when (_x) {\n", "\n}}\n")],
    "scala": [("", ""), ("class _C {\n", "\n}\n"), ("object _O { def _f() = {\n", "\n}}\n"),
              ("object _O { def _f() = _x match {\n", "\n}}\n")],
    "swift": [("", ""), ("class _C {\n", "\n}\n"), ("func _f() {\n", "\n}\n"), ("func _f() { switch _x {\n", "\n}}\n")],
    "php": [("<?php\n", ""), ("<?php\nclass _C {\n", "\n}\n"), ("<?php\nfunction _f() {\n", "\n}\n"),
            ("<?php\nswitch ($_x) {\n", "\n}\n")],
    "rust": [("", ""), ("impl _C {\n", "\n}\n"), ("fn _f() {\n", "\n}\n"), ("fn _f() { match _x {\n", "\n}}\n")],
    "go": [("package _p\n", ""), ("package _p\nfunc _f() {\n", "\n}\n"), ("package _p\ntype _s struct {\n", "\n}\n"),
           ("package _p\nfunc _f() { switch _x {\n", "\n}}\n")],
    "c": _C_LIKE, "cpp": _C_LIKE + [("class _C {\n", "\n};\n")],
}


def check_parses(original: str, result: str, language: str | None, snippet: str | None = None) -> str | None:
    """Refuse when the original parses cleanly and the result does not (tree-sitter, and for
    Python also Python's own parser, which tree-sitter's error recovery is more lenient than), unless,
    given the `snippet`, the errors are the snippet's own (`_snippets_own`). A file
    of no language a grammar reads (no path, an unknown extension, too little code to tell) is held
    to its brackets instead: where the original's balance, the result's must (`_unbalanced`)."""
    if not language or not syntax.has_grammar(language):
        return _unbalanced(original, result, snippet)
    # Both as files end: the merged lines come without the final newline, and a Go `type T
    # struct {...}` last in a file without one reads as an error to tree-sitter.
    original, result = (t if t.endswith("\n") else t + "\n" for t in (original, result))
    if syntax.parses(original, language) and syntax.parses(result, language) is False:
        starts = syntax.error_lines(result, language, limit=50) or []
        if snippet is None or not _snippets_own(original, result, snippet, starts, language, python=False):
            at = f" near {where_in_inputs(original, result, snippet, starts[0])}" if starts else ""
            return f"the merged {language} file no longer parses{at}, although the original did"
    if language == "python" and (line := syntax.python_break(original, result)) is not None:
        if snippet is None or not _snippets_own(original, result, snippet, [line], language, python=True):
            return (f"the merged {language} file no longer parses near {where_in_inputs(original, result, snippet, line)}, "
                    "although the original did")
    return None


def _snippets_own(original: str, result: str, snippet: str, starts: list[int], language: str,
                  python: bool) -> bool:
    """Whether every error (`starts`: the 0-based lines of `result` where each begins; recovery may
    stretch one to the file's end) starts on a line the snippet wrote that is new to the original,
    and each section of the snippet (sections.split_sections) holding such a line balances its
    brackets and parses in none of `_PLACES` (with Python's own parser where `python`)."""
    places = _PLACES.get(language)
    if not starts or not places:
        return False
    lines = result.split("\n")
    old = {line.strip() for line in original.split("\n")}
    sections = [section.lines for section in split_sections(snippet.split("\n"), original.split("\n"))]
    blamed = set()
    for first in starts:
        text = lines[first].strip() if 0 <= first < len(lines) else ""
        holding = [k for k, section in enumerate(sections) if text in {line.strip() for line in section}]
        if not text or text in old or not holding:
            return False
        blamed.update(holding)
    # a section whose brackets do not balance (`} else {`) is a fragment only a placement can read
    return all(balanced(sections[k]) and not _parses_somewhere(sections[k], language, places, python)
               for k in blamed)


def _parses_somewhere(run: Sequence[str], language: str, places: list[tuple[str, str]], python: bool) -> bool:
    """Whether the section, dedented, parses in one of `places` (or, in Python, inside the blocks it
    dedents out of)."""
    body = textwrap.dedent("\n".join(run)).strip("\n")
    texts = [head + (textwrap.indent(body, "    ") if head.endswith(":\n") else body) + "\n" + tail
             for head, tail in places]
    if language == "python" and (enclosing := _enclosing(body)):
        texts.append(enclosing + body + "\n")
    return any((syntax.python_error(text) is False) if python else syntax.parses(text, language) for text in texts)


def _enclosing(body: str) -> str:
    """Python headers that open every level a section starting indented dedents through (the tail of
    one method and the head of the next), so that it is read inside them."""
    depths = [len(line) - len(line.lstrip()) for line in body.split("\n") if line.strip()]
    if not depths or depths[0] == 0:
        return ""
    return "".join(" " * level + "def _f():\n" for level in sorted({d for d in depths if d < depths[0]}))


def _unbalanced(original: str, result: str, snippet: str | None = None) -> str | None:
    """Refuse when the original's brackets balance (text/lines.balanced: the running count of `(`,
    `[`, `{` never drops below zero and ends at zero) and the result's do not: a line kept from a
    statement the merge replaced (`]` left after `required = ['idna']`) in a file no grammar parses."""
    before, after = original.split("\n"), result.split("\n")
    if not balanced(before) or balanced(after):
        return None
    depth, line = 0, len(after) - 1
    for k, text in enumerate(after):
        depth += bracket_balance([text])
        if depth < 0:
            line = k
            break
    return (f"the merged file's lines no longer balance their brackets near "
            f"{where_in_inputs(original, result, snippet, line)}, although the original's "
            "did (no grammar for this file's language: name it or give the path); revise the snippet so its "
            "unchanged context places each change once")
