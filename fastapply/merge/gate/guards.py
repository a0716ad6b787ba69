"""Guards: checks that turn a merged file into a refusal when it is not trustworthy.

A refusal is cheap (the model path takes over); a wrong merge is the worst outcome we can
produce. Each guard is a pure function that returns None when the merge looks right and a
one-sentence reason a user can act on when it does not. `run_guards` runs the instant merge's in
order (the file-level checks here, then with a snippet `check_merge_against_snippet` and the
checks on added lines, `_check_added_lines`) and returns the first failure; `check_answer` runs
them all, plus those only a model can fail, on a model's whole-file answer.

Not run on the instant merge: `check_empty_bodies` (on the tuned sets and the grid it refused one
right merge and no wrong one: ablation of 2026-11-26; a model can empty a body), and
`check_head_dropped`, which is for a reading no second one confirms (`check_unconfirmed`, run by decide/):
run on every result it would hand the choice to a reading that guesses the other way.

This module does not know how a merge was made; it compares the original with the result. The
checks that compare a result with the snippet itself live in snippet_checks.py and the modules
beside it.

`finish(orig, merged, method, ...)` takes one merger's `Merged` (result.py) to the `MergeResult`
the instant path writes or refuses: a refusal keeps its reason and its candidate in file text
(none when the candidate is the unchanged file; a doubt's rival reading as the pair of
`alternatives`); merged lines pass `run_guards`, else are refused with the original line ranges
they change (`changed_regions`, where the model path rewrites). The rung says "whitespace" when
the snippet's indentation was converted. Which reading is written is decide/'s, which merger reads
the snippet is instant.py's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.gate import answer_checks, dangling, declared_twice, kept_code, repeats, siblings, unreachable
from fastapply.merge.gate.kept_code import check_unchanged_suspect
from fastapply.merge.snippet import blocks
from fastapply.merge.text import outline
from fastapply.merge.text.conventions import Text, is_whole_file, join_lines
from fastapply.merge.gate.parses import check_parses
from fastapply.merge.gate.landing import (
    check_definition_kept_twice, check_definition_split, check_dropped_definition, check_lead_in_kept,
)
from fastapply.merge.text.markers import count_marker_lines, is_marker, marker_like
from fastapply.merge.gate.snippet_checks import (
    check_diff_prefix_leak, check_duplicated_lines, check_relative_indentation, check_snippet_lines,
    check_unshown_deletions, expected_sections, marked_deletions,
)
from fastapply.merge.refuse.refusal import reason
from fastapply.merge.result import MergeResult
from fastapply.merge.snippet.sections import line_label, split_sections
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import bracket_balance, is_generic, stripped_counts
from fastapply.merge.text.spans import code, quote

# "Far more": more than this many lines, and more than this multiple of the lines shown.
DELETION_FLOOR = 20
DELETION_RATIO = 1.5


def check_markers_left(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when a marker line (or an inline marker phrase) leaked into the result."""
    extra = count_marker_lines(result) - count_marker_lines(original)
    if extra > 0:
        return (
            f"{extra} marker line(s) such as `... existing code ...` would remain in the result; "
            "the snippet's markers could not all be matched to the original"
        )
    return None


def _named(shown: Sequence[str], n: int) -> str:
    """Section n of the snippet named by its first line that is not generic (a `}` or `end` locates
    nothing), else by its number: "its part with `x = 1`", "its section 2 (`}` ...)"."""
    line = next((l for l in shown if not is_generic(l)), None)
    if line is None:
        return f"its section {n + 1} ({quote(shown[0], 20)}{' ...' if len(shown) > 1 else ''})"
    return f"its part with {quote(line)}"


def check_empty_bodies(original: str, result: str, language: str | None) -> str | None:
    """Refuse when a definition that had a body in the original has an empty one now."""
    before = outline.body_states(original, language)
    after = outline.body_states(result, language)
    if before is None or after is None:
        return None
    for key, empty in after.items():
        if empty and before.get(key) is False:
            return f"the merge would leave {code(' '.join(key[-1:]))} with an empty body"
    return None


