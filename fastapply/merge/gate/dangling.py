"""Dangling openers and closers: a line the merge added that cannot stand before the kept lines after it.

Some lines only mean something with the lines after them (a decorator, a block comment's opener).
A snippet that shows such a line and then a marker leaves what follows to the merge; laid as new
in front of original lines that cannot complete it, the result is broken in a way the parser does
not see:

- `check_dangling_decorator`: an added decorator line followed by a blank line;
- `check_comment_reopened`: a block comment opened inside an open one more often than the
  original does (the new comment was meant to replace the old one);
- `check_closer_before_deeper`: the mirror, an added closer in front of original lines indented
  deeper than it;
- `check_end_balance` (Ruby): more `end` lines than the blocks open, beyond the original's
  balance (tree-sitter-ruby parses a stray `end` without an error), said with the kept `end`
  beside the snippet's, else with the first `end` the snippet wrote.

Each returns None or a one-sentence reason, waived where the original already has the same
shape. This module knows decorator and C-style comment syntax by their lines; it does not parse
and does not know how the result was made (it aligns the original with the result). Prose files
(Markdown, reStructuredText, text) are not checked.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.lines import indent_width as _width
from fastapply.merge.text.compare import added, line_opcodes
from fastapply.merge.gate.unreachable import PROSE, added_run_ends
from fastapply.merge.text.quoting import placed_in_inputs, where_in_inputs
from fastapply.merge.text.spans import code


_DECORATOR = re.compile(r"^@[A-Za-z_][\w.]*(\(.*\))?$")
# Languages whose files use `#` or quotes for comments: a `/*` line there is not a comment opener.
_NO_BLOCK_COMMENTS = {"python", "ruby", "shell", "bash", "sh", "yaml", "toml", "perl", "r", "elixir"}


# Attributes in brackets: `[Obsolete]` (C#), `#[inline]` (Rust, PHP 8), `[[nodiscard]]` (C++);
# asked only in those languages (a `[section]` line is an INI or TOML table, `[x]` a list).
_ATTRIBUTE = re.compile(r"^(#\[|\[\[?)[A-Za-z_][\w:.]*(\(.*\))?\]\]?$")
_ATTRIBUTE_LANGUAGES = {"csharp", "c#", "rust", "php", "cpp", "c++"}
# Languages where a line starting `@name` is code, not a decorator: an instance variable (Ruby,
# `@queue.start(id)`; CoffeeScript's `@` is `this`) or an array (Perl).
_NO_DECORATORS = {"ruby", "coffeescript", "perl"}


def is_decorator(line: str, language: str | None = None) -> bool:
    """True when `line` is a whole one-line decorator or annotation (`@app.route("/")`,
    `@Override`): an `@name`, optionally called, with balanced parentheses; in C#, Rust, PHP and
    C++ also an attribute in brackets (`[Obsolete]`, `#[inline]`, `[[nodiscard]]`); in Ruby,
    CoffeeScript and Perl never (`@name` is a variable there)."""
    text = line.strip()
    if language and language.lower() in _NO_DECORATORS:
        return False
    if language and language.lower() in _ATTRIBUTE_LANGUAGES and _ATTRIBUTE.match(text):
        return text.count("(") == text.count(")")
    return bool(_DECORATOR.match(text)) and text.count("(") == text.count(")")


def _decorator_then_blank(lines: Sequence[str], decorator: str) -> bool:
    want = decorator.strip()
    return any(l.strip() == want and k + 1 < len(lines) and not lines[k + 1].strip() for k, l in enumerate(lines))


def check_dangling_decorator(
    original: Sequence[str], result: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse when a decorator line the merge added is followed by a blank line in the result
    (a decorator belongs to the definition right below it), unless the original already has
    that decorator followed by a blank line."""
    if language and language.lower() in PROSE:
        return None
    for k in sorted(added(line_opcodes(original, result))):
        if (not is_decorator(result[k], language) or k + 1 >= len(result) or result[k + 1].strip()
                or _decorator_then_blank(original, result[k])):
            continue
        return (f"the new decorator {code(result[k].strip())} (line {k + 1}) is followed by a blank line, "
                "not by the definition it decorates; include the definition's header in the snippet")
    return None


def reopened_comments(lines: Sequence[str]) -> int:
    """How many lines open a block comment (`/*`, `/**`) while one is already open."""
    inside = False
    count = 0
    for line in lines:
        text = line.strip()
        if inside:
            if text.startswith("/*"):
                count += 1
            if "*/" in text:
                inside = False
            continue
        if text.startswith("/*") and "*/" not in text[2:]:
            inside = True
    return count


