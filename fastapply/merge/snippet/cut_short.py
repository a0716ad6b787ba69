"""A marker-free snippet whose last definition is cut short: its first lines only, up to the snippet's end.

In Python a definition cut after its first body lines still parses, so `definitions.py` would
replace the original one with it, deleting the rest. `cut_short` names that case, so instant.py
reads the snippet as an excerpt instead. Definitions are compared from their header line (a
decorator or comment the snippet adds above it does not hide the cut).

This module knows definitions as objects with `key`, `start` and `end` (definitions.Definition,
flattened), and lines; it does not parse.
"""

from __future__ import annotations

from typing import Sequence


def cut_short(snip_lines: Sequence[str], snip_defs: Sequence, original: Sequence[str],
              orig_defs: Sequence) -> str | None:
    """A refusal reason when a definition running into the snippet's end (`snip_defs`, all of
    them, nested ones included) is the first lines of the original's one of its name and nothing
    more; else None."""
    if not snip_defs:
        return None
    end = max(d.end for d in snip_defs)
    if any(l.strip() for l in snip_lines[end:]):
        return None
    for last in (d for d in snip_defs if d.end == end):
        theirs = _only(orig_defs, last.key)
        if theirs is None:
            continue
        mine = _from_header([l.strip() for l in snip_lines[last.start : last.end] if l.strip()], last.key[-1])
        old = _from_header([l.strip() for l in original[theirs.start : theirs.end] if l.strip()], last.key[-1])
        if mine and len(mine) < len(old) and old[: len(mine)] == mine:
            return (f"the snippet ends inside `{mine[0]}`, which the original goes on after (`{old[len(mine)]}`): "
                    "add a marker after it, or show the definition whole")
    return None


def _from_header(lines: list[str], name: str) -> list[str]:
    """`lines` from the first one naming the definition (its header): a decorator, annotation
    or comment above it, which the snippet may add, is not part of what it cuts short."""
    return next((lines[i:] for i, line in enumerate(lines) if name in line), lines)


def _only(defs: Sequence, key: tuple[str, ...]):
    """The one definition whose key ends with `key` (a method shown without its class), or None."""
    found = [d for d in defs if d.key[-len(key):] == key]
    return found[0] if len(found) == 1 else None
