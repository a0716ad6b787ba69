"""Edge rules: whether lines a section inserts at its edge are edits of the original lines there.

A section often starts or ends on a changed line with no unchanged line beyond it. These rules
decide, line against line, whether an inserted line is an edited copy (`same_edit`), merely
`similar` (a doubtful reading, refused), or new; `rewritten_by` spots one original line rewritten
as a block; `edge_edit` pairs inserted lines with the original lines beyond an edge;
`new_sibling`: whole blocks between sibling blocks are new, however alike the next header is.

This module knows single lines and short runs of them; edges.py decides where they apply.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

from fastapply.merge.text.lines import (balanced, brace_follows, bracket_balance, collapse, indent_width, is_generic)
from fastapply.merge.text.compare import similar
from fastapply.merge.text.names import header_name, undeclared


class EdgeDoubt(Exception):
    """An inserted line may be new or a change to a similar original line beyond the edge.
    `line`: the line the message names; `shown`: the inserted line; `at`: the index in `beyond`
    (`edge_edit`) of the original line it may change."""

    def __init__(self, line: str, shown: str, at: int):
        super().__init__(line)
        self.line = line
        self.shown = shown
        self.at = at


_NAME = re.compile(r"^\s*(.*?)\s*(:=|(?<![=!<>])=(?!=)|\((?!\))|(?<!:):(?!:)|\{)")
_KEYWORDS = frozenset(
    "if else elif for while return switch case catch with try except finally match loop func fn def "
    "function class struct impl let const var pub async await yield raise throw new do unless until".split()
)


def leading_name(line: str) -> str | None:
    """What a line defines, assigns or calls: the text before its first `=`, `(`, `:` or `{`
    (`html_title`, `def echo`, `Text`, `[Result]::new`), or None for keyword-led and short ones
    (`if (`, `return x`), which say nothing about which line they edit."""
    m = _NAME.match(line)
    if not m:
        return None
    name = collapse(m.group(1))
    words = re.findall(r"[A-Za-z_$][\w$]*", name)
    if not words or len(name) < 3 or name.lower() in _KEYWORDS:
        return None
    if len(words) == 1 and words[0].lower() in _KEYWORDS:
        return None
    return name


def same_edit(new: str, old: str) -> bool:
    """True when `new` reads as an edited copy of `old`: same leading name, or a long shared
    prefix (a comment reworded at its end)."""
    a, b = collapse(new), collapse(old)
    if a and a == b:
        # the same line re-indented; a lone closer or keyword re-indented is another block's
        # (`    }` closing a new method is not the class's `}` edited)
        return new != old and not is_generic(a)
    if not a or not b or is_generic(a) or is_generic(b):
        return False
    na, nb = leading_name(a), leading_name(b)
    if na is not None and na == nb:
        return True
    if bare_declaration(a, nb) or bare_declaration(b, na):
        return True
    if na is not None and nb is not None and na != nb and undeclared(na) == undeclared(nb):
        return True
    shorter, longer = sorted((a.rstrip(".,;:"), b.rstrip(".,;:")), key=len)
    if len(shorter) >= 20 and longer.startswith(shorter):
        return True  # a line cut short or continued (`// due to X.` vs `// due to X, although ...`)
    prefix = len(_common_prefix(a, b))
    if prefix >= 12 and prefix >= 0.6 * max(len(a), len(b)):
        return True  # a comment or string reworded at its end
    return prefix >= 10 and difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.9


def bare_declaration(line: str, name: str | None) -> bool:
    """True when a (collapsed) `line` is only `name`, the leading name of another line, with an
    optional `;` or `,`: `let context;` next to `let context = {};` is that declaration with
    its initializer dropped or added, not a second declaration of the same name."""
    return name is not None and " " in name and line.rstrip(";,").rstrip() == name


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def edge_edit(inserted: list[str], beyond: list[str], forward: bool = True, inner: str | None = None) -> int:
    """How many original lines beyond a section's edge its inserted lines replace.

    `inserted` and `beyond` run outwards from the edge (`forward` False for a head). Equal lines
    and edited copies pair outwards, blank lines with their neighbours, up to the first other
    line; with at least one edit the paired lines are replaced. With none, an inserted line merely
    similar to the nearest original lines is doubtful (refused) unless the inserted lines are
    whole blocks between sibling blocks (`new_sibling`; `inner`: the matched line inside).
    """
    if forward and _another_sibling(inserted, beyond, inner):
        return 0  # a whole new definition before the next one, named otherwise: the marker keeps that one
    i = j = consumed = skipped = 0
    edited = False
    while i < len(inserted) and j < len(beyond):
        a, b = inserted[i], beyond[j]
        if not a.strip() or not b.strip():
            i += not a.strip()
            j += not b.strip()
            continue
        if same_edit(a, b) or (edited and similar(a, b)):
            edited = True
        elif a != b:
            if consumed or skipped >= 8:
                break
            i += 1  # a new line before the edited ones (`if x:` above re-indented lines)
            skipped += 1
            continue
        i += 1
        j += 1
        consumed = j
    if edited:
        rest = [l for l in inserted[i:] if l.strip()]
        k = next((k for k in range(consumed, min(len(beyond), consumed + 3)) if beyond[k].strip()), None)
        if rest and k is not None and (rewritten_by(rest, beyond[k]) or any(similar(l, beyond[k]) for l in rest[:2])):
            shown = next((l for l in rest[:2] if similar(l, beyond[k])), rest[0])
            raise EdgeDoubt(beyond[k], shown, k)  # the edits go on past what can be paired
        return consumed
    ins = [l for l in inserted if l.strip()]
    near = [k for k in range(min(3, len(beyond))) if beyond[k].strip()][:2]
    if near and _sibling_header(beyond, forward) and new_sibling(ins, inner, forward):
        return 0  # whole new blocks before the next sibling's header: they cannot change part of it
    for l in ins[:2]:
        k = next((k for k in near if similar(l, beyond[k])), None)
        if k is not None:
            raise EdgeDoubt(l, l, k)
    if near and rewritten_by(ins, beyond[near[0]]):
        raise EdgeDoubt(beyond[near[0]], ins[0], near[0])
    return 0


def _another_sibling(inserted: Sequence[str], beyond: Sequence[str], inner: str | None) -> bool:
    """The tail's inserted lines are whole blocks after a closed one (`new_sibling`), the original
    goes on with a sibling header, and the first new block defines another name with another
    body: a new definition, not that one edited (an equal body is a rename, left to the pairing)."""
    ins = [l for l in inserted if l.strip()]
    if not beyond or not _sibling_header(beyond, True):
        return False
    if not (new_sibling(ins, inner, True) or _first_member(ins, inner)):
        return False
    theirs = [l for l in beyond[:60] if l.strip() and not _COMMENT.match(l.strip())]
    if not another_definition(ins, theirs):
        return False
    size = _block_size(ins)
    return [l.strip() for l in ins[1:size]] != [l.strip() for l in theirs[1:size]]


def _first_member(ins: Sequence[str], inner: str | None) -> bool:
    """Whole new blocks (`whole_blocks`) right after a line that opens their container (`class
    Shop {`, `class Shop`) or a statement no deeper than them (`local Shop = {}` above Lua
    methods): a new first member, as `new_sibling` reads one after a closed block."""
    if inner is None or not whole_blocks(ins):
        return False
    return (opens_block(inner) or bool(_KEYWORD_HEADER.match(inner.strip())) or inner.strip() == "{"
            or indent_width(inner) <= indent_width(ins[0]))


def another_definition(new: Sequence[str], old: Sequence[str]) -> bool:
    """The first non-blank lines of `new` and `old` are both definition headers (they open a
    block, on their line or on the next one as a lone `{`) that define different names
    (`header_name`): two sibling definitions, however alike their lines read."""
    new_body = [l for l in new if l.strip()]
    old_body = [l for l in old if l.strip()]
    if not new_body or not old_body or not all(_header(b) for b in (new_body, old_body)):
        return False
    a, b = header_name(new_body[0]), header_name(old_body[0])
    return a is not None and b is not None and a != b


def _header(lines: Sequence[str], k: int = 0) -> bool:
    """lines[k] opens a block: on its line, by its keyword (`def x` ... `end`), or Allman style."""
    return opens_block(lines[k]) or bool(_KEYWORD_HEADER.match(lines[k].strip())) or brace_follows(lines, k, 2)


def _block_size(lines: Sequence[str]) -> int:
    """How many of the non-blank `lines` (a header first) the first block takes: to the first line
    back at the header's indentation that is not a lone `{` (its closer), or all of them."""
    head = indent_width(lines[0])
    for k in range(1, len(lines)):
        if indent_width(lines[k]) <= head and lines[k].strip() != "{":
            return k + 1 if _CLOSER.match(lines[k].strip()) else k
    return len(lines)


