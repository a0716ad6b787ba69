"""The parse clause of the write gate: a result must parse where the original did.

`check_parses(original, result, language)` reads both with the language's tree-sitter grammar (for
Python also Python's own parser, which tree-sitter's error recovery is more lenient than) and refuses
a result that no longer parses. A file no grammar reads (no language, an unknown extension, too
little code to tell) is held to its brackets instead (`_unbalanced`): where the original's balance,
the result's must. It serves the instant merge (guards.run_guards) and model answers
(guards.check_answer) alike.

Knows text/syntax.py's grammars and text/lines.py's bracket count; does not know the snippet or how
the result was made.
"""

from __future__ import annotations

from fastapply.merge.text import syntax
from fastapply.merge.text.lines import balanced, bracket_balance


def check_parses(original: str, result: str, language: str | None) -> str | None:
    """Refuse when the original parses cleanly and the result does not (tree-sitter, and for
    Python also Python's own parser, which tree-sitter's error recovery is more lenient than). A file
    of no language a grammar reads (no path, an unknown extension, too little code to tell) is held
    to its brackets instead: where the original's balance, the result's must (`_unbalanced`)."""
    if not language or not syntax.has_grammar(language):
        return _unbalanced(original, result)
    # Both as files end: the merged lines come without the final newline, and a Go `type T
    # struct {...}` last in a file without one reads as an error to tree-sitter.
    original, result = (t if t.endswith("\n") else t + "\n" for t in (original, result))
    if syntax.parses(original, language) and syntax.parses(result, language) is False:
        where = syntax.error_lines(result, language) or []
        at = f" near line {where[0] + 1}" if where else ""
        return f"the merged {language} file no longer parses{at}, although the original did"
    if language == "python" and (line := syntax.python_break(original, result)) is not None:
        return f"the merged {language} file no longer parses near line {line + 1}, although the original did"
    return None


def _unbalanced(original: str, result: str) -> str | None:
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
    return (f"the merged file's lines no longer balance their brackets near line {line + 1}, although the original's "
            "did (no grammar for this file's language: name it or give the path); revise the snippet so its "
            "unchanged context places each change once")
