"""Guards: checks that turn a merged file into a refusal when it is not trustworthy.

A refusal is cheap (the model path takes over); a wrong merge is the worst outcome we can
produce. Each guard is a pure function that returns None when the merge looks right and a
one-sentence reason a user can act on when it does not:

- `check_markers_left`  : the result carries more marker lines than the original did;
- `check_parses`        : the original parsed and the result does not (tree-sitter `has_error`);
- `check_empty_bodies`  : a definition whose body had code in the original is now empty;
- `check_deletions`     : far more of the original disappeared than the snippet shows.

`run_guards` runs them in that order and returns the first failure. Ambiguous locations are the
fifth guard; the locating modules report them themselves, since only they know the places.

This module does not know how a merge was made; it compares the original with the result.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Sequence

from fastapply.merge import definitions, syntax
from fastapply.merge.markers import count_marker_lines

# "Far more": more than this many lines, and more than this multiple of the lines shown.
DELETION_FLOOR = 20
DELETION_RATIO = 1.5


@dataclass(frozen=True)
class DeletionStats:
    """Original lines removed without a replacement line in the result, and the largest run."""

    unreplaced: int
    largest_run: int


def check_markers_left(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when a marker line (or an inline marker phrase) leaked into the result."""
    extra = count_marker_lines(result) - count_marker_lines(original)
    if extra > 0:
        return (
            f"{extra} marker line(s) such as `... existing code ...` would remain in the result; "
            "the snippet's markers could not all be matched to the original"
        )
    return None


def check_parses(original: str, result: str, language: str | None) -> str | None:
    """Refuse when the original parses cleanly and the result does not."""
    if not language or not syntax.has_grammar(language):
        return None
    if syntax.parses(original, language) and syntax.parses(result, language) is False:
        where = syntax.error_lines(result, language) or []
        at = f" near line {where[0] + 1}" if where else ""
        return f"the merged {language} file no longer parses{at}, although the original did"
    return None


def check_empty_bodies(original: str, result: str, language: str | None) -> str | None:
    """Refuse when a definition that had a body in the original has an empty one now."""
    before = definitions.body_states(original, language)
    after = definitions.body_states(result, language)
    if before is None or after is None:
        return None
    for key, empty in after.items():
        if empty and before.get(key) is False:
            return f"the merge would leave `{' '.join(key[-1:])}` with an empty body"
    return None


def line_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib opcodes of two line lists, after trimming their common head and tail (a merge
    changes a few places of a long file; difflib alone is quadratic on repetitive files)."""
    if len(a) + len(b) <= 4000:  # small: difflib's own alignment (quadratic only on big files)
        return difflib.SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes()
    n = min(len(a), len(b))
    head = 0
    while head < n and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    mid = difflib.SequenceMatcher(None, list(a[head : len(a) - tail]), list(b[head : len(b) - tail]), autojunk=False)
    ops = [("equal", 0, head, 0, head)] if head else []
    ops += [(t, i1 + head, i2 + head, j1 + head, j2 + head) for t, i1, i2, j1, j2 in mid.get_opcodes()]
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


def deletion_stats(original: Sequence[str], result: Sequence[str]) -> DeletionStats:
    """Count original lines that vanish without a line replacing them (a line diff)."""
    unreplaced = largest = 0
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag in ("delete", "replace"):
            lost = max(0, (i2 - i1) - (j2 - j1))
            unreplaced += lost
            largest = max(largest, lost)
    return DeletionStats(unreplaced, largest)


def check_deletions(original: Sequence[str], result: Sequence[str], shown_lines: int) -> str | None:
    """Refuse when far more original lines disappear than the snippet shows.

    A lazy snippet shows a deletion only by putting the lines around it next to each other, so a
    forgotten marker looks exactly like a deletion. Real deletions are rarely much larger than
    the snippet that makes them; a forgotten marker usually drops a whole function or more.
    """
    stats = deletion_stats(original, result)
    limit = max(DELETION_FLOOR, DELETION_RATIO * shown_lines)
    if stats.unreplaced > limit:
        return (
            f"the merge would delete {stats.unreplaced} lines of the original while the snippet "
            f"shows only {shown_lines}; if code is elided there, mark it with `... existing code ...`"
        )
    return None


def run_guards(
    original: str,
    result: str,
    *,
    language: str | None,
    shown_lines: int | None,
    snippet: str | None = None,
) -> str | None:
    """Run every guard; return the first refusal reason, or None when all pass.

    `shown_lines=None` skips the deletion guard (search/replace blocks and diff hunks show every
    deleted line explicitly, so they cannot delete by accident). With `snippet` (lazy and
    definition merges) the merge is also checked against the snippet's lines.
    """
    original_lines = original.split("\n")
    result_lines = result.split("\n")
    reason = check_markers_left(original_lines, result_lines)
    if reason is None:
        reason = check_parses(original, result, language)
    if reason is None:
        reason = check_empty_bodies(original, result, language)
    if reason is None and shown_lines is not None:
        reason = check_deletions(original_lines, result_lines, shown_lines)
    if reason is None and snippet is not None:
        reason = check_merge_against_snippet(original_lines, result_lines, snippet.split("\n"))
    return reason


def check_merge_against_snippet(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """The answer guards that compare a lazy merge with its snippet: no diff prefix leaked, no
    distinctive line duplicated, no deletion the snippet does not show, every snippet line in
    the result in order. The first failure's reason, or None."""
    for check in (
        lambda: check_diff_prefix_leak(original, result),
        lambda: check_duplicated_lines(original, result, snippet),
        lambda: check_unshown_deletions(original, result, snippet),
        lambda: check_snippet_lines(snippet, original, result),
    ):
        reason = check()
        if reason:
            return reason
    return None


