"""Search/replace blocks (Aider style) and unified-diff hunks, located by a ladder of rungs.

Both formats say explicitly which lines go: a SEARCH text (or a hunk's context and `-` lines)
is located in the original and replaced by the REPLACE text (or the hunk's context and `+`
lines). Locating runs a fallback ladder, one named function per rung, stopping at the first rung
that finds anything:

    match_exact       the lines, byte for byte
    match_whitespace  runs of whitespace collapsed, blank lines at the ends ignored; the
                      replacement is re-indented by the offset the match shows
    match_fuzzy       a window whose text similarity is >= 0.92 and clearly the best

Several places on a rung is ambiguity, never resolved by a looser rung: the block is refused
(a hunk's `@@ -N` line number may pick one of them, as `patch` does).

This module does not know markers, languages or definitions; trust checks are in guards.py.
"""

from __future__ import annotations

import difflib
import re
from fastapply.merge.result import Merged
from fastapply.merge.text.lines import blank_ends, collapse, indentation, run_starts
from fastapply.merge.text.spans import code, cut
from dataclasses import dataclass
from typing import Callable, Sequence

FUZZY_THRESHOLD = 0.92
FUZZY_MARGIN = 0.03

_SEARCH = re.compile(r"^\s*<{5,9}\s*SEARCH\b.*$")
_DIVIDER = re.compile(r"^\s*={5,9}\s*$")
_REPLACE = re.compile(r"^\s*>{5,9}\s*REPLACE\b.*$")
_HUNK = re.compile(r"^@@+\s*(?:-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?)?.*?@@+.*$")
_DIFF_PREAMBLE = re.compile(r"^(diff --git |index |--- |\+\+\+ |new file mode|deleted file mode|similarity |rename )")


@dataclass(frozen=True)
class Edit:
    """Replace the `search` lines (located in the file) with the `replace` lines."""

    search: tuple[str, ...]
    replace: tuple[str, ...]
    line_hint: int | None = None  # 0-based line where a diff hunk says its old side starts
    new_hint: int | None = None  # ... its new side starts: its place once the hunks before it are applied


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    rung: str
    reindent: tuple[tuple[str, str], ...] | None = None  # snippet indent -> original indent


class MalformedEdit(ValueError):
    """The snippet looks like blocks or hunks but cannot be read as such."""


# --------------------------------------------------------------------------- recognising & parsing


def looks_like_search_replace(snippet: Sequence[str]) -> bool:
    return any(_SEARCH.match(line) for line in snippet) or (
        any(_DIVIDER.match(line) for line in snippet) and any(_REPLACE.match(line) for line in snippet)
    )


def looks_like_diff(snippet: Sequence[str]) -> bool:
    """A line `@@ ... @@` followed by at least one `+`/`-` line, and nothing else but diff lines
    (each starting with a space, `+`, `-` or `\\`)."""
    first = next((i for i, line in enumerate(snippet) if _HUNK.match(line)), None)
    if first is None:
        return False
    if any(line.strip() and not _DIFF_PREAMBLE.match(line) for line in snippet[:first]):
        return False
    body = snippet[first + 1 :]
    if any(line and line[0] not in " +-\\" and not _HUNK.match(line) and not _DIFF_PREAMBLE.match(line)
           for line in body):
        return False  # context lines without their leading space: diff lines inside a lazy snippet
    return any(line[:1] in "+-" and not _DIFF_PREAMBLE.match(line) for line in body)


