"""Which of a refusal's options a planner sees first: `rank(options, original, snippet)`, `shown_options`.

A refusal can offer hundreds of options (every place an ambiguous line fits, each as "new" and as
"changed"); an agent reads the first few (mcp/tool.py spells out `MAX_SHOWN`, 12). The options are the same set in
any order, so the order is where the rest of the snippet can speak:

- **Pins.** A distinctive snippet line that occurs exactly once in the original and once in the
  snippet pins where the snippet is: the lines above it belong above its original line, the lines
  below it below (a planner writes sections in file order, the convention the tool teaches).
- An option that puts original lines before snippet line `at` claims a place in the original; each
  pin it lands on the wrong side of is a **contradiction**. Options are ordered by contradictions,
  then in the refusal's own order. (Ranking consistent places also by their distance from the nearest
  pin bought as many right retries on the confirmation seeds and made more wrong ones: left out.)
- **Shown.** `shown_options` picks the `MAX_SHOWN` an agent reads: every part of the edit its best
  option before any part a second, and within a part each place ("for the place at original line N")
  its first pin before a second pin of a place already shown (a wider one, or one with edge markers);
  the rest are counted, never dropped from the refusal.
- **Tried.** Given `merges` (instant.revision_merges: does the snippet revised by this option merge,
  without dropping a definition nobody names?), the first `TRIES` options in that order are tried
  (fewer in a long file: `TRIED_LINES` original lines merged in all, ~0.1 s median per answer) and
  those whose revision merges go first. Measured on nine held-out seeds: what an agent's 12 options
  bring after one retry went from 45.0-54.8% to 46.8-57.3% right, and 5 to 10 of 6,300 rows became
  wrong files through them (an option true to the intent whose revision the merge still writes wrong).

- **Chained.** Given `again` too (instant.revision_refusal: the refusal the revision gets), where fewer
  than `CHAIN_WHEN` tried options merge, the refusal one step ahead is read (refuse/chained.py): an option
  and one of the options of the refusal its revision meets next, as one option, go right after the merging
  ones. (Where none merged, twelfth session; also where one or two do, twenty-first session: a revision that
  merges for one part of the intent may leave the part the planner means to a second refusal.)
- **Reading order.** `reading_order` is every option so: the shown ones first, then the rest ranked;
  instant.ordered_refusal puts a refusal's options so for every surface (the JSON bodies, the MCP answer,
  the CLI), `left_out` counts what an answer showing the first few leaves out.

Markers, moves and removals claim no place and rank as if they contradicted nothing.
This module knows options and lines; it neither merges nor decides.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from typing import Callable, Sequence

from fastapply.merge.refuse.chained import chained_options
from fastapply.merge.refuse.refusal import Option, Refusal
from fastapply.merge.text.lines import distinctive
from fastapply.merge.text.markers import is_marker

MAX_SHOWN = 12  # options an agent's answer spells out (mcp/tool.py); the rest are counted
TRIES = 24  # options `shown_options` tries (merges the revised snippet) when given `merges` ...
TRIED_LINES = 10_000  # ... fewer in a long file: at most this many original lines merged in all
CHAIN_WHEN = 3  # chained options (refuse/chained.py) are looked for where fewer tried options than this merge


def pins(original: Sequence[str], snippet: Sequence[str]) -> list[tuple[int, int]]:
    """(snippet line, original line), both 1-based, for the distinctive non-marker snippet lines
    that occur exactly once (stripped) in the original and once in the snippet, kept as one chain
    in file order: the longest, and of those the one whose original lines lie closest together
    (a new line that happens to repeat a line elsewhere in the file pins nothing)."""
    in_original = Counter(line.strip() for line in original)
    in_snippet = Counter(line.strip() for line in snippet)
    where = {line.strip(): n for n, line in enumerate(original, 1) if in_original[line.strip()] == 1}
    found = [(s, where[text.strip()]) for s, text in enumerate(snippet, 1)
             if text.strip() in where and in_snippet[text.strip()] == 1
             and distinctive(text) and not is_marker(text)]
    return _chain(found)


CHAIN_DP = 400  # pins the quadratic chain weighs; past that, the longest increasing run alone


def _chain(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `found` (in snippet order) whose original lines increase; ties go to the
    smallest sum of gaps between consecutive original lines (up to `CHAIN_DP` pins; a longer list,
    a snippet that is most of the file, takes any longest run: patience sorting, n log n)."""
    if len(found) > CHAIN_DP:
        return _longest(found)
    best: list[tuple[tuple[int, int], int | None]] = []  # per pin: ((length, -gaps), previous pin)
    for i, (_, p) in enumerate(found):
        score, prev = (1, 0), None
        for j in range(i):
            if found[j][1] < p:
                (length, gaps), _ = best[j]
                candidate = (length + 1, gaps - (p - found[j][1]))
                if candidate > score:
                    score, prev = candidate, j
        best.append((score, prev))
    if not best:
        return []
    at: int | None = max(range(len(best)), key=lambda i: best[i][0])
    chain = []
    while at is not None:
        chain.append(found[at])
        at = best[at][1]
    return chain[::-1]


