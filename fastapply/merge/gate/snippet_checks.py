"""Checks that compare a result with the snippet that produced it: what a deterministic merge
rarely fails but a model (or a loose placement) can.

- `check_diff_prefix_leak`: new lines that start with `+`, `-` or `@@` in a file that never does;
- `check_snippet_lines`: every line the snippet shows is in the result, in each section's order;
- `check_relative_indentation`: the snippet's lines keep their nesting (one shift for all);
- `check_unshown_deletions`: removed lines need the snippet around them (or marking them, or
  showing the whole new definition they were part of: shown_whole.py);
- `check_duplicated_lines` / `check_copied_lines`: no pasted twin of a distinctive original line;
- `lost_distinctive_lines`: how many distinctive original lines a reading overwrote (weighs two readings).

Each returns None or a one-sentence reason. This module knows lines, markers and the snippet
forms (blocks.py); it does not know languages or how the result was made.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from fastapply.merge.text.compare import copied_lines, line_opcodes
from fastapply.merge.text.lines import distinctive, indent_len, is_generic, stripped_counts
from fastapply.merge.text.markers import is_elision, is_marker, marker_like
from fastapply.merge.snippet import blocks
from fastapply.merge.gate import shown_whole
from fastapply.merge.gate.copies import copies_in_new_blocks, copies_replace_changed_lines
from fastapply.merge.text.quoting import placed
from fastapply.merge.text.spans import quote


_DIFF_PREFIX = ("+", "-", "@@")


def _column0_prefix(line: str) -> str | None:
    for prefix in _DIFF_PREFIX:
        if line.startswith(prefix) and line[len(prefix) : len(prefix) + 1] not in ("+", "-"):
            return prefix
    return None


def check_diff_prefix_leak(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when the result has new lines that start with a diff prefix (`+`, `-`, `@@`) at
    column 0 although no line of the original does: in code such a line is a copied diff line.

    Files whose own lines start that way (Markdown lists, YAML, diffs) are exempt per prefix.
    """
    before = set(original)
    fresh = [l for l in result if l not in before and _column0_prefix(l)]
    if not fresh:
        return None
    used = {p for p in map(_column0_prefix, original) if p}
    leaked = [l for l in fresh if _column0_prefix(l) not in used]
    return (f"{len(leaked)} line(s) would start with a diff prefix, such as {quote(leaked[0])}; "
            "write the snippet as plain code (or as a complete unified diff)") if leaked else None


def expected_sections(snippet: Sequence[str], original: Sequence[str]) -> list[list[str]]:
    """The snippet's lines that must appear in a correct result, grouped by section, stripped.

    Search/replace blocks contribute their REPLACE lines; diff hunks their context and `+` lines;
    lazy snippets their non-marker lines, where a diff-prefixed line counts without its `+` and a
    `-` or `@@` line (a deletion or a hunk separator in a lazy snippet) is not required.
    """
    lines = [l.rstrip("\r") for l in snippet]
    for looks, parse in ((blocks.looks_like_search_replace, blocks.parse_search_replace),
                         (blocks.looks_like_diff, blocks.parse_diff)):
        if looks(lines):
            try:
                return [[l.strip() for l in e.replace if l.strip()] for e in parse(lines)]
            except ValueError:
                return []
    known = frozenset(l.strip() for l in original)
    used = {p for p in map(_column0_prefix, original) if p}
    sections: list[list[str]] = [[]]
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("```"):
            continue
        if stripped not in known and (is_elision(line, known) or marker_like(stripped)):
            sections.append([])
            continue
        prefix = _column0_prefix(line)
        if prefix in ("-", "@@") and prefix not in used:
            continue
        if prefix == "+" and "+" not in used:
            stripped = line[1:].strip()
            if not stripped:
                continue
        sections[-1].append(stripped)
    return [s for s in sections if s]


