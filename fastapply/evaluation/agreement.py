"""Whether an option of a refusal agrees with what the planner meant: `agrees(option, snippet, expected, original)`.

"What the planner meant" is a row's `expected` file, used only to choose between the options a
refusal offers, as a planner knows its own intent (evaluation/retry.py plays the planner):

- an inserted run of original lines must stand in the expected file as the option puts it: next to
  the snippet lines it is inserted between;
- a marker must stand where the expected file has lines the snippet does not show (the two snippet
  lines around it are not neighbours there; the file goes on above a leading one, below a trailing one),
  and those lines must begin (end) as the original does next to the sections around it: a marker
  keeps original code, so one that would keep code the intent deletes does not agree;
- a move must leave the moved lines in the expected file's order relative to the section it goes before;
- the sections it did not touch that the expected file has must still follow the touched ones in
  order (an option that adds lines a kept section also shows makes the two overlap);
- lines the option puts on both sides of a snippet marker that meet (the same original lines end the one
  run and begin the other) join the two sections into one run, the marker gone (revise.py does so);
- a section the option inserted lines into must be a run of the expected file with its inner blank
  lines too (original lines added next to new code must stand as the intent spaces them: the merge
  writes the snippet's spacing there);
- every marker, given the original, must stand for consecutive original lines as they are in the
  expected file (between the two sections around it, or before / after a marked edge): where the
  intent changes or deletes lines under a marker, no revision that keeps it can be right;
- removed lines must be absent from the expected file, and lines shown deleted (`-`) too, or
  (given the original) no more often there than the original has them less the deletion; a
  revision with `-` lines and no line the original lacks reads as a diff: the original with each
  section's run (its `-` lines included) replaced by its unchanged lines must be the expected file;
  a snippet line the option marks added (`+`) is read as itself, as the merge's diff reading does;
- a revised snippet with a new marker (or a move) must start and end as the expected file does where
  it has no marker at its start or end (a lazy snippet's unmarked edge is the file's edge).

- an option that says it deletes original lines ("if you delete the original lines 7-16") agrees only
  where the expected file keeps none of their distinctive lines: a planner reads the condition;
- (`reads`, on by default) original lines the option adds next to snippet lines that repeat the
  original's lines next to them are read as those original lines (the merge reads runs of the
  original as such): those snippet lines must not be lines the intent adds (by the original ->
  expected diff), unless the revised section already shows those original lines elsewhere or
  that run holds a line the original holds once.

This module knows snippets, options and the expected file; it neither merges nor chooses.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from fastapply.merge.refuse.deletions import DELETES
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.refuse.revise import revise
from fastapply.merge.snippet.sections import undiff_each
from fastapply.merge.text.compare import line_opcodes, origins
from fastapply.merge.text.lines import distinctive, is_generic
from fastapply.merge.text.markers import is_marker


def _content(lines: Sequence[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip()]


def _runs_in(needle: list[str], hay: list[str]) -> bool:
    n = len(needle)
    return n == 0 or any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


_JOIN = "\x01"  # stands where the option removed a marker: the sections around it become one
_GONE = "\x02"  # starts a line the option shows deleted (`-`)


def _tagged(snippet: str, option: Option, undone: list[str | None] | None = None) -> list[tuple[str, bool]]:
    """The revised snippet's lines, each with True when the option put it there (a removed
    marker leaves `_JOIN`, so the section it joins counts as touched). The snippet's own lines
    are read as `undone` gives them where it is diff syntax (`+x` is `x`, `@@` a marker, a `-` line
    or diff header left out: snippet/sections.undiff_each, as the merge reads them)."""
    lines = snippet.splitlines()
    marks = [f"\x00{k}" for k in range(len(lines))]  # each original line by its index, to tell them apart
    joins = tuple(Edit("insert", at=k, text=_JOIN) for e in option.edits if e.action == "remove"
                  for k in range(e.start, e.end + 1) if 0 < k <= len(lines) and is_marker(lines[k - 1].strip()))
    shown = tuple(Edit("insert", at=e.at, text="\n".join(_GONE + line for line in e.text.split("\n")))
                  if e.action == "deleted" else e for e in option.edits  # `-` lines: deletions, not runs
                  if e.action != "added")  # a line marked `+` reads as itself (the merge's diff reading)
    revised = revise("\n".join(marks) + "\n", Option(option.says, shown + joins),  # (a snippet marker is its mark)
                     marker=lambda t: (k := _mark(t)) is not None and is_marker(lines[k].strip())).splitlines()
    moved = {k for e in option.edits if e.action == "move" for k in range(e.start - 1, e.end)}
    read = lines if undone is None else undone
    return [(read[k], k in moved) if k is not None else (t, True)
            for t in revised for k in (_mark(t),) if k is None or read[k] is not None]


def _mark(tagged: str) -> int | None:
    """The snippet line index a `_tagged` mark stands for (`\\x00k`), or None for a line the option put."""
    return int(tagged[1:]) if tagged.startswith("\x00") and tagged[1:].isdigit() else None


def _find_run(run: list[str], want: list[str], start: int) -> int | None:
    n = len(run)
    return next((i for i in range(start, len(want) - n + 1) if want[i : i + n] == run), None)


def _next_to(run: list[str], hay: list[str], step: int) -> set[str] | None:
    """The lines of `hay` right after (step +1) or before (-1) where the longest edge part of
    `run` (its tail after, its head before) stands; None where no part of it stands in `hay`."""
    for n in range(len(run), 0, -1):
        part = run[len(run) - n:] if step > 0 else run[:n]
        at = [i for i in range(len(hay) - n + 1) if hay[i : i + n] == part]
        if at:
            return {hay[i + n] if step > 0 and i + n < len(hay) else hay[i - 1] if step < 0 and i > 0 else None
                    for i in at}
    return None


def _keeps_original(before: list[str] | None, after: list[str] | None, want: list[str], held: list[str]) -> bool:
    """A new marker keeps the original's lines next to the sections around it: where the intent
    goes on after `before` (before `after`), its next line must be the original's next line there
    (a marker that would keep code the intent deletes does not agree)."""
    for run, step in ((before, +1), (after, -1)):
        if not run:
            continue
        at = _find_run(run, want, 0)
        if at is None:
            continue
        beside = (want[at + len(run)] if at + len(run) < len(want) else None) if step > 0 else (
            want[at - 1] if at > 0 else None)
        if beside is None:
            continue
        there = _next_to(run, held, step)
        if there is not None and beside not in there:
            return False
    return True


def _inner(lines: list[str]) -> list[str]:
    """`lines` without their blank lines at either end (those next to a marker carry no spacing)."""
    a, b = 0, len(lines)
    while a < b and not lines[a]:
        a += 1
    while b > a and not lines[b - 1]:
        b -= 1
    return lines[a:b]


_DELETES = re.compile(re.escape(DELETES) + r" lines? (\d+)(?:-(\d+))?")  # a stated deletion (refuse/deletions.py)


def _deletion_meant(option: Option, original: str, expected: str) -> bool:
    """False when the option says it reads as deleting original lines ("if you delete the original
    lines 7-16", refuse/deletions.py) and the expected file keeps one of them (a distinctive one, by
    the original -> expected line diff): a planner reads that condition and knows its intent."""
    m = _DELETES.search(option.says)
    if m is None:
        return True
    old, new = original.splitlines(), expected.splitlines()
    kept = set(origins(line_opcodes(old, new)).values())
    lo, hi = int(m.group(1)) - 1, int(m.group(2) or m.group(1))
    return not any(i in kept and distinctive(old[i].strip()) and not is_generic(old[i])
                   for i in range(lo, min(hi, len(old))))


def agrees(option: Option, snippet: str, expected: str, original: str | None = None, *, reads: bool = True) -> bool:
    """True when the revised snippet says what `expected` (the planner's intent) has: every section
    the option touched (a run of lines between markers) is a run of the expected file, those runs
    in the snippet's order; a new marker stands where the expected file has lines the snippet does
    not show (and, given the `original`, the original's own lines next to the sections around
    it: the code it keeps); removed lines are not in the expected file."""
    if original is not None and not _deletion_meant(option, original, expected):
        return False
    want = _content(expected.splitlines())
    lines = snippet.splitlines()
    undone = undiff_each(lines, original.splitlines()) if original is not None else None
    if undone is not None:  # a diff-syntax snippet: its lines as the merge reads them
        lines = [line if line is not None else "" for line in undone]
    for edit in option.edits:
        if edit.action == "remove" and any(line in want for line in _content(lines[edit.start - 1 : edit.end])):
            return False
    if not _gone(option, lines, want, original):
        return False
    try:
        tagged = _tagged(snippet, option, undone)
    except ValueError:
        return False
    if original is not None and any(e.action == "deleted" for e in option.edits) and not _diff_reads(
            tagged, want, _content(original.splitlines()), any(e.action == "added" for e in option.edits)):
        return False
    sections: list[tuple[list[str], bool]] = []  # (content lines, touched)
    flags: list[list[bool]] = []  # each section's content lines: True where the option put the line there
    cur_flags: list[bool] = []
    spaced: list[list[str]] = []  # each section's lines with its inner blank lines, for the inserted ones
    current: list[str] = []
    lined: list[str] = []
    touched = inserted = False
    marker_edges: list[int] = []  # section counts at which a new marker stands
    for text, new in tagged:
        if text == _JOIN or text.startswith(_GONE):
            touched = True
            continue
        if is_marker(text.strip()):
            sections.append((current, touched))
            flags.append(cur_flags)
            cur_flags = []
            spaced.append(_inner(lined) if inserted else [])
            if new:
                marker_edges.append(len(sections))
            current, lined, touched, inserted = [], [], False, False
            continue
        lined.append(text.strip())
        inserted = inserted or new and any(e.action == "insert" for e in option.edits)
        if text.strip():
            current.append(text.strip())
            cur_flags.append(new)
            touched = touched or new
    sections.append((current, touched))
    flags.append(cur_flags)
    spaced.append(_inner(lined) if inserted else [])
    whole = [line.strip() for line in expected.splitlines()]
    if any(run and _find_run(run, whole, 0) is None for run in spaced):
        return False  # original lines added next to a section must stand as the intent spaces them
    for at in marker_edges:
        before = next((s for s, _ in reversed(sections[:at]) if s), None)
        after = next((s for s, _ in sections[at:] if s), None)
        if before is None and after is not None and want[: len(after)] == after:
            return False
        if after is None and before is not None and want[len(want) - len(before):] == before:
            return False
        if before is not None and after is not None and _find_run(before + after, want, 0) is not None:
            return False
        if original is not None and not _keeps_original(before, after, want, _content(original.splitlines())):
            return False
        sections = [(s, t or k in (at - 1, at)) for k, (s, t) in enumerate(sections)]
    if marker_edges or any(e.action == "move" for e in option.edits):
        # a snippet with markers claims the file's edges where it has none: they must be the expected file's
        head, tail = sections[0][0], sections[-1][0]
        if head and want[: len(head)] != head or tail and want[len(want) - len(tail):] != tail:
            return False
    pos = 0
    spans: list[tuple[int, int] | None] = []  # each section's place in the expected file
    for run, hit in sections:
        if not run:
            spans.append(None)
            continue
        found = _find_run(run, want, pos)
        if found is None and (hit or _find_run(run, want, 0) is not None):
            return False  # a touched section out of place, or one the option made overlap a section it kept
        spans.append(None if found is None else (found, found + len(run)))
        pos = pos if found is None else found + len(run)
    if original is None:
        return True
    held = _content(original.splitlines())
    return (_markers_keep(spans, want, held) and _deletions_shown(spans, expected, original)
            and (not reads or _reads_as_meant(sections, flags, spans, want, held)))


def _diff_reads(tagged: list[tuple[str, bool]], want: list[str], held: list[str], added: bool = False) -> bool:
    """A revision with `-` lines whose every other line is an original one reads as a diff (the
    merge first applies it literally): each section, its `-` lines included, is a run of the
    original, and the file is the original with each such run replaced by its unchanged lines;
    markers keep exactly the original lines between. That file must be the expected one (a `-`
    option that shows the deletions the candidate makes, where the intent deletes more under a
    marker, does not agree). A revision with a line the original lacks is not checked here, unless
    the option marks its new lines `+` (`added`): those lines are then in the file, not in the run."""
    images: list[tuple[list[str], list[str]]] = []  # per section: (its lines with the `-` ones, without)
    image: list[str] = []
    kept: list[str] = []
    known = set(held)
    for text, _ in tagged:
        if text == _JOIN:
            continue
        if is_marker(text.strip()):
            images.append((image, kept))
            image, kept = [], []
            continue
        line = text[1:].strip() if text.startswith(_GONE) else text.strip()
        if not line:
            continue
        if not text.startswith(_GONE):
            if line not in known:
                if not added:
                    return True
                kept.append(line)
                continue
            kept.append(line)
        image.append(line)
    images.append((image, kept))
    out: list[str] = []
    pos = 0
    for image, kept in images:
        if not image:
            continue
        at = _find_run(image, held, pos)
        if at is None:
            return False
        out += held[pos:at] + kept
        pos = at + len(image)
    return out + held[pos:] == want


def _gone(option: Option, lines: list[str], want: list[str], original: str | None) -> bool:
    """Lines the option shows deleted (`-`) are not in the expected file: without the original,
    none of their texts is there; with it, no text is there more often than the original holds it
    less the `-` lines that delete it (plus the snippet's lines the original lacks it for): a
    deleted `return x` may stand elsewhere still, but not once more than the deletion leaves."""
    gone = Counter(line for e in option.edits if e.action == "deleted" for line in _content(e.text.split("\n")))
    if not gone:
        return True
    if original is None:
        return not any(line in want for line in gone)
    held, have, shown = Counter(_content(original.splitlines())), Counter(want), Counter(_content(lines))
    return all(have[t] <= held[t] - n + max(0, shown[t] - held[t]) for t, n in gone.items())


def _deletions_shown(spans: list[tuple[int, int] | None], expected: str, original: str) -> bool:
    """Every original line the intent deletes at a section's edge next to a marker is one the
    section's new lines there can replace: a marker keeps original lines, and new lines between it
    and the section's first (last) original line read as a change of at most as many original
    lines (blank lines counted), so where the intent deletes more there, the snippet never shows
    that deletion and no revision that keeps the marker can be right (gen11 18: a changed line
    after a marker whose blank line above the intent deletes)."""
    whole = [line.strip() for line in expected.splitlines()]
    kept = origins(line_opcodes([line.strip() for line in original.splitlines()], whole))
    at = [i for i, line in enumerate(whole) if line]  # content index -> line index in `whole`
    last = len(spans) - 1
    for k, span in enumerate(spans):
        if span is None:
            continue
        first, end = at[span[0]], at[span[1] - 1]
        j = first
        while j <= end and j not in kept:
            j += 1
        if k > 0 and j > first and (j <= end or k < last) and first - 1 in kept:
            below = j if j <= end else end + 1  # a section of new lines only: the line the marker below keeps
            if below in kept and kept[below] - kept[first - 1] - 1 > j - first:
                return False
        i = end
        while i >= first and i not in kept:
            i -= 1
        if k < last and first <= i < end and end + 1 in kept and kept[end + 1] - kept[i] - 1 > end - i:
            return False
    return True


def _reads_as_meant(sections: list[tuple[list[str], bool]], flags: list[list[bool]],
                    spans: list[tuple[int, int] | None], want: list[str], held: list[str]) -> bool:
    """Original lines the option adds next to snippet lines that repeat the original's lines next
    to them are read as those original lines: a revision means that reading, or it is another
    intent's. For each line the option added (one the expected file keeps from the original, at
    original line o), the section's lines beside it that equal the original's lines beside o (the
    merge reads them as o-1, o-2, ... above, o+1, ... below) must not be lines the expected file
    adds (by the original -> expected diff; one it keeps from elsewhere in the original is the
    same text), unless the section already shows those original lines elsewhere (then the merge
    cannot read them twice) or the run beside the added line holds a line the original holds once
    (that line places the run whatever the diff says: a diff of re-indented code is no intent).
    A bottom pin under new lines that end in `end`, `end` like the
    original's before the pinned place claims those `end`s are the original's: wrong where the
    intent adds them."""
    kept = origins(line_opcodes(held, want))
    count = Counter(held)
    for (run, hit), new, span in zip(sections, flags, spans):
        if not hit or span is None:
            continue
        s = span[0]
        shown = {kept[s + i] for i in range(len(run)) if s + i in kept}
        for i, added in enumerate(new):
            o = kept.get(s + i)
            if not added or o is None:
                continue
            for step in (-1, 1):
                j, q = i + step, o + step
                if not 0 <= j < len(run) or new[j]:
                    continue  # only the snippet's own lines beside the added one are read from it
                misread = pinned = False
                while 0 <= j < len(run) and 0 <= q < len(held) and not new[j] and run[j] == held[q]:
                    misread = misread or (s + j not in kept and q not in shown)  # a line the intent adds
                    pinned = pinned or (count[run[j]] == 1 and distinctive(run[j]) and not is_generic(run[j]))
                    j, q = j + step, q + step
                if misread and not pinned:
                    return False
    return True


def _markers_keep(spans: list[tuple[int, int] | None], want: list[str], held: list[str]) -> bool:
    """Every marker keeps a run of the original as it is: the expected file's lines between two
    sections placed one after the other (before the first one, after the last one, where the
    snippet starts or ends with a marker) must be consecutive original lines. Where the intent
    changes or deletes lines under a marker, no revision that keeps the marker can be right."""
    placed = [(k, s) for k, s in enumerate(spans) if s is not None]
    if not placed or any(b[1][0] < a[1][1] for a, b in zip(placed, placed[1:])):
        return True
    gaps = [want[a[1][1]: b[1][0]] for a, b in zip(placed, placed[1:]) if b[0] - a[0] > 0]
    if placed[0][0] > 0:
        gaps.append(want[: placed[0][1][0]])
    if placed[-1][0] < len(spans) - 1:
        gaps.append(want[placed[-1][1][1]:])
    return all(_find_run(gap, held, 0) is not None for gap in gaps if gap)
