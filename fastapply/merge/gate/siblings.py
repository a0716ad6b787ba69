"""Siblings: a new block the merge read as an edit of the similar block next to it.

Tests, routes and handlers come in runs of blocks of one shape. A lazy snippet that adds one
shows its opener and some of its body, often right after a generic closing line and stopping at
a marker. Two readings keep every line it shows: the block is **new**, inserted next to the
original sibling, or it is the **sibling edited** (opener renamed, body changed). A line-matching
merge prefers the second, but commits add a route or test far more often than they rename one.
The snippet settles it by showing a line only the original block has (not for tests, whose new
members copy a neighbour's body), the block's own lead-in above its opener, or original lines
after the block other than the ones right after the sibling (a changed line there stands for the
original line it changes: `['a', 'b', 'c'].forEach(` after a new route is the `['a', 'b']` line
after the sibling in both readings). It is settled too where the snippet shows the original on both
sides of the new block, from a line the file holds once above to one below, with no marker between:
the sibling standing there is then shown deleted (`_enclosed`); and where a snippet with diff lines
shows the original opener as a `-` line (`deleted`: the block is renamed).

`check_sibling_overwritten` refuses a result that replaced an original opener (`_opens`) by the
snippet's new opener at the same indentation when the new one names another block (`renamed`)
and nothing in the snippet settles new versus edited (`_unsettled`).

This module knows lines, indentation and generic lines; it does not parse and does not know how
the result was made.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Sequence

from fastapply.merge.text.lines import (SAME_NAME, block_end, brace_follows, collapse, distinctive, identity,
                                        indent_width as _indent, is_generic, is_opener, stripped_counts)
from fastapply.merge.text.compare import line_opcodes, similar
from fastapply.merge.text.markers import is_elision, marker_like
from fastapply.merge.text.names import header_name
from fastapply.merge.text.spans import quote

def renamed(old: str, new: str) -> bool:
    """True when the opener `new` names another block than `old` (not the same name with other
    parameters, nor a small rename that keeps SAME_NAME of it): the names differ by more than
    SAME_NAME, or a word of each name has no like word in the other (`word_replaced`)."""
    a, b = _named(identity(old)), _named(identity(new))
    if a is None or b is None or a == b:
        # a qualified or typed header names its block after the leading words (`int Shop::beta(`,
        # `function Shop:beta(`, `func (s *Shop) Beta(`): compare the names it defines
        a, b = header_name(old), header_name(new)
        if a is None or b is None or a == b:
            return False
    return (difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() < SAME_NAME or word_replaced(a, b)
            or renumbered(a, b))


_DECLARES = re.compile(r"^(?:(?:var|let|const|val|my|our|local|export|static|final|readonly|public|private|protected|"
                       r"internal|async|pub|mut)\s+)+")


def _named(identity: str | None) -> str | None:
    """An identity without the declaration words before the name (`var helpers` -> `helpers`): `var x`
    made `const x` declares the same block. (Wider than text.names.undeclared, which the aligner reads
    names with: an opener's identity also carries modifiers, `export const`, `public static`.)"""
    return None if identity is None else _DECLARES.sub("", identity) or identity


def renumbered(a: str, b: str) -> bool:
    """True when the names differ only in their numbers (`/alternate` -> `/alternate2`, `test1`
    -> `test2`): siblings are numbered in turn, a block is seldom renamed that way."""
    return a != b and re.sub(r"\d+", "", a) == re.sub(r"\d+", "", b)


_PIECES = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def _words(name: str) -> list[str]:
    """The words of a name, identifiers split at `_` and camelCase, lower-cased."""
    return [p.lower() for w in re.findall(r"[A-Za-z0-9]+", name) for p in _PIECES.findall(w)]


def word_replaced(a: str, b: str) -> bool:
    """True when each of the names `a`, `b` has a word with no like word in the other (neither a
    prefix of the other nor SAME_NAME alike); a name only extended or with a typo fixed is not
    replaced (a commit renames that way as often as it adds a sibling)."""
    wa, wb = _words(a), _words(b)

    def alone(word: str, others: list[str]) -> bool:
        return all(not (word.startswith(o) or o.startswith(word))
                   and difflib.SequenceMatcher(None, word, o, autojunk=False).ratio() < SAME_NAME for o in others)

    return any(alone(w, wb) for w in wa) and any(alone(w, wa) for w in wb)


_TEST = re.compile(r"\s*(?:(?:it|describe|context|test|tape|specify|suite)(?:\.\w+)?(?:\s*\(|\s+['\"])|func\s+Test|"
                   r"(?:async\s+)?def\s+test|(?:async\s+)?fn\s+test|['\"]test\b)", re.IGNORECASE)


def is_test_opener(line: str) -> bool:
    """A line that opens a test (`it('...'`, `describe(`, `test(`, `func TestX(`, `def test_x(`,
    `'test #x': function`): a run of siblings whose new members copy most of a neighbour's body."""
    return bool(_TEST.match(line))


def _is_marker(line: str, known: frozenset[str]) -> bool:
    text = line.strip()
    return text not in known and (is_elision(line, known) or marker_like(text))


# A class header opened by its keyword alone (`class Shop`: Ruby, PHP's Allman). Not `def f(x)` nor
# `function Shop:f(x)` (Ruby, Lua): measured, reading those as openers refused one right file of
# planner-dev2 for one wrong file saved per grid seed.
_KEYWORD_OPENER = re.compile(r"^(?:(?:public|private|protected|static|local|abstract|final)\s+)*"
                             r"(?:class|module)\b(?!.*\bend$)")


def _opens(lines: Sequence[str], k: int) -> bool:
    """lines[k] opens a block: an opener line (`is_opener`), a distinctive class header that ends
    its line without an opener (`class Shop`), or a
    distinctive line followed by a lone `{` at its indentation (Allman style, `public int F(int
    x)` / `{`: C#, PHP methods)."""
    text = lines[k].strip()
    return is_opener(lines[k]) or (distinctive(text) and not text.endswith((";", ",")) and (
        bool(_KEYWORD_OPENER.match(text)) or brace_follows(lines, k)))


def _unsettled(snippet: Sequence[str], k: int, known: frozenset[str], counts: Counter,
               block: frozenset[str] = frozenset(), follows: str | None = None) -> bool:
    """True when nothing around the opener snippet[k] says whether its block is new or an edit:
    the run right above it is generic (no lead-in), its body shows no distinctive line unique in
    the original that lies in the overwritten `block` (never for a test), and after its block no
    distinctive original line but `follows` (both readings put it before that) comes before a
    marker or the snippet's end."""
    above = next((l for l in reversed(snippet[:k]) if l.strip()), None)
    if above is not None and not is_generic(above) and not _is_marker(above, known):
        return False
    end = block_end(snippet, k)
    if _enclosed(snippet, k, end, known, counts):
        return False
    for i in range(k - 1, -1, -1):
        line = snippet[i]
        if not line.strip() or _is_marker(line, known):
            break
        if _opens(snippet, i) and _indent(line) < _indent(snippet[k]):
            break  # the enclosing block's header (`class Shop` / `{`): the run has no lead-in
        if not is_generic(line):
            return False  # the block's own lead-in (`@pytest.mark...(`, a doc comment) shown
    body = snippet[k + 1:end]
    cut = next((i for i, l in enumerate(body) if _is_marker(l, known)), None)
    if cut is not None:
        body, end = body[:cut], k + 1 + cut
    if not is_test_opener(snippet[k]) and any(
            counts.get(l.strip()) == 1 and distinctive(l) and l.strip() in block for l in body):
        return False  # a line only the original block has: the snippet shows that block, edited
    for line in snippet[end:]:
        if not line.strip():
            continue
        if _is_marker(line, known):
            return True
        if not is_generic(line) and counts.get(line.strip()):
            return line.strip() == follows
        if follows is not None and _changed_from(line, follows):
            return True  # the line after the sibling, changed: it follows the block in both readings
    return True


def _enclosed(snippet: Sequence[str], k: int, end: int, known: frozenset[str], counts: Counter) -> bool:
    """True when no marker stands between the opener snippet[k] and the nearest line above it, nor
    between its block's end and the nearest line below, that the original holds once (a distinctive
    line): the snippet shows the original from one such line to the other with the new block
    between, so the sibling standing there is shown deleted, not kept (a new block there would
    need a marker to keep it)."""
    def pinned(lines) -> bool:
        for line in lines:
            if _is_marker(line, known):
                return False
            if distinctive(line) and counts.get(line.strip()) == 1:
                return True
        return False
    return pinned(reversed(snippet[:k])) and pinned(snippet[end:])


def _changed_from(new: str, old: str) -> bool:
    """`new` (a line the original does not have) reads as `old` edited (`similar`), or respaced."""
    return similar(new, old) or (len(collapse(new)) >= 5 and collapse(new) == collapse(old))


def check_sibling_overwritten(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
                              deleted: frozenset[str] = frozenset()) -> str | None:
    """Refuse a result that overwrote an original opener line with a new opener the snippet shows
    where the snippet does not settle new block versus edited one (module docstring). An opener in
    `deleted` (a `-` line of a snippet with diff lines) is shown replaced: settled."""
    known = frozenset(l.strip() for l in original)
    counts = stripped_counts(original)
    shown = [l.strip() for l in snippet]
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag != "replace":
            continue
        at = next((i for i in range(i1, i2) if original[i].strip()), None)
        to = next((j for j in range(j1, j2) if result[j].strip()), None)
        if at is None or to is None or not (_opens(original, at) and _opens(result, to)):
            continue
        old, new = original[at], result[to]
        if (_indent(old) != _indent(new) or old.strip() in shown or old.strip() in deleted or new.strip() in known
                or not renamed(old, new)
                or shown.count(new.strip()) != 1):
            continue
        k = shown.index(new.strip())
        end = block_end(original, at)
        block = frozenset(l.strip() for l in original[at:end])
        follows = next((l.strip() for l in original[end:] if l.strip() and not is_generic(l)), None)
        if _unsettled(snippet, k, known, counts, block, follows):
            return (f"{quote(new)} could open a new block next to {quote(old)} or be that "
                    f"block changed; show the unchanged lines after the new block (or the original opener, if it stays)")
    return None
