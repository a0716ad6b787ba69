"""Options for an unshown-deletion refusal whose deletion may be meant: show it as `-` lines.

A deletion guard (more original lines deleted than the snippet shows, lines dropped that the
snippet does not touch, a definition removed that the snippet still names) refuses a candidate
that deletes original lines. Where the snippet shows the lines on both sides of such a deletion
next to each other (no marker between them), it says the lines between go; the guard cannot
tell that from a forgotten marker. A planner who means the deletion answers by showing the
deleted lines as `-` lines where they stand: the snippet is then diff syntax, which the merge
first reads literally (`snippet/sections.as_hunks`), every deleted line shown.

`deletions_shown(inp, refusal, candidate)` adds, after the refusal's own options, one option that
shows every deletion of the candidate (each a run of original lines the candidate drops whole,
between two snippet lines that stand next to each other in the snippet and in the candidate, and
nowhere else next to each other) as `-` lines there. None is offered where the candidate differs
from the original otherwise, or one deletion cannot be placed so (a literal diff keeps the lines
it does not show), where a snippet line already starts with `-` or `+`, or where a deletion's
spacing does not match the snippet's blank lines between the two lines. The option also removes
the blank padding after each marker and at the snippet's start (a diff reads a blank line as an
unchanged one). Where the snippet holds lines the original lacks (`_with_added`), the option marks
them `+` instead (a literal diff reads an unprefixed line as unchanged context) and shows the
original lines a changed run replaces as `-` lines before its first new line.

This module builds one option from the candidate and the input; it knows no guard and no sentence.
"""

from __future__ import annotations

import difflib

from fastapply.merge.refuse.options import pad_after
from fastapply.merge.refuse.reading import Input
from fastapply.merge.refuse.refusal import Edit, Option, Refusal

MAX_DELETED = 200  # original lines one option shows as `-` lines


def deletions_shown(inp: Input, refusal: Refusal, candidate: str | None, readings: tuple[str, ...] = ()) -> Refusal:
    """`refusal` with the option that shows the candidate's deletions as `-` lines, when it is
    an unshown-deletion refusal and such an option can be placed; for an ambiguous-place refusal
    between two whole-file readings (`readings`), the option of each reading that deletes lines."""
    if refusal.kind == "unshown-deletion" and candidate:
        texts: tuple[str, ...] = (candidate,)
    elif refusal.kind == "ambiguous-place" and len(set(readings) | {candidate} - {None}) >= 2:
        texts = tuple(dict.fromkeys(r for r in (candidate, *readings) if r))
    else:
        return refusal
    options = tuple(dict.fromkeys(o for o in (_option(inp, t.splitlines()) for t in texts)
                                  if o is not None and o not in refusal.options))
    return refusal.with_(options=refusal.options + options) if options else refusal


def _option(inp: Input, cand: list[str]) -> Option | None:
    held = {line.strip() for line in inp.original}
    content = [k for k, line in enumerate(inp.snippet) if line.strip() and k not in inp.markers]
    if not content or any(inp.snippet[k].lstrip().startswith(("-", "+")) for k in content):
        return None  # diff-like lines already: the literal reading would not be the one shown
    if any(inp.snippet[k].strip() not in held for k in content):
        return _with_added(inp, cand, held, content)
    ops = difflib.SequenceMatcher(a=inp.original, b=cand, autojunk=False).get_opcodes()
    edits: list[Edit] = []
    shown = 0
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        if tag != "delete" or not any(line.strip() for line in inp.original[i1:i2]):
            return None  # a change or a blank-only deletion the `-` lines would not show
        at = _spot(inp, cand, j1)
        if at is None:
            return None  # every deletion shown, or none: a literal diff keeps what it does not show
        shown += i2 - i1
        edits.append(Edit("deleted", at=at + 1, text="\n".join(inp.original[i1:i2]), original_line=i1 + 1))
    if not edits or shown > MAX_DELETED:
        return None
    where = ", ".join(f"{e.original_line}-{e.original_line + e.text.count(chr(10))} before snippet line {e.at}"
                      for e in edits)
    return Option(f"show the original lines the merge deletes as `-` lines if you delete them: {where}",
                  tuple(edits) + _padding(inp))


