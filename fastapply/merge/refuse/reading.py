"""The refused input as `explain.py` and `options.py` read it: lines, sections, the marker to write.

`read_input(original, snippet, language)` splits both texts once into an `Input`: the snippet's
sections (the runs between markers, by snippet index), its marker lines, the marker line an option
writes (the snippet's own, else the language's comment form), and the original's line counts.
The helpers here number lines (`Input.oline`, `Input.sline`, moved off blank and lone-bracket
lines by `text.lines.nearest_distinctive`), find a snippet line by its text, the section of a line, and each
section's place in the original (`section_places`: its first line the file holds once).

`quoted_at` finds a line a sentence quotes (cut short where it is long). Also `run_at` (where stripped lines stand
in a row, blank lines skipped), `nth_content`, `holds_once`, `between` (the original lines a section lies between,
by its neighbours' places).
This module reads lines; it knows no refusal sentence and builds no option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from fastapply.merge.refuse.refusal import Line
from fastapply.merge.text.lines import distinctive, is_generic, nearest_distinctive
from fastapply.merge.text.markers import is_elision
from fastapply.merge.text.spans import CUT, unquoted


@dataclass(frozen=True)
class Input:
    """The refused input, split once: lines, sections (snippet index ranges), the marker to write."""

    original: list[str]
    snippet: list[str]
    sections: list[tuple[int, int]]  # [start, end] inclusive snippet indexes of each run between markers
    markers: list[int]  # snippet indexes of marker lines
    marker: str  # the marker line an option writes
    counts: Counter

    def is_marker(self, k: int) -> bool:
        return k in self.markers

    def oline(self, i: int) -> Line:
        """Original line i (0-based) as a numbered Line, moved to the nearest distinctive line."""
        if not 0 <= i < len(self.original):
            return Line(i + 1, "")
        i = nearest_distinctive(self.original, i)
        return Line(i + 1, self.original[i].strip())

    def sline(self, k: int) -> Line:
        return Line(k + 1, self.snippet[k].strip())


def _marker_for(snippet: list[str], markers: list[int], language: str | None) -> str:
    if markers:
        return snippet[markers[0]].strip()
    if language in ("python", "ruby", "bash", "shell", "yaml", "toml", "perl", "r", "elixir", "makefile", "dockerfile"):
        return "# ... existing code ..."
    if language in ("html", "xml", "vue", "svelte", "markdown"):
        return "<!-- ... existing code ... -->"
    if language in ("lua", "sql", "haskell"):
        return "-- ... existing code ..."
    return "// ... existing code ..."


def read_input(original: str, snippet: str, language: str | None = None) -> Input:
    o = original.splitlines()
    s = snippet.splitlines()
    known = frozenset(line.strip() for line in o)
    markers = [k for k, line in enumerate(s) if is_elision(line, known) or line.strip().startswith("@@")]
    sections: list[tuple[int, int]] = []
    start = None
    for k in range(len(s) + 1):
        if k == len(s) or k in markers:
            if start is not None:
                run = [j for j in range(start, k) if s[j].strip()]
                if run:
                    sections.append((run[0], run[-1]))
            start = None
        elif start is None:
            start = k
    return Input(o, s, sections, markers, _marker_for(s, markers, language), Counter(line.strip() for line in o))


def run_at(lines: Sequence[str], texts: Sequence[str]) -> list[int]:
    """Indexes in `lines` where the stripped non-blank `texts` stand one after the other (blank
    lines between them skipped)."""
    content = [i for i, line in enumerate(lines) if line.strip()]
    n = len(texts)
    return [content[m] for m in range(len(content) - n + 1)
            if all(lines[content[m + j]].strip() == texts[j] for j in range(n))]


def nth_content(lines: Sequence[str], p: int, n: int) -> int | None:
    """The index of the n-th (0-based) non-blank line of `lines` from index p on, or None."""
    content = [i for i in range(p, len(lines)) if lines[i].strip()]
    return content[n] if len(content) > n else None


def unique(inp: Input, i: int) -> bool:
    """Whether original line i pins a place: distinctive, not generic, and once in the file."""
    text = inp.original[i].strip()
    return distinctive(text) and not is_generic(text) and inp.counts[text] == 1


def quoted_at(lines: Sequence[str], text: str) -> list[int]:
    """The indexes of `lines` whose stripped text is `text`, a line captured from a readable
    sentence; where none is and the quote is marked cut (`spans.cut`, `spans.apart`), the lines it
    is part of: their start where it is cut at its end, any part where it starts inside the line."""
    text = unquoted(text).strip()
    hits = [k for k, line in enumerate(lines) if line.strip() == text]
    if hits or CUT not in (text[:1], text[-1:]):
        return hits
    core = text.removeprefix(CUT).removesuffix(CUT)
    if text.startswith(CUT):  # quoted from inside the line, beside a similar one (spans.apart)
        return [k for k, line in enumerate(lines) if core in line.strip()]
    return [k for k, line in enumerate(lines) if line.strip().startswith(core)]


def find(inp: Input, text: str, near: int | None = None) -> int | None:
    """The snippet index of the line whose stripped text is `text` (`quoted_at`: or that starts so,
    where the sentence cut it short; the one nearest `near`)."""
    hits = [k for k in quoted_at(inp.snippet, text) if k not in inp.markers]
    if not hits:
        return None
    return hits[0] if near is None else min(hits, key=lambda k: abs(k - near))


def section_of(inp: Input, k: int) -> tuple[int, int] | None:
    """The section ([start, end] snippet indexes) that holds snippet line k, or None."""
    return next((sec for sec in inp.sections if sec[0] <= k <= sec[1]), None)


def holds_once(inp: Input, k: int) -> bool:
    """Whether snippet line k pins a place: distinctive, not generic, and once in the original."""
    text = inp.snippet[k].strip()
    return inp.counts.get(text) == 1 and distinctive(text) and not is_generic(text)


def section_places(inp: Input) -> list[int | None]:
    """Each section's place in the original: the first of its lines that occurs once there (and
    pins: not generic), or None when it has none."""
    where = {line.strip(): i for i, line in enumerate(inp.original)}
    out: list[int | None] = []
    for a, b in inp.sections:
        found = [where[inp.snippet[k].strip()] for k in range(a, b + 1) if holds_once(inp, k)]
        out.append(found[0] if found else None)
    return out


def between(inp: Input, places: list[int | None], n: int) -> tuple[int, int]:
    """(lo, hi): the original indexes section n lies strictly between, by the `section_places` of
    the sections before and after it (-1 and the file's length where none has one)."""
    return (max((p for p in places[:n] if p is not None), default=-1),
            min((p for p in places[n + 1:] if p is not None), default=len(inp.original)))