# --------------------------------------------------------------------------- whole answers
#
# The model path's answer is a whole file written by a model, so it gets every guard the instant
# merge gets, plus two that a deterministic merge cannot fail but a model can: copying diff
# prefixes from the snippet, and not applying a snippet line at all.

_DIFF_PREFIX = ("+", "-", "@@")


@dataclass(frozen=True)
class GuardFailure:
    """Which guard refused a result and why, in words a user can act on."""

    guard: str  # markers_left | diff_prefix | parses | empty_bodies | deletions | duplicates | snippet_lines
    reason: str


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
    used = {p for p in map(_column0_prefix, original) if p}
    before = set(original)
    leaked = [l for l in result if l not in before and (p := _column0_prefix(l)) and p not in used]
    if leaked:
        return (
            f"{len(leaked)} line(s) would start with a diff prefix, such as `{leaked[0].strip()[:60]}`; "
            "write the snippet as plain code (or as a complete unified diff)"
        )
    return None


_COMMENT_ELLIPSIS = re.compile(r"^(#|//|/\*|--|;|<!--|\*|\{/\*).*(\.\.\.|…)")


def _marker_like(stripped: str) -> bool:
    """A comment line with an ellipsis (`// ... Text: unchanged (license) ...`): whatever its
    wording, a snippet line like this stands for code, so it is not required in an answer."""
    return bool(_COMMENT_ELLIPSIS.match(stripped))


def expected_sections(snippet: Sequence[str], original: Sequence[str]) -> list[list[str]]:
    """The snippet's lines that must appear in a correct result, grouped by section, stripped.

    Search/replace blocks contribute their REPLACE lines; diff hunks their context and `+` lines;
    lazy snippets their non-marker lines, where a diff-prefixed line counts without its `+` and a
    `-` or `@@` line (a deletion or a hunk separator in a lazy snippet) is not required.
    """
    from fastapply.merge import blocks
    from fastapply.merge.markers import is_elision

    lines = [l.rstrip("\r") for l in snippet]
    if blocks.looks_like_search_replace(lines):
        try:
            return [[l.strip() for l in e.replace if l.strip()] for e in blocks.parse_search_replace(lines)]
        except ValueError:
            return []
    if blocks.looks_like_diff(lines):
        try:
            return [[l.strip() for l in e.replace if l.strip()] for e in blocks.parse_diff(lines)]
        except ValueError:
            return []
    known = frozenset(l.strip() for l in original)
    used = {p for p in map(_column0_prefix, original) if p}
    sections: list[list[str]] = [[]]
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("```"):
            continue
        if stripped not in known and (is_elision(line, known) or _marker_like(stripped)):
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
                return f"the snippet line `{line[:80]}` is not in the result (or not in the snippet's order)"
    return None


_WORDY = re.compile(r"[0-9A-Za-z_]")


def _distinctive(line: str) -> bool:
    """A line that says where it is: at least 8 letters or digits (not `}`, `end`, `return nil`)."""
    return len(_WORDY.findall(line)) >= 8


def _landmarks(lines: Sequence[str], start: int, step: int, counts, want: int = 3) -> list[str]:
    """Up to `want` lines from `start` walking by `step` that say where they are: unique in the
    file or distinctive; blank lines and generic ones (`}`, `end`) are skipped."""
    found = []
    i = start
    while 0 <= i < len(lines) and len(found) < want:
        line = lines[i].strip()
        if line and (counts.get(line) == 1 or _distinctive(line)):
            found.append(line)
        i += step
    return found


def _marked_edge(original: Sequence[str], snippet: Sequence[str], i1: int, i2: int) -> str | None:
    """"start" or "end" when original[i1:i2] runs to that edge of the file (blank lines aside)
    and the snippet opens (or closes) with a marker there: the marker says the code stays."""
    from fastapply.merge.markers import is_marker

    shown = [l for l in snippet if l.strip()]
    if not shown:
        return None
    if not any(l.strip() for l in original[:i1]) and (is_marker(shown[0]) or _marker_like(shown[0].strip())):
        return "start"
    if not any(l.strip() for l in original[i2:]) and (is_marker(shown[-1]) or _marker_like(shown[-1].strip())):
        return "end"
    return None


