"""The instant path: merge a snippet into the original deterministically, or refuse and say why.

`instant_merge(original, snippet)` recognises the snippet's form and hands it to one merger:

    <<<<<<< SEARCH ... >>>>>>> REPLACE blocks  -> blocks.merge_blocks      method "search_replace"
    @@ ... @@ unified-diff hunks               -> blocks.merge_diff        method "diff"
    lines with markers (`# ... existing code`) -> lazy + greedy readings   method "lazy"
      ... both refused, whole definitions      -> marked_definitions        method "definition"
    no markers, starts like the original       -> the same two readings    method "lazy"
    no markers, complete definitions           -> definitions.merge_definitions  method "definition"

then runs the guards (guards.py) on the result. A lazy snippet with `+`/`-`/`@@` diff lines is
first read literally, as the hunks it stands for (sections.as_hunks), written when every hunk
matches exactly. Else (after its diff lines are undone) a lazy snippet is read twice, by the joint
placement (lazy.py) and the greedy one (greedy.py); see `_two_readings` for which result is
written when they differ. Anything it does not trust becomes a refusal with a one-sentence reason;
when a best untrusted result exists it is returned as `candidate`, which the model path can use as
its draft.

Text conventions (conventions.py) are applied here, so the mergers only see lists of lines: line
endings, final newline and BOM kept, a ``` fence unwrapped, tabs/spaces converted to the original's.
A marker-free snippet that is neither the whole file nor whole definitions is read as an excerpt
(`_excerpt`, excerpt.py: a marker at each end) when a unique line pins each of its ends, or the
merged file shows a loose end continuing the original beyond a pinned change.

Example:

    >>> r = instant_merge("a = 1\\nb = 2\\nc = 3\\n", "# ... existing code ...\\nb = 2\\nc = 30\\n")
    >>> r.merged, r.method, r.text
    (True, 'lazy', 'a = 1\\nb = 2\\nc = 30\\n')

This module never raises on string input and knows nothing about models.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fastapply.merge.snippet import renames as renames_
from fastapply.merge.snippet import blocks, definitions, implied, marked_definitions, sections
from fastapply.merge.decide import excerpt, opinion, readings
from fastapply.merge.gate import guards, landing, repeats, snippet_checks
from fastapply.merge.align import greedy, lazy
from fastapply.merge.text import syntax
from fastapply.merge.refuse.explain import FORM_FIX, explain, split_sentence
from fastapply.merge.refuse.refusal import Refusal
from fastapply.merge.text.compare import copied_lines, line_opcodes
from fastapply.merge.text.conventions import Text, convert_indent, is_whole_file, join_lines, split_text, unfence
from fastapply.merge.decide.settled import copied as _copied, doubt_by_repeats, relanded


@dataclass(frozen=True)
class MergeResult:
    """The outcome of the instant path."""

    text: str | None  # the merged file when trusted, else None
    refused_reason: str | None  # None when merged; a one-sentence reason a user can act on otherwise
    method: str | None  # "lazy" | "search_replace" | "diff" | "definition" | None
    rung: str | None  # which ladder rung matched: "exact", "whitespace", "fuzzy"
    candidate: str | None  # best untrusted merge when refused (for the model path's draft), else None
    regions: tuple[tuple[int, int], ...] = ()  # undecided original line ranges [start, end) when refused
    alternatives: tuple[str, ...] = ()  # refused between two complete readings: both, `candidate` first
    choice: str | None = None  # what they differ by: "doubt" (a new line or a changed one) | "readings" (joint, greedy)
    refusal: Refusal | None = None  # when refused: the kind, the lines, the fix and its options (refusal.py)

    @property
    def merged(self) -> bool:
        return self.text is not None


def _refuse(reason: str, method: str | None = None, rung: str | None = None, candidate: str | None = None) -> MergeResult:
    return MergeResult(None, reason, method, rung, candidate)


def instant_merge(
    original: str, snippet: str, *, language: str | None = None, path: str | None = None
) -> MergeResult:
    """Merge `snippet` into `original` without a model; refuse rather than guess. A refusal
    carries its `Refusal` (explain.py), whose sentence is `refused_reason`."""
    result = _instant(original, snippet, language, path)
    if result.merged or result.refusal is not None:
        return result
    if not isinstance(original, str) or not isinstance(snippet, str) or check_input(original, snippet):
        cause, fix = split_sentence(result.refused_reason or "refused")  # not read: no line to number
        refusal = Refusal("form", cause, fix or "send the original and the snippet as text, within the size limits")
        return replace(result, refused_reason=refusal.sentence, refusal=refusal)
    try:
        refusal = explain(original if isinstance(original, str) else "", snippet if isinstance(snippet, str) else "",
                          result.refused_reason or "", result.candidate,
                          syntax.normalize_language(language) or syntax.language_from_path(path))
    except Exception as exc:  # describing a refusal must never turn it into a crash
        refusal = Refusal("form", result.refused_reason or "refused", FORM_FIX, detail={"error": type(exc).__name__})
    return replace(result, refused_reason=refusal.sentence, refusal=refusal)


def _instant(original: str, snippet: str, language: str | None, path: str | None) -> MergeResult:
    if not isinstance(original, str) or not isinstance(snippet, str):
        return _refuse("the original and the snippet must both be text")
    reason = check_input(original, snippet)
    if reason:
        return _refuse(reason)
    try:
        return _seconded(_merge(original, snippet, language, path), original, snippet)
    except RecursionError:
        return _refuse("the input is too deeply nested for the instant merge")
    except Exception as exc:  # a bug must not take the caller down; the model path still works
        return _refuse(f"the instant merge failed unexpectedly ({type(exc).__name__}); use the model path")


def _seconded(result: MergeResult, original: str, snippet: str) -> MergeResult:
    """With the scored alignment's second opinion on (opinion.py; opinion.SECOND_OPINION, off by default: it
    refuses more right files than wrong ones on the tuned sets), a lazy merge that the aligner
    reads differently, or places with a margin under opinion.MARGIN, is refused with both readings."""
    if not (opinion.SECOND_OPINION and result.merged and result.method == "lazy"):
        return result
    orig = split_text(original)
    snip = unfence(split_text(snippet).lines)
    snip = sections.undiff_lazy(snip, orig.lines) or snip
    seconded = opinion.second_opinion(orig.lines, snip, split_text(result.text).lines)
    if seconded is None:
        return result
    return MergeResult(None, seconded.reason, "lazy", result.rung, result.text, seconded.regions,
                       (result.text, join_lines(seconded.reading, orig)), "readings")


MAX_SNIPPET_CHARS = 1_000_000
GREEDY_CELLS = 1_000_000  # original x snippet lines above which the greedy (quadratic) reading is skipped  # an edit snippet, not a file dump: larger ones go to the model path's checks


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


def _merge(original: str, snippet: str, language: str | None, path: str | None) -> MergeResult:
    orig = split_text(original)
    snip_lines = unfence(split_text(snippet).lines)
    if not any(line.strip() for line in snip_lines):
        return _refuse("the snippet is empty; there is nothing to apply")
    language = syntax.normalize_language(language) or syntax.detect_language(path, original)
    if not any(line.strip() for line in orig.lines):
        return _merge_into_empty(orig, snip_lines)

    if blocks.looks_like_search_replace(snip_lines):
        return _finish(orig, blocks.merge_blocks(orig.lines, snip_lines), "search_replace", language, None)
    if blocks.looks_like_diff(snip_lines) and not sections.is_lazy_diff(snip_lines, orig.lines):
        return _finish(orig, blocks.merge_diff(orig.lines, snip_lines), "diff", language, None)

    undone = sections.undiff_lazy(snip_lines, orig.lines)  # `+`/`-`/`@@` in a lazy snippet
    diff_snippet = snip_lines if undone is not None else None
    hunks = sections.as_hunks(snip_lines, orig.lines) if undone is not None else None  # first read literally
    literal = _finish(orig, blocks.merge_diff(orig.lines, hunks), "diff", language, None) if hunks else None
    if literal is not None and literal.merged and literal.rung == "exact":
        return literal
    snip_lines = undone or snip_lines
    snip_lines, converted = convert_indent(snip_lines, orig.lines)
    if lazy.has_markers(snip_lines, orig.lines) or is_whole_file(orig.lines, snip_lines):
        read = implied.read_lazy(orig, snip_lines, language, converted, diff_snippet, _two_readings, changed_regions)
        return read if read.merged or diff_snippet else _by_name(orig, snip_lines, language, converted, read)
    merged = definitions.merge_definitions(orig.lines, snip_lines, language)
    if merged.lines is None and merged.candidate is None:
        excerpt = _excerpt(orig, snip_lines, language, converted)
        if excerpt.merged or not definitions.shows_definitions(snip_lines, language):
            return excerpt  # not whole definitions: the excerpt's reason is the one that helps
    return _finish(orig, merged, "definition", language, merged.shown_lines, converted, "\n".join(snip_lines))


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


def _excerpt(orig: Text, snip_lines: list[str], language: str | None, converted: bool) -> MergeResult:
    """A marker-free snippet that is neither the whole file nor whole definitions is an excerpt
    (an agent pasting the changed lines with their context and no markers): the file goes on
    before and after it, so it is read as if a marker stood at each end, with every guard
    (excerpt.py: which loose ends the merged file still settles)."""
    return excerpt.read_excerpt(orig, snip_lines, language, converted, _two_readings, MergeResult)


def _two_readings(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
                  diff_snippet: list[str] | None = None, renames: list[renames_.Rename] = ()) -> MergeResult:
    """A lazy snippet is read twice: by the joint placement (lazy.py) and by the greedy one
    (greedy.py, one section at a time). First, a block one keeps and the other deletes that uses
    imports the snippet removed goes (`_settled_by_imports`). Both merge: written when they agree, or when one of them
    pasted a twin and the other did not overwrite what the first kept, or they differ in blank
    lines only, or one deletes much less (not a short final block: readings.py); else refused
    with the joint result as candidate. One merges: written when it passes its guards (the joint
    one also the strict copied-lines guard, the greedy one the strict unshown-deletions guard, or
    else its whole new definition relanded before the next one: settled.py); a
    reading whose line counts disagree with the snippet's `+`/`-` lines does not merge
    (`_honour_diff_lines`). Refusals carry the best candidate (the model path's draft) and the
    undecided regions. With `renames` (renames.py) both readings place the snippet with the original
    headers in place of the renamed ones, and write the snippet's headers back before any check."""
    text = "\n".join(snip_lines)
    placing = renames_.placing(snip_lines, renames, orig.lines)  # renamed headers placed as the ones they replace
    joint_merge = renames_.restored(lazy.merge_lazy(orig.lines, placing), renames)
    joint = _finish(orig, joint_merge, "lazy", language, joint_merge.shown_lines, converted, text)
    placed = [joint_merge.lines is not None, False]  # whether each reading placed the snippet (guards aside)
    if len(orig.lines) * len(snip_lines) > GREEDY_CELLS:
        old = MergeResult(None, "too large for the second reading", "lazy", None, None)
    else:
        greedy_merge = renames_.restored(greedy.merge_lazy(orig.lines, placing), renames)
        old = _finish(orig, greedy_merge, "lazy", language, greedy_merge.shown_lines, converted, text)
        placed[1] = greedy_merge.lines is not None
    regions = tuple(getattr(joint_merge, "regions", ()))
    joint, old = (_honour_diff_lines(r, orig, diff_snippet) for r in (joint, old))
    joint, old = _unchanged_loses(orig, joint, old)
    if not diff_snippet and (settled := _settled_by_imports(orig, (joint, old), placed, language, text,
                                                            joint_merge.shown_lines)) is not None:
        return settled
    if joint.merged and old.merged:
        if joint.text == old.text:
            return joint
        verdicts = [_copied(orig, r.text, snip_lines, diff_snippet) is None for r in (joint, old)]
        lines = [split_text(r.text).lines for r in (joint, old)]  # each reading's lines, split once
        lost = [snippet_checks.lost_distinctive_lines(orig.lines, r) for r in lines]
        # One reading pasted a twin of existing code and the other did not: the other is written,
        # unless it kept the count by overwriting original lines the first keeps (a new block
        # shaped like an existing one, read once as added and once as replacing: refused below).
        if verdicts == [True, False] and lost[0] <= lost[1]:
            return joint
        if verdicts == [False, True] and not (lost[0] == 0 < lost[1]):
            return old
        if verdicts == [False, False] and _fewer_copies(orig, lines, lost, snip_lines):
            return old
        if verdicts == [False, False] and (keeper := _keeps_context(orig, lines, lost, snip_lines)) is not None:
            return (joint, old)[keeper]
        if verdicts == [True, True] and _without_blanks(joint.text) == _without_blanks(old.text):
            return joint  # they differ in blank lines only: next to a marker those carry no position
        if verdicts == [True, True] and readings.differ_by_final_block(lines[0], lines[1], snip_lines):
            return MergeResult(None, "the snippet stops without a marker before the file's short final block, which "
                               "one reading keeps and the other deletes; end the snippet with a marker to keep it, "
                               "or show the lines around it to delete it", "lazy", joint.rung, joint.text,
                               changed_regions(orig.lines, lines[1]), (joint.text, old.text), "readings")
        if verdicts == [True, True]:
            kept = [guards.deletion_stats(orig.lines, r).unreplaced for r in lines]
            if abs(kept[0] - kept[1]) >= 3:
                return joint if kept[0] < kept[1] else old  # the reading that deletes less
        regions = regions or changed_regions(orig.lines, lines[0]) + changed_regions(orig.lines, lines[1])
        return MergeResult(None, "the snippet can be placed in two ways that give different files; include "
                           "more unchanged lines around each change", "lazy", joint.rung, joint.text, regions,
                           (joint.text, old.text), "readings")
    if old.merged:
        # Only the greedy reading places it (the joint one found it ambiguous or unplaceable):
        # trusted when every line it drops sits next to a unique line the snippet shows, and it
        # does not drop the file's head above an unmarked start (the joint reading keeps it).
        if joint_merge.doubted and joint.candidate == old.text:
            # The joint reading doubted this very file (a new line that may be a changed one):
            # the greedy reading, blind to the doubt, agreeing with it confirms nothing.
            if (text := doubt_by_repeats(orig, joint.alternatives, joint.choice, snip_lines, language,
                                 joint_merge.shown_lines, diff_snippet)) is not None:
                return MergeResult(text, None, "lazy", joint.rung, None)
            return MergeResult(None, joint.refused_reason, "lazy", old.rung, old.text, regions, joint.alternatives,
                               joint.choice)
        old_lines = split_text(old.text).lines
        unshown = (snippet_checks.check_unshown_deletions(orig.lines, old_lines, snip_lines, strict=True)
                   or guards.check_head_dropped(orig.lines, old_lines, snip_lines)
                   or landing.check_definition_split(orig.lines, old_lines, snip_lines))
        if unshown is None:
            return old
        if (text := relanded(orig, old_lines, snip_lines, language, joint_merge.shown_lines, diff_snippet)):
            return MergeResult(text, None, "lazy", old.rung, None)
        return MergeResult(None, unshown, "lazy", old.rung, old.text, regions)
    if joint.merged:
        # Only the joint reading places it: trusted when no distinctive line ends up more often
        # than the original or the snippet has it (a moved block kept twice, a pasted twin).
        copied = _copied(orig, joint.text, snip_lines, diff_snippet)
        if copied is None:
            return joint
        return MergeResult(None, copied, "lazy", joint.rung, joint.text,
                           regions or changed_regions(orig.lines, split_text(joint.text).lines))
    if joint.candidate is None and old.candidate is not None:
        return MergeResult(None, old.refused_reason, "lazy", old.rung, old.candidate, regions or old.regions)
    if (text := doubt_by_repeats(orig, joint.alternatives, joint.choice, snip_lines, language,
                                 joint_merge.shown_lines, diff_snippet)) is not None:
        return MergeResult(text, None, "lazy", joint.rung, None)
    return MergeResult(None, joint.refused_reason, "lazy", joint.rung, joint.candidate, regions or joint.regions,
                       joint.alternatives, joint.choice)


def _unchanged_loses(orig: Text, joint: MergeResult, old: MergeResult) -> tuple[MergeResult, MergeResult]:
    """Both readings merge and exactly one leaves the file unchanged: a snippet is sent to change
    the file, so that one loses (refused, its text kept as the candidate) and the other stands
    alone, under its own stricter guard. (Both unchanged: guards.check_changed decides.)"""
    if not (joint.merged and old.merged):
        return joint, old
    same = [split_text(r.text).lines == orig.lines for r in (joint, old)]
    if same.count(True) != 1:
        return joint, old
    loser = MergeResult(None, "this reading changes nothing", "lazy", None, None)
    return (loser, old) if same[0] else (joint, loser)
def _settled_by_imports(orig: Text, results: tuple[MergeResult, MergeResult], placed: list[bool],
                        language: str | None, snippet: str, shown: int | None) -> MergeResult | None:
    """The readings (joint, greedy) differ by a block one keeps and the other deletes, and the
    snippet removed imports that only that block uses (readings.orphaned_block): the deleting
    reading is written when it passes every guard but the deletion-size one, and the keeping
    reading passes that one (the removed imports show the block's deletion, which the snippet's
    `shown` lines do not; any other deletion both readings make must still fit them). A
    reading that placed the snippet (`placed`) and was refused by a guard counts, with its
    candidate text."""
    texts = [r.text if r.merged else (r.candidate if p else None) for r, p in zip(results, placed)]
    if None in texts or texts[0] == texts[1]:
        return None
    lines = [split_text(t).lines for t in texts]
    for keep, drop in ((0, 1), (1, 0)):
        if readings.orphaned_block(orig.lines, lines[keep], lines[drop], language):
            chosen = results[drop]
            if chosen.merged:
                return chosen
            if shown is not None and guards.check_deletions(orig.lines, lines[keep], shown) is not None:
                return None
            reason = guards.run_guards("\n".join(orig.lines), "\n".join(lines[drop]), language=language,
                                       shown_lines=None, snippet=snippet)
            return MergeResult(texts[drop], None, "lazy", chosen.rung, None) if reason is None else None
    return None


def _honour_diff_lines(result: MergeResult, orig: Text, diff_snippet: list[str] | None) -> MergeResult:
    """A reading whose result disagrees with the snippet's `+`/`-` lines (keeps a removed line,
    takes an original line for an added one) is refused, its text kept as the candidate
    (sections.check_diff_counts says why the lazy readings can do that)."""
    if not result.merged or not diff_snippet:
        return result
    reason = sections.check_diff_counts(orig.lines, split_text(result.text).lines, diff_snippet)
    return result if reason is None else MergeResult(None, reason, result.method, result.rung, result.text)


def _fewer_copies(orig: Text, lines: list[list[str]], lost: list[int], snip_lines: list[str]) -> bool:
    """Both readings (`lines`: joint, greedy; `lost`: the distinctive original lines each lost)
    paste copies of existing lines: when the greedy one copies no line the joint one does not,
    loses no more original lines, is strictly better in one of the two and drops lines only next
    to unique lines the snippet shows, the copies it keeps come from the snippet itself (new code
    shaped like old) and the joint reading misplaced something besides."""
    cj, cg = (set(copied_lines(orig.lines, r, snip_lines)) for r in lines)
    lj, lg = lost
    return (cg <= cj and lg <= lj and (lg < lj or len(cg) < len(cj))
            and snippet_checks.check_unshown_deletions(orig.lines, lines[1], snip_lines, strict=True) is None)


def _keeps_context(orig: Text, lines: list[list[str]], lost: list[int], snip_lines: list[str]) -> int | None:
    """Both readings (`lines`: joint, greedy) paste copies of existing lines: the index of the one
    to write when only the other pastes a second copy of a line the snippet shows next to a marker
    (repeats.copied_context: context read as new code), provided the kept one loses no more
    distinctive original lines, drops lines only next to unique lines the snippet shows and keeps
    no run of the snippet's lines twice (readings.shown_run_kept_twice: a moved block)."""
    ctx = [bool(repeats.copied_context(orig.lines, r, snip_lines)) for r in lines]
    if ctx[0] == ctx[1]:
        return None
    keeper = ctx.index(False)
    if lost[keeper] > lost[1 - keeper] or readings.shown_run_kept_twice(orig.lines, lines[keeper], snip_lines):
        return None
    if snippet_checks.check_unshown_deletions(orig.lines, lines[keeper], snip_lines, strict=True) is not None:
        return None
    return keeper


def _without_blanks(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


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


def _finish(
    orig: Text, merged, method: str, language: str | None, shown_lines: int | None, converted: bool = False,
    snippet: str | None = None,
) -> MergeResult:
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
    reason = guards.run_guards(original_text, "\n".join(merged.lines), language=language,
                               shown_lines=shown_lines, snippet=snippet)
    if reason:
        return MergeResult(None, reason, method, rung, text, changed_regions(orig.lines, merged.lines))
    return MergeResult(text, None, method, rung, None)


def changed_regions(original: list[str], candidate: list[str]) -> tuple[tuple[int, int], ...]:
    """The original line ranges [start, end) a refused candidate changes: where a guard found
    fault, so the model path rewrites there (an insertion is the one line it follows)."""
    out = []
    for tag, i1, i2, _, _ in line_opcodes(original, candidate):
        if tag != "equal":
            out.append((max(0, i1 - 1), i2) if i1 == i2 else (i1, i2))
    return tuple(out)
