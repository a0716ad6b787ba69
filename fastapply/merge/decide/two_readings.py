"""The two readings of a lazy snippet: read by the joint and the greedy placement, which one is written.

`two_readings` places the snippet with lazy.py (joint) and greedy.py (one section at a time,
skipped above GREEDY_CELLS), guards each (guards.finish) and decides: the agreed file, one reading
by a rule (its docstring lists them, each rule's function says when it holds), or a refusal that
carries the best candidate, the undecided regions and, between two complete readings, both as
`alternatives`.

One difference no rule settles is a *final block* (`differ_by_final_block`): the snippet stops
without a marker just before the file's short final block, one reading keeps it and the other
deletes it; real commits do both, so the caller refuses.

instant.py (also for the readings a lazy snippet implies) and excerpt.py call it; it builds on text/ (and,
through imports.py, import lines), snippet/, align/, gate/ and the rest of decide/; it does not
know how either reading was made.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from fastapply.merge.align import greedy, lazy
from fastapply.merge.decide.settled import copied as _copied, doubt_by_repeats, exit_replaced, relanded
from fastapply.merge.gate import guards, landing, repeats, snippet_checks
from fastapply.merge.gate.guards import changed_regions, finish
from fastapply.merge.refuse.refusal import reason
from fastapply.merge.result import MergeResult
from fastapply.merge.snippet import renames as renames_
from fastapply.merge.snippet import sections
from fastapply.merge.text import imports
from fastapply.merge.text.compare import copied_lines, line_opcodes
from fastapply.merge.text.conventions import Text, split_text
from fastapply.merge.text.lines import blank_ends, bracket_balance, is_generic
from fastapply.merge.text.markers import is_marker
from fastapply.merge.text.names import header_name
from fastapply.merge.text.spans import quote

GREEDY_CELLS = 1_000_000  # original x snippet lines above which the greedy (quadratic) reading is skipped


def two_readings(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
                 diff_snippet: list[str] | None = None, renames: list[renames_.Rename] = ()) -> MergeResult:
    """A lazy snippet read by the joint placement (lazy.py) and the greedy one (greedy.py), each
    guarded, and the one to write (each rule below says when) or a refusal carrying the best
    candidate and the undecided regions. With `renames` both place the snippet with the original
    headers in place of the renamed ones and write the snippet's back before any check. A file written
    where both placed the snippet, apart, is marked `placed_by` "both" (a rule chose: instant.py asks
    the judge, opinion.py)."""
    text = "\n".join(snip_lines)
    deleted = frozenset(snippet_checks.marked_deletions(diff_snippet or ()))  # the `-` lines the guards see
    placing = renames_.placing(snip_lines, renames, orig.lines)  # renamed headers placed as the ones they replace
    joint_merge = renames_.restored(lazy.merge_lazy(orig.lines, placing), renames)
    guarded: dict = {}  # the guards' answers by result: the two readings mostly write the same file
    joint = finish(orig, joint_merge, "lazy", language, joint_merge.shown_lines, converted, text, deleted, guarded)
    placed = [joint_merge.lines is not None, False]  # whether each reading placed the snippet (guards aside)
    if len(orig.lines) * len(snip_lines) > GREEDY_CELLS:
        old = MergeResult(None, "too large for the second reading", "lazy", None, None)
    else:
        greedy_merge = renames_.restored(greedy.merge_lazy(orig.lines, placing), renames)
        old = finish(orig, greedy_merge, "lazy", language, greedy_merge.shown_lines, converted, text, deleted,
                     guarded)
        placed[1] = greedy_merge.lines is not None
    regions = tuple(getattr(joint_merge, "regions", ()))
    differ = placed == [True, True] and joint_merge.lines != greedy_merge.lines
    result = _decide(orig, snip_lines, language, diff_snippet, text, joint_merge, joint, old, placed, regions)
    if differ and result.merged and result.placed_by is None:
        return replace(result, placed_by="both")  # the readings placed it apart, a rule chose: instant.py asks the judge
    return result


def _decide(orig: Text, snip_lines: list[str], language: str | None, diff_snippet: list[str] | None, text: str,
            joint_merge, joint: MergeResult, old: MergeResult, placed: list[bool], regions: tuple) -> MergeResult:
    """two_readings' decision between the two guarded readings (`placed`: whether each placed the snippet)."""
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
        if verdicts == [False, False] and (keeper := _keeps_context(orig, lines, lost, snip_lines)) is not None:
            return (joint, old)[keeper]
        if verdicts == [True, True] and _without_blanks(joint.text) == _without_blanks(old.text):
            return (joint, old)[blank_keeper(snip_lines, lines)]  # they differ in blank lines only
        if verdicts == [True, True] and differ_by_final_block(lines[0], lines[1], snip_lines):
            return MergeResult(None, _final_block_refusal(orig.lines, lines), "lazy", joint.rung, joint.text,
                               changed_regions(orig.lines, lines[1]), (joint.text, old.text), "readings")
        if verdicts == [True, True]:
            lost = [bool(overwritten_definitions(orig.lines, r, snip_lines)) for r in lines]
            if lost.count(True) == 1:
                return (joint, old)[lost.index(False)]  # the other laid a new definition over an unnamed one
            kept = [guards.unreplaced_lines(orig.lines, r) for r in lines]
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
        unshown = guards.check_unconfirmed(orig.lines, old_lines, snip_lines)
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
            if placed[1] or len(orig.lines) * len(snip_lines) > GREEDY_CELLS:
                return joint
            return replace(joint, placed_by="joint")  # the greedy reading refused: instant.py asks the judge
        return MergeResult(None, copied, "lazy", joint.rung, joint.text,
                           regions or changed_regions(orig.lines, split_text(joint.text).lines))
    if joint.candidate is None and old.candidate is not None:
        return MergeResult(None, old.refused_reason, "lazy", old.rung, old.candidate, regions or old.regions)
    if (text := doubt_by_repeats(orig, joint.alternatives, joint.choice, snip_lines, language,
                                 joint_merge.shown_lines, diff_snippet)) is not None:
        return MergeResult(text, None, "lazy", joint.rung, None)
    if placed[0] and joint.candidate is not None and not joint.choice and (text := exit_replaced(
            orig, split_text(joint.candidate).lines, snip_lines, language, joint_merge.shown_lines,
            diff_snippet)) is not None:
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
    snippet removed imports that only that block uses (`orphaned_block`): the deleting reading is
    written when it passes every guard but the deletion-size one and the keeping reading passes
    that one. A reading that placed the snippet and was refused counts, with its candidate."""
    texts = [r.text if r.merged else (r.candidate if p else None) for r, p in zip(results, placed)]
    if None in texts or texts[0] == texts[1]:
        return None
    lines = [split_text(t).lines for t in texts]
    for keep, drop in ((0, 1), (1, 0)):
        if orphaned_block(orig.lines, lines[keep], lines[drop], language):
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


def _keeps_context(orig: Text, lines: list[list[str]], lost: list[int], snip_lines: list[str]) -> int | None:
    """Both readings (`lines`: joint, greedy) paste copies of existing lines: the index of the one
    to write when only the other pastes a second copy of a line the snippet shows next to a marker
    (repeats.copied_context: context read as new code), provided the kept one loses no more
    distinctive original lines, drops lines only next to unique lines the snippet shows and keeps
    no run of the snippet's lines twice (`shown_run_kept_twice`: a moved block)."""
    ctx = [bool(repeats.copied_context(orig.lines, r, snip_lines)) for r in lines]
    if ctx[0] == ctx[1]:
        return None
    keeper = ctx.index(False)
    if lost[keeper] > lost[1 - keeper] or shown_run_kept_twice(orig.lines, lines[keeper], snip_lines):
        return None
    if snippet_checks.check_unshown_deletions(orig.lines, lines[keeper], snip_lines, strict=True) is not None:
        return None
    return keeper