def _longest(found: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A longest run of `found` whose original lines increase (patience sorting)."""
    tails: list[int] = []  # per length, the index in `found` of the smallest last original line
    lasts: list[int] = []  # those original lines
    prev: list[int | None] = []
    for i, (_, p) in enumerate(found):
        k = bisect_left(lasts, p)
        prev.append(tails[k - 1] if k else None)
        if k == len(tails):
            tails.append(i)
            lasts.append(p)
        else:
            tails[k], lasts[k] = i, p
    chain, at = [], tails[-1] if tails else None
    while at is not None:
        chain.append(found[at])
        at = prev[at]
    return chain[::-1]


def _places(option: Option) -> list[tuple[int, int, int]]:
    """(snippet line the lines go before, first original line, last original line) per edit that
    inserts numbered original lines."""
    return [(e.at, e.original_line, e.original_line + e.text.count("\n"))
            for e in option.edits
            if e.action in ("insert", "deleted") and e.original_line and e.at is not None and e.text is not None]


def _contradictions(option: Option, pinned: list[tuple[int, int]]) -> int:
    """How many pins the option's places lie on the wrong side of."""
    count = 0
    for at, first, last in _places(option):
        count += sum(1 for s, p in pinned if (s < at and p >= first) or (s >= at and p <= last))
    return count


def rank(options: Sequence[Option], original: Sequence[str], snippet: Sequence[str]) -> list[Option]:
    """The options, those that contradict fewer of the snippet's pins first (stable otherwise)."""
    pinned = pins(original, snippet)
    if not pinned:
        return list(options)
    return [options[n] for _, n in sorted((_contradictions(o, pinned), n) for n, o in enumerate(options))]


_PLACE = re.compile(r"for the place at original line (\d+)")


def _places_first(members: list[int], options: Sequence[Option]) -> list[int]:
    """A part's options with the first pin of each place (the same snippet lines, the same "for the
    place at original line N") before another pin of that place (a wider one, or with edge markers)."""
    seen: set[tuple] = set()
    first, again = [], []
    for n in members:
        place = _PLACE.findall(options[n].says)
        key = (_spots(options[n]), tuple(place)) if place else None
        (again if key in seen else first).append(n)
        if key is not None:
            seen.add(key)
    return first + again


def _spots(option: Option) -> tuple[int, ...]:
    """The snippet lines an option edits (where it inserts, or the lines it moves or removes)."""
    return tuple(sorted({e.at if e.start is None else e.start for e in option.edits}))


def shown_options(options: Sequence[Option], limit: int = MAX_SHOWN, original: Sequence[str] | None = None,
                  snippet: Sequence[str] | None = None,
                  merges: Callable[[Option], bool] | None = None,
                  again: Callable[[Option], Refusal | None] | None = None) -> tuple[list[Option], int, int]:
    """(the options to spell out, how many are left out, how many of those edit lines no shown one
    does). Given the original and the snippet, the options are `rank`ed first. Options that edit a
    snippet line in common are alternatives for one part of the edit (pin the one place you mean);
    options at other lines answer other parts. So every part gets its first option before any part
    gets a second (round robin, each part in ranked order, parts in order of their first option): a
    refusal with many alternatives for one section (a judge's refusal can carry nearly 200) does not
    hide the option for another section. Given `merges` (does the snippet revised by this option
    merge?), the first `TRIES` options in that order are tried (fewer in a file over `TRIED_LINES` /
    `TRIES` lines), and those whose revision merges go before all others (in the same round robin);
    given `again` as well, where fewer than `CHAIN_WHEN` of them merge, the chained options that merge
    (refuse/chained.py) go right after them."""
    if original is not None and snippet is not None:
        options = rank(options, original, snippet)
    order, groups = _round_robin(options)
    tries = min(TRIES, TRIED_LINES // max(1, len(original or ())))
    if merges is not None and tries:
        tried = order[:tries]
        good = [n for n in tried if merges(options[n])]
        first = set(good)
        chained: list[Option] = []
        if again is not None and len(good) < CHAIN_WHEN:
            text = "".join(line + "\n" for line in snippet or ())
            chained = chained_options([options[n] for n in tried if n not in first], text, again, merges,
                                      _read_order(original), len(original or ()))
        if good or chained:
            options = [options[n] for n in good] + chained + [options[n] for n in order if n not in first]
            order, groups = _round_robin(options)
    shown = set(order[:limit])
    unshown = sum(len(g) for g in groups if not shown & set(g))
    return [o for n, o in enumerate(options) if n in shown], len(options) - len(shown), unshown


def _read_order(original: Sequence[str] | None) -> Callable[[Sequence[Option], str], list[Option]]:
    """The order a planner reads a revised snippet's refusal's options in (ranked, round robin)."""
    def order(options: Sequence[Option], revised: str) -> list[Option]:
        ranked = rank(options, original, revised.splitlines()) if original is not None else list(options)
        return [ranked[n] for n in _round_robin(ranked)[0]]
    return order


def reading_order(options: Sequence[Option], original: Sequence[str] | None = None,
                  snippet: Sequence[str] | None = None, merges: Callable[[Option], bool] | None = None,
                  again: Callable[[Option], Refusal | None] | None = None, limit: int = MAX_SHOWN) -> list[Option]:
    """Every option in the order a planner should read them: the `limit` an agent's answer spells out
    first, as `shown_options` picks them (chained ones among them), then the rest ranked. The JSON
    surfaces list them so; an answer shows the first `limit` (`left_out` counts the rest)."""
    shown, _, _ = shown_options(options, limit, original, snippet, merges, again)
    picked = set(shown)
    ranked = rank(options, original, snippet) if original is not None and snippet is not None else list(options)
    return shown + [o for o in ranked if o not in picked]


def left_out(options: Sequence[Option], limit: int = MAX_SHOWN) -> tuple[int, int]:
    """For options in reading order of which the first `limit` are shown: (how many are left out,
    how many of those edit snippet lines no shown option does)."""
    _, groups = _round_robin(options)
    unshown = sum(len(g) for g in groups if min(g) >= limit)
    return max(0, len(options) - limit), unshown


def _round_robin(options: Sequence[Option]) -> tuple[list[int], list[list[int]]]:
    """(every option's index in the order an agent reads them, the parts' indexes): parts are
    options that edit a snippet line in common; each part's next option in turn."""
    parts: dict[int, list[int]] = {}  # a part (its first option's index) -> its options' indexes
    part_of: dict[int, int] = {}  # snippet line -> its part
    for n, option in enumerate(options):
        linked = sorted({part_of[k] for k in _spots(option) if k in part_of})
        part = linked[0] if linked else n
        parts.setdefault(part, [])
        for other in linked[1:]:  # an option that edits lines of two parts joins them
            parts[part].extend(parts.pop(other))
            part_of.update({k: part for k, p in part_of.items() if p == other})
        parts[part].append(n)
        part_of.update({k: part for k in _spots(option)})
    groups = [_places_first(sorted(members), options) for _, members in sorted(parts.items())]
    order: list[int] = []
    depth = 0
    while len(order) < len(options):
        order.extend(g[depth] for g in groups if depth < len(g))
        depth += 1
    return order, groups
