"""Excerpts: marker-free snippets that are neither the whole file nor whole definitions.

An agent often pastes the changed lines with some context and no `... existing code ...` marker
at all, although the file goes on before and after. Such a snippet is read as if a marker stood
at each end (`read_excerpt`), by the lazy readings and every guard. What pins it is its edges:

- `loose_edge`: which end (if any) has no distinctive line the original holds once among its
  first (last) EDGE_LINES non-blank lines (it opens or closes on `}`, `});` or new code);
- `edge_holds`: a loose end is still settled when the merged file shows it continuing the
  original right beyond a change that a unique unchanged line pins on its other side, and the
  merge drops no non-blank original line;
- `edited_pin`: a change with no unique unchanged line on its inner side is still pinned when it
  replaces a distinctive original line by its edited copy that edits no other original line.

This module knows lines and the original's line counts; the readings themselves are
two_readings.py's, the guards guards.py's.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.align import edge_edits
from fastapply.merge.decide.two_readings import two_readings
from fastapply.merge.result import MergeResult
from fastapply.merge.snippet.sections import line_label
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.conventions import Text, split_text
from fastapply.merge.text.lines import is_generic, run_starts

EXCERPT_MARKER = "// ... existing code ..."
EDGE_LINES = 3  # non-blank lines at each end of an excerpt, one of which must pin it, else `edge_holds`


def loose_edge(original: Sequence[str], snippet: Sequence[str]) -> str | None:
    """"first" or "last" when none of an excerpt's EDGE_LINES non-blank lines at that end is a
    distinctive line the original has exactly once (it can be fitted at many places)."""
    counts = Counter(line.strip() for line in original)
    shown = [line.strip() for line in snippet if line.strip()]

    def pinned(lines: list[str]) -> bool:
        return any(counts[l] == 1 and not is_generic(l) for l in lines)

    if not pinned(shown[:EDGE_LINES]):
        return "first"
    if not pinned(shown[-EDGE_LINES:]):
        return "last"
    return None


def edge_holds(original: Sequence[str], result: Sequence[str], snippet: Sequence[str], which: str) -> bool:
    """True when a merged excerpt's loose end (`which`: "first" or "last") is settled by the lines
    around the change nearest to it. Read from the loose end inwards, the excerpt must show:

    1. unchanged lines in the run the two files share from that end;
    2. then the change: new lines, or a replacement line for line or by edited copies (`_edits`);
    3. then, before any other change, an unchanged line the original has once, or a change that
       edits such a line (`edited_pin`); or new lines appended at the file's end after loose
       lines that end the original and occur there in a row once (`_run_once`).

    A merge that drops a non-blank original line (`dropped_lines`) is never settled."""
    counts = Counter(line.strip() for line in original)
    shown = [line.strip() for line in snippet if line.strip()]
    rows = [j for j, line in enumerate(result) if line.strip()]
    start = next(iter(run_starts([result[j].strip() for j in rows], shown)), None)
    if start is None:
        return False
    first, last = rows[start], rows[start + len(shown) - 1]
    if dropped_lines(original, result):
        return False
    if which == "last":  # read from the end: the mirror of the first end
        original, result = list(original)[::-1], list(result)[::-1]
        first, last = len(result) - 1 - last, len(result) - 1 - first
    # 1. The loose end lands on the original: it lies in the run both files share from that side.
    same = 0
    while same < min(len(original), len(result)) and original[same] == result[same]:
        same += 1
    if first >= same or last < same:
        return False
    # 2. The change right after that run, then 3. the unchanged lines up to the next change.
    ops = line_opcodes(original[same:], result[same:])
    if not ops or ops[0][0] == "equal":
        return False
    tag, i1, i2, j1, j2 = ops[0]
    old, new = original[same + i1 : same + i2], result[same + j1 : same + j2]
    if tag == "replace" and not _edits(old, new):
        return False  # it overwrites original lines it does not edit
    inner = next((op for op in ops[1:2] if op[0] == "equal"), None)
    if inner is None:
        appended = tag == "insert" and len(ops) == 1 and same + i1 == len(original)
        return appended and _run_once(original, result[first:same])
    _, _, _, k1, k2 = inner
    for j in range(same + k1, min(same + k2, last + 1)):
        text = result[j].strip()
        if counts[text] == 1 and not is_generic(text):
            return True
    return tag == "replace" and edited_pin(original, old, new)


def _run_once(original: Sequence[str], run: Sequence[str]) -> bool:
    """True when the non-blank lines `run` (an excerpt's loose lines that end the original, its
    new lines appended after them) occur in a row exactly once in the original, and are more
    than one generic line: `    }` `}` closing the file's only class pins the file's end."""
    texts = [l.strip() for l in original if l.strip()]
    want = [l.strip() for l in run if l.strip()]
    return bool(want) and not (len(want) == 1 and is_generic(want[0])) and len(run_starts(texts, want)) == 1


def edited_pin(original: Sequence[str], old: Sequence[str], new: Sequence[str]) -> bool:
    """True when one of a replacement's new lines reads as an edited copy (edge_edits.same_edit)
    of a replaced line the original has once, and of no other non-blank original line."""
    counts = Counter(line.strip() for line in original)
    return any(counts[o.strip()] == 1 and not is_generic(o.strip()) and n.strip() and edge_edits.same_edit(n, o)
               and sum(1 for x in original if x.strip() and edge_edits.same_edit(n, x)) == 1
               for o in old for n in new)


def _edits(old: Sequence[str], new: Sequence[str]) -> bool:
    """True when a replacement provably edits what it replaces: line for line, or every non-blank
    original line read as edited into one of its new lines (edge_edits.same_edit or similar)."""
    shown = [l for l in new if l.strip()]
    if len(shown) == sum(1 for l in old if l.strip()):
        return True
    return all(any(edge_edits.same_edit(n, o) or edge_edits.similar(n, o) for n in shown) for o in old if o.strip())


def dropped_lines(original: Sequence[str], result: Sequence[str]) -> int:
    """Non-blank original lines a merge drops: deleted ones, and those of a replacement beyond
    the non-blank lines that replace them."""
    dropped = 0
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        old = sum(1 for l in original[i1:i2] if l.strip())
        if tag == "delete":
            dropped += old
        elif tag == "replace":
            dropped += max(0, old - sum(1 for l in result[j1:j2] if l.strip()))
    return dropped


def read_excerpt(orig: Text, snip_lines: list[str], language: str | None, converted: bool) -> MergeResult:
    """Read a marker-free excerpt with a marker at each end (two_readings.two_readings);
    refuse when the original itself has the marker line, when the reading changes nothing, or
    when a loose end (`loose_edge`) is not settled by the merged file (`edge_holds`). A refusal keeps
    the reading's alternatives: the model path must know when its answer is one of them."""
    unmarked = ("the snippet has no `... existing code ...` markers and is not the whole file; "
                "mark the elided parts so it can be placed")
    if any(line == EXCERPT_MARKER for line in orig.lines):
        return MergeResult(None, unmarked, None, None, None)
    loose = loose_edge(orig.lines, snip_lines)
    result = two_readings(orig, [EXCERPT_MARKER, *snip_lines, EXCERPT_MARKER], language, converted)
    if loose is not None:
        if not result.merged:
            return MergeResult(None, f"{unmarked} ({_loose_note(loose, snip_lines)})", None, None, result.candidate,
                               result.regions, result.alternatives, result.choice)
        if not edge_holds(orig.lines, split_text(result.text).lines, snip_lines, loose):
            return MergeResult(None, f"{unmarked} ({_loose_note(loose, snip_lines)})", "lazy", result.rung,
                               result.text)
    if result.merged and split_text(result.text).lines == orig.lines:
        return MergeResult(None, "the snippet, read as an excerpt (it has no markers), changes nothing where it fits; "
                           "mark the elided parts and show the change with the lines around it", "lazy", None, None)
    if result.merged:
        return result
    reason = (result.refused_reason or "").replace("section 1 ", "the snippet ", 1)
    return MergeResult(None, f"{reason} (read as an excerpt: the snippet has no markers)", "lazy",
                       result.rung, result.candidate, result.regions, result.alternatives, result.choice)


def _loose_note(which: str, snip_lines: Sequence[str]) -> str:
    """Why a loose end is refused, naming its outermost line and what would settle it."""
    shown = [i for i, l in enumerate(snip_lines) if l.strip()]
    at = (shown[0] if which == "first" else shown[-1]) if shown else None
    line = line_label(snip_lines[at], snip_lines, at) if shown else "``"
    side = "above" if which == "first" else "below"
    return (f"its {which} lines match no unique line of the original: {line} could be several places; "
            f"start with a marker, or show a distinctive unchanged line {side} the change")
