"""Code spans in refusal sentences: how a sentence quotes a line, and how a reader gets it back.

A refusal sentence quotes lines of the original and the snippet as Markdown code spans, and an
agent reads it as Markdown. A line that itself holds a backtick (a JS template literal, a
docstring's ``:class:`Foo` ``, Ruby's `` -$` ``) cannot sit between single backticks: the span
would end inside the line. `code(text)` writes such a line the CommonMark way, fenced by one
backtick more than its longest run and padded by a space (`` `` a`b `` ``); any other line stays
`` `text` ``.

The sentence readers (refuse/sentences.py's patterns, explain.py, late_options.py, quoting.py,
evaluation/pointing.py) match single-backtick spans. `readable(sentence)` turns every fenced span
into one, its inner backticks held as `TICK` (a private-use character no source line holds), so a
pattern's `(.*?)` between backticks captures the whole line; `unquoted(text)` gives a captured
text its backticks back, and `restored(sentence)` writes every such span fenced again.

This module knows Markdown code spans; it knows nothing of lines, snippets or merges.
"""

from __future__ import annotations

import re

TICK = "\ue000"  # a backtick inside a quoted line, while a sentence is read (U+E000: private use)
_FENCED = re.compile(r"(`{2,}) (.*?) \1(?!`)")
_HELD = re.compile(r"`([^`\n]*" + TICK + r"[^`\n]*)`")


def code(text: str) -> str:
    """`text` as a Markdown code span: between single backticks, or, where it holds a backtick,
    fenced by one more than its longest run of them and padded by a space each side."""
    text = unquoted(text)
    if "`" not in text:
        return f"`{text}`"
    fence = "`" * (max(len(run) for run in re.findall(r"`+", text)) + 1)
    return f"{fence} {text} {fence}"


def readable(sentence: str) -> str:
    """`sentence` with each fenced span as a single-backtick one whose backticks are `TICK`."""
    if "``" not in sentence:
        return sentence
    return _FENCED.sub(lambda m: "`" + m.group(2).replace("`", TICK) + "`", sentence)


def unquoted(text: str) -> str:
    """A text captured from a `readable` sentence, with its backticks back."""
    return text.replace(TICK, "`")


def restored(sentence: str) -> str:
    """A sentence written from `readable` parts, each span holding `TICK` fenced again."""
    if TICK not in sentence:
        return sentence
    return _HELD.sub(lambda m: code(m.group(1)), sentence).replace(TICK, "`")
