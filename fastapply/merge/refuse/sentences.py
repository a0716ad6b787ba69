"""The instant merge's refusal sentences, read: the patterns the explaining modules match in them.

`SECTION` (the section a sentence names and its first line), `PLACES` (the original lines an
ambiguous line matches), `NAMED` (the line an ambiguous-place sentence names), `DOUBT` (a
new-or-changed doubt and the lines it names), `QUOTE` (any backticked text); `split_sentence` cuts
a sentence into (cause, fix) and `section_number` reads the section's index.

This module knows the sentences' wording only; it builds no option and reads no file.
"""

from __future__ import annotations

import re

QUOTE = r"`(.*?)`"
SECTION = re.compile(r"^section (\d+) \(starting `(.*?)`(?:, (?:before|after) `.*?`)?\)")
PLACES = re.compile(r"matches (\d+) places in the original \(lines ([\d, .]+)\)")
NAMED = re.compile(r"^section \d+ \(starting `.*?`\): (?:the line `(.*?)` (after|before) `(.*?)`|(?:the line )?`(.*?)`) matches")
DOUBT = re.compile(r"(?:^|: )`(.*?)` could be a new line or a change to the similar original line (\d+) \(`.*?`\) "
                    r"(next to|near) it(?:; include the unchanged original line \d+ \(`.*?`\) if it is new"
                    r"(?:, or line (\d+) \(`.*?`\) if it replaces it)?)?")


def split_sentence(sentence: str) -> tuple[str, str]:
    """(cause, fix): the sentence cut at its last `; ` outside parentheses and backticks."""
    depth, quoted, cut = 0, False, -1
    for i, ch in enumerate(sentence):
        if ch == "`":
            quoted = not quoted
        elif not quoted and ch == "(":
            depth += 1
        elif not quoted and ch == ")":
            depth = max(0, depth - 1)
        elif not quoted and depth == 0 and sentence.startswith("; ", i):
            cut = i
    return (sentence, "") if cut < 0 else (sentence[:cut], sentence[cut + 2 :])


def section_number(sentence: str) -> int | None:
    """The 0-based section a sentence names (`section N (starting ...)`), else None."""
    m = SECTION.match(sentence)
    return int(m.group(1)) - 1 if m else None
