"""`fastapply eval --retry`: play the planner once on every refusal and count the second try.

For each row the instant merge refuses, the retry reads the refusal's own `options` (refusal.py),
keeps those that agree with what the planner meant, applies the first of them to the snippet
(revise.py) and merges again. "What the planner meant" is the row's `expected` file, used only to
choose between the options the refusal offers, as a planner knows its own intent (`agrees`):

- an inserted run of original lines must stand in the expected file as the option puts it: next to
  the snippet lines it is inserted between;
- a marker must stand where the expected file has lines the snippet does not show (the two snippet
  lines around it are not neighbours there; the file goes on above a leading one, below a trailing one),
  and those lines must begin (end) as the original does next to the sections around it: a marker
  keeps original code, so one that would keep code the intent deletes does not agree;
- a move must leave the moved lines in the expected file's order relative to the section it goes before;
- the sections it did not touch that the expected file has must still follow the touched ones in
  order (an option that adds lines a kept section also shows makes the two overlap);
- a section the option inserted lines into must be a run of the expected file with its inner blank
  lines too (original lines added next to new code must stand as the intent spaces them: the merge
  writes the snippet's spacing there);
- every marker, given the original, must stand for consecutive original lines as they are in the
  expected file (between the two sections around it, or before / after a marked edge): where the
  intent changes or deletes lines under a marker, no revision that keeps it can be right;
- removed lines, and lines shown deleted (`-`), must be absent from the expected file;
- a revised snippet with a new marker (or a move) must start and end as the expected file does where
  it has no marker at its start or end (a lazy snippet's unmarked edge is the file's edge).

Every agreeing option is applied (a planner adds all the context it knows is true), unless two
edit the same snippet line. A row with no agreeing option stays refused ("no option"). A retry that writes a wrong file means
the refusal offered a wrong option: `summarise` counts those first.

This module knows refusals, snippets and outcomes; it does not know how the merge decides.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Callable, Sequence

from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.revise import revise
from fastapply.merge.text.markers import is_marker


def _content(lines: Sequence[str]) -> list[str]:
    return [line.strip() for line in lines if line.strip()]


def _runs_in(needle: list[str], hay: list[str]) -> bool:
    n = len(needle)
    return n == 0 or any(hay[i : i + n] == needle for i in range(len(hay) - n + 1))


_JOIN = "\x01"  # stands where the option removed a marker: the sections around it become one
_GONE = "\x02"  # starts a line the option shows deleted (`-`)


def _tagged(snippet: str, option: Option) -> list[tuple[str, bool]]:
    """The revised snippet's lines, each with True when the option put it there (a removed
    marker leaves `_JOIN`, so the section it joins counts as touched)."""
    lines = snippet.splitlines()
    marks = [f"\x00{k}" for k in range(len(lines))]  # each original line by its index, to tell them apart
    joins = tuple(Edit("insert", at=k, text=_JOIN) for e in option.edits if e.action == "remove"
                  for k in range(e.start, e.end + 1) if 0 < k <= len(lines) and is_marker(lines[k - 1].strip()))
    shown = tuple(Edit("insert", at=e.at, text="\n".join(_GONE + line for line in e.text.split("\n")))
                  if e.action == "deleted" else e for e in option.edits)  # `-` lines: deletions, not runs
    revised = revise("\n".join(marks) + "\n", Option(option.says, shown + joins)).splitlines()
    moved = {k for e in option.edits if e.action == "move" for k in range(e.start - 1, e.end)}
    return [(lines[int(t[1:])], int(t[1:]) in moved) if t.startswith("\x00") and t[1:].isdigit() else (t, True)
            for t in revised]


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


def agrees(option: Option, snippet: str, expected: str, original: str | None = None) -> bool:
    """True when the revised snippet says what `expected` (the planner's intent) has: every section
    the option touched (a run of lines between markers) is a run of the expected file, those runs
    in the snippet's order; a new marker stands where the expected file has lines the snippet does
    not show (and, given the `original`, the original's own lines next to the sections around
    it: the code it keeps); removed lines are not in the expected file."""
    want = _content(expected.splitlines())
    lines = snippet.splitlines()
    for edit in option.edits:
        if edit.action == "remove" and any(line in want for line in _content(lines[edit.start - 1 : edit.end])):
            return False
        if edit.action == "deleted" and any(line in want for line in _content(edit.text.split("\n"))):
            return False
    try:
        tagged = _tagged(snippet, option)
    except ValueError:
        return False
    sections: list[tuple[list[str], bool]] = []  # (content lines, touched)
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
            spaced.append(_inner(lined) if inserted else [])
            if new:
                marker_edges.append(len(sections))
            current, lined, touched, inserted = [], [], False, False
            continue
        lined.append(text.strip())
        inserted = inserted or new and any(e.action == "insert" for e in option.edits)
        if text.strip():
            current.append(text.strip())
            touched = touched or new
    sections.append((current, touched))
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
    return original is None or _markers_keep(spans, want, _content(original.splitlines()))


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


def choose(refusal: Refusal | None, snippet: str, expected: str, original: str | None = None) -> Option | None:
    """The refusal's options that agree with the planner's intent, as one option (a planner adds
    all the context it knows is true): each agreeing option in turn, unless it edits a line an
    earlier one edits, kept only while the whole still agrees. None when no option agrees."""
    if refusal is None:
        return None
    lines = snippet.splitlines()
    content = [k + 1 for k, line in enumerate(lines) if line.strip()]
    head, tail = (content[0], content[-1] + 1) if content else (1, 1)
    chosen: list[Option] = []
    used: set[int] = set()
    # markers at an open edge first: the file goes on there or not, whatever else the revision adds
    ordered = sorted(refusal.options, key=lambda o: not any(_edge_marker(e, head, tail) for e in o.edits))
    for option in ordered:
        edge = {e for e in option.edits if _edge_marker(e, head, tail)}
        spots = {e.at if e.at is not None else e.start for e in option.edits if e not in edge}
        spots |= {k for e in option.edits if e.start is not None for k in range(e.start, e.end + 1)}
        if spots & used or not agrees(option, snippet, expected, original):
            continue
        joint = _joined(chosen + [option], head, tail)
        if chosen and not agrees(joint, snippet, expected, original):
            continue
        chosen.append(option)
        used |= spots
    if not chosen:
        return None
    return chosen[0] if len(chosen) == 1 else _joined(chosen, head, tail)


def _edge_marker(edit: Edit, head: int, tail: int) -> bool:
    """A marker put before the snippet's first content line or after its last one."""
    return edit.action == "marker" and (edit.at <= head or edit.at >= tail)


def _joined(options: list[Option], head: int, tail: int) -> Option:
    """The options as one, their edits in order, except that a marker at the snippet's start
    goes before, and one at its end after, anything else put at the same line (the marker is
    the edge; lines added there are inside it)."""
    edits = [e for o in options for e in o.edits]
    rank = lambda e: (-1 if e.at <= head else 1) if _edge_marker(e, head, tail) else 0
    return Option("; ".join(o.says for o in options), tuple(sorted(edits, key=rank)))


Merge = Callable[[dict, str], "object"]  # (example, snippet) -> a MergeResult (instant_merge's)


def _instant(example: dict, snippet: str):
    from fastapply.merge.instant import instant_merge

    return instant_merge(example["original"], snippet, language=example.get("language"), path=example.get("path"),
                         instruction=example.get("instruction"))


def _outcome(result, expected: str) -> str:
    if not result.merged:
        return "refused"
    return "right" if _same(result.text, expected) else "wrong"


def retry_example(example: dict, merge: Merge = _instant) -> dict:
    """One row: the first try, and for a refusal the option chosen and the second try."""
    from fastapply.evaluation.scoring import example_language, snippet_style

    row = {"id": example.get("id"), "style": snippet_style(example), "language": example_language(example)}
    first = merge(example, example["snippet"])
    row["first"] = row["second"] = _outcome(first, example["expected"])
    if first.merged:
        return row
    refusal = first.refusal
    row["kind"] = refusal.kind if refusal is not None else None
    row["options"] = len(refusal.options) if refusal is not None else 0
    option = choose(refusal, example["snippet"], example["expected"], example["original"])
    row["option"] = option.says if option is not None else None
    if option is not None:
        try:
            row["second"] = _outcome(merge(example, revise(example["snippet"], option)), example["expected"])
        except ValueError:
            row["second"] = "refused"
    return row


def run_retry(examples: Sequence[dict], merge: Merge = _instant, progress: Callable[[str], None] | None = None) -> dict:
    """Every example's first and second try, and their summary: {"rows": [...], "summary": {...}}."""
    rows = []
    for n, example in enumerate(examples, 1):
        if not example.get("expected"):
            continue
        rows.append(retry_example(example, merge))
        if progress is not None and n % 100 == 0:
            progress(f"retry: {n}/{len(examples)}")
    return {"rows": rows, "summary": summarise(rows)}


def _same(text: str, expected: str) -> bool:
    """Right means what `fastapply eval` means (scoring.score_example): the exact file, byte for byte."""
    return text == expected


def summarise(rows: Sequence[dict]) -> dict:
    """First and second try (right / wrong / refused) overall, per style and per language; the
    refusals' kinds; how many refusals the retry merged right, wrong, or left refused."""
    out: dict = {"rows": len(rows)}
    out["without_option"] = sum(1 for r in rows if r["first"] == "refused" and not r.get("options"))
    for name in ("first", "second"):
        out[name] = dict(Counter(r[name] for r in rows))
    refused = [r for r in rows if r["first"] == "refused"]
    out["retry"] = dict(Counter(r["second"] for r in refused))
    out["retry"]["no option"] = sum(1 for r in refused if r.get("option") is None)
    out["retry_right_share"] = round(out["retry"].get("right", 0) / len(refused), 4) if refused else None
    out["wrong_after_retry_share"] = round(sum(1 for r in rows if r["second"] == "wrong") / len(rows), 4) if rows else None
    out["retry_wrong"] = sum(1 for r in refused if r["second"] == "wrong")
    out["kinds"] = dict(Counter(r.get("kind") for r in refused))
    for key in ("style", "language"):
        table: dict = defaultdict(lambda: Counter())
        for r in rows:
            table[r.get(key) or "?"][f"first_{r['first']}"] += 1
            table[r.get(key) or "?"][f"second_{r['second']}"] += 1
        out[f"by_{key}"] = {k: dict(v) for k, v in sorted(table.items())}
    return out


def format_summary(summary: dict) -> str:
    """The retry's table for the terminal: wrong files after the retry first."""
    def three(c: dict) -> str:
        return f"{c.get('right', 0)} right / {c.get('wrong', 0)} wrong / {c.get('refused', 0)} refused"

    r = summary["retry"]
    lines = [f"rows: {summary['rows']}",
             f"retry made wrong files: {summary['retry_wrong']} (wrong after retry: "
             f"{(summary['wrong_after_retry_share'] or 0) * 100:.2f}% of rows)",
             f"first try:  {three(summary['first'])}",
             f"second try: {three(summary['second'])}",
             f"refusals retried: {r.get('right', 0)} right, {r.get('wrong', 0)} wrong, {r.get('refused', 0)} still refused "
             f"({r.get('no option', 0)} with no agreeing option); right share "
             f"{(summary['retry_right_share'] or 0) * 100:.1f}%",
             "refusal kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["kinds"].items(), key=lambda x: -x[1]))]
    for key in ("style", "language"):
        lines.append(f"by {key} (first right/wrong/refused -> second right/wrong/refused):")
        for name, c in summary[f"by_{key}"].items():
            lines.append(f"  {name:<16} {c.get('first_right', 0)}/{c.get('first_wrong', 0)}/{c.get('first_refused', 0)}"
                         f" -> {c.get('second_right', 0)}/{c.get('second_wrong', 0)}/{c.get('second_refused', 0)}")
    return "\n".join(lines)
