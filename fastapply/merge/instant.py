"""The instant path: merge a snippet into the original deterministically, or refuse and say why.

`instant_merge(original, snippet)` recognises the snippet's form and hands it to one merger:

    <<<<<<< SEARCH ... >>>>>>> REPLACE blocks  -> blocks.merge_blocks      method "search_replace"
    @@ ... @@ unified-diff hunks               -> blocks.merge_diff        method "diff"
    lines with markers (`# ... existing code`) -> lazy + greedy readings   method "lazy"
      ... both refused, whole definitions      -> marked_definitions        method "definition"
    no markers, starts like the original       -> the same two readings    method "lazy"
    no markers, complete definitions           -> definitions.merge_definitions  method "definition"

then runs the guards on the result (guards.finish). A lazy snippet with `+`/`-`/`@@` diff lines is
first read literally, as the hunks it stands for (sections.as_hunks), written when every hunk
matches exactly. Else (after its diff lines are undone) a lazy snippet is read twice, by the joint
placement (lazy.py) and the greedy one (greedy.py); decide/two_readings.py says which result is
written when they differ. The two readings run first as the author meant the snippet where it
implies more than it writes (`_read_lazy`): with **renamed headers** (renames.py), the snippet
placed with the original header in a renamed one's place, written when it merges and keeps the body
its marker elides (renames.check_bodies_kept), else read as written; with **an implied end marker**
(sections.close_open_end), only after a refusal (applied to every snippet it turned one planner-dev
row wrong and one held-out row refused, for no row gained). Anything it does not trust becomes a refusal with a one-sentence reason;
when a best untrusted result exists it is returned as `candidate`, which the model path can use as
its draft.

Text conventions (conventions.py) are applied here, so the mergers only see lists of lines: line
endings, final newline and BOM kept, a ``` fence unwrapped, tabs/spaces converted to the original's.
A marker-free snippet that is neither the whole file nor whole definitions is read as an excerpt
(excerpt.py: a marker at each end) when a unique line pins each of its ends, or the
merged file shows a loose end continuing the original beyond a pinned change.

Example:

    >>> r = instant_merge("a = 1\\nb = 2\\nc = 3\\n", "# ... existing code ...\\nb = 2\\nc = 30\\n")
    >>> r.merged, r.method, r.text
    (True, 'lazy', 'a = 1\\nb = 2\\nc = 30\\n')

This module never raises on string input and knows nothing about models.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from fastapply.merge.snippet import blocks, definitions, labels, marked_definitions, renames, sections
from fastapply.merge.decide import excerpt, opinion
from fastapply.merge.decide.two_readings import kept_final_block, two_readings
from fastapply.merge.gate import guards, intent, landing, orphans, snippet_checks
from fastapply.merge.refuse.kept_option import with_kept_option
from fastapply.merge.refuse.removal import removal_options
from fastapply.merge.refuse.replaced import with_replaced_options
from fastapply.merge.gate.guards import finish
from fastapply.merge.align import lazy
from fastapply.merge.text import syntax
from fastapply.merge.refuse.explain import FORM_FIX, explain
from fastapply.merge.refuse.sentences import split_sentence
from fastapply.merge.refuse.ranking import reading_order
from fastapply.merge.refuse.refusal import Option, Refusal
from fastapply.merge.refuse.revise import revise
from fastapply.merge.result import MergeResult
from fastapply.merge.text.conventions import (Text, convert_indent, drop_path_header, is_whole_file, join_lines, split_text,
                                              unfence)
from fastapply.merge.text.lines import run_starts
from fastapply.merge.text.whitespace import keep_original_whitespace


def _refuse(reason: str, method: str | None = None) -> MergeResult:
    return MergeResult(None, reason, method, None, None)


def instant_merge(
    original: str, snippet: str, *, language: str | None = None, path: str | None = None,
    instruction: str | None = None,
) -> MergeResult:
    """Merge `snippet` into `original` without a model; refuse rather than guess. A refusal
    carries its `Refusal` (explain.py), whose sentence is `refused_reason`. `instruction` (the
    planner's intent) only ever refuses: a result that still defines what it says to remove
    (gate/intent.py)."""
    result = _instant(original, snippet, language, path)
    if result.merged:
        kept = _last_checks(original, snippet, result.text, instruction,
                            _language(language, path))
        if kept is None:
            return result
        kept = with_kept_option(removal_options(kept, original, snippet, language), original, snippet, language)
        kept = with_replaced_options(kept, original, snippet)
        return MergeResult(None, kept.sentence, result.method, result.rung, result.text, refusal=kept)
    if result.refusal is not None:
        return result
    try:
        refusal = explain(original, snippet, result.refused_reason or "", result.candidate,
                          _language(language, path), result.alternatives)
    except Exception as exc:  # describing a refusal must never turn it into a crash
        refusal = Refusal("form", result.refused_reason or "refused", FORM_FIX, detail={"error": type(exc).__name__})
    return replace(result, refused_reason=refusal.sentence, refusal=refusal)


def _language(language: str | None, path: str | None) -> str | None:
    """The snippet's language as named, else as the file's path says."""
    return syntax.normalize_language(language) or syntax.language_from_path(path)


def revision_merges(original: str, snippet: str, *, language: str | None = None, path: str | None = None,
                    instruction: str | None = None) -> Callable[[Option], bool]:
    """A test of a refusal's option (refuse/ranking.py tries a few): does the snippet revised by it
    merge, as `instant_merge` would, last checks included, without dropping a definition that
    neither it nor the instruction names (7 of 22 such merges were wrong files on the tuning seeds, 34
    of 558 of all: not offered first)? A refusal is not explained (the costly part), so one try takes
    a few milliseconds."""
    lang = _language(language, path)
    defined = landing.defined_names(original.splitlines())

    def merges(option: Option) -> bool:
        try:
            revised = revise(snippet, option)
        except ValueError:
            return False
        result = _instant(original, revised, language, path)
        if not result.merged or _last_checks(original, revised, result.text, instruction, lang) is not None:
            return False
        named = revised + "\n" + (instruction or "")
        after = landing.defined_names(result.text.splitlines())
        return not any(not after.get(name) and re.search(rf"\b{re.escape(name)}\b", named) is None
                       for name in defined)

    return merges


def revision_refusal(original: str, snippet: str, *, language: str | None = None, path: str | None = None,
                     instruction: str | None = None) -> Callable[[Option], Refusal | None]:
    """The refusal the snippet revised by an option gets (explained, options and all: refuse/chained.py
    reads one refusal ahead); None where the revision merges or the option does not fit."""
    def again(option: Option) -> Refusal | None:
        try:
            revised = revise(snippet, option)
        except ValueError:
            return None
        result = instant_merge(original, revised, language=language, path=path, instruction=instruction)
        return None if result.merged else result.refusal

    return again


def ordered_refusal(original: str, snippet: str, refusal: Refusal, *, language: str | None = None,
                    path: str | None = None, instruction: str | None = None) -> Refusal:
    """The refusal with its options in the order a planner should read them (refuse/ranking.py,
    `reading_order`): those whose revision was tried and merges first, then options that answer this
    refusal and the one its revision meets next (refuse/chained.py), then the rest ranked. Every surface
    that reports an instant refusal reports it so; it costs up to a few dozen tried merges."""
    if not refusal.options:
        return refusal
    where = dict(language=language, path=path, instruction=instruction)
    options = reading_order(refusal.options, original.splitlines(), snippet.splitlines(),
                            revision_merges(original, snippet, **where), revision_refusal(original, snippet, **where))
    return refusal.with_(options=tuple(options))


def _last_checks(original: str, snippet: str, text: str, instruction: str | None,
                 language: str | None = None) -> Refusal | None:
    """The checks on the file about to be written, whichever merger wrote it: the instruction's
    (gate/intent.py), a replaced statement kept beside its replacement (orphans.check_replaced_kept) and a
    definition left unused and unshown (gate/orphans.py)."""
    if (kept := intent.check_removals(original, text, instruction)) is not None:
        return kept
    old, new, snip = split_text(original).lines, split_text(text).lines, unfence(split_text(snippet).lines)
    if (kept := orphans.check_replaced_kept(old, new, snip)) is not None:
        return kept
    return orphans.check_orphans(old, snip, new, language)


def _instant(original: str, snippet: str, language: str | None, path: str | None) -> MergeResult:
    if not isinstance(original, str) or not isinstance(snippet, str):
        return _unread("the original and the snippet must both be text")
    reason = check_input(original, snippet)
    if reason:
        return _unread(reason)
    try:
        return _whitespace_kept(_seconded(_merge(original, snippet, language, path), original, snippet, path),
                                original, snippet)
    except RecursionError:
        return _refuse("the input is too deeply nested for the instant merge")
    except Exception as exc:  # a bug must not take the caller down; the model path still works
        return _refuse(f"the instant merge failed unexpectedly ({type(exc).__name__}); use the model path")


def _whitespace_kept(result: MergeResult, original: str, snippet: str) -> MergeResult:
    """A merged result whose blank runs the snippet does not show are no longer than the
    original's (text/whitespace.py), whichever merger wrote it; other whitespace is left as written."""
    if not result.merged:
        return result
    orig = split_text(original)
    lines = split_text(result.text).lines
    kept = keep_original_whitespace(orig.lines, lines, unfence(split_text(snippet).lines))
    return result if kept == lines else replace(result, text=join_lines(kept, orig))


def _unread(reason: str) -> MergeResult:
    """A refusal of input the merge did not read (no line to number): a "form" refusal."""
    cause, fix = split_sentence(reason)
    refusal = Refusal("form", cause, fix or "send the original and the snippet as text, within the size limits")
    return MergeResult(None, refusal.sentence, None, None, None, refusal=refusal)


def _seconded(result: MergeResult, original: str, snippet: str, path: str | None = None) -> MergeResult:
    """The scored alignment (opinion.py) as a judge of a written lazy merge that the joint reading
    alone placed, or that a rule chose between two readings placed apart (`placed_by`): refused, with
    both readings, when the aligner confidently reads a different file (opinion.judge;
    FASTAPPLY_JUDGE=0 turns it off)."""
    if not (result.merged and result.method == "lazy" and opinion.JUDGE and result.placed_by in ("joint", "both")):
        return result
    orig = split_text(original)
    snip = _read_snippet(split_text(snippet).lines, orig, path)
    snip = sections.undiff_lazy(snip, orig.lines) or snip
    seconded = opinion.judge(orig.lines, snip, split_text(result.text).lines, chosen=result.placed_by == "both")
    if seconded is None:
        return result
    return MergeResult(None, seconded.reason, "lazy", result.rung, result.text, seconded.regions,
                       (result.text, join_lines(seconded.reading, orig)), "readings")


MAX_SNIPPET_CHARS = 1_000_000  # an edit snippet, not a file dump: larger ones go to the model path's checks


def check_input(original: str, snippet: str) -> str | None:
    """A refusal reason for input the instant merge should not even read: binary data (NUL
    bytes) or a snippet over `MAX_SNIPPET_CHARS`. Cheap: runs before any line is split."""
    if "\x00" in original:
        return "the original looks binary (it contains NUL bytes); the instant merge only edits text"
    if "\x00" in snippet:
        return "the snippet looks binary (it contains NUL bytes); send the edit as text"
    if len(snippet) > MAX_SNIPPET_CHARS:
        return (f"the snippet is {len(snippet):,} characters, over the instant merge's limit of "
                f"{MAX_SNIPPET_CHARS:,}; send only the changed parts with `... existing code ...` markers")
    return None


# --------------------------------------------------------------------------- dispatch


def _read_snippet(sent: list[str], orig: Text, path: str | None) -> list[str]:
    """The snippet's lines as the merge and its second opinion read them: without the wrappers a
    planner puts round it (a ``` fence, a first comment naming the file)."""
    return drop_path_header(unfence(sent), orig.lines, path)


def _merge(original: str, snippet: str, language: str | None, path: str | None) -> MergeResult:
    orig = split_text(original)
    sent = split_text(snippet).lines
    snip_lines = _read_snippet(sent, orig, path)
    if not any(line.strip() for line in snip_lines):
        return _refuse("the snippet is empty; there is nothing to apply")
    if (labelled := labels.check_labels(sent, orig.lines)) is not None:
        return _refuse(labelled)
    language = syntax.normalize_language(language) or syntax.detect_language(path, original)
    if not any(line.strip() for line in orig.lines):
        return _merge_into_empty(orig, snip_lines)

    if blocks.looks_like_search_replace(snip_lines):
        return finish(orig, blocks.merge_blocks(orig.lines, snip_lines), "search_replace", language, None)
    if blocks.looks_like_diff(snip_lines) and not sections.is_lazy_diff(snip_lines, orig.lines):
        return finish(orig, blocks.merge_diff(orig.lines, snip_lines), "diff", language, None)

    undone = sections.undiff_lazy(snip_lines, orig.lines)  # `+`/`-`/`@@` in a lazy snippet
    diff_snippet = snip_lines if undone is not None else None
    hunks = sections.as_hunks(snip_lines, orig.lines) if undone is not None else None  # first read literally
    literal = finish(orig, blocks.merge_diff(orig.lines, hunks), "diff", language, None) if hunks else None
    if literal is not None and literal.merged and literal.rung == "exact" and _shows_all(undone, orig, literal.text):
        return literal
    snip_lines = undone or snip_lines
    snip_lines, converted = convert_indent(snip_lines, orig.lines)
    if lazy.has_markers(snip_lines, orig.lines) or is_whole_file(orig.lines, snip_lines):
        read = _read_lazy(orig, snip_lines, language, converted, diff_snippet)
        return read if read.merged or diff_snippet else _by_name(orig, snip_lines, language, converted, read)
    merged = definitions.merge_definitions(orig.lines, snip_lines, language)
    if merged.lines is None and merged.candidate is None:
        read = excerpt.read_excerpt(orig, snip_lines, language, converted)
        if read.merged or not definitions.shows_definitions(snip_lines, language):
            return read  # not whole definitions: the excerpt's reason is the one that helps
    return finish(orig, merged, "definition", language, merged.shown_lines, converted, "\n".join(snip_lines))


def _shows_all(undone: list[str], orig: Text, text: str) -> bool:
    """The literal reading of a lazy snippet's diff lines holds every line the snippet shows (its
    context and `+` lines, in order), each section's together: a run of new code written without `+`
    reads as a hunk that changes nothing, which the literal reading skips, so it is the lazy reading's
    to place; so is a section whose lines the literal reading leaves apart (original lines it keeps
    between two lines the section shows next to each other, which the lazy reading deletes)."""
    content = [line.strip() for line in split_text(text).lines if line.strip()]
    # a section standing together is in order too: this holds check_snippet_lines (gate/snippet_checks.py)
    return all(run_starts(content, section) for section in snippet_checks.expected_sections(undone, orig.lines))


def _by_name(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
             refused: MergeResult) -> MergeResult:
    """Both lazy readings refused a snippet of whole top-level definitions between markers: each
    replaces the original definition of its name (marked_definitions.py), written when the guards
    pass (lines it removed inside a replaced definition count as shown); else the refusal stands."""
    read = marked_definitions.read_marked_definitions(orig.lines, snip_lines, language)
    if read is None:
        return refused
    reason = guards.run_guards("\n".join(orig.lines), "\n".join(read.lines), language=language,
                               shown_lines=marked_definitions.shown_lines(snip_lines, orig.lines),
                               snippet="\n".join(snip_lines), rewritten=read.replaced)
    if reason:
        return refused
    return MergeResult(join_lines(read.lines, orig), None, "definition", "whitespace" if converted else "exact", None)


def _merge_into_empty(orig: Text, snip_lines: list[str]) -> MergeResult:
    """An empty original: a plain snippet (or an empty-SEARCH block) is the new file."""
    if blocks.looks_like_search_replace(snip_lines):
        merged = blocks.merge_blocks([], snip_lines)
        if merged.lines is None:
            return _refuse(merged.refused_reason or "malformed search/replace block", "search_replace")
        lines = merged.lines
    elif lazy.has_markers(snip_lines, []):
        return _refuse("the original is empty but the snippet elides code with markers")
    else:
        lines = snip_lines
    like = Text([], orig.newline, True, orig.bom)
    return MergeResult(join_lines(lines, like), None, "lazy", "exact", None)


def _read_lazy(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
               diff_snippet: list[str] | None) -> MergeResult:
    """The instant merge's result for a lazy snippet: its two readings (two_readings.two_readings),
    first as its author meant it where the snippet implies more than it writes (module docstring)."""
    found = renames.find_renames(orig.lines, snip_lines) if diff_snippet is None else []
    if found:
        renamed = two_readings(orig, snip_lines, language, converted, renames=found)
        if _keeps_bodies(orig, renamed, snip_lines, found):
            return renamed
    result = two_readings(orig, snip_lines, language, converted, diff_snippet)
    closed = sections.close_open_end(snip_lines, orig.lines)
    if not result.merged and diff_snippet is None and closed != snip_lines:
        again = two_readings(orig, closed, language, converted, renames=found)
        if found and not _keeps_bodies(orig, again, closed, found):
            again = two_readings(orig, closed, language, converted)
        result = again if again.merged else result
    if result.merged and diff_snippet is None:
        lines = split_text(result.text).lines
        if (kept := kept_final_block(orig.lines, lines, snip_lines)) is not None:
            refused, cut = kept
            return MergeResult(None, refused, "lazy", result.rung, result.text,
                               guards.changed_regions(orig.lines, lines), (result.text, join_lines(cut, orig)),
                               "readings")
    return result


def _keeps_bodies(orig: Text, result, snip_lines: list[str], found: list[renames.Rename]) -> bool:
    """A reading with renamed headers merged and kept the bodies their markers elide."""
    return result.merged and renames.check_bodies_kept(orig.lines, split_text(result.text).lines, snip_lines,
                                                       found) is None
