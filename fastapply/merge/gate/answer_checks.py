"""Checks that only a model's answer can fail: the answer left the file as it was, or it kept
lines the snippet shows deleted, or a window answer ran on into the code after its window.

A deterministic merge places the snippet's lines and cannot do these; a small model copies well
and edits badly, its typical failure a copy of the original where the snippet changes it:

- `check_unchanged`: the answer is the original itself (the instant merge refused, so the
  snippet changes something);
- `check_shown_adjacency`: the snippet shows two lines adjacent that the original separates, and
  the answer keeps a line between them;
- `check_new_line_repeated`: a new line written more often than the snippet shows it;
- `check_seam`: a window answer whose last line repeats the first line after the window;
- the code a marker keeps after a shown line: kept_code.py.

This module knows lines and the snippet's sections; it does not know how the answer was made.
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.gate.kept_code import same_code, unique_places
from fastapply.merge.text.compare import copied_lines
from fastapply.merge.text.lines import next_non_blank, stripped_counts
from fastapply.merge.snippet import blocks
from fastapply.merge.text.markers import is_elision
from fastapply.merge.text.spans import quote


def check_unchanged(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse an answer equal to the original (blank lines and trailing whitespace aside)."""
    if same_code(original, result):
        return "the answer leaves the file unchanged: the model did not make the snippet's change"
    return None


def check_new_line_repeated(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse an answer that has a distinctive line absent from the original more often than the
    snippet shows it (on the real commits' files of 3,200 rows: no refusal)."""
    before = stripped_counts(original)
    shown = stripped_counts(snippet)
    for line, n in copied_lines(original, result, snippet).items():  # more than the original and the snippet have
        if shown.get(line) and not before.get(line):
            return (f"the answer writes the new line {quote(line)} {n} times, the snippet shows it "
                    f"{shown[line]} time(s): the change landed at more places than the snippet's")
    return None


def shown_runs(snippet: Sequence[str], original: Sequence[str]) -> list[list[str]]:
    """Runs of snippet lines (stripped) shown one right after the other: blank lines and `-`
    lines between them aside, a marker or an `@@` line ending a run. Search/replace blocks and
    unified diffs list their deletions themselves: no runs."""
    lines = [l.rstrip("\r") for l in snippet]
    if blocks.looks_like_search_replace(lines) or blocks.looks_like_diff(lines):
        return []
    known = frozenset(l.strip() for l in original)
    runs: list[list[str]] = [[]]
    for line in lines:
        text = line.strip()
        if text.startswith("@@") or is_elision(line, known):
            runs.append([])
            continue
        if not text or (line.startswith("-") and not line.startswith("--")):
            continue
        if line.startswith("+") and not line.startswith("++"):
            text = line[1:].strip()
        runs[-1].append(text)
    return [run for run in runs if len(run) > 1]


def check_shown_adjacency(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the snippet shows lines `a` then `b` next to each other (`shown_runs`), the
    original has lines between them, and the answer keeps one of them between. One of the two is
    a distinctive line the original and the answer each have once; the other its nearest
    occurrence on that side that the snippet's run around it also matches (up to `RUN` lines)."""
    where_o, where_r = unique_places(original), unique_places(result)
    for run in shown_runs(snippet, original):
        for k in range(len(run) - 1):
            a, b = run[k], run[k + 1]
            if a in where_o and a in where_r:
                after = run[k + 1 : k + 1 + RUN]
                oa, ra = where_o[a], where_r[a]
                ob, rb = _near_both(original, oa, result, ra, after, +1)
            elif b in where_o and b in where_r:
                before = run[max(0, k + 1 - RUN) : k + 1]
                ob, rb = where_o[b], where_r[b]
                oa, ra = _near_both(original, ob, result, rb, before, -1)
            else:
                continue
            if None in (oa, ob, ra, rb):
                continue
            between = {l.strip() for l in original[oa + 1 : ob] if l.strip()}
            kept = [l.strip() for l in result[ra + 1 : rb] if l.strip() in between]
            if kept:
                return (f"the snippet shows {quote(a, 50)} followed by {quote(b, 50)}, deleting the original lines "
                        f"between them, but the answer keeps {len(kept)} of them ({quote(kept[0], 50)})")
    return None


RUN = 3  # snippet lines of a run matched around a pair's non-distinctive line


def _near_both(original: Sequence[str], o: int, result: Sequence[str], r: int, run: Sequence[str],
               step: int) -> tuple[int | None, int | None]:
    """In the original and in the answer, the nearest index past the anchor (`o`, `r`; `step` +1
    below, -1 above) where the longest part of `run` both texts have follows (non-blank lines)."""
    for size in range(len(run), 0, -1):
        part = run[:size] if step > 0 else run[len(run) - size :]
        found = _near(original, o, part, step), _near(result, r, part, step)
        if None not in found:
            return found
    return None, None


def _near(lines: Sequence[str], start: int, part: Sequence[str], step: int) -> int | None:
    first = part[0] if step > 0 else part[-1]
    k = start + step
    while 0 <= k < len(lines):
        if lines[k].strip() == first and _follows(lines, k, part, step):
            return k
        k += step
    return None


def _follows(lines: Sequence[str], k: int, part: Sequence[str], step: int) -> bool:
    """Whether the non-blank lines from k on, going away from the anchor, read `part`."""
    order = list(part) if step > 0 else list(reversed(part))
    j = k
    for text in order[1:]:
        j = next_non_blank(lines, j + step, step)
        if j is None or lines[j].strip() != text:
            return False
    return True


def check_seam(window_original: str, answer: str, tail: str) -> str | None:
    """Refuse a window answer whose last non-blank line repeats the first non-blank line after
    the window although the original window did not end on that line."""
    after, ends, was = (next((l.strip() for l in lines if l.strip()), None) for lines in (
        tail.split("\n"), reversed(answer.split("\n")), reversed(window_original.split("\n"))))
    if after is None or ends != after or was == after:
        return None
    return (f"the answer for the window goes on past it: it ends with {quote(after, 50)}, the line that follows "
            "the window, which the file would then have twice")