_CLOSER = re.compile(r"^([)\]}]+[;,)]*|end)$")


def new_sibling(ins: list[str], inner: str | None, forward: bool) -> bool:
    """True when inserted lines (`ins`, outwards from the edge) are whole blocks (`whole_blocks`)
    after a matched line that closes one (tail) or before one that opens one (head): a similar
    original opener beyond them is the next sibling's header, not a line they change."""
    if inner is None or not whole_blocks(ins if forward else ins[::-1]):
        return False
    if not forward:
        return opens_block(inner)
    first = next(l for l in ins if l.strip())
    return (bracket_balance([inner]) < 0 or inner.strip() == "end"
            or (bool(_COLON_HEADER.match(first.strip())) and indent_width(inner) > indent_width(first)))


_COMMENT = re.compile(r"^(#(?!\[)|//|/\*|\*|--)")


def _sibling_header(beyond: Sequence[str], forward: bool) -> bool:
    """The original lines beyond an edge (outwards) start a sibling block: going forward, the
    first non-blank line that is no comment opens a block (`// doc` lines above the next
    function's header belong to it); going backwards, the nearest non-blank line closes one."""
    for line in beyond[:12]:
        text = line.strip()
        if not text or (forward and _COMMENT.match(text)):
            continue
        if not forward:
            return bracket_balance([line]) < 0
        return _header(beyond, beyond.index(line))
    return False