def parse_search_replace(snippet: Sequence[str]) -> list[Edit]:
    """Read every SEARCH/REPLACE block; text outside blocks (file names, fences) is ignored."""
    edits: list[Edit] = []
    i = 0
    n = len(snippet)
    while i < n:
        if not _SEARCH.match(snippet[i]):
            if _DIVIDER.match(snippet[i]) or _REPLACE.match(snippet[i]):
                raise MalformedEdit(f"line {i + 1}: {code(snippet[i].strip())} outside a SEARCH block")
            i += 1
            continue
        start = i
        mid = _next_rule(snippet, i + 1)
        if mid >= n or not _DIVIDER.match(snippet[mid]):
            raise MalformedEdit(f"block {len(edits) + 1} (line {start + 1}) has no ======= divider")
        i = _next_rule(snippet, mid + 1)
        if i >= n or not _REPLACE.match(snippet[i]):
            raise MalformedEdit(f"block {len(edits) + 1} (line {start + 1}) has no >>>>>>> REPLACE end")
        edits.append(Edit(tuple(snippet[start + 1 : mid]), tuple(snippet[mid + 1 : i])))
        i += 1
    if not edits:
        raise MalformedEdit("no complete <<<<<<< SEARCH / ======= / >>>>>>> REPLACE block")
    return edits


def _next_rule(snippet: Sequence[str], i: int) -> int:
    """Index of the first SEARCH, divider or REPLACE line at or after `i` (len(snippet) if none)."""
    while i < len(snippet) and not (_SEARCH.match(snippet[i]) or _DIVIDER.match(snippet[i])
                                    or _REPLACE.match(snippet[i])):
        i += 1
    return i


def parse_diff(snippet: Sequence[str]) -> list[Edit]:
    """Read unified-diff hunks. A context line that lost its leading space is read as context."""
    edits: list[Edit] = []
    files = sum(1 for line in snippet if line.startswith("+++ "))
    if files > 1:
        raise MalformedEdit("the diff changes several files; pass the hunks for this file only")
    i = next((k for k, line in enumerate(snippet) if _HUNK.match(line)), len(snippet))
    while i < len(snippet):
        header = _HUNK.match(snippet[i])
        if header is None:
            raise MalformedEdit(f"line {i + 1} is not a hunk header")
        hint, new_hint = _hunk_hints(header)
        old: list[str] = []
        new: list[str] = []
        i += 1
        while i < len(snippet) and not _HUNK.match(snippet[i]):
            line = snippet[i]
            i += 1
            if line.startswith("\\"):
                continue  # "\ No newline at end of file"
            tag, text = (line[:1], line[1:]) if line[:1] in " +-" else (" ", line)
            if tag in " -":
                old.append(text)
            if tag in " +":
                new.append(text)
        # A trailing blank line is more often the end of the message than a context line.
        while old and new and old[-1] == "" and new[-1] == "" and not snippet[i - 1].startswith(" "):
            old.pop()
            new.pop()
        if old == new:
            continue
        edits.append(Edit(tuple(old), tuple(new), hint, new_hint))
    if not edits:
        raise MalformedEdit("the diff has no hunk that changes anything")
    return edits


def _hunk_hints(header: re.Match) -> tuple[int | None, int | None]:
    """A hunk header's 0-based old- and new-side starts; none for `-0,0 +0,0` (a placeholder).
    A side with no lines (`-N,0`) names the line before it, so it starts at index N."""
    if (old := int(header.group(1) or 0)) == (new := int(header.group(3) or 0)) == 0:
        return None, None
    return tuple(start if count == "0" else max(start - 1, 0)  # type: ignore[return-value]
                 for start, count in ((old, header.group(2)), (new, header.group(4))))


# --------------------------------------------------------------------------- the ladder


def match_exact(text: Sequence[str], search: Sequence[str], lo: int = 0) -> list[Match]:
    """Every place where `search` occurs line for line."""
    n = len(search)
    return [Match(lo + i, lo + i + n, "exact") for i in run_starts(list(text[lo:]), list(search))] if n else []


def match_whitespace(text: Sequence[str], search: Sequence[str], lo: int = 0) -> list[Match]:
    """Every place where `search` occurs ignoring whitespace amounts and blank lines at its ends."""
    a, b = blank_ends(search)
    core = [collapse(line) for line in search[a:b]]
    if not core:
        return []
    norm, n = [collapse(line) for line in text[lo:]], len(core)
    return [Match(lo + i, lo + i + n, "whitespace", _indent_shift(search[a:b], text[lo + i : lo + i + n]))
            for i in run_starts(norm, core)]


