"""Readings neither merger wrote that the snippet still settles, written only under every guard.

The instant path (instant.py) reads a lazy snippet twice, jointly (lazy.py) and greedily
(greedy.py). Two refusals of theirs have a rival reading that the rest of the snippet settles:

- `relanded`: the greedy reading laid a whole new definition over the end of the one above it
  (landing.check_definition_split); the reading that inserts it whole before the next original
  line at its depth (relanding.py) is the other one.
- `doubt_by_repeats`: the joint reading doubted whether a shown line is new or changes a similar
  original line, and reading it as new repeats what it sits beside (`new_reading_repeats`);
  the change reading (the refusal's second alternative) is the other one.

Either is written only when it passes every guard (`passes_all`: the guards of both readings,
the strict ones included). `copied` is the copied-lines guard as the instant path applies it.

This module knows readings as lists of lines and the guards' entry points, not how sections are
placed.
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.gate import guards, landing, snippet_checks
from fastapply.merge.decide import relanding
from fastapply.merge.snippet import sections
from fastapply.merge.text.conventions import Text, join_lines, split_text


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
    if (guards.run_guards("\n".join(orig.lines), "\n".join(lines), language=language, shown_lines=shown,
                          snippet="\n".join(snip_lines))
            or snippet_checks.check_unshown_deletions(orig.lines, lines, snip_lines, strict=True)
            or guards.check_head_dropped(orig.lines, lines, snip_lines)
            or landing.check_definition_split(orig.lines, lines, snip_lines)
            or copied(orig, text, snip_lines, diff_snippet)):
        return None
    return text


def relanded(orig: Text, lines: list[str], snip_lines: list[str], language: str | None, shown: int,
             diff_snippet: list[str] | None) -> str | None:
    """The greedy reading `lines` laid a whole new definition over the end of the one above it
    (landing.check_definition_split): the other reading, the definition inserted whole before
    the next original line at its depth (relanding.py), when it passes every guard."""
    alt = relanding.insert_before_next(orig.lines, lines, snip_lines)
    return None if alt is None else passes_all(orig, alt, snip_lines, language, shown, diff_snippet)


def doubt_by_repeats(orig: Text, alternatives: tuple[str, ...], choice: str | None, snip_lines: list[str],
                     language: str | None, shown: int, diff_snippet: list[str] | None) -> str | None:
    """A refused doubt (`choice` "doubt", `alternatives`: the new-line reading, the change
    reading) whose new-line reading repeats what it sits beside (`new_reading_repeats`):
    the change reading's text when it passes every guard."""
    if choice != "doubt" or len(alternatives) != 2:
        return None
    guess, change = (split_text(t).lines for t in alternatives)
    if not new_reading_repeats(orig.lines, guess, snip_lines):
        return None
    return passes_all(orig, change, snip_lines, language, shown, diff_snippet)


def new_reading_repeats(original: Sequence[str], guess: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when the reading that takes a doubted line as new (`guess`) repeats what it sits
    beside: one block defines a name twice (`host: null,` added beside `host: 'localhost',`:
    repeats.check_name_defined_twice) or reads X, G, X around unshown original lines (a new
    `end` beside the original one: repeats.check_stutter). A shown line that redefines its
    similar neighbour's name, or closes what that one closes, changes it. Measured on the
    generated check sets: 4 doubts (2 commits), the change reading right in all; other guards
    failing on the new-line reading (a parse error) settle nothing (its change reading wrong
    in 1 of 3)."""
    from fastapply.merge.gate.repeats import check_name_defined_twice, check_stutter

    return bool(check_name_defined_twice(original, guess, snippet) or check_stutter(original, guess, snippet))