def check_changed(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None) -> str | None:
    """Refuse a merge that leaves the file exactly as it was when a section has no line unique
    in the original, or opens or closes on a line the file does not have exactly once (the
    lines beyond it may be meant deleted). Sections pinned by unique lines at both edges that
    change nothing were applied already: that passes. A result that changes only blank lines and
    trailing whitespace is refused (kept_code.check_whitespace_only)."""
    if snippet is None:
        return None
    if list(original) != list(result):
        return kept_code.check_whitespace_only(original, result, snippet)
    counts = stripped_counts(original)
    for n, section in enumerate(split_sections(snippet, original)):
        shown = [l.strip() for l in section.lines if l.strip()]
        if shown and not any(counts.get(l) == 1 for l in shown):
            return (f"the snippet would change nothing: {_named(shown, n)} matches text already "
                    "in the file, and no line of it is unique there; include a line that says where the change goes")
        for at, edge in ((0, shown[0]), (len(shown) - 1, shown[-1])) if shown else []:
            if counts.get(edge) != 1:
                return (f"the snippet would change nothing: every line it shows is already in the file, and "
                        f"{_named(shown, n)} has {line_label(edge, shown, at)} at an edge, a line the file does not have "
                        "once; if it deletes lines next to it, show the lines around the deletion (or the deleted "
                        "lines with `-`)")
    return check_unchanged_suspect(original, result, snippet)


def check_head_dropped(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None) -> str | None:
    """Refuse a result that merely drops the original's first lines when the snippet opens
    without a marker and does not mark them deleted (`-`): planners leave the first marker out
    all the time. The same at the file's end (`check_tail_dropped`)."""
    return _edge_dropped(original, result, snippet, tail=False)


def check_tail_dropped(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None) -> str | None:
    """`check_head_dropped` at the file's end: a result that merely drops the original's last
    lines below a snippet that stops without a marker (planners leave the last marker out as
    often as the first; closing lines and the rest of a test are seldom what a commit deletes)."""
    return _edge_dropped(original, result, snippet, tail=True)