def match_fuzzy(text: Sequence[str], search: Sequence[str], lo: int = 0) -> list[Match]:
    """The window most similar to `search` when it is similar enough and clearly the best."""
    a, b = blank_ends(search)
    core = [collapse(line) for line in search[a:b]]
    if not core:
        return []
    needle = "\n".join(core)
    norm = [collapse(line) for line in text]
    scored = []
    for size in {len(core) - 1, len(core), len(core) + 1}:
        if size < 1:
            continue
        for i in range(lo, len(text) - size + 1):
            matcher = difflib.SequenceMatcher(None, needle, "\n".join(norm[i : i + size]), autojunk=False)
            if matcher.real_quick_ratio() < FUZZY_THRESHOLD or matcher.quick_ratio() < FUZZY_THRESHOLD:
                continue
            scored.append((matcher.ratio(), i, size))
    scored = [s for s in scored if s[0] >= FUZZY_THRESHOLD]
    if not scored:
        return []
    scored.sort(reverse=True)
    best = scored[0]
    rivals = [s for s in scored[1:] if s[0] > best[0] - FUZZY_MARGIN and abs(s[1] - best[1]) > 1]
    matches = [Match(best[1], best[1] + best[2], "fuzzy", _indent_shift(search[a:b], text[best[1] : best[1] + best[2]]))]
    matches += [Match(s[1], s[1] + s[2], "fuzzy") for s in rivals]
    return matches


RUNGS: tuple[Callable[..., list[Match]], ...] = (match_exact, match_whitespace, match_fuzzy)


def _indent_shift(snippet: Sequence[str], found: Sequence[str]) -> tuple[tuple[str, str], ...] | None:
    """How the snippet's indentation maps onto the original's, learned from the matched lines:
    a table of (snippet indent, original indent) pairs, or None when they already agree or
    disagree inconsistently. `_shift` applies it (and scales unseen depths by the same ratio)."""
    table: dict[str, str] = {}
    for s, o in zip(snippet, found):
        if not (s.strip() and o.strip()):
            continue
        have, want = indentation(s), indentation(o)
        if table.setdefault(have, want) != want:
            return None
    if all(h == w for h, w in table.items()):
        return None
    return tuple(sorted(table.items()))


