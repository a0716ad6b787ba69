"""The strict line-exact reference merger: the oracle that checks every synthesised snippet.

It implements the "Exact merge" rule of the shared data (shared/data/README.md), and nothing more
lenient: a snippet is a list of *sections* separated by marker lines (`# ... existing code ...`,
`// ... rest of the code ...`); each marker stands for at least one unchanged line of the original.

    original            snippet                      merged
    a                   a                            a
    b                   NEW                          NEW
    c                   c                            c
    d                   // ... existing code ...     d
    e                   e2                           e2     <- refused: "e2" is not in the
                                                                original, so the last section
                                                                cannot be placed (no opening line)

1. For each section after a marker, extend its first lines until they match exactly one place at or
   after the cursor (and strictly after it, since the marker stands for at least one line).
2. Find its end the same way from its last lines (at or after the section's start).
3. Replace that span of the original with the section; copy the marked runs unchanged.
4. Refuse (raise `MergeRefused`) if a match is not unique or not found.
5. The result ends with a newline if and only if the original does.

A section that is not preceded by a marker starts at the original's first line; one that is not
followed by a marker runs to its last line. `apply_search_replace` is the equally strict oracle for
search/replace blocks. This module is a training-data checker, not the product's instant path
(that is `fastapply/merge/instant.py`); it knows nothing about models.
"""

from __future__ import annotations

import re

MARKER_RE = re.compile(r"^\s*(?:#|//|--|;|/\*|<!--)\s*(?:\.\.\.|…)[^\n]*$")

SR_SEARCH = "<<<<<<< SEARCH"
SR_DIVIDER = "======="
SR_REPLACE = ">>>>>>> REPLACE"


class MergeRefused(ValueError):
    """The snippet cannot be placed unambiguously in the original."""


def is_marker(line: str) -> bool:
    return bool(MARKER_RE.match(line))


def split_sections(snippet_lines: list[str]) -> tuple[list[list[str]], bool, bool]:
    """(sections, starts_with_marker, ends_with_marker). Two markers in a row are refused."""
    sections: list[list[str]] = []
    current: list[str] = []
    starts = bool(snippet_lines) and is_marker(snippet_lines[0])
    ends = bool(snippet_lines) and is_marker(snippet_lines[-1])
    prev_marker = False
    for i, line in enumerate(snippet_lines):
        if is_marker(line):
            if prev_marker:
                raise MergeRefused(f"two markers in a row at snippet line {i + 1}")
            if current:
                sections.append(current)
            current = []
            prev_marker = True
        else:
            current.append(line)
            prev_marker = False
    if current:
        sections.append(current)
    return sections, starts, ends


def _find_unique(orig: list[str], probe_lines: list[str], lo: int, from_end: bool) -> int:
    """Grow a probe from the section's first (or last) lines until it matches once at index >= lo.

    Returns the index in `orig` where the probe starts (first lines) or ends, exclusive (last lines).
    """
    n = len(probe_lines)
    for k in range(1, n + 1):
        probe = probe_lines[n - k:] if from_end else probe_lines[:k]
        hits = [p for p in range(lo, len(orig) - k + 1) if orig[p:p + k] == probe]
        if len(hits) == 1:
            return hits[0] + k if from_end else hits[0]
        if not hits:
            where = "closing" if from_end else "opening"
            raise MergeRefused(f"the {where} line {probe[-1 if not from_end else 0]!r} of a section is not in the original")
    raise MergeRefused("a section's context matches more than one place in the original")


def merge_lazy(original: str, snippet: str) -> str:
    """Merge a lazy snippet into the original exactly, or raise MergeRefused."""
    orig = original.replace("\r\n", "\n").split("\n")
    if orig and orig[-1] == "":
        orig = orig[:-1]
    snip = snippet.replace("\r\n", "\n").split("\n")
    if snip and snip[-1] == "":
        snip = snip[:-1]
    sections, starts, ends = split_sections(snip)
    if not sections:
        raise MergeRefused("the snippet shows no code")
    out: list[str] = []
    cursor = 0
    for idx, sec in enumerate(sections):
        first, last = idx == 0, idx == len(sections) - 1
        if first and not starts:
            start = 0
        else:
            start = _find_unique(orig, sec, cursor + 1, from_end=False)
        if last and not ends:
            end = len(orig)
        else:
            end = _find_unique(orig, sec, start, from_end=True)
            if last and end >= len(orig):
                raise MergeRefused("the snippet ends with a marker but its last section reaches the file's end")
        out.extend(orig[cursor:start])
        out.extend(sec)
        cursor = end
    if ends:
        out.extend(orig[cursor:])
    text = "\n".join(out)
    if original.endswith("\n") and out:
        text += "\n"
    return text


def parse_search_replace(snippet: str) -> list[tuple[str, str]]:
    """[(search, replace)] from `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE` blocks."""
    blocks = []
    lines = snippet.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == SR_SEARCH:
            j = i + 1
            search: list[str] = []
            while j < len(lines) and lines[j].strip() != SR_DIVIDER:
                search.append(lines[j])
                j += 1
            k = j + 1
            replace: list[str] = []
            while k < len(lines) and lines[k].strip() != SR_REPLACE:
                replace.append(lines[k])
                k += 1
            if k >= len(lines):
                raise MergeRefused("unterminated search/replace block")
            blocks.append(("\n".join(search) + "\n", "\n".join(replace) + "\n" if replace else ""))
            i = k + 1
        else:
            i += 1
    return blocks


def is_search_replace(snippet: str) -> bool:
    return SR_SEARCH in snippet and SR_REPLACE in snippet


def apply_search_replace(original: str, snippet: str) -> str:
    """Apply each block in order; each search text must occur exactly once in the current text."""
    text = original.replace("\r\n", "\n")
    if not text.endswith("\n"):
        text += "\n"
    blocks = parse_search_replace(snippet)
    if not blocks:
        raise MergeRefused("no search/replace blocks")
    for search, replace in blocks:
        if text.count(search) != 1 or not search.strip():
            raise MergeRefused("a search block does not match exactly once")
        # match whole lines only
        pos = text.find(search)
        if pos > 0 and text[pos - 1] != "\n":
            raise MergeRefused("a search block does not start at a line start")
        text = text[:pos] + replace + text[pos + len(search):]
    if not original.endswith("\n"):
        text = text[:-1] if text.endswith("\n") else text
    return text


def reference_merge(original: str, snippet: str) -> str:
    """Dispatch on the snippet's style: search/replace blocks or a lazy snippet."""
    if is_search_replace(snippet):
        return apply_search_replace(original, snippet)
    return merge_lazy(original, snippet)
