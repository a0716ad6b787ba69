"""Checks that only a model's answer can fail: the answer left the file as it was, or it kept
lines the snippet shows deleted, or a window answer ran on into the code after its window.

A deterministic merge places the snippet's lines, so it cannot do any of these; a small model
asked to rewrite a file (or a window of it) copies well and edits badly, and its typical failure
is to copy the original where the snippet changes it. The other guards catch a missing snippet
line; these catch what they miss, measured on model answers that were written wrong:

- `check_unchanged`: the answer is the original itself. The instant merge refused this snippet,
  so it changes something; an unchanged file is never the edit.
- `check_shown_adjacency`: the snippet shows two lines one right after the other (blank lines
  aside) that the original separates; the lines between are deleted (Morph's convention for a
  deletion). An answer that keeps one of them has not made the deletion.
- `check_seam`: a window answer whose last non-blank line repeats the first non-blank line after
  the window, where the original window did not: the model went on copying past its window, and
  the splice doubles that line.

This module knows lines and the snippet's sections; it does not know how the answer was made.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.anchors import is_generic


def check_unchanged(original: Sequence[str], result: Sequence[str]) -> str | None:
    """Refuse an answer equal to the original (trailing whitespace aside)."""
    if [l.rstrip() for l in original] == [l.rstrip() for l in result]:
        return "the answer leaves the file unchanged: the model did not make the snippet's change"
    return None


def shown_pairs(snippet: Sequence[str], original: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs of snippet lines (stripped) shown one right after the other: blank lines and `-`
    lines between them aside, a marker or an `@@` line between them breaking the pair. Search/
    replace blocks and unified diffs list their deletions themselves: no pairs."""
    from fastapply.merge import blocks
    from fastapply.merge.markers import is_elision

    lines = [l.rstrip("\r") for l in snippet]
    if blocks.looks_like_search_replace(lines) or blocks.looks_like_diff(lines):
        return []
    known = frozenset(l.strip() for l in original)
    pairs, previous = [], None
    for line in lines:
        text = line.strip()
        if text.startswith("@@") or is_elision(line, known):
            previous = None
            continue
        if not text or (line.startswith("-") and not line.startswith("--")):
            continue
        if line.startswith("+") and not line.startswith("++"):
            text = line[1:].strip()
        if previous is not None:
            pairs.append((previous, text))
        previous = text
    return pairs


def check_shown_adjacency(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when the snippet shows lines `a` then `b` next to each other (`shown_pairs`), the
    original has lines between them, and the answer keeps one of those lines between them. Only
    distinctive lines that the original and the answer each have exactly once say where they are."""
    in_original = Counter(l.strip() for l in original)
    in_result = Counter(l.strip() for l in result)
    shown = {l.strip() for l in snippet} | {l[1:].strip() for l in snippet if l[:1] == "+"}
    where_o = {l.strip(): k for k, l in enumerate(original)}
    where_r = {l.strip(): k for k, l in enumerate(result)}

    def placed(line: str) -> bool:
        return in_original[line] == 1 and in_result[line] == 1 and not is_generic(line)

    for a, b in shown_pairs(snippet, original):
        if not (placed(a) and placed(b)):
            continue
        oa, ob, ra, rb = where_o[a], where_o[b], where_r[a], where_r[b]
        if ob <= oa or rb <= ra:
            continue
        between = {l.strip() for l in original[oa + 1 : ob] if l.strip()} - shown
        kept = [l.strip() for l in result[ra + 1 : rb] if l.strip() in between]
        if kept:
            return (f"the snippet shows `{a[:50]}` followed by `{b[:50]}`, deleting the original lines between "
                    f"them, but the answer keeps {len(kept)} of them (`{kept[0][:50]}`)")
    return None


def check_seam(window_original: str, answer: str, tail: str) -> str | None:
    """Refuse a window answer whose last non-blank line repeats the first non-blank line after
    the window although the original window did not end on that line."""
    def last(text: str) -> str | None:
        return next((l.strip() for l in reversed(text.split("\n")) if l.strip()), None)

    after = next((l.strip() for l in tail.split("\n") if l.strip()), None)
    ends = last(answer)
    if after is None or ends != after or last(window_original) == after:
        return None
    return (f"the answer for the window goes on past it: it ends with `{after[:50]}`, the line that follows "
            "the window, which the file would then have twice")
