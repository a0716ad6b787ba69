"""The two readings of a lazy snippet: read by the joint and the greedy placement, which one is written.

`two_readings(orig, snip_lines, language, converted, diff_snippet, renames)` places the snippet
with lazy.py (joint) and greedy.py (one section at a time, skipped above GREEDY_CELLS), guards each
(gate/finish.py) and decides: the agreed file, one reading by a rule (a twin pasted by one only,
blank lines only, a new definition laid over an unnamed one by one only, much less deleted, a
block whose imports the snippet removed, a lone reading
that passes its stricter guard or is settled by settled.py), or a refusal that carries the best
candidate, the undecided regions and, between two complete readings, both as `alternatives`.
Its docstring says each rule; the readings' differences themselves are readings.py's.

instant.py (and implied.py and excerpt.py, passed it as `read`) call it; it builds on text/,
snippet/, align/, gate/ and the rest of decide/.
"""

from __future__ import annotations

from fastapply.merge.align import greedy, lazy
from fastapply.merge.decide import readings
from fastapply.merge.decide.settled import copied as _copied, doubt_by_repeats, relanded
from fastapply.merge.gate import guards, landing, repeats, snippet_checks
from fastapply.merge.gate.finish import changed_regions, finish
from fastapply.merge.result import MergeResult
from fastapply.merge.snippet import renames as renames_
from fastapply.merge.snippet import sections
from fastapply.merge.text.compare import copied_lines
from fastapply.merge.text.conventions import Text, split_text

GREEDY_CELLS = 1_000_000  # original x snippet lines above which the greedy (quadratic) reading is skipped


def two_readings(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
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
    joint = finish(orig, joint_merge, "lazy", language, joint_merge.shown_lines, converted, text)
    placed = [joint_merge.lines is not None, False]  # whether each reading placed the snippet (guards aside)
    if len(orig.lines) * len(snip_lines) > GREEDY_CELLS:
        old = MergeResult(None, "too large for the second reading", "lazy", None, None)
    else:
        greedy_merge = renames_.restored(greedy.merge_lazy(orig.lines, placing), renames)
        old = finish(orig, greedy_merge, "lazy", language, greedy_merge.shown_lines, converted, text)
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
            lost = [bool(readings.overwritten_definitions(orig.lines, r, snip_lines)) for r in lines]
            if lost.count(True) == 1:
                return (joint, old)[lost.index(False)]  # the other laid a new definition over an unnamed one
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
