"""The scored alignment as a judge of a merged file (issue 19 item 4).

`judge(original, snippet, merged)` aligns the snippet (scored.py) and says why not to write `merged`:
instant.py asks it about a merge that the joint reading alone placed (the greedy reading ran and
refused) or that a rule chose between two readings placed apart, and it refuses only when the aligner
reads a different file that is a `rival` (an ambiguous-place refusal carrying both readings), with a
lead of at least JUDGE_MARGIN or, for the joint reading alone, deleting more of the original than the
merge. On by default; FASTAPPLY_JUDGE=0 turns it off. (Seconding every lazy merge, refusing wherever
the aligner's margin is small or its reading differs, refuses many more right files than wrong ones on
the tuned sets; it was an opt-in switch until the eighth session, ARCHITECTURE.md has its numbers.)

Example: original `start() / x = 1 / b() / x = 1 / c()`, a merge that changed the first `x = 1` for
the snippet `... / b() / x = 2 / ...`: the aligner places `x = 2` after the unique `b()` with a clear
lead, so the merge is refused, naming `x = 2` and both places.

Knows scored.py's alignment; does not know the merge that produced `merged`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.align.scored import MAX_CELLS, align, reading_lines
from fastapply.merge.refuse.refusal import reason
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.lines import bracket_balance, is_generic, nearest_distinctive
from fastapply.merge.text.names import header_name, keyword_name
from fastapply.merge.text.markers import is_marker
from fastapply.merge.text.spans import code, cut, quote

# The judge (on by default; FASTAPPLY_JUDGE=0 turns it off): a merge the aligner reads differently,
# as a rival, with at least this lead is refused. Calibrated on the tuned pool's lazy merges
# (docs/ARCHITECTURE.md, "Second opinion and judge"; right lost / wrong saved), joint alone: 4 -> 0 / 16,
# 6 -> 0 / 15, 8 -> 0 / 8; chosen between two readings: 6 -> 0 / 9. Sixth session, 6 -> 4 (both paths, counted
# as whole-set right/wrong/refused): the tuned pool -1 right / -3 wrong, the foreign readable sets (real commits of
# thirteen other repositories) 0 right / -1 wrong.
JUDGE_MARGIN = 4.0
JUDGE = os.environ.get("FASTAPPLY_JUDGE", "1") != "0"


@dataclass(frozen=True)
class Opinion:
    """Why the aligner does not second a merge: a one-line reason, its own reading as a file and
    the undecided original line ranges [start, end) (where the model path starts)."""

    reason: str
    reading: list[str]
    regions: tuple[tuple[int, int], ...]


def _keys(lines: Sequence[str]) -> list[str]:
    return [l.strip() for l in lines if l.strip()]


def judge(original: Sequence[str], snippet: Sequence[str], merged: Sequence[str], chosen: bool = False
          ) -> Opinion | None:
    """The aligner as a judge of a merge only the joint reading placed (or, `chosen`, of one a rule
    chose between two readings placed apart): why not to write `merged` when the aligner's best
    reading gives a different file, is a rival (`rival`: balanced, keeps the merge's definitions) and
    either leads every reading that writes another file by at least JUDGE_MARGIN (a confident, different
    reading) or, for a merge the joint reading alone placed, deletes more original lines than it
    (`deletes_more`) at any lead: the joint reading then kept lines that a reading of the whole snippet
    as good or better deletes (seventh session: the tuned pool 19 wrong files fewer for 4 right ones
    refused, the foreign readable sets 2 wrong fewer for none). Else None (and None above scored.MAX_CELLS:
    the aligner is a dynamic programme). A chosen merge is judged only with the lead and where the
    aligner deletes more original lines than it: the rules that choose prefer the reading that deletes
    less, the aligner weighs each deletion against the lines it places. The reason is an
    ambiguous-place refusal naming the line the two readings place differently."""
    if len(original) * len(snippet) > MAX_CELLS:
        return None
    alignment = align(original, snippet)
    if alignment is None or alignment.weakest is None or (chosen and alignment.margin < JUDGE_MARGIN):
        return None
    reading = reading_lines(alignment, original, snippet)
    if _keys(reading) == _keys(merged) or not rival(original, reading, merged):
        return None
    if (chosen or alignment.margin < JUDGE_MARGIN) and not deletes_more(original, reading, merged):
        return None
    regions = _differing_range(original, merged, reading)
    apart = _placed_apart(original, snippet, merged, reading)
    if apart is not None:
        line, here, there = apart
        cause = (f"{quote(line, 80)} fits two places in the original: near line {here + 1}, where the merge put it, "
                 f"and near line {there + 1}, where a scored alignment of the whole snippet reads it "
                 + ("with a clear lead" if alignment.margin >= JUDGE_MARGIN else "as well, deleting more of the original"))
        return Opinion(reason("ambiguous-place", cause, "include the unchanged lines around it at the place you mean"),
                       reading, (regions,))
    changed = _first_difference(_keys(reading), _keys(merged))
    cause = (f"the snippet fits two places in the original: the merge and the scored alignment place it differently "
             f"(first at {code(changed)})")
    return Opinion(reason("ambiguous-place", cause, "include more unchanged lines around each change"),
                   reading, (regions,))


def rival(original: Sequence[str], reading: Sequence[str], merged: Sequence[str]) -> bool:
    """Whether the aligner's reading, which differs from `merged`, is a rival worth refusing for: it
    opens and closes as many brackets as the original (the DP places lines, not blocks: a reading
    that drops a header and keeps its body, or inserts an opener it never closes, is no confident
    rival of a merge, which the guards keep balanced) and keeps every definition the merge keeps
    (`drops_a_definition`)."""
    return bracket_balance(reading) == bracket_balance(original) and not drops_a_definition(reading, merged)


def drops_a_definition(reading: Sequence[str], merged: Sequence[str]) -> bool:
    """Whether, where the two files differ, `merged` has a definition header that opens its block
    (`func (e *Engine) Run(addr string) {`, `def f(x):`, `test('retries', async t => {`) which
    `reading` lacks: the aligner deletes that definition, or rewrites it as another. Whether a snippet
    that shows the lines around a definition next to each other deletes it or only left it out, and
    whether a new definition replaces a like one or joins it, is the instruction's question, not
    placement's: the aligner prices a deletion per line and a changed header by its words, and reads
    either with a clear lead where the merge kept the definition."""
    keys, ours = _keys(merged), _keys(reading)
    kept = set(ours)
    return any(keys[i] not in kept and _opens_definition(keys[i], keys[i + 1] if i + 1 < len(keys) else "")
               for tag, i1, i2, _, _ in line_opcodes(keys, ours) if tag != "equal" for i in range(i1, i2))


_KEYWORD_OPENS = re.compile(r"(?:local\s+)?(?:function|def)\b")  # Lua and Ruby: `function Shop:f(x)` ... `end`


def _opens_definition(line: str, following: str = "") -> bool:
    """A definition header that opens its block (a name and a parameter list, or a defining keyword):
    an opening bracket or a colon at its end, its `{` alone on the next line (`public int Delta(int x)`
    in C#, a PSR method in PHP), or a Lua/Ruby `function`/`def` line that its block's `end` closes."""
    if not (header_name(line) or keyword_name(line)):
        return False
    balance = bracket_balance([line])
    if balance > 0 or line.endswith(":"):
        return True
    return balance == 0 and (following == "{" or (
        bool(_KEYWORD_OPENS.match(line)) and not line.endswith(("end", ";", "}"))))


def deletes_more(original: Sequence[str], reading: Sequence[str], merged: Sequence[str]) -> bool:
    """Whether `reading` deletes or replaces more of the original's non-blank lines than `merged`."""
    keys = _keys(original)

    def gone(result: Sequence[str]) -> int:
        return sum(i2 - i1 for tag, i1, i2, _, _ in line_opcodes(keys, _keys(result)) if tag != "equal")
    return gone(reading) > gone(merged)


def _placed_apart(original: Sequence[str], snippet: Sequence[str], merged: Sequence[str],
                  reading: Sequence[str]) -> tuple[str, int, int] | None:
    """The first snippet line that says something (a word in it, not generic, not a marker) which
    the two files put at different places, with those places as original line indexes (each the
    nearest line there that is not generic, so a refusal never points at a blank or a `}`)."""
    places = [_places(original, r) for r in (merged, reading)]
    for line in snippet:
        text = line.strip()
        if not re.search(r"\w", text) or is_generic(text) or is_marker(line):
            continue
        here, there = (p.get(text, []) for p in places)
        only_here, only_there = [x for x in here if x not in there], [x for x in there if x not in here]
        if only_here and only_there:
            here, there = nearest_distinctive(original, only_here[0]), nearest_distinctive(original, only_there[0])
            if here != there:  # two places one pin names alike say nothing: the next line may
                return text, here, there
    return None


def _places(original: Sequence[str], result: Sequence[str]) -> dict[str, list[int]]:
    """Each line of `result` (stripped) -> where it stands in the original's terms, in order: a kept
    line at its own index, a changed one at the index of the line it replaces, a new one at the
    index of the original line it goes before."""
    out: dict[str, list[int]] = {}
    last = max(len(original) - 1, 0)
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        for k in range(j2 - j1):
            at = i1 + k if tag == "equal" else i1 + min(k, max(i2 - i1 - 1, 0))
            out.setdefault(result[j1 + k].strip(), []).append(min(at, last))
    return out


def _first_difference(a: Sequence[str], b: Sequence[str]) -> str:
    """The first line where two files (non-blank lines) part, or the next one after it that is not
    generic (a `}` locates nothing)."""
    k = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    longer = a if k < len(a) else b
    return cut(next((line for line in longer[k:] if not is_generic(line)), longer[k]), 80)


def _differing_range(original: Sequence[str], *results: Sequence[str]) -> tuple[int, int]:
    """The original line range [start, end) outside of which the original and every result agree
    (the lines they share at the top and the bottom)."""
    head = min(next((k for k, (x, y) in enumerate(zip(original, r)) if x != y), min(len(original), len(r)))
               for r in results)
    tail = min(next((k for k, (x, y) in enumerate(zip(original[::-1], r[::-1])) if x != y),
                    min(len(original), len(r))) for r in results)
    if not original:
        return 0, 0
    start = min(head, len(original) - 1)
    return start, min(len(original), max(start + 1, len(original) - tail))
