"""Options for an unpinned section: original lines, none of which the file holds once (`return;`, `pass`).

Such a section has no place of its own: the merge puts it where the sections around it leave room,
a guess. A revision that settles the refused section and leaves an unpinned one as it was lets the
merge guess again (the retry wrote wrong files there), so a planner pins it too:

- `unpinned`: for each unpinned section between the placed ones around it
  (at most `window` original lines apart), the unchanged lines that pin it at each place its lines
  fit between them (it is context), and the lines that close it in at each place at its depth
  there (it is new: new_lines.depth_places).

This module builds options from an `Input` (reading.py); which refusal gets them is explain.py's.
"""

from __future__ import annotations

from fastapply.merge.refuse.new_lines import depth_places, settle
from fastapply.merge.refuse.options import pin_options
from fastapply.merge.refuse.reading import Input, between, run_at, section_places
from fastapply.merge.refuse.refusal import Option


def unpinned(inp: Input, window: int = 200) -> tuple[Option, ...]:
    """The options that pin each section with no line the file holds once (see the module docstring)."""
    places = section_places(inp)
    out: list[Option] = []
    for n, (a, b) in enumerate(inp.sections):
        content = [k for k in range(a, b + 1) if inp.snippet[k].strip()]
        if not content or places[n] is not None:
            continue
        lo, hi = between(inp, places, n)
        if hi - lo > window:
            continue
        texts = [inp.snippet[k].strip() for k in content]
        if not any(inp.counts.get(t) for t in texts):
            continue  # new lines only: new_lines.py's places, in the window the merge searched
        for p in run_at(inp.original, texts):
            if lo < p < hi:
                out.extend(o for o in pin_options(inp, content[0], p) if o not in out)
        for i in depth_places(inp, (a, b), lo + 1, hi):
            out.extend(o for o in settle(inp, (a, b), i, 1, ("after",)) if o not in out)
    return tuple(out)
