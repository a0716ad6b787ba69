"""What one line says on its own: whether it pins a place, opens a block, and what it names.

Whitespace (`collapse`, `indentation`, `indent_width`, `blank_ends`, `next_non_blank`), lines that pin nothing
(`is_generic`; `nearest_distinctive`: the nearest line that is not) or say where they are (`distinctive`: at
least 8 letters or digits), bracket balance outside strings and line comments (roughly: a tie-breaker, not a
parser), where a run of lines occurs (`run_starts`) and how often each stripped line occurs (`stripped_counts`,
`remembered` for the last few lists), where blocks end (`block_close`, `block_end`, `brace_follows`), and what a
block opener names (`is_opener`, `identity`; `SAME_NAME`: how alike two names must be to be one block renamed).

This module knows single lines (and runs of them for the bracket balance); it does not know
snippets, markers, sections or languages.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Sequence


@functools.lru_cache(maxsize=1 << 16)  # asked of every original line by the fuzzy rung and the similarity searches
def collapse(line: str) -> str:
    return " ".join(line.split())


def remembered(cache: dict, size: int, key, make):
    """`cache[key]`, made by `make()` the first time: a cache of the last `size` keys, the oldest dropped
    first (across threads at worst an entry is made twice)."""
    got = cache.get(key)
    if got is None:
        if len(cache) >= size:
            try:
                cache.pop(next(iter(cache)))
            except (KeyError, RuntimeError, StopIteration):  # another thread dropped it first
                pass
        got = cache[key] = make()
    return got


_COUNTED: dict[tuple[str, ...], Counter] = {}  # the last line lists counted (the guards on one merge each
# count the same original, result and snippet: a dozen countings per merge became three)


def stripped_counts(lines: Sequence[str]) -> Counter:
    """How often each stripped line occurs in `lines`. Remembers the last 16 lists it counted, so
    the Counter is shared: read it, never change it."""
    key = tuple(lines)
    return remembered(_COUNTED, 16, key, lambda: Counter(line.strip() for line in key))


def indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def indent_len(line: str) -> int:
    return len(line) - len(line.lstrip())


def indent_width(line: str) -> int:
    """A line's indentation in columns, a tab counting as 4: how deep it sits, comparable
    across lines indented with tabs and with spaces."""
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def brace_follows(lines: Sequence[str], k: int, reach: int | None = None, same_depth: bool = True) -> bool:
    """The next non-blank line after lines[k] (within `reach` lines) is a lone `{`, at lines[k]'s
    indentation when `same_depth`: lines[k] is a header in Allman style (C#, PHP's PSR-12 methods)."""
    nxt = next((l for l in lines[k + 1 : None if reach is None else k + 1 + reach] if l.strip()), None)
    return nxt is not None and nxt.strip() == "{" and (not same_depth or indent_width(nxt) == indent_width(lines[k]))


def next_non_blank(lines: Sequence[str], start: int, step: int = 1) -> int | None:
    """The index of the first non-blank line from `start` on (itself included), walking by `step`, or None."""
    k = start
    while 0 <= k < len(lines) and not lines[k].strip():
        k += step
    return k if 0 <= k < len(lines) else None


def blank_ends(lines: Sequence[str]) -> tuple[int, int]:
    """`lines[a:b]` is `lines` without its leading and trailing blank lines."""
    a, b = 0, len(lines)
    while a < b and not lines[a].strip():
        a += 1
    while b > a and not lines[b - 1].strip():
        b -= 1
    return a, b


def run_starts(lines: list[str], run: list[str]) -> list[int]:
    """Every index at which `run` occurs in `lines` line for line (an empty run: every index)."""
    n = len(run)
    return [i for i in range(len(lines) - n + 1) if (not n or lines[i] == run[0]) and lines[i : i + n] == run]

_GENERIC_WORDS = frozenset(
    "end else elif fi done esac pass return break continue default try finally do then begin "
    "endif endfor endwhile endfunction".split()
)


@functools.lru_cache(maxsize=1 << 16)  # asked of every line of the original and the result, by many guards
def is_generic(line: str) -> bool:
    """True for lines that occur all over code and pin nothing: blank lines, pure punctuation
    (`}`, `});`, `)`, `]`), lone keywords (`end`, `else:`, `return`, `pass`), bare comment
    openers and closers (`/**`, `*/`, `///`, `#`)."""
    text = line.strip()
    if not text:
        return True
    words = re.findall(r"[A-Za-z_]\w*", text)
    if not words:
        return len(re.sub(r"\s", "", text)) <= 4 or not re.search(r"\w", text)
    return len(words) == 1 and words[0].lower() in _GENERIC_WORDS and len(text) <= len(words[0]) + 3
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
_LINE_COMMENT = re.compile(r"(^|\s)(//|#(?![\[!]))(?!.*[\"'`]).*$")


def nearest_distinctive(lines: Sequence[str], i: int) -> int:
    """i, or the nearest line to it that is not generic (a blank line, `}`, `end`)."""
    for d in range(len(lines)):
        for j in (i - d, i + d):
            if 0 <= j < len(lines) and not is_generic(lines[j]):
                return j
    return i


def bracket_balance(lines: Sequence[str]) -> int:
    """Opening minus closing brackets ((, [, {) in `lines`, ignoring string literals and
    trailing line comments (roughly: this is a tie-breaker, not a parser)."""
    total = 0
    for line in lines:
        text = _STRINGS.sub("", line)
        text = _LINE_COMMENT.sub("", text)
        total += sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
    return total


def balanced(lines: Sequence[str]) -> bool:
    """The running bracket balance of `lines` never drops below zero and ends at zero: whole blocks."""
    depth = 0
    for line in lines:
        depth += bracket_balance([line])
        if depth < 0:
            return False
    return depth == 0


def block_close(lines: Sequence[str]) -> int | None:
    """Index of the first line where the running bracket balance of `lines` drops to exactly
    -1 (the line that closes the block the lines start in: `}` after a function's last
    statements), or None when it never drops below zero."""
    depth = 0
    for k, line in enumerate(lines):
        depth += bracket_balance([line])
        if depth < 0:
            return k if depth == -1 else None
    return None


def block_end(lines: Sequence[str], k: int) -> int:
    """Index just past the block lines[k] opens: a lone `{` (Allman style), the lines deeper than
    it, then the closing lines (`}`, `})`, `end`) at its own indentation."""
    depth = indent_width(lines[k])
    i = k + 1
    if i < len(lines) and lines[i].strip() == "{" and indent_width(lines[i]) == depth:
        i += 1
    while i < len(lines) and (not lines[i].strip() or indent_width(lines[i]) > depth):
        i += 1
    while i < len(lines) and lines[i].strip() and indent_width(lines[i]) == depth and is_generic(lines[i]):
        i += 1
    return i


_WORDY = re.compile(r"[0-9A-Za-z_]")


def distinctive(line: str) -> bool:
    """A line that says where it is: at least 8 letters or digits (not `}`, `end`, `return nil`)."""
    return len(_WORDY.findall(line)) >= 8


_OPENERS = ("{", "(", ":", "[", "do", "then")


def is_opener(line: str) -> bool:
    """A distinctive line that opens a block (ends with `{`, `(`, `:`, `[`, `do`, `then`), or a
    test opened by a call without parentheses (`it 'works'`, `describe 'x'`: JSpec, CoffeeScript)."""
    text = line.strip()
    return distinctive(text) and (text.endswith(_OPENERS) or bool(_BARE_TEST.match(text)))


_CONTROL = frozenset("if elif else for foreach while switch case catch with try except finally match loop do "
                     "unless until return select when".split())
_LEAD = re.compile(r"([A-Za-z_$][\w$.]*)(?:\s+[A-Za-z_$][\w$.]*)*\s*(?:\(|=|:|\{)")
_STRING = re.compile(r"""(['"`])(.*?)\1""")
SAME_NAME = 0.8  # identities this alike are one block renamed in place (`.accept` -> `.accepts`, a typo fixed)


def identity(line: str) -> str | None:
    """What an opener line names: its leading name plus its first string literal (`def echo`,
    `func TestLogger`, `it 'works'`, `blog.get '/'`), or None for a keyword-led line (`if err :=
    f(); err != nil {`), which names nothing."""
    text = line.strip()
    string = _STRING.search(text)
    if string is not None and string.start() == 0:
        return string.group(2)  # a quoted key: `'test #contentType': function(assert){`
    m = _LEAD.match(text)
    if m is None and string is not None and _BARE_CALL.match(text):
        return f"{text.split()[0]} {string.group(2)}"  # a call without parentheses: `it 'works' do`
    if m is None or m.group(1).lower() in _CONTROL:
        return None
    name = " ".join(m.group(0).rstrip("(=:{ ").split())
    return f"{name} {string.group(2)}" if string else name


_BARE_CALL = re.compile(r"[A-Za-z_$][\w$.]*\s+['\"]")
_BARE_TEST = re.compile(r"(?:it|describe|context|specify)\s+['\"]")
