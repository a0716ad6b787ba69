"""Two fixes as one option: where a refusal's option answers its cause but the revised snippet is
refused again for another, the option and one of the second refusal's options, as one option of the
snippet as sent.

A merge stops at the first thing it cannot settle, so a snippet with two problems (a section out of
place and a line that could be new or changed) gets a refusal that names the first only; the planner
that answers it meets the second on its next call. `chained_options` looks one refusal ahead: for the
first few tried options whose revision does not merge, it reads the refusal that revision gets
(`again`), and offers each of that refusal's options that, applied after the first, makes a snippet
that merges (`merges`). `compose(snippet, first, then)` writes the pair as edits of the snippet as
sent (`Edit` numbers are the sent snippet's), and only where it can say so exactly: the composed
option must revise the snippet into the very text the two revisions in turn make.

Measured in the session that added it (results.md, twelfth session): see there.

This module knows options and snippets; the merging and refusing are given to it as callables.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Sequence

from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.revise import placed, revise

CHAIN_FIRST = 6  # failed options whose second refusal is read (each costs one explained merge) ...
CHAIN_LINES = 3000  # ... fewer in a long file: at most this many original lines explained in all
CHAIN_TRIES = 8  # of each second refusal's options, this many are tried after the first


def compose(snippet: str, first: Option, then: Option) -> Option | None:
    """`first` and then `then` (whose numbers are those of the snippet `first` revised) as one option
    of `snippet`; None where `then` edits inside lines `first` put in, or the pair cannot be written
    exactly as edits of the sent snippet."""
    try:
        where = [origin for _, origin in placed(snippet.splitlines(), first)]
    except ValueError:
        return None
    n = len(snippet.splitlines())
    m = len(where)

    def at(number: int) -> tuple[int, bool] | None:
        """The sent snippet's line number an insertion before revised line `number` goes before, and
        whether it must go before what `first` puts there."""
        if number == m + 1:
            return n + 1, False
        if not 1 <= number <= m:
            return None
        k, i = where[number - 1]
        if i == -1:
            return k + 1, False
        return (k + 1, True) if i == 0 else None

    def span(start: int, end: int) -> tuple[int, int] | None:
        if not 1 <= start <= end <= m:
            return None
        ks = [where[j - 1] for j in range(start, end + 1)]
        if any(i != -1 for _, i in ks) or [k for k, _ in ks] != list(range(ks[0][0], ks[0][0] + len(ks))):
            return None
        return ks[0][0] + 1, ks[-1][0] + 1

    ahead: list[Edit] = []
    after: list[Edit] = []
    for edit in then.edits:
        if edit.action in ("insert", "marker", "deleted"):
            spot = at(edit.at) if edit.at is not None else None
            if spot is None:
                return None
            (ahead if spot[1] else after).append(replace(edit, at=spot[0]))
        else:
            lines = span(edit.start, edit.end) if edit.start is not None and edit.end is not None else None
            if lines is None:
                return None
            moved = edit
            if edit.action == "move":
                spot = at(edit.at) if edit.at is not None else None
                if spot is None or spot[1]:
                    return None
                moved = replace(edit, at=spot[0])
            after.append(replace(moved, start=lines[0], end=lines[1]))
    says = _renumbered(then.says, where)
    both = Option(f"{first.says}; and then {says}", tuple(ahead) + first.edits + tuple(after))
    try:
        if revise(snippet, both) != revise(revise(snippet, first), then):
            return None
    except ValueError:
        return None
    return both


_LINE = re.compile(r"(snippet line )(\d+)")


def _renumbered(says: str, where: list[tuple[int, int]]) -> str:
    """`says` with "snippet line N" (the revised snippet's) as the sent snippet's number where that
    line is one of the sent snippet's, else as "line N of the snippet revised so"."""
    def one(match: re.Match) -> str:
        number = int(match.group(2))
        if 1 <= number <= len(where) and where[number - 1][1] == -1:
            return f"{match.group(1)}{where[number - 1][0] + 1}"
        return f"line {number} of the snippet revised so"
    return _LINE.sub(one, says)


def chained_options(failed: Sequence[Option], snippet: str, again: Callable[[Option], Refusal | None],
                    merges: Callable[[Option], bool],
                    order: Callable[[Sequence[Option], str], list[Option]], lines: int = 0) -> list[Option]:
    """Composed options (`compose`) that merge: for the first `CHAIN_FIRST` of `failed` (options
    tried, in the order a planner reads them, whose revision does not merge; fewer in a file of over
    `CHAIN_LINES` / `CHAIN_FIRST` `lines`), the first `CHAIN_TRIES`
    options of the refusal the revision gets (in `order`, given them and the revised snippet), each
    after its first."""
    out: list[Option] = []
    seen: set[tuple] = set()
    for first in failed[:min(CHAIN_FIRST, CHAIN_LINES // max(1, lines))]:
        refusal = again(first)
        if refusal is None or not refusal.options:
            continue
        try:
            revised = revise(snippet, first)
        except ValueError:
            continue
        for then in order(refusal.options, revised)[:CHAIN_TRIES]:
            both = compose(snippet, first, then)
            if both is None or both.edits in seen:
                continue
            seen.add(both.edits)
            if merges(both):
                out.append(both)
    return out
