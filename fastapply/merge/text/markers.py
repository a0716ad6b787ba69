"""Recognise marker lines: the lines in a snippet that stand for elided, unchanged code.

Models write markers in many wordings and comment syntaxes (`# ... existing code ...`,
`// ... rest of the code ...`, `<!-- ... -->`, a bare `...`), so recognition is deliberately
liberal: a *whole line* that is nothing but a comment (or a bare ellipsis) whose text is an
ellipsis, an ellipsis plus a few words about elided code, or a known phrase. Some markers are
unmistakable, others (a bare `...`, `# rest of setup`) are also valid code or a plausible real
comment; any marker is read as content when the original has the same stripped line
(`is_elision`); the leak guard catches the rare marker this lets through.

This module knows only single lines of text. It does not know where a marker's elided run starts
or ends (that is `lazy.py`), nor the language of the file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import AbstractSet, Iterable

# Comment openers and closers, longest first so `<!--` wins over `<`-less prefixes and `/*` over `/`.
_OPENERS = ("{/*", "<!--", "/**", "/*", "//", "--", "#", ";;", ";", "%", "*", "'", "REM ")
_CLOSERS = ("*/}", "-->", "*/", "#}", "--")

_ELLIPSIS = re.compile(r"\.{2,}|…")
# Words that, next to an ellipsis, show the comment talks about elided code.
_KEYWORDS = frozenset(
    """existing rest remaining remainder unchanged same omitted omit elided elide previous other
    others more code original unmodified keep kept snip snipped etc before after above below here
    lines line methods method functions function imports import fields props properties body
    logic tests cases members definitions declarations statements content contents implementation
    stuff file class module as is untouched skipped skip truncated ditto""".split()
)
_STOPWORDS = frozenset("the a an of to is are for all any in this that as it its rest brevity".split())
# Phrases that are markers on their own, without any ellipsis.
_STRONG_PHRASE = re.compile(
    r"^(keep\s+|keeps\s+|kept\s+)?(the\s+)?(existing|unchanged|remaining|original)\s+code"
    r"(\s+(here|below|above|unchanged|as\s+is|as\s+before|remains?\s+(unchanged|the\s+same)))?$"
    r"|^(the\s+)?rest\s+of\s+(the\s+)?(code|file)(\s+(is\s+|remains\s+)?(unchanged|the\s+same|as\s+before))?$"
)
_WEAK_PHRASE = re.compile(
    r"^(keep\s+|keeps\s+|kept\s+)?(the\s+)?(existing|unchanged|remaining)"
    r"(\s+\w+){1,2}(\s+(here|below|above|unchanged|omitted|elided|as\s+is|as\s+before))?$"
    r"|^(keep\s+|keeps\s+|kept\s+)?(the\s+)?(original|other|previous|same)(\s+\w+)?\s+(" + "|".join(sorted(_KEYWORDS))
    + r")(\s+(here|below|above|unchanged|omitted|elided|as\s+is|as\s+before))?$"
    r"|^(the\s+)?(rest|remainder)\s+of\s+(the\s+)?\w+(\s+\w+)?"
    r"(\s+(is\s+|are\s+|remains?\s+)?(unchanged|the\s+same|as\s+before|omitted))?$"
    r"|^(\w+\s+){0,3}(unchanged|omitted|omitted\s+for\s+brevity|elided|snipped?)$"
    r"|^(no\s+changes?|same\s+as\s+before|snip|etc\.?)$"
)


def _comment_body(stripped: str) -> str | None:
    """The text inside a comment-only line, or None when the line is not just a comment."""
    for opener in _OPENERS:
        if stripped.startswith(opener):
            body = stripped[len(opener) :]
            break
    else:
        return None
    # Doubled openers (`## ...`, `/// ...`, `//! ...`) are still comments.
    body = body.lstrip("#/!*-;% ")
    for closer in _CLOSERS:
        if body.endswith(closer):
            body = body[: -len(closer)]
            break
    return body.strip()


# A comment opener, blank space, then another comment: a comment inside a comment (a doc
# comment's example code, `///     // ...`), which is content, never a marker.
_NESTED = re.compile(r"^(///?|//!|#+|--|\*|/\*\*?)\s+(//|#|--|/\*)")

_FRAMED = re.compile(r"^\s*(\.{3,}|…)(?P<note>.*?)(\.{3,}|…)\s*$", re.DOTALL)


def framed_note(body: str) -> bool:
    """True when a comment's text is a short note framed by ellipses on both sides, or opens
    with an ellipsis and names elided code (`... rest of conf.py unchanged ...`,
    `... takes_value and process unchanged ...`, `... Text: unchanged (full license) ...`).
    The framing itself is the evidence, so the note may name identifiers and file names."""
    match = _FRAMED.match(body)
    note = match.group("note") if match else None
    if note is None and _ELLIPSIS.match(body.strip()):
        note = _ELLIPSIS.sub(" ", body)
        if not any(w in _FRAMING_WORDS for w in _words(note)):
            return False
    if note is None:
        return False
    words = note.split()
    return 0 < len(words) <= 16 and "\n" not in note


# Words that, after an opening ellipsis, say that the comment stands for elided code.
_FRAMING_WORDS = frozenset(
    "existing rest remaining unchanged same omitted elided unmodified untouched skipped as before".split()
)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


@lru_cache(maxsize=1 << 16)  # the guards classify every line of the original and the result, often twice
def is_marker(line: str) -> bool:
    """True when `line` is a marker line.

    >>> is_marker("    // ... existing code ..."), is_marker("...")
    (True, True)
    >>> is_marker("x = 1  # ... existing code ...")   # code before it: not a marker line
    False
    """
    stripped = line.strip()
    if not stripped:
        return False
    if _ELLIPSIS.fullmatch(stripped) or stripped in ("[...]", "(...)", "{...}", "{ ... }"):
        return True
    body = _comment_body(stripped)
    if body is None or _NESTED.match(stripped):
        return False
    words = _words(body)
    if _ELLIPSIS.search(body):
        if not words or framed_note(body):
            return True  # `# ...`, `/* ... */`, `// [...]`, `// ... Use, Aliases, Short, Long unchanged ...`
        # Words next to an ellipsis must read like a note about elided code ("... rest of the
        # methods unchanged ..."), not like prose or a wrapped URL ("... fileio/naming-a-file").
        if re.search(r"[^\w\s,'`:()\[\]-]", _ELLIPSIS.sub(" ", body)) or len(words) > 10:
            return False
        noted = sum(1 for w in words if w in _KEYWORDS or w in _STOPWORDS)
        return any(w in _KEYWORDS for w in words) and noted * 2 >= len(words)
    collapsed = " ".join(words)
    if not collapsed or len(words) > 8:
        return False
    lowered = body.lower().strip(" .,:;!()[]{}<>\"'`…")
    return bool(_STRONG_PHRASE.match(collapsed) or _WEAK_PHRASE.match(lowered) or _WEAK_PHRASE.match(collapsed))


def is_elision(line: str, original_stripped: AbstractSet[str]) -> bool:
    """True when `line` is a marker whose stripped text is no line of the original (one that is,
    a `...` body or a real "# rest of setup" comment, is content; the leak guard catches the rest)."""
    return is_marker(line) and line.strip() not in original_stripped


_INLINE = re.compile(
    r"(\.\.\.|…)\s*(existing|rest\s+of|remaining|unchanged)[\w\s]*(\.\.\.|…)"
    r"|(existing|unchanged|remaining)\s+code\s+(here|below|above)",
    re.IGNORECASE,
)


def count_marker_lines(lines: Iterable[str]) -> int:
    """How many lines are markers or carry a strong marker phrase inside other text (the leak guard)."""
    return sum(1 for line in lines if _counts_as_marker(line))


@lru_cache(maxsize=1 << 16)  # asked of every line of the original and of each result
def _counts_as_marker(line: str) -> bool:
    return is_marker(line) or _INLINE.search(line) is not None


_COMMENT_ELLIPSIS = re.compile(r"^(#|//|/\*|--|;|<!--|\*|\{/\*).*(\.\.\.|…)")


def marker_like(stripped: str) -> bool:
    """A comment line with an ellipsis (`// ... Text: unchanged (license) ...`): whatever its
    wording, a snippet line like this stands for code, so it is not required in an answer."""
    return bool(_COMMENT_ELLIPSIS.match(stripped))