def check_snippet_lines(snippet: Sequence[str], original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when a line the snippet shows is missing from the result, or a section's lines
    appear out of order (compared with surrounding whitespace stripped)."""
    stripped = [l.strip() for l in result]
    for section in expected_sections(snippet, original):
        at = 0
        for line in section:
            try:
                at = stripped.index(line, at) + 1
            except ValueError:
                return f"the snippet line {quote(line, 80)} is not in the result (or not in the snippet's order)"
    return None


def check_relative_indentation(snippet: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when the snippet's lines (those once in the snippet and once in the result) land
    shifted by different amounts: a merge may move the whole snippet, not re-nest part of it."""
    in_result = stripped_counts(result)
    in_snippet = stripped_counts(snippet)
    where = {l.strip(): l for l in result}
    shifts: dict[int, str] = {}
    for line in snippet:
        text = line.strip()
        if text and in_result[text] == 1 and in_snippet[text] == 1:
            shifts.setdefault(indent_len(where[text]) - indent_len(line), text)
    if len(shifts) > 1:
        (a, first), (b, second) = sorted(shifts.items())[:2]
        return (f"the snippet's lines would land re-nested ({quote(first, 40)} moved by {a} columns, "
                f"{quote(second, 40)} by {b}); include the lines around the change so it keeps the snippet's nesting")
    return None


def _landmarks(lines: Sequence[str], start: int, step: int, counts, want: int = 3, unique: bool = False,
               gone: frozenset[int] | set[int] = frozenset()) -> list[str]:
    """Up to `want` lines from `start` walking by `step` that say where they are: unique in the
    file or distinctive (with `unique`, unique only); blank and generic lines are skipped, and so
    are the lines in `gone` (`deleted_lines`)."""
    found = []
    i = start
    while 0 <= i < len(lines) and len(found) < want:
        line = lines[i].strip()
        if line and i not in gone and (counts.get(line) == 1 or (not unique and distinctive(line))):
            found.append(line)
        i += step
    return found


def _marked_edge(original: Sequence[str], snippet: Sequence[str], i1: int, i2: int) -> str | None:
    """"start" or "end" when original[i1:i2] runs to that edge of the file (blank lines aside)
    and the snippet opens (or closes) with a marker there: the marker says the code stays."""
    shown = [l for l in snippet if l.strip()]
    for edge, outside, line in (("start", original[:i1], shown[:1]), ("end", original[i2:], shown[-1:])):
        if line and not any(l.strip() for l in outside) and (is_marker(line[0]) or marker_like(line[0].strip())):
            return edge
    return None


def marked_deletions(snippet: Sequence[str]) -> set[str]:
    """Lines the snippet itself marks as deleted: `-` lines, and SEARCH lines that its REPLACE
    side does not keep. (A line a lazy snippet merely shows is kept, not deleted: a model that
    drops a twin of it elsewhere has not been told to.)"""
    marked = {l[1:].strip() for l in snippet if l.startswith("-") and not l.startswith("--") and l[1:].strip()}
    lines = [l.rstrip("\r") for l in snippet]
    if blocks.looks_like_search_replace(lines):
        try:
            for edit in blocks.parse_search_replace(lines):
                kept = {l.strip() for l in edit.replace}
                marked |= {l.strip() for l in edit.search if l.strip() and l.strip() not in kept}
        except ValueError:
            pass
    return marked


def check_unshown_deletions(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], strict: bool = False,
    rewritten: Sequence[tuple[int, int]] = (),
) -> str | None:
    """Refuse when the result drops original lines far from anything the snippet shows: every
    run of removed non-blank lines needs, on each side that has one, a landmark the snippet shows
    (one of the 3 nearest distinctive lines, deleted ones skipped), or its lines marked deleted.
    `rewritten`: original ranges of definitions replaced whole by name; `strict`: landmarks must
    be unique in the original (for a result no second reading confirms).
    """
    shown = {l.strip() for l in snippet if l.strip()}
    shown |= {l[1:].strip() for l in snippet if l[:1] in "+-" and l[1:].strip()}
    marked = marked_deletions(snippet)
    counts = stripped_counts(original)
    ops = line_opcodes(original, result)
    gone = deleted_lines(ops)
    for tag, i1, i2, j1, j2 in ops:
        if tag not in ("delete", "replace") or (i2 - i1) <= (j2 - j1):
            continue
        lost = [l for l in original[i1:i2] if l.strip()]
        if not lost:
            continue
        if any(l.strip() in marked for l in lost if distinctive(l)):
            continue  # the snippet marks the deleted lines themselves (a `-` line, a SEARCH side)
        if (edge := _marked_edge(original, snippet, i1, i2)) is not None:
            return (
                f"the result drops {len(lost)} line(s) at the {edge} of the file ({quote(lost[0])}), "
                f"where the snippet's marker says the existing code is kept"
            )
        if tag == "delete" and len(lost) <= SHOWN_GAP and (_deletion_shown_by_neighbours(original, snippet, i1, i2)
                                                           or shown_whole.deletion_in_shown_block(original, result, snippet, j1)):
            continue  # its neighbours shown one after the other, or a few lines in a block the snippet shows whole
        if any(a <= i1 and i2 <= b for a, b in rewritten) or shown_whole.inside_rewritten_definition(
                original, snippet, i1, i2):
            continue  # the snippet shows the whole new definition these lines were part of
        before = _landmarks(original, i1 - 1, -1, counts, unique=strict, gone=gone)
        after = _landmarks(original, i2, +1, counts, unique=strict, gone=gone)
        sides = [any(l in shown for l in side) for side in (before, after) if side]
        # A pure deletion needs the snippet on both sides of it, in that order; a replacement that
        # also drops lines sits at an edited spot already, so one shown side is enough.
        if tag == "delete" and all(sides) and before and after and not _shown_in_order(snippet, before, after):
            sides = [False]
        if not (all(sides) if tag == "delete" else any(sides)):
            first = next(k for k in range(i1, i2) if original[k].strip())
            return (f"the result drops {len(lost)} line(s) of the original near line {first + 1} "
                    f"({placed(original, first)}) that the snippet does not touch")
    return None