# A definition opened by a keyword and closed by `end` (Ruby, Lua, Elixir, Julia).
_KEYWORD_HEADER = re.compile(r"^(def|function|local\s+function|class|module|defmodule)\b(?!.*\bend$)")


def nearest_line(lines: Sequence[str], i: int, step: int) -> str | None:
    """The first non-blank line of `lines` from `i` walking by `step` (at most 3 lines), or None."""
    for _ in range(3):
        if not 0 <= i < len(lines):
            return None
        if lines[i].strip():
            return lines[i]
        i += step
    return None


def new_siblings_at(orig: Sequence[str], at: int, inserted: Sequence[str], step: int) -> bool:
    """`new_sibling` for a reading that only inserts `inserted` (file order) at original index
    `at`, at a section's tail (`step` 1) or head (-1), before an original block header."""
    outward = list(inserted) if step > 0 else list(reversed(inserted))
    beyond = nearest_line(orig, at if step > 0 else at - 1, step)
    inner = nearest_line(orig, at - 1 if step > 0 else at, -step)
    if beyond is None:
        return False
    header = opens_block(beyond) or step > 0 and _sibling_header(orig[at : at + 3], True)
    if not header:
        return False
    if new_sibling(outward, inner, step > 0):
        return True
    return step > 0 and _first_member(outward, inner) and another_definition(outward, orig[at : at + 4])


def opens_block(line: str) -> bool:
    """A line that opens a block its own line does not close: more opening brackets than
    closing ones (`func f() {`, `it('x', function(){`), or a `:` header (`def f(x):`)."""
    return bracket_balance([line]) > 0 or bool(_COLON_HEADER.match(line.strip()))


def whole_blocks(lines: Sequence[str]) -> bool:
    """True when the non-blank `lines` (file order, at least three) are one or more whole blocks:
    the first opens one; brackets balance, never below zero, the last at the first one's
    indentation, or with a `:` header every later line is deeper."""
    body = [l for l in lines if l.strip()]
    if len(body) < 3:
        return False
    indent = [indent_width(l) for l in body]
    if not opens_block(body[0]):
        if _KEYWORD_HEADER.match(body[0].strip()):  # `def x` ... `end`
            return (body[-1].strip() == "end" and indent[-1] == indent[0]
                    and all(i > indent[0] for i in indent[1:-1]))
        if not brace_follows(body, 0, 2):
            return False
        body, indent = body[1:], indent[1:]  # the block from its lone `{`
    if bracket_balance(body[:1]) > 0:
        return balanced(body) and indent[-1] == indent[0] and min(indent) == indent[0]
    return all(i > indent[0] for i in indent[1:])


_COLON_HEADER = re.compile(r"^(async\s+)?(def|class)\s+\w+.*:$")
_IDENT = re.compile(r"[A-Za-z_$][\w$]{2,}")


def rewritten_by(block: Sequence[str], line: str) -> bool:
    """True when the names of an original `line` all reappear in an inserted `block` (at least
    three of them): the block may be that line rewritten over several lines
    (`@{Name="$Name";Description="$Description"}` -> a four-line `New-Object` literal)."""
    names = {w for w in _IDENT.findall(line) if w.lower() not in _KEYWORDS}
    if len(names) < 3:
        return False
    used = {w for l in block for w in _IDENT.findall(l)}
    return len(names & used) >= 0.8 * len(names)