def check_unconfirmed(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """The checks a reading no second one confirms passes on top of its own guards: deletions
    the snippet does not show (strict), the file's head or tail dropped, a new definition laid
    over the end of the one above it (landing.check_definition_split). The first failure, or None."""
    return (check_unshown_deletions(original, result, snippet, strict=True)
            or check_head_dropped(original, result, snippet)
            or check_tail_dropped(original, result, snippet)
            or check_definition_split(original, result, snippet))


def _edge_dropped(original: Sequence[str], result: Sequence[str], snippet: Sequence[str] | None,
                  tail: bool) -> str | None:
    if snippet is None:
        return None
    edge = next((l for l in (reversed(snippet) if tail else snippet) if l.strip()), None)
    if edge is None or is_marker(edge) or marker_like(edge.strip()):
        return None
    ops = [op for op in line_opcodes(original, result) if op[0] != "equal" or any(
        l.strip() for l in original[op[1]:op[2]])]
    if not ops:
        return None
    op = ops[-1] if tail else ops[0]
    outside = original[op[2]:] if tail else original[:op[1]]
    if op[0] != "delete" or any(l.strip() for l in outside):
        return None
    lost = [l.strip() for l in original[op[1]:op[2]] if l.strip()]
    marked = marked_deletions(snippet)
    if not lost or all(l in marked for l in lost):
        return None
    if tail and bracket_balance(original[op[1]:op[2]]) == 0:
        return None  # a whole trailing block goes (a last function): a commit's usual deletion
    end, side, verb = ("last", "below", "end") if tail else ("first", "above", "start")
    said = quote(lost[0])
    named = next((l for l in lost if not is_generic(l)), None)  # the first dropped line that says which
    if is_generic(lost[0]) and named is not None:  # `"""`, `/**` alone locate nothing
        said += ", above " + quote(named)
    return reason("would-delete-edge",
                  f"the result would drop the file's {end} {len(lost)} line(s) ({said}) {side} the "
                  f"snippet's {end} line", f"{verb} the snippet with a marker (`... existing code ...`) to keep them, "
                  "or show them as `-` lines to delete them", dropped=(op[1], op[2]))


def check_file_head(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse when the result starts with an indented line although the original does not: a
    snippet that begins inside a body (no marker before it) was read as the start of the file,
    and everything above it was dropped. No file starts in the middle of a block."""
    first_o = next((l for l in original if l.strip()), None)
    first_r = next((l for l in result if l.strip()), None)
    if first_o is None or first_r is None or first_o[:1].isspace() or not first_r[:1].isspace():
        return None
    return (f"the result would start with the indented line {quote(first_r)} and drop the original's "
            "first lines; start the snippet with a marker (`... existing code ...`) to keep them")


def check_excerpt_edges(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when a marker-free snippet that is not the whole file (an excerpt: the file goes on
    around it) meets an answer that drops lines running to the start or the end of the file.
    Diffs, search/replace blocks and `-` lines show their deletions themselves."""
    lines = [l.rstrip("\r") for l in snippet]
    if (any(is_marker(l) for l in lines) or blocks.looks_like_search_replace(lines) or blocks.looks_like_diff(lines)
            or any(l.startswith(("-", "+", "@@")) for l in lines) or is_whole_file(list(original), lines)):
        return None
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        lost = [l for l in original[i1:i2] if l.strip()]
        if tag not in ("delete", "replace") or (i2 - i1) <= (j2 - j1) or not lost:
            continue
        edge = ("start" if not any(l.strip() for l in original[:i1])
                else "end" if not any(l.strip() for l in original[i2:]) else None)
        if edge:
            return (f"the answer drops {len(lost)} line(s) at the {edge} of the file ({quote(lost[0])}), "
                    "but the snippet has no markers and is not the whole file: it is an excerpt, and the file "
                    "goes on around it")
    return None


def unreplaced_lines(original: Sequence[str], result: Sequence[str]) -> int:
    """Count original lines that vanish without a line replacing them (a line diff)."""
    return sum(max(0, (i2 - i1) - (j2 - j1)) for tag, i1, i2, j1, j2 in line_opcodes(original, result)
               if tag in ("delete", "replace"))


def check_deletions(original: Sequence[str], result: Sequence[str], shown_lines: int) -> str | None:
    """Refuse when far more original lines disappear than the snippet shows: a forgotten marker
    looks exactly like a deletion, and real deletions are rarely much larger than the snippet."""
    unreplaced = unreplaced_lines(original, result)
    if unreplaced > max(DELETION_FLOOR, DELETION_RATIO * shown_lines):
        return (
            f"the merge would delete {unreplaced} lines of the original while the snippet "
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
    rewritten: Sequence[tuple[int, int]] = (),
    deleted: frozenset[str] = frozenset(),
) -> str | None:
    """Run every guard; return the first refusal reason, or None when all pass.

    `shown_lines=None` skips the deletion guard (search/replace blocks and diff hunks show every
    deleted line explicitly, so they cannot delete by accident). With `snippet` (lazy and
    definition merges) the merge is also checked against the snippet's lines; `rewritten`:
    original ranges replaced by a definition the snippet shows whole (check_unshown_deletions);
    `deleted`: the lines a snippet with diff lines marks `-` (read before its lazy reading drops them).
    """
    before, after = original.split("\n"), result.split("\n")
    shown = snippet.split("\n") if snippet is not None else None
    return _first(
        lambda: check_markers_left(before, after),
        lambda: check_changed(before, after, shown),
        lambda: check_parses(original, result, language, snippet),
        lambda: check_file_head(before, after),
        lambda: None if shown_lines is None else check_deletions(before, after, shown_lines),
        lambda: None if shown is None else check_merge_against_snippet(before, after, shown, rewritten, language,
                                                                       deleted),
        lambda: None if shown is None else _check_added_lines(before, after, shown, language),
    )


def _first(*checks) -> str | None:
    """The first reason a check returns (each runs only when those before it passed), or None."""
    for check in checks:
        reason = check()
        if reason:
            return reason
    return None


def _check_added_lines(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str], language: str | None
) -> str | None:
    """The checks on the lines a merge added, against the kept lines around them (unreachable.py,
    dangling.py, and repeats.check_context_opener_twice; line_opcodes remembers the alignment of the
    original with the result they share). The first failure."""
    return _first(
        lambda: unreachable.check_code_after_exit(original, result, snippet, language),
        lambda: unreachable.check_code_after_kept_exit(original, result, snippet, language),
        lambda: unreachable.check_orphaned_body(original, result, language),
        lambda: unreachable.check_pass_added_to_body(original, result, snippet, language),
        lambda: dangling.check_dangling_decorator(original, result, language),
        lambda: dangling.check_comment_reopened(original, result, language),
        lambda: dangling.check_closer_before_deeper(original, result, snippet, language),
        lambda: dangling.check_end_balance(original, result, snippet, language),
        lambda: repeats.check_context_opener_twice(original, result, snippet),
        lambda: declared_twice.check_declared_twice(original, result, language),
    )


def check_merge_against_snippet(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
                                rewritten: Sequence[tuple[int, int]] = (), language: str | None = None,
                                deleted: frozenset[str] = frozenset()) -> str | None:
    """The guards that compare a lazy merge with its snippet (snippet_checks.py, landing.py,
    repeats.py): the first failure's reason, or None. `deleted`: as run_guards'."""
    return _first(
        lambda: check_diff_prefix_leak(original, result),
        lambda: check_duplicated_lines(original, result, snippet),
        lambda: check_definition_kept_twice(original, result, snippet),
        lambda: repeats.check_name_defined_twice(original, result, snippet),
        lambda: repeats.check_stutter(original, result, snippet),
        lambda: check_dropped_definition(original, result, snippet),
        lambda: check_lead_in_kept(original, result, snippet, language),
        lambda: siblings.check_sibling_overwritten(original, result, snippet, deleted),
        lambda: kept_code.check_marker_kept_nothing(original, result, snippet),
        lambda: check_unshown_deletions(original, result, snippet, rewritten=rewritten),
        lambda: check_snippet_lines(snippet, original, result),
        lambda: check_relative_indentation(snippet, result),
    )


def finish(
    orig: Text, merged, method: str, language: str | None, shown_lines: int | None, converted: bool = False,
    snippet: str | None = None, deleted: frozenset[str] = frozenset(), guarded: dict | None = None,
) -> MergeResult:
    """`merged` (one merger's Merged) in file text: refused with its reason, or merged when the guards
    pass (`deleted`: as run_guards'). `guarded`: the guards' answers so far for one snippet, by result
    and shown lines (its two readings mostly write the same file: guarded once)."""
    rung = merged.rung or ("exact" if method == "definition" else None)
    if converted and rung == "exact":
        rung = "whitespace"
    if merged.lines is None:
        candidate = join_lines(merged.candidate, orig) if merged.candidate else None
        if candidate == join_lines(orig.lines, orig):
            candidate = None  # an unchanged file is no draft worth handing on
        alternative = getattr(merged, "alternative", None)
        pair = (candidate, join_lines(alternative, orig)) if candidate and alternative else ()
        return MergeResult(None, merged.refused_reason or "the snippet could not be applied", method, rung,
                           candidate, alternatives=pair, choice="doubt" if pair else None)
    text = join_lines(merged.lines, orig)
    original_text = "\n".join(orig.lines)
    result = "\n".join(merged.lines)
    if guarded is not None and (result, shown_lines) in guarded:
        reason = guarded[result, shown_lines]
    else:
        reason = run_guards(original_text, result, language=language, shown_lines=shown_lines, snippet=snippet,
                            deleted=deleted)
        if guarded is not None:
            guarded[result, shown_lines] = reason
    if reason:
        return MergeResult(None, reason, method, rung, text, changed_regions(orig.lines, merged.lines))
    return MergeResult(text, None, method, rung, None)


def changed_regions(original: list[str], candidate: list[str]) -> tuple[tuple[int, int], ...]:
    """The original line ranges [start, end) a refused candidate changes: where a guard found
    fault, so the model path rewrites there (an insertion is the one line it follows)."""
    return tuple((max(0, i1 - 1), i2) if i1 == i2 else (i1, i2)
                 for tag, i1, i2, _, _ in line_opcodes(original, candidate) if tag != "equal")


# --------------------------------------------------------------------------- whole answers
#
# The model path's answer is a whole file written by a model, so it gets every guard the instant
# merge gets, plus two that a deterministic merge cannot fail but a model can: copying diff
# prefixes from the snippet, and not applying a snippet line at all.


@dataclass(frozen=True)
class GuardFailure:
    """Which guard refused a result and why, in words a user can act on."""

    guard: str  # markers_left | diff_prefix | parses | empty_bodies | deletions | duplicates | snippet_lines | structure | unchanged
    # (and, from pipeline.py: closed | undecided | intent)
    reason: str


def check_answer(
    original: str, snippet: str, result: str, *, language: str | None
) -> GuardFailure | None:
    """Every guard on a whole-file answer (the model path's), the first failure or None; the
    deletion guard counts every line the snippet shows."""
    original_lines = original.split("\n")
    result_lines = result.split("\n")
    snippet_lines = snippet.split("\n")
    shown = sum(len(s) for s in expected_sections(snippet_lines, original_lines))
    checks = (
        ("markers_left", lambda: check_markers_left(original_lines, result_lines)),
        ("diff_prefix", lambda: check_diff_prefix_leak(original_lines, result_lines)),
        ("parses", lambda: check_parses(original, result, language)),
        ("empty_bodies", lambda: check_empty_bodies(original, result, language)),
        ("deletions", lambda: check_file_head(original_lines, result_lines)),
        ("deletions", lambda: check_excerpt_edges(original_lines, result_lines, snippet_lines)),
        ("deletions", lambda: check_deletions(original_lines, result_lines, shown)),
        ("deletions", lambda: check_unshown_deletions(original_lines, result_lines, snippet_lines)),
        ("duplicates", lambda: check_duplicated_lines(original_lines, result_lines, snippet_lines)),
        ("duplicates", lambda: check_definition_kept_twice(original_lines, result_lines, snippet_lines)),
        ("duplicates", lambda: answer_checks.check_new_line_repeated(original_lines, result_lines, snippet_lines)),
        ("deletions", lambda: check_dropped_definition(original_lines, result_lines, snippet_lines)),
        ("deletions", lambda: check_lead_in_kept(original_lines, result_lines, snippet_lines, language)),
        ("snippet_lines", lambda: check_snippet_lines(snippet_lines, original_lines, result_lines)),
        ("deletions", lambda: answer_checks.check_shown_adjacency(original_lines, result_lines, snippet_lines)),
        ("deletions", lambda: kept_code.check_marker_gaps(original_lines, result_lines, snippet_lines)),
        ("deletions", lambda: kept_code.check_kept_after_marker(original_lines, result_lines, snippet_lines)),
        ("structure", lambda: _check_added_lines(original_lines, result_lines, snippet_lines, language)),
        ("unchanged", lambda: answer_checks.check_unchanged(original_lines, result_lines)),
    )
    for name, check in checks:
        reason = check()
        if reason:
            return GuardFailure(name, reason)
    return None
