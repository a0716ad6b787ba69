"""The two answers to a replaced-kept refusal: the new line replaces the old one, or both stay.

`gate/orphans.check_replaced_kept` refuses a merged file that keeps an unshown original assignment
or import right beside an inserted line that may replace it (`detail["replaced"]`: the old line's
original number, the new line as merged, and whether the old one comes first). Its sentence says
what to do; `with_replaced_options(refusal, original, snippet)` adds the two edits that do it,
beside the statement the snippet's one line equal to the new line starts (above it where the old
line stands above, below its last line otherwise):

- the old statement (its line and those it runs over while its brackets are open) as `-` lines,
  if the new one replaces it: the snippet is then a lazy snippet with diff lines
  (snippet/sections.py), whose counts make the merge delete it;
- the old statement as unchanged lines of the snippet, if both stay: shown, it is no longer code the
  snippet does not show.

None is added where the snippet holds the new line other than once. This module knows the refusal's
detail and the snippet's lines; which answer the planner means is the planner's.
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.text.lines import bracket_balance

MAX_STATEMENT = 12  # lines an old statement may run over (its brackets still open)


def with_replaced_options(refusal: Refusal, original: str, snippet: str) -> Refusal:
    """`refusal` with the two answers of the module docstring after its own options, where its
    detail carries a replaced-kept pair and the snippet shows the new line once."""
    found = refusal.detail.get("replaced")
    if found is None:
        return refusal
    number, new, old_first = found
    lines, old = snippet.splitlines(), original.splitlines()
    spots = [k for k, line in enumerate(lines) if line.strip() == new.strip()]
    if len(spots) != 1 or not 1 <= number <= len(old):
        return refusal
    last = spots[0] + len(_statement(lines, spots[0]))  # 1-based: the new statement's last line
    at = spots[0] + 1 if old_first else last + 1  # 1-based snippet line the old statement goes before
    side = f"right above snippet line {spots[0] + 1}" if old_first else f"right below snippet line {last}"
    statement = _statement(old, number - 1)
    text = "\n".join(statement)
    which = f"line {number}" if len(statement) == 1 else f"lines {number}-{number + len(statement) - 1}"
    options = (
        Option(f"show the original {which} as `-` lines {side} if the new line replaces it",
               (Edit("deleted", at=at, text=text, original_line=number),)),
        Option(f"add the unchanged original {which} {side} if both stay",
               (Edit("insert", at=at, text=text, original_line=number),)),
    )
    return refusal.with_(options=refusal.options + tuple(o for o in options if o not in refusal.options))


def _statement(lines: Sequence[str], k: int) -> list[str]:
    """lines[k] and the lines after it while the brackets it opens stay open (at most MAX_STATEMENT
    lines): the whole statement that starts there."""
    end = k + 1
    while end < len(lines) and end - k < MAX_STATEMENT and bracket_balance(lines[k:end]) > 0:
        end += 1
    return list(lines[k:end]) if bracket_balance(lines[k:end]) <= 0 else [lines[k]]
