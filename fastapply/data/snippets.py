"""Synthesise edit snippets from a real (before, after) pair, in the styles a planning model writes.

Styles (all derived from the line diff, none written by a model):

- `context`: every changed region of the after-file with a few unchanged lines on each side,
  elided runs replaced by one marker line indented like the next shown line;
- `block`: every changed region widened to its enclosing definition (found by indentation and a
  definition keyword), then a line of context;
- `search_replace`: `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE` blocks, one per region;
- `noop`: a region of the unchanged file between markers (the edit changes nothing; teaches copying).

Marker wording and comment syntax vary (`# ... existing code ...`, `// ... rest of the code ...`).
Every snippet is checked with the reference merger (`reference_merge.py`): if it does not reproduce
`after` exactly, the context is widened and it is tried again; a snippet that never merges is
dropped (`synthesise` returns None), so every returned snippet is well-posed.

Worked example (context style, 1 line of context):

    before: a b c d e f g        after: a b C d e f g
    snippet: "# ... existing code ...", "b", "C", "d", "# ... existing code ..."

This module knows text and diffs; it knows nothing about tokenisers or models.
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import dataclass

from fastapply.data.reference_merge import (
    SR_DIVIDER, SR_REPLACE, SR_SEARCH, MergeRefused, is_marker, reference_merge,
)

STYLES = ("context", "block", "search_replace", "noop")
MARKER_WORDS = (
    "... existing code ...",
    "... existing code ...",
    "... existing code ...",
    "... rest of the code ...",
    "... keep existing code ...",
    "... unchanged code ...",
    "...",
)
HASH_LANGS = {"python", "shell", "ruby", "perl", "r", "elixir", "yaml", "toml"}
_DEF_RE = re.compile(
    r"^\s*(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?"
    r"(?:def|class|func|function|fn|impl|struct|enum|trait|mod|module|interface|type|describe|it|test)\b"
    r"|^\s*(?:export\s+)?(?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?(?:function|\(|\w+\s*=>)"
    r"|^\s*(?:app|router|\w+)\.\w+\(.*(?:function|=>)"
    r"|^\s*[A-Za-z_][\w.]*\s*\([^)]*\)\s*\{\s*$"
)


@dataclass(frozen=True)
class Snippet:
    text: str
    style: str
    marker: str
    n_sections: int


DASH_LANGS = {"lua", "sql", "haskell"}


def comment_prefix(language: str) -> str:
    """The line-comment opener a marker is written with (`#`, `--`, else `//`)."""
    return "#" if language in HASH_LANGS else "--" if language in DASH_LANGS else "//"


def marker_line(language: str, rng: random.Random) -> str:
    return f"{comment_prefix(language)} {rng.choice(MARKER_WORDS)}"


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _lines(text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def changed_regions(before: list[str], after: list[str]) -> list[tuple[int, int, int, int]]:
    """Non-equal opcodes as (i1, i2, j1, j2): before[i1:i2] became after[j1:j2]."""
    sm = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in sm.get_opcodes() if tag != "equal"]


def _enclosing_block(lines: list[str], lo: int, hi: int, max_lines: int) -> tuple[int, int]:
    """Widen [lo, hi) of `lines` to the nearest enclosing definition by indentation."""
    if not lines:
        return lo, hi
    probe = min(lo, len(lines) - 1)
    body = [l for l in lines[lo:hi] if l.strip()] or [lines[probe]]
    min_ind = min(len(_indent(l)) for l in body)
    start = None
    for s in range(min(lo, len(lines) - 1), -1, -1):
        line = lines[s]
        if line.strip() and _DEF_RE.match(line) and (len(_indent(line)) < min_ind or (s >= lo and len(_indent(line)) <= min_ind)):
            start = s
            break
        if lo - s > max_lines:
            break
    if start is None:
        return lo, hi
    # include decorators / comments directly above
    while start > 0 and lines[start - 1].strip().startswith(("@", "#[", "///")):
        start -= 1
    def_ind = len(_indent(lines[start]))
    end = max(hi, start + 1)
    while end < len(lines):
        line = lines[end]
        if line.strip() and len(_indent(line)) <= def_ind:
            if line.strip()[0] in "}])" or line.strip() in ("end", "esac", "fi"):
                end += 1
            break
        end += 1
    while end > hi and not lines[end - 1].strip():
        end -= 1
    if end - start > max_lines:
        return lo, hi
    return start, end


def _spans(after: list[str], regions, ctx: int, block: bool, max_block: int) -> list[tuple[int, int]]:
    """Shown ranges of the after-file: each region widened, then merged when they touch."""
    spans = []
    for _i1, _i2, j1, j2 in regions:
        lo, hi = j1, j2
        if block:
            lo, hi = _enclosing_block(after, lo, hi, max_block)
        c = max(ctx, 1) if hi <= lo else ctx  # a pure deletion needs a line on each side to be seen
        spans.append((max(0, lo - c), min(len(after), hi + c)))
    spans.sort()
    merged: list[list[int]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1] + 1:  # a gap of 0 or 1 line: a marker would hide too little
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(a, b) for a, b in merged if b > a]


def _render_lazy(after: list[str], spans, language: str, rng: random.Random, final_newline: bool) -> tuple[str, str]:
    marker = marker_line(language, rng)
    out: list[str] = []
    cursor = 0
    for lo, hi in spans:
        if lo > cursor:
            out.append(_indent(after[lo]) + marker)
        out.extend(after[lo:hi])
        cursor = hi
    if cursor < len(after):
        out.append(_indent(after[cursor]) + marker)  # like the first line it stands for
    return "\n".join(out) + "\n", marker


def _lazy(before_text: str, after_text: str, language: str, style: str, rng: random.Random,
          ctx: int, max_ctx: int = 10, max_block: int = 60) -> Snippet | None:
    before, after = _lines(before_text), _lines(after_text)
    regions = changed_regions(before, after)
    if style == "noop":
        if len(after) < 8:
            return None
        a = rng.randrange(0, len(after) - 4)
        b = min(len(after), a + rng.randint(3, 12))
        regions = [(0, 0, a, b)]
    if not regions:
        return None
    if any(is_marker(l) for l in after) or any(is_marker(l) for l in before):
        return None  # a file that already contains marker-like comments is ambiguous to the oracle
    for c in range(ctx, max_ctx + 1):
        spans = _spans(after, regions, c, style == "block", max_block)
        text, marker = _render_lazy(after, spans, language, rng, after_text.endswith("\n"))
        try:
            if reference_merge(before_text, text) == after_text:
                return Snippet(text, style, marker.strip(), len(spans))
        except MergeRefused:
            pass
    return None


def _search_replace(before_text: str, after_text: str, ctx: int, max_ctx: int = 6) -> Snippet | None:
    before, after = _lines(before_text), _lines(after_text)
    regions = changed_regions(before, after)
    if not regions:
        return None
    for c in range(ctx, max_ctx + 1):
        groups: list[list[int]] = []  # merged [i1, i2, j1, j2]
        for i1, i2, j1, j2 in regions:
            lo_i, hi_i, lo_j, hi_j = max(0, i1 - c), min(len(before), i2 + c), max(0, j1 - c), min(len(after), j2 + c)
            # keep the same amount of context on both sides of the change
            pre = min(i1 - lo_i, j1 - lo_j)
            post = min(hi_i - i2, hi_j - j2)
            g = [i1 - pre, i2 + post, j1 - pre, j2 + post]
            if groups and g[0] <= groups[-1][1]:
                prev = groups[-1]
                # merge: extend the previous group to cover this one (both sides move together)
                prev[1], prev[3] = g[1], g[3]
            else:
                groups.append(g)
        parts = []
        for i1, i2, j1, j2 in groups:
            parts.append("\n".join([SR_SEARCH, *before[i1:i2], SR_DIVIDER, *after[j1:j2], SR_REPLACE]))
        text = "\n\n".join(parts) + "\n"
        try:
            if reference_merge(before_text, text) == after_text:
                return Snippet(text, "search_replace", "", len(groups))
        except MergeRefused:
            pass
    return None


def synthesise(before: str, after: str, language: str, style: str, rng: random.Random) -> Snippet | None:
    """A snippet of `style` that the reference merger turns into `after` exactly, or None."""
    if style == "search_replace":
        return _search_replace(before, after, ctx=rng.choice((1, 2, 2, 3)))
    if style == "noop":
        return _lazy(before, before, language, "noop", rng, ctx=0)
    return _lazy(before, after, language, style, rng, ctx=rng.choice((2, 2, 3)) if style == "context" else rng.choice((0, 1)))