def _without_blanks(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


# --------------------------------------------------------------------------- differences the snippet settles


def blank_keeper(snippet: Sequence[str], readings: Sequence[Sequence[str]]) -> int:
    """Which of two readings that differ in blank lines only is written (0 the first, on a tie): the one
    whose blank lines after the file's last line are the snippet's where the snippet shows that end (its
    last line is the file's, with no marker after it: the snippet ends where the file does, blank lines
    included). Elsewhere blank lines next to a marker carry no position, and neither reading is
    preferred. A blank line that starts a snippet is no evidence either: a planner writes one after a
    fence, and a retry's added lines leave one on top (read as the file's start, it made four first
    tries right and two retries wrong). (Until the thirty-first session the first reading was written:
    right in 14 of the 34 such rows of all 44 sets; results.md has what this choice does.)"""
    shown = [line for line in snippet if line.strip()]
    if not shown or is_marker(shown[-1]):
        return 0
    trailing = lambda lines: len(lines) - blank_ends(lines)[1]  # noqa: E731

    def cost(lines: Sequence[str]) -> int:
        code = [line.strip() for line in lines if line.strip()]
        return abs(trailing(snippet) - trailing(lines)) if code and code[-1] == shown[-1].strip() else 0

    costs = [cost(lines) for lines in readings]
    return 1 if costs[1] < costs[0] else 0


FINAL_BLOCK = 8  # non-blank lines: a longer final block is not one a snippet deletes by stopping short


def _trim(lines: Sequence[str]) -> list[str]:
    a, b = blank_ends(lines)
    return list(lines[a:b])


def _final_block_refusal(original: Sequence[str], readings: Sequence[Sequence[str]]) -> str:
    """The refusal of two readings that differ by the file's final block (`differ_by_final_block`),
    carrying the block's original lines (`dropped`: refuse/explain.py offers them as `-` lines)
    where the reading that keeps it keeps them as the original ends."""
    kept, cut = sorted((_trim(r) for r in readings), key=len, reverse=True)
    block = kept[len(cut):]
    end = blank_ends(original)[1]
    start = end - len(block)
    detail = {"dropped": (start, end)} if start > 0 and list(original[start:end]) == block else {}
    where = ""
    if detail:  # name the block by its first line that says something
        first = next(i for i in range(start, end) if original[i].strip())
        text = original[first].strip()
        where = f" (original line {first + 1}, {quote(text)})"
    return reason("would-delete-edge", "the snippet stops without a marker before the file's short final "
                  f"block{where}, which one reading keeps and the other deletes", "end the snippet with a marker to keep it, or "
                  "show the block as `-` lines to delete it", **detail)


def differ_by_final_block(a: Sequence[str], b: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when one of two results is the other plus a short block (at most FINAL_BLOCK non-blank
    lines) at the file's end after a blank line, blank lines at the very edges aside, and the
    snippet does not end with a marker: the readings disagree only on whether the missing
    marker keeps that block."""
    shown = _trim(snippet)
    if not shown:
        return False
    a, b = _trim(a), _trim(b)
    if len(a) == len(b):
        return False
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if is_marker(shown[-1]) or not shorter or longer[:len(shorter)] != shorter:
        return False
    block = longer[len(shorter):]
    code = [line for line in block if line.strip()]
    return not block[0].strip() and 0 < len(code) <= FINAL_BLOCK


def kept_final_block(original: Sequence[str], result: Sequence[str],
                     snippet: Sequence[str]) -> tuple[str, list[str]] | None:
    """(the would-delete-edge refusal, the reading without the block) for a written result that keeps
    the original's short final block (as `differ_by_final_block` measures it) right after the
    snippet's last line, which no end marker follows, where that block stands at the top level on its
    own (unindented, brackets balanced, not a closer): one reading, but the snippet says as much for
    the file ending at its last line (the convention) as for a forgotten marker. None when not so."""
    shown = _trim(snippet)
    if not shown or is_marker(shown[-1]):
        return None
    last = shown[-1].strip()
    lines = _trim(result)
    at = next((i for i in range(len(lines) - 1, max(-1, len(lines) - 3 * FINAL_BLOCK - 2), -1)
               if lines[i].strip() == last), None)
    if at is None or at == len(lines) - 1:
        return None
    cut, block = lines[: at + 1], lines[at + 1 :]
    head = next((line for line in block if line.strip()), "")
    if head[:1].isspace() or is_generic(head) or bracket_balance(block) != 0:
        return None  # inside a block, or closing one the snippet left open: the file goes on (a forgotten marker)
    if list(_trim(original)[-len(block):]) != block or not differ_by_final_block(lines, cut, snippet):
        return None
    return _final_block_refusal(original, (lines, cut)), cut


def orphaned_block(original: Sequence[str], keep: Sequence[str], drop: Sequence[str],
                   language: str | None = None) -> set[str]:
    """The names that settle a block `keep` has and `drop` deletes (nothing else differs) in
    favour of deleting it: bound by original import lines both readings remove, used by the kept
    block and nothing else in `drop`. Empty when that is not so."""
    ops = line_opcodes(drop, keep)
    if any(tag not in ("equal", "insert") for tag, *_ in ops):
        return set()
    keep_imports = imports.bound_names(keep, language)
    added = [keep[j] for tag, _, _, j1, j2 in ops if tag == "insert" for j in range(j1, j2) if j not in keep_imports]
    known = {line.strip() for line in original}
    if not any(line.strip() for line in added) or any(line.strip() not in known for line in added):
        return set()
    bound = imports.bound_names(original, language)
    if not bound:
        return set()
    present = {line.strip() for line in keep} | {line.strip() for line in drop}
    removed = {i for i in bound if original[i].strip() not in present}
    drop_imports = imports.bound_names(drop, language)
    still = set().union(*drop_imports.values())
    names = set().union(*(bound[i] for i in removed)) - still if removed else set()
    if not names:
        return set()
    code = [line for i, line in enumerate(drop) if i not in drop_imports]
    if imports.uses(code, names):
        return set()
    return imports.uses(added, names)


def shown_run_kept_twice(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when two copied lines (`compare.copied_lines`) follow each other in the snippet and
    in the original, and the snippet shows the run's old neighbour without the run next to it:
    the run moved, and a reading that keeps it at its old place as well kept it twice."""
    copied = copied_lines(original, result, snippet)
    if len(copied) < 2:
        return False
    old = [l.strip() for l in original if l.strip()]
    shown = [l.strip() for l in snippet if l.strip()]
    after = {a: b for a, b in zip(shown, shown[1:])}
    before = {b: a for a, b in zip(shown, shown[1:])}
    for a, b in set(zip(shown, shown[1:])) & set(zip(old, old[1:])):
        if a not in copied or b not in copied:
            continue
        k = next(k for k in range(len(old) - 1) if old[k] == a and old[k + 1] == b)
        prev, nxt = (old[k - 1] if k > 0 else None), (old[k + 2] if k + 2 < len(old) else None)
        if (prev in after and after[prev] != a) or (nxt in before and before[nxt] != b):
            return True
    return False


def overwritten_definitions(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> list[str]:
    """The original's definition headers (landing.definition_headers) that `result` no longer has
    and the snippet never names (no snippet line carries the header's name): a definition another
    one was laid over, unseen."""
    kept = {l.strip() for l in result}
    words = set(re.findall(r"[A-Za-z_$][\w$]*", "\n".join(snippet)))
    return [h for h in landing.definition_headers(original)
            if h not in kept and (n := header_name(h)) is not None and n not in words]
