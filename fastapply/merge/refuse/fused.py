"""Options whose added lines overlap the next section: the two sections joined instead.

An option that pins a section adds the unchanged original lines out to one the file holds once
(options.py, new_lines.py). Where the section beside it across a marker already shows the first
(last) of those lines, or ends with a change of the first one (starts with a change of the last:
`catch (Exception)` for `catch (Exception e)`), the revised snippet shows them twice: once at the
end of the section above the marker and again at the start of the pinned one. No file reads that way (the marker keeps
original lines between two copies of the same lines), so such an option never says what a
planner means, though the place it pins is right (`private record Builder(...)` pinned by
`builder.TelemetryListener); }` while the section above ends with `builder.TelemetryListener);`).

`fused(inp, options)` gives, for each such option, the same edit with the sections joined: the
marker between them (and the blank lines around it) removed, and only the original lines the
section beside it does not already show added. The option's own pins stay as they are; the joined
variant comes after every option a refusal has, so a planner reading the fix, and a retry taking
the first option that agrees, meet the others first.

This module rewrites options from an `Input` (reading.py); it knows no refusal sentence or kind.
"""

from __future__ import annotations

import difflib

from fastapply.merge.refuse.reading import Input
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.lines import distinctive, is_generic


def _strip(lines: list[str]) -> list[str]:
    return [line.strip() for line in lines]


def _changed(shown: str, line: str) -> bool:
    """Whether the snippet line `shown` reads as a change of the original line `line` (alike, not
    the same): the section showing it already stands for that line (`catch (Exception)` for
    `catch (Exception e)`), so a pin that adds `line` next to it would show the line twice."""
    line = line.strip()
    return bool(line) and shown != line and distinctive(line) and not is_generic(line) and (
        difflib.SequenceMatcher(None, shown, line).ratio() >= 0.8)


def _above(inp: Input, edit: Edit) -> tuple[Edit, ...] | None:
    """The insert before snippet line `edit.at` joined to the section above the marker over it:
    (the rest of the insert, the removal of the lines between), or None where no section above
    ends with the insert's first lines."""
    k = edit.at - 2  # the snippet line right above the insert (0-based)
    while k >= 0 and not inp.snippet[k].strip() and k not in inp.markers:
        k -= 1
    if k < 0 or k not in inp.markers:
        return None
    top = k - 1
    while top >= 0 and not inp.snippet[top].strip() and top not in inp.markers:
        top -= 1
    if top < 0 or top in inp.markers:
        return None
    start = top  # the section above: its lines up to `top`
    while start > 0 and start - 1 not in inp.markers:
        start -= 1
    shown, ins = _strip(inp.snippet[start : top + 1]), edit.text.split("\n")
    for t in range(min(len(shown), len(ins) - 1), 0, -1):
        if (shown[len(shown) - t:] == _strip(ins[:t]) or t == 1 and _changed(shown[-1], ins[0])) and ins[t - 1].strip():
            rest = ins[t:]
            edits = (Edit("remove", start=top + 2, end=edit.at - 1),)
            if rest:
                edits += (Edit("insert", at=edit.at, text="\n".join(rest),
                               original_line=edit.original_line + t if edit.original_line else None),)
            return edits
    return None


def _below(inp: Input, edit: Edit) -> tuple[Edit, ...] | None:
    """The insert before snippet line `edit.at` joined to the section below the marker there, or
    None where no section below starts with the insert's last lines."""
    k = edit.at - 1  # the snippet line the insert goes before (0-based)
    while k < len(inp.snippet) and not inp.snippet[k].strip() and k not in inp.markers:
        k += 1
    if k >= len(inp.snippet) or k not in inp.markers:
        return None
    low = k + 1
    while low < len(inp.snippet) and not inp.snippet[low].strip() and low not in inp.markers:
        low += 1
    if low >= len(inp.snippet) or low in inp.markers:
        return None
    end = low  # the section below: its lines from `low`
    while end + 1 < len(inp.snippet) and end + 1 not in inp.markers:
        end += 1
    shown, ins = _strip(inp.snippet[low : end + 1]), edit.text.split("\n")
    for t in range(min(len(shown), len(ins) - 1), 0, -1):
        if (shown[:t] == _strip(ins[len(ins) - t:]) or t == 1 and _changed(shown[0], ins[-1])) and ins[len(ins) - t].strip():
            edits = (Edit("remove", start=edit.at, end=low),)
            return (Edit("insert", at=edit.at, text="\n".join(ins[: len(ins) - t]),
                         original_line=edit.original_line),) + edits
    return None


def fused(inp: Input, options: tuple[Option, ...]) -> tuple[Option, ...]:
    """For each option one of whose inserts overlaps the section across a marker from it (that
    section already shows the insert's first or last lines), the option with the two sections
    joined (see the module docstring); none for the others, none already among `options`."""
    out: list[Option] = []
    for option in options:
        edits, joined = [], []
        for edit in option.edits:
            if edit.action != "insert" or edit.text is None or edit.at is None:
                edits.append(edit)
                continue
            made = _above(inp, edit) or _below(inp, edit)
            if made is None:
                edits.append(edit)
            else:
                edits.extend(made)
                joined.extend(e for e in made if e.action == "remove")
        if not joined:
            continue
        removed = [k for e in joined for k in range(e.start, e.end + 1)]
        if len(removed) != len(set(removed)):
            continue  # two inserts would join across the same marker
        says = (option.says + "; the section beside it already shows the first (last) of those lines: "
                + ", ".join(f"remove snippet lines {e.start}-{e.end} (the marker between)" for e in joined)
                + " and add only the rest, so the two sections meet")
        made = Option(says, tuple(edits))
        if made not in options and made not in out:
            out.append(made)
    return tuple(out)