def _with_added(inp: Input, cand: list[str], held: set[str], content: list[int]) -> Option | None:
    """For a snippet with lines the original lacks: the candidate's deletions as `-` lines (a whole
    run between two snippet lines next to each other, `_spot`; a changed run's before the first of
    its new lines, which the snippet holds once, and before the blank lines the run opens with, those
    marked `+` too) and the new lines marked `+` (a literal diff reads an unprefixed line as
    unchanged context). None where the candidate adds a line the original
    has (it would read as context), changes or deletes blank lines only, or a run cannot be placed."""
    ops = difflib.SequenceMatcher(a=inp.original, b=cand, autojunk=False).get_opcodes()
    shown = [inp.snippet[k].strip() for k in content]
    plus = {k for k in content if inp.snippet[k].strip() not in held}
    edits: list[Edit] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        new = [line.strip() for line in cand[j1:j2] if line.strip()]
        if any(line in held for line in new) or (i2 > i1 and not any(l.strip() for l in inp.original[i1:i2])):
            return None
        if tag == "insert":
            continue
        if tag == "delete":
            at = _spot(inp, cand, j1)
        else:
            at = content[shown.index(new[0])] if new and shown.count(new[0]) == 1 else None
            lead = next((n for n, line in enumerate(cand[j1:j2]) if line.strip()), 0)  # the run's own blank lines
            if at is not None and at >= lead and all(not inp.snippet[k].strip() and k not in inp.markers
                                                     for k in range(at - lead, at)):
                plus.update(range(at - lead, at))
                at -= lead
        if at is None:
            return None
        edits.append(Edit("deleted", at=at + 1, text="\n".join(inp.original[i1:i2]), original_line=i1 + 1))
    if not edits or sum(e.text.count("\n") + 1 for e in edits) > MAX_DELETED:
        return None
    added, run = [], []
    for k in sorted(plus) + [-1]:
        if run and (k != run[-1] + 1 or k < 0):
            added.append(Edit("added", start=run[0] + 1, end=run[-1] + 1))
            run = []
        if k >= 0:
            run.append(k)
    where = ", ".join(f"{e.original_line}-{e.original_line + e.text.count(chr(10))} before snippet line {e.at}"
                      for e in edits)
    return Option(f"show the original lines the merge deletes as `-` lines and mark your new lines `+` if you "
                  f"delete them: {where}", tuple(edits + added))


def _padding(inp: Input) -> tuple[Edit, ...]:
    """The removal of each run of blank lines between a marker (or the snippet's start) and the
    next line: a diff reads a blank line as an unchanged blank line of the file, and the padding a
    lazy snippet puts after a marker is none. (The padding before a marker is where options that
    pin a section's bottom put their lines: left as it is.)"""
    out: list[Edit] = []
    for m in [-1] + sorted(inp.markers):
        pad = pad_after(inp, m)
        if pad and m + 1 + pad < len(inp.snippet):
            out.append(Edit("remove", start=m + 2, end=m + 1 + pad))
    return tuple(out)


def _spot(inp: Input, cand: list[str], j: int) -> int | None:
    """The snippet index the `-` lines of a deletion at candidate line j go before: between the
    snippet's two content lines that stand next to each other there (no marker between, the
    candidate's lines above and below the deletion), after as many blank lines as the candidate
    keeps above it; None where the snippet does not show the deletion's two sides together."""
    above = next((q for q in range(j - 1, -1, -1) if cand[q].strip()), None)
    below = next((q for q in range(j, len(cand)) if cand[q].strip()), None)
    if above is None or below is None:
        return None
    lines = [k for k, line in enumerate(inp.snippet) if line.strip()]
    for x, y in zip(lines, lines[1:]):
        if x in inp.markers or y in inp.markers:
            continue
        if inp.snippet[x].strip() != cand[above].strip() or inp.snippet[y].strip() != cand[below].strip():
            continue
        if y - x != below - above:
            continue  # the snippet spaces the two lines otherwise than the candidate does
        if _ambiguous(inp, cand, above, below, x, y):
            return None
        return x + 1 + (j - above - 1)
    return None


def _ambiguous(inp: Input, cand: list[str], above: int, below: int, x: int, y: int) -> bool:
    """Whether the pair of snippet lines x, y stands next to each other elsewhere in the
    candidate too (then the `-` lines could belong to either place)."""
    pair = (inp.snippet[x].strip(), inp.snippet[y].strip())
    rows = [q for q, line in enumerate(cand) if line.strip()]
    return sum(1 for a, b in zip(rows, rows[1:]) if (cand[a].strip(), cand[b].strip()) == pair) > 1
