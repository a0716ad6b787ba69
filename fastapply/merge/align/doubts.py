"""Doubt at a section's edge: are new lines next to matched ones new, or changes of similar lines?

A section's lines beyond its matched run read as inserted unless the edge rules (edge_edits.py)
pair them with edited copies; merely similar ones make the merge refuse. This module settles or
explains that doubt:

- `replaces_gap`: a changed run bracketed on both sides by matched lines, where the original's
  gap between them is as long, line for line similar, and opens or closes no block;
- `settled_reading`: the snippet shows the same line changed the same way elsewhere;
- `doubt_note`: the refusal message, naming the line and the unchanged line that would settle it.

This module knows lines, brackets and indentation (and whole-file readings, as lines), not
sections, anchors or candidates (edges.py).
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.refuse.refusal import reason
from fastapply.merge.text.lines import blank_ends, bracket_balance, indent_width as _indent, is_generic, next_non_blank
from fastapply.merge.align.edge_edits import same_edit, similar
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.spans import apart, code, quote


def replaces_gap(region: Sequence[str], repl: Sequence[str], inner: Sequence[str],
                 outer: Sequence[str] | None) -> bool:
    """True when the new lines `repl`, shown between two runs of lines the section matches in
    the original (`inner`: the run grown from the anchor, `outer`: the run the edge closes on,
    both nearest line first; `outer` None: the file's end, for a last section without a marker
    after it), provably replace the original lines `region` between them.

    Proof: the region pairs with the replacement line for line (blank with blank, same
    indentation), its first non-blank pair alike; both balance to zero; none sits shallower than
    the bracketing runs; `outer` holds a non-blank line; the nearest non-blank line on one side
    is not generic. These keep out a new block inserted before its twin."""
    if outer is not None and (not region or len(region) != len(repl)):
        return False
    pairs = [(n, o) for n, o in zip(repl, region) if n.strip() or o.strip()]
    if not pairs or any(not n.strip() or not o.strip() or _indent(n) != _indent(o) for n, o in pairs):
        return False
    new, old = pairs[0]
    if not (new.strip() == old.strip() or same_edit(new, old) or similar(new, old)):
        return False
    if bracket_balance(region) != 0 or bracket_balance(repl) != 0:
        return False
    if outer is None:  # the file's end: its trailing blank lines say nothing
        region, repl = (list(x[: blank_ends(x)[1]]) for x in (region, repl))  # both hold a non-blank line
        if not region or len(region) != len(repl):
            return False
        sides = [next((l for l in inner if l.strip()), None), None]
    else:
        sides = [next((l for l in run if l.strip()), None) for run in (inner, outer)]
        if sides[1] is None:
            return False
    if all(l is None or is_generic(l) for l in sides):
        return False
    level = max(_indent(l) for l in sides if l is not None)
    return all(_indent(l) >= level for l in list(region) + list(repl) if l.strip())


def starts_alike(region: Sequence[str], repl: Sequence[str]) -> int | None:
    """Index in `region` of its first non-blank line when the first non-blank line of `repl` is
    alike (an edited copy or `similar`, not generic): a reading that replaces `region` by `repl`
    is then a real rival to one that inserts `repl` elsewhere. Nearest lines first."""
    i = next((k for k, l in enumerate(region) if l.strip()), None)
    new = next((l for l in repl if l.strip()), None)
    if i is None or new is None or is_generic(new) or new.strip() == region[i].strip():
        return None
    return i if same_edit(new, region[i]) or similar(new, region[i]) else None


def doubt_note(shown: str, original: Sequence[str], at: int, step: int) -> str:  # a refusal.Reason
    """The refusal message for a doubtful edge line `shown`, similar to `original[at]` (0-based):
    if `shown` is new, showing that original line unchanged next to it settles it; if it replaces
    that line, showing the unchanged line beyond it (`step` away from the section: +1 after a
    tail, -1 before a head) does."""
    line = apart(shown, original[at])
    old = apart(original[at], shown)
    beyond = next_non_blank(original, at + step, step)
    settle = f"the unchanged original line {at + 1} ({code(old)}) if it is new"
    if beyond is not None:
        settle += f", or line {beyond + 1} ({quote(original[beyond])}) if it replaces it"
    return reason("new-or-changed",
                  f"{code(line)} could be a new line or a change to the similar original line {at + 1} "
                  f"({code(old)}) next to it", f"include {settle}",
                  shown=shown.strip(), at=at, beyond=beyond, step=step)


def rival_note(shown: str, original: Sequence[str], at: int) -> str:
    """The refusal message when `shown` may be new or a change of the similar `original[at]`,
    a few lines from where it would be inserted (edges._rival)."""
    return (f"{code(apart(shown, original[at]))} could be a new line or a change to the similar original line {at + 1} "
            f"({code(apart(original[at], shown))}) near it; include the unchanged lines right around line {at + 1} "
            "if it changes that line, or the unchanged lines where it goes if it is new")


def settled_reading(original: Sequence[str], guess: Sequence[str], alternative: Sequence[str],
                    pair: tuple[int, str]) -> list[str] | None:
    """The rival reading `alternative` (the shown line `pair[1]` changes `original[pair[0]]`)
    when `guess` replaces another copy of that same original line by that same line, line for
    line: the same change shown twice. Else None. Measured: only the identical pair is evidence
    (the same token substitution: 4 of 7 wrong; the mirror, insertion: right in 2 of 33)."""
    at, shown = pair
    if not 0 <= at < len(original) or is_generic(shown) or is_generic(original[at]):
        return None  # `}` or `end` changed elsewhere says nothing about this one
    changed = (original[at].strip(), shown.strip())
    for tag, i1, i2, j1, j2 in line_opcodes(original, guess):
        if tag == "replace" and i2 - i1 == j2 - j1:
            if any(i1 + k != at and (original[i1 + k].strip(), guess[j1 + k].strip()) == changed
                   for k in range(i2 - i1)):
                return list(alternative)
    return None
