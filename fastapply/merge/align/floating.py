"""Floating sections: where a section with no anchor in its window lands, by its edge lines.

A section without a unique line in the window between its placed neighbours is placed by its
first and last lines: every place its first line occurs, closed on its last line (or the file's
end), ranked like anchored edges; a section whose first line occurs nowhere is placed by the
fewest closing lines that balance its brackets. A section that occurs verbatim is pure context
(None), unless it starts the file with only blank lines above it; equally good places are an
ambiguity. New lines after the matched run, before the section's end marker, keep the section's
blank trail where the original line after them is not blank (the separation an anchored section's
tail keeps, edges.py). A section none of whose lines occurs there may still be an edited copy of one run of
original lines, line for line (`edited_block`); several such runs are rival places (`Ambiguous`)
for the tie-breakers (ties.py); a lone declaration of another name (`names_another`) edits no line.

This module knows lines and sections; candidates and their ranking come from edges.py.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from fastapply.merge.align.anchors import LineIndex
from fastapply.merge.align.blank_edges import blank_only
from fastapply.merge.text.compare import most_alike
from fastapply.merge.text.lines import bracket_balance, collapse, indentation, is_generic
from fastapply.merge.align.edges import (
    MAX_CANDIDATES, MAX_REGION, Ambiguous, Span, Trimmed, Unplaceable, replace_cand,
)
from fastapply.merge.align.edge_edits import same_edit
from fastapply.merge.text.compare import similar
from fastapply.merge.text.spans import apart, code, cut, quote


FLOATING_CELLS = 20_000  # places tried x section lines past which a floating section is not weighed


def place_floating(t: Trimmed, orig: Sequence[str], index: LineIndex, key, lo: int, hi: int):
    """(Span, lines) for a section with no anchor in orig[lo:hi]; None when it is pure context
    (it occurs there verbatim, so placing it changes nothing).

    Past FLOATING_CELLS places x lines it is refused as undecided before any place is weighed
    (each costs the whole section; the real sets' largest is 132 cells)."""
    sec, keys, n = t.lines, index.keys, len(t.lines)
    heads = index.places(key(sec[0]), lo, hi)
    for p in heads:
        if p + n <= hi and all(key(sec[c]) == keys[p + c] for c in range(n)):
            if not t.section.open_start and lo == 0 and p > 0 and blank_only(orig[:p]):
                # the snippet's unmarked start is the file's: only blank lines above it, which
                # it replaces with its own first lines (as anchored sections do, edges.py)
                return Span(0, p + n, "exact"), list(t.lead) + list(sec)
            return None
    tried = heads[: MAX_CANDIDATES * 4]
    if len(tried) * n > FLOATING_CELLS:
        raise Ambiguous(sec[0], tried, doubt=True, regions=((lo, hi),), note=(
            f"the section's {n} lines have no line unique in the original, and {quote(sec[0])} occurs at "
            f"{len(heads)} place(s): too many readings to weigh; include a distinct unchanged line next to the change"))
    cands: list[tuple[tuple, int, int]] = []  # (rank, start, end)
    appended: set[tuple[int, int]] = set()  # new lines after a matched run, before the marker: its blank trail goes with them
    for p in tried:
        c = index.run(sec, key, 0, p, n, lo, hi)
        rest = sec[c:]
        options = [((not t.balance - bracket_balance(sec[:c]) == 0, 0, -c), p + c)] if t.section.open_end else []
        if t.section.open_end and c < n:
            appended.add((p, p + c))
        if not t.section.open_end and hi == len(orig) and hi - (p + c) <= MAX_REGION:
            options.append((replace_cand(hi, orig[p + c : hi], rest, key, c).rank(), hi))  # the file's end
        for q in index.places(key(sec[-1]), p + c, hi)[:3]:
            d = index.run(sec, key, n - 1, q, n - c, p + c, hi, -1)
            region, repl = orig[p + c : q - d + 1], sec[c : n - d]
            if len(region) <= MAX_REGION:
                cand = replace_cand(q + 1, region, repl, key, c + d)
                options.append((cand.rank(), q + 1))
        if options:
            rank, end = min(options)
            cands.append((rank, p, end))
    inserted: set[tuple[int, int]] = set()  # places read as new lines above matched closers: a blank lead goes with them
    if not heads and t.section.open_start:
        for q in index.places(key(sec[-1]), lo, hi)[:MAX_CANDIDATES]:
            d = index.run(sec, key, n - 1, q, n, lo, hi, -1)
            cands.append(((not t.balance - bracket_balance(sec[n - d :]) == 0, 0, -d), q - d + 1, q + 1))
            # Generic closers match greedily: a new last method's `}` then the class's `}` match the
            # original's last two lines, which leaves the new method's body inside the old one.
            # Matching fewer of them (the class's `}` only) may balance: that reading is weighed too.
            # None of them, for a section that ends the file: a new last class after the old one's `}`.
            last = 0 if not t.section.open_end and not any(line.strip() for line in orig[q + 1 : hi]) else 1
            shorter = next((e for e in range(d - 1, last - 1, -1) if t.balance == bracket_balance(sec[n - e :])),
                           None)
            if shorter is not None and t.balance != bracket_balance(sec[n - d :]):
                cands.append(((False, 0, -shorter), q - shorter + 1, q + 1))
                inserted.add((q - shorter + 1, q + 1))
    if not cands:
        if t.section.open_start and t.section.open_end:
            at = edited_block(sec, orig, key, lo, hi)
            if at is not None:
                return Span(at, at + n, "exact"), list(sec)
            runs = edited_runs(sec, orig, key, lo, hi)
            if len(runs) > 1:
                # the same edit fits several runs: rival places for the tie-breakers (ties.py)
                raise Ambiguous(sec[0], runs, guess=(Span(runs[0], runs[0] + n, "exact"), list(sec)),
                                regions=[(p, p + n) for p in runs])
        raise Unplaceable(unplaced_note(sec, orig, lo, hi))
    cands.sort()
    rank, start, end = cands[0]
    rivals = sorted({(s, e) for r, s, e in cands if r == rank})
    guess = (Span(start, end, "exact"), list(sec))
    if len(rivals) > 1:
        line = sec[0] if heads else sec[-1]
        raise Ambiguous(line, [s for s, _ in rivals], guess=guess, regions=[(s, e) for s, e in rivals])
    if rank[0]:
        raise Ambiguous(sec[0], [start], doubt=True, guess=guess, regions=[(start, end)],
                        note=unbalanced_note(sec, start, end))
    trail = list(t.trail) if (start, end) in appended and end < hi and orig[end].strip() else []
    return Span(start, end, "exact"), (list(t.lead) if (start, end) in inserted else []) + list(sec) + trail


def edited_block(sec: Sequence[str], orig: Sequence[str], key, lo: int, hi: int) -> int | None:
    """Where a section between two markers that shows no original line lands as an edited copy:
    the start of the one run of original lines in [lo, hi) it pairs with line for line (blank,
    equal or edge_edits.same_edit, at least one edited, none closer to another original line:
    `most_similar`). None when no run or several do."""
    n = len(sec)
    lo, hi = max(lo, 0), min(hi, len(orig))
    found = edited_runs(sec, orig, key, lo, hi)
    if len(found) != 1:
        return None
    p = found[0]
    for c in range(n):
        if not sec[c].strip() or key(sec[c]) == key(orig[p + c]):
            continue
        if most_similar(sec[c], orig, lo, hi) != p + c or any(
                same_edit(sec[c], orig[i]) for i in range(lo, hi) if i != p + c):
            return None  # another line reads as closer, or it edits several lines alike (`get(` in every test)
        if names_another(sec[c], orig[p + c]):
            return None
    return p


_TOKEN = re.compile(r"[:@$]*\w+|[^\w\s]")
_NAME = re.compile(r"^[:@$]*[A-Za-z_]\w*$")
_VALUE_WORDS = frozenset("return yield raise throw await".split())  # `return y` beside `return x` changes it


def names_another(new: str, old: str) -> bool:
    """True when `new` and `old` share their leading word and are otherwise only names, none of
    them shared: a declaration of another name, which names no line it edits."""
    a = [t for t in _TOKEN.findall(new.strip()) if t not in ",()"]
    b = [t for t in _TOKEN.findall(old.strip()) if t not in ",()"]
    if len(a) < 2 or len(b) < 2 or a[0] != b[0] or a[0] in _VALUE_WORDS:
        return False
    if not all(_NAME.match(t) for t in a[1:] + b[1:]):
        return False
    return not set(a[1:]) & set(b[1:])


def edited_runs(sec: Sequence[str], orig: Sequence[str], key, lo: int, hi: int, limit: int = 8) -> list[int]:
    """Starts of the runs of original lines in [lo, hi) that a section pairs with line for line
    (`_pairs`: blank, equal or edited at the same indentation), its first line an edited copy;
    at most `limit`."""
    n = len(sec)
    if n == 0 or not sec[0].strip():
        return []
    found: list[int] = []
    for p in range(max(lo, 0), min(hi, len(orig)) - n + 1):
        if all(_pairs(sec[c], orig[p + c], key) for c in range(n)) and same_edit(sec[0], orig[p]):
            found.append(p)
            if len(found) >= limit:
                break
    return found


def most_similar(line: str, orig: Sequence[str], lo: int, hi: int) -> int | None:
    """The original line in [lo, hi) most similar to `line` (difflib ratio on collapsed text), or
    None when two tie. An edited copy by name (`assert.Regexp(` twice) is trusted only when no
    other line reads closer to it (`assert.Equal(t, ...)` with the same message)."""
    return _most_similar(line, tuple(orig[i] for i in range(lo, hi)), lo)


@functools.lru_cache(maxsize=512)  # a refusal's option tries ask the same (line, window) again and again
def _most_similar(line: str, window: tuple[str, ...], lo: int) -> int | None:
    best = set(most_alike(collapse(line), ((lo + k, b) for k, text in enumerate(window) if (b := collapse(text)))))
    return next(iter(best)) if len(best) == 1 else None


def _pairs(new: str, old: str, key) -> bool:
    """A snippet line against the original line it would replace: both blank, equal, or edited."""
    if not new.strip() or not old.strip():
        return not new.strip() and not old.strip()
    return key(new) == key(old) or (same_edit(new, old) and indentation(new) == indentation(old))


def unplaced_note(sec: Sequence[str], orig: Sequence[str], lo: int, hi: int) -> str:
    """Why a section with no line in its window cannot be placed, naming the line and what would
    settle it: its first line may change the original line most like it, or be new."""
    line = next((l for l in sec if l.strip()), "")
    at = most_similar(line, orig, lo, hi) if line.strip() else None
    if at is None or not similar(line, orig[at]):
        return "no line of it occurs there"
    return (f"no line of it occurs there; {code(apart(line, orig[at]))} may change original line {at + 1} "
            f"({code(apart(orig[at], line))}) or be a new line, which the unchanged line above or below it "
            "would settle")


def unbalanced_note(sec: Sequence[str], start: int, end: int) -> str:
    """Why a section's only place is doubted: the original lines it would replace there do not
    open and close brackets as its own lines do (`]` read as replaced by `])`, or a block's end
    cut off), so either the change is there or the section belongs around other lines."""
    line = cut(next((l for l in sec if l.strip()), ""))
    where = f"line {start + 1}" if end - start <= 1 else f"lines {start + 1}-{end}"
    said = "it" if is_generic(line) else code(line)  # `}` alone says nothing the section's label does not
    return (f"{said} fits only at original {where}, where the section's lines would not balance their "
            "brackets like the lines they replace; include the unchanged lines around the change so its start "
            "and end are clear")
