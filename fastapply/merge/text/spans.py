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

`quote(text, width)` quotes a line the way every sentence does: stripped, and where it is longer than
`width` characters, cut there and marked `CUT` (`…`), so that neither an agent nor a sentence reader
takes a cut quote for the whole line (`cut` gives the text without the span). `apart(text, other)`
quotes a line beside a similar one so that the two quotes differ where the lines do.

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


CUT = "…"  # marks where a quote is cut: at its end (`cut`), at its start (`apart`); reading.quoted_at reads it
AHEAD = 20  # characters a quote shows before the first difference between two lines (`apart`)
WIDTH = 60  # characters of a line a sentence quotes by default


def cut(text: str, width: int = WIDTH) -> str:
    """`text` stripped, and where it is longer than `width` characters its first `width` (trailing
    spaces dropped) marked `CUT`: what a sentence quotes of a line."""
    text = text.strip()
    return text if len(text) <= width else text[:width].rstrip() + CUT


def quote(text: str, width: int = WIDTH) -> str:
    """`text` as a sentence quotes it: `cut` at `width` characters, as a code span (`code`)."""
    return code(cut(text, width))


def apart(text: str, other: str, width: int = WIDTH) -> str:
    """What a sentence quotes of `text` (stripped) set beside `other`, both cut at `width`
    characters: where the two cuts would read the same while the lines differ, the part of `text`
    from `AHEAD` characters before the first difference, marked `CUT` at its start (and at its end
    where the line goes on), so that a reader sees what differs ("`x = f(a, b, c…` may change line 4
    (`…b, c, d) + 1`)"); else `cut(text, width)`, as every quote is cut."""
    text, other = text.strip(), other.strip()
    if text[:width] != other[:width] or text == other:
        return cut(text, width)
    at = next((k for k, (a, b) in enumerate(zip(text, other)) if a != b), min(len(text), len(other)))
    start = max(0, at - AHEAD)
    return CUT + cut(text[start:], width)