def check_comment_reopened(
    original: Sequence[str], result: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse when the result opens a block comment inside an open one more often than the
    original does: a new comment laid inside the one it was meant to replace."""
    if language and language.lower() in PROSE | _NO_BLOCK_COMMENTS:
        return None
    extra = reopened_comments(result) - reopened_comments(original)
    return (f"the result opens a block comment inside an open one {extra} more time(s) than the original "
            "(a new comment laid inside the one it replaces); include the comment's end in the snippet"
            ) if extra > 0 else None


# --------------------------------------------------------------------------- closers
#
# The mirror image of an opener left dangling: a closer (`}`, `});`, `end`) the merge adds in
# front of original lines that are indented deeper than it. A block's lines cannot follow its
# close; the snippet's closer was meant to end the block after those lines (or they were meant to
# go), and the merge cannot tell which.

_CLOSER = re.compile(r"^([}\])]+[;,)]*|end)$")


def check_closer_before_deeper(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None = None
) -> str | None:
    """Refuse when the last line of a run the merge added is a closer and the next non-blank
    result line, kept from the original, is indented deeper than it, unless the snippet shows
    that closer followed by that line, or the original has the pair."""
    if language and language.lower() in PROSE:
        return None
    for last, nxt in added_run_ends(original, result, snippet):
        if not _CLOSER.match(result[last].strip()) or _width(result[nxt]) <= _width(result[last]):
            continue
        closer = where_in_inputs(original, result, snippet, last, nearest=False)
        return (f"the new closer {closer.replace('snippet line', 'at snippet line', 1)} is followed by "
                f"{where_in_inputs(original, result, snippet, nxt, nearest=False)}, indented deeper: a block's lines "
                "after its close; include the lines around the closer in the snippet")
    return None


# Ruby lines that open a block closed by `end`: a keyword statement (not `def x = 1`, not a
# one-liner that ends in `end`; `private def x` too), a value from one (`x = if ...`, `y ||= begin`; not the
# modifier `return unless x`), or a `do` block.
_RUBY_OPENER = re.compile(r"^(?:(?:class|module|if|unless|while|until|case|begin|for)\b|"
                          r"(?:(?:private|protected|public|module_function|private_class_method)\s+)?"  # `private def x`
                          r"def\b(?![^(]*?\s=[^=~>]|.*\)\s*=[^=~>]))"
                          r"|(?:=|\|\||&&)\s*(?:if|unless|case|begin|while|until)\b|\bdo(?:\s*\|[^|]*\|)?\s*$")  # not `return if x`
_RUBY_END = re.compile(r"^end\b(?![?!:])")


def ruby_unclosed(lines: Sequence[str]) -> int:
    """Block openers minus `end` lines in Ruby source, read line by line (strings, heredocs and
    `=begin` comments aside): 0 for a balanced file; what matters is how a merge changes it."""
    depth = 0
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        opens = bool(_RUBY_OPENER.search(text)) and not re.search(r"\bend\s*$", text)
        depth += opens - bool(_RUBY_END.match(text))
    return depth


def check_end_balance(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
                      language: str | None = None) -> str | None:
    """Ruby: refuse a result with more unmatched `end` lines than the original, unless the
    snippet's new lines close more than they open."""
    if (language or "").lower() != "ruby":
        return None
    before, after = ruby_unclosed(original), ruby_unclosed(result)
    known = {l.strip() for l in original}
    if after >= before or ruby_unclosed([l for l in snippet if l.strip() not in known]) < 0:
        return None
    ops = line_opcodes(original, result)
    kept = _kept_end(ops, result)
    count = f"the result has {before - after} more end line(s) than blocks it opens (the original's balance changed)"
    if kept is not None:
        return (f"{count}: a block's end was kept beside the snippet's (at "
                f"{where_in_inputs(original, result, snippet, kept, nearest=False)}); include the lines around the block")
    written = _first_added_end(ops, result)
    if written is None:  # no `end` added: an opener went and its end stayed
        return f"{count}: a kept end has no block left to close; include the lines around the block"
    return (f"{count}: the snippet's {placed_in_inputs(original, result, snippet, written)} closes a block that a kept "
            "original end already closes; include the lines around the block")


def _first_added_end(ops: Sequence[tuple[str, int, int, int, int]], result: Sequence[str]) -> int | None:
    """The result line of the first `end` the merge added (`ops`: original -> result opcodes), if any."""
    return next((j for j in sorted(added(ops)) if _RUBY_END.match(result[j].strip())), None)


def _kept_end(ops: Sequence[tuple[str, int, int, int, int]], result: Sequence[str]) -> int | None:
    """The result line of an original `end` kept right beside an `end` the merge added (`ops`: original
    -> result opcodes), if any."""
    for tag, i1, i2, j1, j2 in ops:
        new = [j for j in range(j1, j2) if result[j].strip()] if tag in ("insert", "replace") else []
        if not new:
            continue
        after = next((j for j in range(j2, len(result)) if result[j].strip()), None)
        if _RUBY_END.match(result[new[-1]].strip()) and after is not None and _RUBY_END.match(result[after].strip()):
            return after
        above = next((j for j in range(j1 - 1, -1, -1) if result[j].strip()), None)
        if _RUBY_END.match(result[new[0]].strip()) and above is not None and _RUBY_END.match(result[above].strip()):
            return above
    return None
