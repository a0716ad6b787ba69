"""What a lazy snippet says beyond its lines, and the readings that honour it.

`read_lazy` runs the instant merge's two readings (two_readings.two_readings, passed in as `read`)
on a lazy snippet, first as its author meant it where the snippet implies more than it writes:

- **renamed headers** (renames.py): the snippet placed with the original header in a renamed
  one's place, written when it merges and keeps the body its marker elides
  (renames.check_bodies_kept); else the snippet is read as written;
- **an implied end marker** (sections.close_open_end), only after a refusal: applied to every
  snippet it turned one planner-dev row wrong and one held-out row refused, for no row gained.

This module knows the order of readings; where sections go is lazy.py's and greedy.py's
business, and which of two readings is written is two_readings.two_readings'.
"""

from __future__ import annotations

from typing import Callable

from fastapply.merge.snippet import renames, sections
from fastapply.merge.text.conventions import Text, split_text


def read_lazy(orig: Text, snip_lines: list[str], language: str | None, converted: bool,
              diff_snippet: list[str] | None, read: Callable):
    """The instant merge's result for a lazy snippet (`read`: two_readings.two_readings, which takes
    `renames=`)."""
    found = renames.find_renames(orig.lines, snip_lines) if diff_snippet is None else []
    if found:
        renamed = read(orig, snip_lines, language, converted, renames=found)
        if _keeps_bodies(orig, renamed, snip_lines, found):
            return renamed
    result = read(orig, snip_lines, language, converted, diff_snippet)
    closed = sections.close_open_end(snip_lines, orig.lines)
    if not result.merged and diff_snippet is None and closed != snip_lines:
        again = read(orig, closed, language, converted, renames=found)
        if found and not _keeps_bodies(orig, again, closed, found):
            again = read(orig, closed, language, converted)
        result = again if again.merged else result
    return result


def _keeps_bodies(orig: Text, result, snip_lines: list[str], found: list[renames.Rename]) -> bool:
    """A reading with renamed headers merged and kept the bodies their markers elide."""
    return result.merged and renames.check_bodies_kept(orig.lines, split_text(result.text).lines, snip_lines,
                                                       found) is None