def _marked_deletions(snippet: Sequence[str]) -> set[str]:
    """Lines the snippet itself marks as deleted: `-` lines, and SEARCH lines that its REPLACE
    side does not keep. (A line a lazy snippet merely shows is kept, not deleted: a model that
    drops a twin of it elsewhere has not been told to.)"""
    from fastapply.merge import blocks

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


def check_unshown_deletions(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the result drops original lines far from anything the snippet shows.

    A snippet shows a deletion by showing the code around it (Morph's convention: context before
    and after), or the deleted lines themselves (`-` lines, a SEARCH side). So every run of
    removed lines needs, on each side that has one, a landmark (one of the 3 nearest unique or
    distinctive lines) that the snippet shows. Runs of blank lines alone do not count.
    """
    shown = {l.strip() for l in snippet if l.strip()}
    shown |= {l[1:].strip() for l in snippet if l[:1] in "+-" and l[1:].strip()}
    marked = _marked_deletions(snippet)
    from collections import Counter

    counts = Counter(l.strip() for l in original)
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag not in ("delete", "replace") or (i2 - i1) <= (j2 - j1):
            continue
        lost = [l for l in original[i1:i2] if l.strip()]
        if not lost:
            continue
        if any(l.strip() in marked for l in lost if _distinctive(l)):
            continue  # the snippet marks the deleted lines themselves (a `-` line, a SEARCH side)
        if (edge := _marked_edge(original, snippet, i1, i2)) is not None:
            return (
                f"the result drops {len(lost)} line(s) at the {edge} of the file (`{lost[0].strip()[:60]}`), "
                f"where the snippet's marker says the existing code is kept"
            )
        before = _landmarks(original, i1 - 1, -1, counts)
        after = _landmarks(original, i2, +1, counts)
        sides = [any(l in shown for l in side) for side in (before, after) if side]
        # A pure deletion needs the snippet on both sides of it; a replacement that also drops
        # lines sits at an edited spot already, so one shown side is enough.
        if not (all(sides) if tag == "delete" else any(sides)):
            return (
                f"the result drops {len(lost)} line(s) of the original near line {i1 + 1} "
                f"(`{lost[0].strip()[:60]}`) that the snippet does not touch"
            )
    return None


def check_duplicated_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when a distinctive line that occurs once in the original occurs more often in the
    result than the snippet shows it (a pasted twin of existing code)."""
    from collections import Counter

    before = Counter(original)
    after = Counter(result)
    shown = Counter(l.strip() for l in snippet)
    for line, n in after.items():
        if n > 1 and before.get(line) == 1 and _distinctive(line) and n > 1 + shown.get(line.strip(), 0):
            return f"the line `{line.strip()[:60]}` would appear {n} times; the original has it once"
    return None


def check_copied_lines(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Stricter than `check_duplicated_lines`, for deterministic merges: a distinctive line may
    not occur in the merge more often than in the original or in the snippet, whichever is more
    (a merge that keeps the original's copy and pastes the snippet's next to it misplaced one)."""
    from collections import Counter

    before = Counter(l.strip() for l in original)
    after = Counter(l.strip() for l in result)
    shown = Counter(l.strip() for l in snippet)
    copied = [(line, n) for line, n in after.items()
              if n > 1 and _distinctive(line) and n > max(before.get(line, 0), shown.get(line, 0))]
    if len(copied) >= COPIED_LINES:
        line, n = copied[0]
        return (f"the line `{line[:60]}` would appear {n} times, more than the original or the snippet has "
                f"it ({len(copied)} such lines: a block kept twice?)")
    return None


COPIED_LINES = 1  # measured: allowing one or two copied lines turns dev-edits rows wrong


def check_answer(
    original: str, snippet: str, result: str, *, language: str | None
) -> GuardFailure | None:
    """Every guard on a whole-file answer (the model path's), the first failure or None.

    The deletion guard counts every line the snippet shows (a model answer has no merge to say
    which lines were placed), so only deletions far larger than the snippet refuse.
    """
    original_lines = original.split("\n")
    result_lines = result.split("\n")
    snippet_lines = snippet.split("\n")
    shown = sum(len(s) for s in expected_sections(snippet_lines, original_lines))
    checks = (
        ("markers_left", lambda: check_markers_left(original_lines, result_lines)),
        ("diff_prefix", lambda: check_diff_prefix_leak(original_lines, result_lines)),
        ("parses", lambda: check_parses(original, result, language)),
        ("empty_bodies", lambda: check_empty_bodies(original, result, language)),
        ("deletions", lambda: check_deletions(original_lines, result_lines, shown)),
        ("deletions", lambda: check_unshown_deletions(original_lines, result_lines, snippet_lines)),
        ("duplicates", lambda: check_duplicated_lines(original_lines, result_lines, snippet_lines)),
        ("snippet_lines", lambda: check_snippet_lines(snippet_lines, original_lines, result_lines)),
    )
    for name, check in checks:
        reason = check()
        if reason:
            return GuardFailure(name, reason)
    return None