def deleted_lines(ops) -> set[int]:
    """The original line numbers that pure deletions (`delete` opcodes) remove: no landmarks for
    another deletion. (Replaced lines stay landmarks: counting them let a misplaced reading
    through on two check sets.)"""
    return {k for tag, i1, i2, _, _ in ops if tag == "delete" for k in range(i1, i2)}


def _shown_in_order(snippet: Sequence[str], before: Sequence[str], after: Sequence[str]) -> bool:
    """True when the snippet shows a landmark of the lines above a deletion (`before`) and, later
    on, one of the lines below it (`after`) that is not also above it."""
    # each snippet line as shown, and without a `+`/`-` diff prefix (a lazy snippet's diff lines)
    lines = [{l.strip(), l[1:].strip() if l[:1] in "+-" else l.strip()} for l in snippet]
    first_before = next((k for k, forms in enumerate(lines) if forms & set(before)), None)
    below = set(after) - set(before)
    return first_before is not None and any(forms & below for forms in lines[first_before + 1:])


SHOWN_GAP = 3  # non-blank lines a deletion shown only by its two neighbours may remove


def _deletion_shown_by_neighbours(original: Sequence[str], snippet: Sequence[str], i1: int, i2: int) -> bool:
    """True when the snippet shows the short deleted run's two neighbours one right after the
    other (blank lines aside) and the original never has them adjacent: that gap closed."""
    above = next((original[k].strip() for k in range(i1 - 1, -1, -1) if original[k].strip()), None)
    below = next((original[k].strip() for k in range(i2, len(original)) if original[k].strip()), None)
    pairs = [set(zip(shown, shown[1:])) for shown in ([l.strip() for l in t if l.strip()] for t in (snippet, original))]
    return above is not None and below is not None and (above, below) in pairs[0] - pairs[1]


def check_duplicated_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when a distinctive line that occurs once in the original occurs more often in the
    result than the snippet shows it (a pasted twin of existing code)."""
    before = Counter(original)
    after = Counter(result)
    shown = stripped_counts(snippet)
    for line, n in after.items():
        if n > 1 and before.get(line) == 1 and distinctive(line) and n > 1 + shown.get(line.strip(), 0):
            return f"the line {quote(line)} would appear {n} times; the original has it once"
    return None


_COMMENT = re.compile(r"^(#|//|/\*|\*|--|;)")
COPIED_LINES = 1  # measured: allowing one or two copied lines turns dev-edits rows wrong
REPEATED_NEW_LINES = 2


def check_copied_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Stricter than `check_duplicated_lines`, for deterministic merges: a distinctive line may
    not occur in the merge more often than in the original or in the snippet, whichever is more
    (a merge that keeps the original's copy and pastes the snippet's next to it misplaced one).
    Exempt (copies.py): copies in new blocks shown whole and changed lines that equal a line the
    file has elsewhere, placed where the snippet's context points."""
    before = stripped_counts(original)
    shown = stripped_counts(snippet)
    copied = list(copied_lines(original, result, snippet).items())
    if 0 < len(copied) <= REPEATED_NEW_LINES and all(
            n == before.get(line, 0) + shown.get(line, 0)
            and (before.get(line, 0) >= 2 or shown.get(line) == 1 and _COMMENT.match(line))
            for line, n in copied):
        # one or two lines, each of its copies in the snippet new, repeating an idiom the file already
        # repeats (`if err != nil {`, a `#[cfg_attr(...)]` on each new function) or a boilerplate comment
        # line (a doc example's `/// # use clap::App;`)
        return None
    # exempt: new code shaped like old (each copy sits in a new block shown whole), or a changed
    # line that equals a line the file has elsewhere, at the place shown
    if len(copied) >= COPIED_LINES and not (copies_in_new_blocks(original, result, snippet)
                                            or copies_replace_changed_lines(original, result, snippet)):
        line, n = next((c for c in copied if not is_generic(c[0])), copied[0])  # one that says where
        more = (f" (and {len(copied) - 1} more line(s) would be: the original's block kept beside the "
                "snippet's copy of it)") if len(copied) > 1 else ""
        return (f"the line {quote(line)} would appear {n} times, more than the original ({before.get(line, 0)}) or "
                f"the snippet ({shown.get(line, 0)}) has it{more}")
    return None


def lost_distinctive_lines(original: Sequence[str], result: Sequence[str]) -> int:
    """How many distinctive original lines (counted with repeats, whitespace stripped) the
    result no longer has: weighs two readings of one snippet."""
    before = Counter(l.strip() for l in original if distinctive(l))
    after = stripped_counts(result)
    return sum((before - after).values())