def _shift(lines: Sequence[str], shift: tuple[tuple[str, str], ...] | None) -> list[str]:
    if shift is None:
        return list(lines)
    table = dict(shift)
    widths = [(len(h), w) for h, w in table.items() if h and w]
    ratio = None
    if widths and all(len(w) % max(h, 1) == 0 for h, w in widths):
        ratios = {len(w) // h for h, w in widths}
        char = {w[0] for _, w in widths}
        if len(ratios) == 1 and len(char) == 1:
            ratio = (ratios.pop(), char.pop())
    out = []
    for line in lines:
        have = indentation(line)
        if not line.strip():
            out.append(line)
        elif have in table:
            out.append(table[have] + line[len(have):])
        elif ratio is not None:
            out.append(ratio[1] * (len(have) * ratio[0]) + line[len(have):])
        else:
            # A depth the matched lines never showed: keep the offset of the nearest shallower one.
            base = max((h for h in table if have.startswith(h)), key=len, default=None)
            out.append(table[base] + line[len(base):] if base is not None else line)
    return out


def locate(text: Sequence[str], edit: Edit, lo: int = 0) -> tuple[Match | None, str | None, Match | None]:
    """Run the ladder for one edit: (match, refusal reason, best guess when refused)."""
    for rung in RUNGS:
        found = rung(text, edit.search, lo)
        if not found:
            continue
        if len(found) == 1:
            return found[0], None, None
        for hint in (edit.new_hint, edit.line_hint):  # the new side's number first: see Edit
            at_hint = [m for m in found if m.start == hint]
            if len(at_hint) == 1:
                return at_hint[0], None, None
        lines = ", ".join(str(m.start + 1) for m in found[:4])
        return None, (
            f"the text to replace occurs {len(found)} times (lines {lines}); include more "
            "surrounding lines so it is unique"
        ), found[0]
    return None, None, None


# --------------------------------------------------------------------------- applying


def apply_edits(original: Sequence[str], edits: Sequence[Edit], kind: str) -> Merged:
    """Apply edits in order. Search/replace blocks may come in any order (each is searched in
    the whole file); diff hunks must come in file order (each is searched after the last)."""
    text, cursor, weakest = list(original), 0, 0
    refusal: str | None = None
    for number, edit in enumerate(edits, 1):
        label = "block" if kind == "search_replace" else "hunk"
        if not any(line.strip() for line in edit.search):
            placed = _place_empty_search(text, edit, kind)
            if placed is None:
                refusal = refusal or (f"{label} {number} has nothing to search for; say where the new "
                                      "lines go by including an existing line")
                text = text + list(edit.replace)
                continue
            text, cursor = placed
            continue
        lo = cursor if kind == "diff" else 0
        match, reason, guess = locate(text, edit, lo)
        if match is None and reason is None and kind == "diff" and lo:
            match, reason, guess = locate(text, edit, 0)  # hunks slightly out of order
        if match is None:
            if reason is None:
                preview = cut(next((l for l in edit.search if l.strip()), ""), 50)
                return Merged(None, f"{label} {number} ({code(preview)}) was not found in the original", None)
            refusal = refusal or f"{label} {number}: {reason}"
            match = guess
        weakest = max(weakest, [r.__name__ for r in RUNGS].index(f"match_{match.rung}"))
        replacement = _shift(edit.replace, match.reindent)
        if match.rung != "exact":
            a, b = blank_ends(edit.search)
            # Blank lines at the ends of SEARCH were not part of the match; keep them out of the
            # replacement too when REPLACE repeats them.
            replacement = _trim_like(replacement, a, len(edit.search) - b)
        text[match.start : match.end] = replacement
        cursor = match.start + len(replacement)
    rung = RUNGS[weakest].__name__.removeprefix("match_")
    return Merged(None, refusal, rung, text) if refusal else Merged(text, None, rung)


def _trim_like(lines: list[str], lead: int, trail: int) -> list[str]:
    a = 0
    while a < lead and a < len(lines) and not lines[a].strip():
        a += 1
    b = len(lines)
    while trail and b > a and not lines[b - 1].strip():
        b -= 1
        trail -= 1
    return lines[a:b]


def _place_empty_search(text: list[str], edit: Edit, kind: str) -> tuple[list[str], int] | None:
    """An empty SEARCH fills an empty file; a hunk with no old line but blank ones goes at its new
    side's line (`@@ -N,0 +M,k @@`: new line M; N is off by the lines earlier hunks changed),
    replacing the blank lines it removes when they are there."""
    if not any(line.strip() for line in text):
        return list(edit.replace), len(edit.replace)
    at, n = edit.new_hint, len(edit.search)
    if kind == "diff" and at is not None and at + n <= len(text) and not any(l.strip() for l in text[at : at + n]):
        return text[:at] + list(edit.replace) + text[at + n :], at + len(edit.replace)
    return None


def merge_blocks(original: Sequence[str], snippet: Sequence[str]) -> Merged:
    """Parse the snippet as search/replace blocks and apply them."""
    try:
        edits = parse_search_replace(snippet)
    except MalformedEdit as exc:
        return Merged(None, f"malformed search/replace block: {exc}", None)
    return apply_edits(original, edits, "search_replace")


def merge_diff(original: Sequence[str], snippet: Sequence[str]) -> Merged:
    """Parse the snippet as unified-diff hunks and apply them in order."""
    try:
        edits = parse_diff(snippet)
    except MalformedEdit as exc:
        return Merged(None, f"malformed diff: {exc}", None)
    return apply_edits(original, edits, "diff")
