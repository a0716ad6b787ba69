"""Deletions inside a block the snippet shows whole.

A lazy snippet shows a deletion by showing the code around it. When the deleted lines sat inside
a bracketed block (`if (...) {` ... `}`) and the snippet shows that block from its opener to its
closer in one run, with no marker between, the snippet shows every line the block keeps: the
lines missing from it are deleted by the snippet itself, however generic the lines next to the
gap are (`opts = {};` and `}` after an `else if` branch was dropped).

`deletion_in_shown_block` is that test, for check_unshown_deletions (snippet_checks.py), which
asks it only for short deletions (SHOWN_GAP non-blank lines, as for a deletion shown by its two
neighbours): a planner that shows a block's opener, a changed line and its closer with no marker
may have meant the rest of a long body to stay. It knows
brackets (lines.bracket_balance, roughly: strings and line comments aside) and marker lines; it
does not know indentation blocks (Python), so a deletion inside a Python function is left to the
landmark rule.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.text.lines import bracket_balance, is_generic
from fastapply.merge.text.markers import is_marker


def enclosing_block(lines: Sequence[str], at: int) -> tuple[int, int] | None:
    """(opener, closer) indices of the innermost bracketed block around the gap before
    `lines[at]`: the nearest line above whose bracket left open, and the nearest line below that
    closes it; None when the gap is at top level or the brackets never balance."""
    depth, opener = 0, None
    for k in range(at - 1, -1, -1):
        depth += bracket_balance([lines[k]])
        if depth > 0:
            opener = k
            break
    if opener is None:
        return None
    depth = 0
    for k in range(at, len(lines)):
        depth += bracket_balance([lines[k]])
        if depth < 0:
            return opener, k
    return None


def deletion_in_shown_block(original: Sequence[str], result: Sequence[str], snippet: Sequence[str], at: int) -> bool:
    """True when the lines a merge deleted before `result[at]` sat inside a bracketed block that
    the snippet shows whole: its opener, every line the result keeps in it and its closer, in one
    run of the snippet with no marker between (blank lines aside). That run must lie in the result
    as it stands around the block, and hold a distinctive line the original and the result each
    have once (`_pins`), so it is this block the snippet shows, not a look-alike elsewhere (an
    `if (typeof opts === 'function') {` that two functions open is pinned by the
    `function got(url, opts, cb) {` the run starts with)."""
    span = enclosing_block(result, at)
    if span is None:
        return False
    rows = [k for k, line in enumerate(result) if line.strip()]
    texts = [result[k].strip() for k in rows]
    first, last = rows.index(span[0]), rows.index(span[1])
    block = texts[first : last + 1]
    once = _once(original, result)
    run: list[str] = []
    for line in [*snippet, "// ... existing code ..."]:
        if not is_marker(line):
            if line.strip():
                run.append(line.strip())
            continue
        for i in range(len(run) - len(block) + 1):
            lo = first - i
            if run[i : i + len(block)] == block and lo >= 0 and texts[lo : lo + len(run)] == run \
                    and any(l in once for l in run):
                return True
        run = []
    return False


def _once(original: Sequence[str], result: Sequence[str]) -> set[str]:
    """Distinctive lines (stripped) the original and the result each have exactly once."""
    before, after = Counter(l.strip() for l in original), Counter(l.strip() for l in result)
    return {l for l, n in after.items() if n == 1 and before[l] == 1 and len(l) >= 8 and not is_generic(l)}
