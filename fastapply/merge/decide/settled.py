"""Readings neither merger wrote that the snippet still settles, written only under every guard.

The instant path (instant.py) reads a lazy snippet twice, jointly (lazy.py) and greedily
(greedy.py). Three refusals of theirs have a rival reading that the rest of the snippet settles:

- `relanded`: the greedy reading laid a whole new definition over the end of the one above it
  (landing.check_definition_split); the reading that inserts it whole before the next original
  line at its depth (`insert_before_next`, below) is the other one.
- `exit_replaced`: the joint reading laid a new exit right after the original exit it kept
  (unreachable.check_code_after_kept_exit); the reading in which the new exit replaces the old
  one is the other one.
- `doubt_by_repeats`: the joint reading doubted whether a shown line is new or changes a similar
  original line, and reading it as new repeats what it sits beside (`new_reading_repeats`) or
  leaves an opener without an indented body (`new_reading_unindented`); the change reading (the refusal's second
  alternative) is the other one.

Either is written only when it passes every guard (`passes_all`: the guards of both readings,
the strict ones included). `copied` is the copied-lines guard as the instant path applies it.

The relanded reading is built only when the new definition is *whole* and *new*: its name occurs
nowhere in the original, the snippet shows it whole (its non-blank lines in a row, no marker
among them), its brackets balance, and the refused reading changed nothing of the old definition
before the new header.

This module knows readings as lists of lines, indentation and the guards' entry points, not how
sections are placed.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.gate import guards, landing, snippet_checks, unreachable
from fastapply.merge.gate.repeats import check_name_defined_twice, check_stutter
from fastapply.merge.snippet import sections
from fastapply.merge.text.compare import added, line_opcodes, origins
from fastapply.merge.text.conventions import Text, join_lines, split_text
from fastapply.merge.text.lines import blank_ends, bracket_balance, indent_width as _depth, run_starts
from fastapply.merge.text.names import keyword_name


def copied(orig: Text, text: str, snip_lines: list[str], diff_snippet: list[str] | None) -> str | None:
    """The copied-lines guard, which a reading of a snippet with diff lines passes when its line
    counts agree with those lines exactly (sections.diff_counts_agree says why)."""
    lines = split_text(text).lines
    if diff_snippet and sections.diff_counts_agree(orig.lines, lines, diff_snippet):
        return None
    return snippet_checks.check_copied_lines(orig.lines, lines, snip_lines)


def passes_all(orig: Text, lines: list[str], snip_lines: list[str], language: str | None, shown: int,
               diff_snippet: list[str] | None) -> str | None:
    """The text of a reading built outside the mergers when it passes every guard (each
    reading's, the strict ones of both), else None."""
    text = join_lines(lines, orig)
    deleted = frozenset(snippet_checks.marked_deletions(diff_snippet or ()))  # the `-` lines the guards see
    if (guards.run_guards("\n".join(orig.lines), "\n".join(lines), language=language, shown_lines=shown,
                          snippet="\n".join(snip_lines), deleted=deleted)
            or guards.check_unconfirmed(orig.lines, lines, snip_lines)
            or copied(orig, text, snip_lines, diff_snippet)):
        return None
    return text


def relanded(orig: Text, lines: list[str], snip_lines: list[str], language: str | None, shown: int,
             diff_snippet: list[str] | None) -> str | None:
    """The greedy reading `lines` laid a whole new definition over the end of the one above it
    (landing.check_definition_split): the other reading, the definition inserted whole before
    the next original line at its depth (`insert_before_next`), when it passes every guard."""
    alt = insert_before_next(orig.lines, lines, snip_lines)
    return None if alt is None else passes_all(orig, alt, snip_lines, language, shown, diff_snippet)


def doubt_by_repeats(orig: Text, alternatives: tuple[str, ...], choice: str | None, snip_lines: list[str],
                     language: str | None, shown: int, diff_snippet: list[str] | None) -> str | None:
    """A refused doubt (`choice` "doubt", `alternatives`: the new-line reading, the change
    reading) whose new-line reading repeats what it sits beside (`new_reading_repeats`) or
    leaves an opener without a body (`new_reading_unindented`):
    the change reading's text when it passes every guard."""
    if choice != "doubt" or len(alternatives) != 2:
        return None
    guess, change = (split_text(t).lines for t in alternatives)
    doubted = added(line_opcodes(change, guess))  # what the new-line reading has beyond the change
    if not (new_reading_repeats(orig.lines, guess, snip_lines)
            or new_reading_unindented(orig.lines, guess, snip_lines, doubted)):
        return None
    return passes_all(orig, change, snip_lines, language, shown, diff_snippet)


def new_reading_repeats(original: Sequence[str], guess: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when the reading that takes a doubted line as new (`guess`) repeats what it sits
    beside (a name defined twice in one block, or X, G, X around unshown lines): the shown line
    changes its neighbour. Measured: 4 doubts (2 commits), the change reading right in all; other
    guards failing on the new-line reading settle nothing (its change reading wrong in 1 of 3)."""
    return bool(check_name_defined_twice(original, guess, snippet) or check_stutter(original, guess, snippet))


_EXIT_WORD = re.compile(r"^(return|raise|throw)\b")


def exit_replaced(orig: Text, lines: list[str], snip_lines: list[str], language: str | None, shown: int,
                  diff_snippet: list[str] | None) -> str | None:
    """A reading refused for a new exit right after the kept original exit with the same keyword
    and indentation (unreachable.check_code_after_kept_exit): the reading in which the new exit
    replaces the kept one, when the snippet never shows the kept exit and it passes every guard.
    Not for a new line that is no exit (that may be a misplaced line)."""
    shown_lines, complete = {line.strip() for line in snip_lines}, unreachable.is_complete_exit
    for before, _i, first in unreachable.kept_then_added(lines, line_opcodes(orig.lines, lines)):
        old, new = lines[before], lines[first]
        word = _EXIT_WORD.match(old.strip())
        if (not word or not complete(old) or not complete(new) or _depth(old) != _depth(new)
                or not new.strip().startswith(word.group(1)) or old.strip() in shown_lines):
            continue
        return passes_all(orig, lines[:before] + lines[before + 1 :], snip_lines, language, shown, diff_snippet)
    return None


_OPENS = re.compile(r"(\{|:|^(if|else if|while|for|foreach)\b.*\))$")
_BODY_FREE = re.compile(r"^(\{|\}|\)|\]|end\b|else\b|elif\b|except\b|finally\b|catch\b)")


def new_reading_unindented(original: Sequence[str], guess: Sequence[str], snippet: Sequence[str],
                           doubted: set[int] | None = None) -> bool:
    """True when the reading that takes a doubted line as new (`guess`) lays a block opener (a
    line ending in `{` or `:`, a brace-less `if (...)`) right above a line no deeper than itself
    that does not close or continue it, one of the two added and the pair in neither the original
    nor the snippet (a renamed header read as a second one): the new line changes the old one."""
    new_at = added(line_opcodes(original, guess))
    rows = [j for j, line in enumerate(guess) if line.strip()]
    pairs = {(a.strip(), b.strip()) for seq in (original, snippet)
             for a, b in zip([l for l in seq if l.strip()], [l for l in seq if l.strip()][1:])}
    for a, b in zip(rows, rows[1:]):
        if (a not in new_at and b not in new_at) or (doubted is not None and a not in doubted and b not in doubted):
            continue
        head, nxt = guess[a], guess[b]
        if (_OPENS.search(head.strip()) and not head.strip().startswith(("//", "#", "*", "/*"))
                and _depth(nxt) <= _depth(head) and not _BODY_FREE.match(nxt.strip())
                and (head.strip(), nxt.strip()) not in pairs):
            return True
    return False


# --------------------------------------------------------------------------- the relanded reading


def _shown_whole(block: Sequence[str], snippet: Sequence[str]) -> bool:
    """The block's non-blank lines occur in the snippet in a row (blank lines between them aside)."""
    return bool(run_starts([l.strip() for l in snippet if l.strip()], [l.strip() for l in block if l.strip()]))


def insert_before_next(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> list[str] | None:
    """The reading that inserts the new definition `result` laid inside an original definition's
    body (landing.definition_split) whole before the next original line at its depth, or None."""
    split = landing.definition_split(original, result, snippet)
    if split is None:
        return None
    j, parent, end, _ = split
    header = result[j]
    name = keyword_name(header.strip())
    if name is None or any(re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", l) for l in original):
        return None  # not a new name: a copy, rename or move of an existing definition
    orig_of = origins(line_opcodes(original, result))
    depth = _depth(header)
    a = j  # decorators and other new lines at the header's depth right above it belong to it
    while a > 0 and result[a - 1].strip() and a - 1 not in orig_of and _depth(result[a - 1]) == depth:
        a -= 1
    b = j + 1
    while b < len(result) and (not result[b].strip() or _depth(result[b]) > depth):
        b += 1
    if b >= len(result) or orig_of.get(b) != end:
        return None  # the definition must end right before the original's next line at its depth
    block = list(result[a : a + blank_ends(result[a:b])[1]])  # result[a] is the header or a line above it
    rp = next((k for k, i in orig_of.items() if i == parent), None)
    if rp is None or rp >= a or bracket_balance(block) != 0 or not _shown_whole(block, snippet):
        return None
    if any(k not in orig_of and result[k].strip() for k in range(rp, a)):
        return None  # the reading changed the old definition too: more than a relanding differs
    body_end = end
    while body_end > parent and not original[body_end - 1].strip():
        body_end -= 1
    gap = list(original[body_end:end])  # the blank lines that separate definitions here
    return list(result[:rp]) + list(original[parent:end]) + block + gap + list(result[b:])
