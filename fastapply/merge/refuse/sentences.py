"""The instant merge's refusal sentences, read: the patterns the explaining modules match in them.

`SECTION` (the section a sentence names and its first line), `PLACES` (the original lines an
ambiguous line matches), `NAMED` (the line an ambiguous-place sentence names), `DOUBT` (a
new-or-changed doubt and the lines it names), `QUOTE` (any backticked text); `split_sentence` cuts
a sentence into (cause, fix) and `section_number` reads the section's index. The patterns match
single-backtick spans: match them in `text.spans.readable(sentence)` and read a captured line with
`unquoted` (a quoted line that holds a backtick is written fenced, `` `` a`b `` ``).

This module knows the sentences' wording only; it builds no option and reads no file.
"""

from __future__ import annotations

import re

from fastapply.merge.text.quoting import PLACES_SAID
from fastapply.merge.text.spans import readable, restored

FORM_FIX = "revise the snippet so its unchanged context places each change once"  # a refusal's fix by default
QUOTE = r"`(.*?)`"
SECTION = re.compile(r"^section (\d+) \(starting `(.*?)`(?:, (?:before|after) `.*?`)?\)")
PLACES = re.compile(PLACES_SAID)
NAMED = re.compile(r"^section \d+ \(starting `.*?`\): (?:the line `(.*?)` (after|before) `(.*?)`|(?:the line )?`(.*?)`) matches")
DOUBT = re.compile(r"(?:^|: )`(.*?)` could be a new line or a change to the similar original line (\d+) \(`.*?`\) "
                    r"(next to|near) it(?:; include the unchanged original line \d+ \(`.*?`\) if it is new"
                    r"(?:, or line (\d+) \(`.*?`\) if it replaces it)?)?")


def split_sentence(sentence: str) -> tuple[str, str]:
    """(cause, fix): the sentence cut at its last `; ` outside parentheses and code spans."""
    sentence = readable(sentence)
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
    return (restored(sentence), "") if cut < 0 else (restored(sentence[:cut]), restored(sentence[cut + 2 :]))


def section_number(sentence: str) -> int | None:
    """The 0-based section a sentence names (`section N (starting ...)`), else None."""
    m = SECTION.match(readable(sentence))
    return int(m.group(1)) - 1 if m else None
