"""Options for a refusal of the instruction's gate: a definition the instruction removes, still defined.

`gate/intent.py` refuses a merged file that keeps every line of a definition the instruction says to
remove (its refusal carries `detail["removes"]`: the defining original line). The snippet never
showed that deletion; the planner, who knows it meant it, shows it the way the snippet convention
reads a deletion: the unchanged lines just above and just below the definition, one after the other.

`removal_options(refusal, original, snippet, language)` returns the refusal with those options:

- the definition's lines: from its defining line (or the doc comment, decorators and annotations
  right above it, a blank line between a `*/` and the definition included) to the end of its block
  (`text/lines.block_end`, trailing blank lines left out), with one blank line next to it where
  both sides have one (two blank lines would be left where there was one);
- around them, the original lines up to one the file holds once on each side (at most
  `options.MAX_CONTEXT`), put in the snippet between the sections around the definition's place:
  after the section that already ends with the line above it, before the one that already starts
  with the line below it, or else as a section of its own between markers;
- a definition one of the snippet's sections pins inside gets no option (the snippet shows it).

It decides nothing and changes no sentence: which option agrees with the intent is the planner's.
This module knows the refused input (reading.py); it does not know the instruction's words.
"""

from __future__ import annotations

from fastapply.merge.refuse.options import indented, reach
from fastapply.merge.refuse.reading import Input, read_input, section_places
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.text.lines import block_end, indent_width

_DOC = ("@", "//", "#", "/*", "*", "///")


def _head(lines: list[str], k: int) -> int:
    """The first line of the doc comment, decorators and annotations right above line k (k when none)."""
    width, i = indent_width(lines[k]), k
    while i > 0:
        j = i - 1
        if not lines[j].strip() and j > 0 and lines[j - 1].strip().endswith("*/"):
            j -= 1  # a blank line between a doc comment and its definition
        text = lines[j].strip()
        if not text or not text.startswith(_DOC) or indent_width(lines[j]) not in (width, width + 1):
            return i
        i = j
    return i


def _spans(lines: list[str], k: int) -> list[tuple[int, int]]:
    """The definition at line k as deletions [lo, hi] (inclusive): with its doc comment, then without."""
    end = block_end(lines, k) - 1
    while end > k and (not lines[end].strip() or lines[end].strip().startswith(_DOC)):
        end -= 1  # block_end's closing lines may reach the next definition's doc comment (`/**`)
    out = []
    for lo in dict.fromkeys((_head(lines, k), k)):
        hi = end
        if lo > 0 and not lines[lo - 1].strip() and hi + 1 < len(lines) and not lines[hi + 1].strip():
            hi += 1  # one of the two blank lines around it goes with it
        out.append((lo, hi))
        for d in range(1, 4):  # the same deletion one line on, where the line after it repeats its first
            if hi + d >= len(lines) or lines[lo + d - 1].strip() != lines[hi + d].strip():
                break
            out.append((lo + d, hi + d))
    return list(dict.fromkeys(out))


def _content(inp: Input, k: int) -> list[str]:
    a, b = inp.sections[k]
    return [inp.snippet[j].strip() for j in range(a, b + 1) if inp.snippet[j].strip()]


def _options(inp: Input, lo: int, hi: int) -> list[Option]:
    """The ways to show the deletion of original lines lo..hi (module docstring)."""
    top, bottom = reach(inp, lo - 1, -1), reach(inp, hi + 1, +1)
    if top is None or bottom is None:
        return []
    places = section_places(inp)
    if any(p is not None and lo <= p <= hi for p in places):
        return []
    prev = max((n for n, p in enumerate(places) if p is not None and p < lo), default=None)
    nxt = min((n for n, p in enumerate(places) if p is not None and p > hi), default=None)
    ups = [i for i in range(top, lo) if inp.original[i].strip()]  # content lines above, in order
    downs = [i for i in range(hi + 1, bottom + 1) if inp.original[i].strip()]
    says = (f"show the deletion of original lines {lo + 1}-{hi + 1}: add the unchanged original lines "
            f"{top + 1}-{lo} and {hi + 2}-{bottom + 1} one after the other")
    out: list[Option] = []
    # a section before the place that already ends with the lines above (and perhaps the first below)
    before = (nxt - 1 if nxt is not None else len(inp.sections) - 1)
    if inp.sections and before >= 0 and (prev is None or before >= prev):
        have = _content(inp, before)
        for j in range(len(downs), -1, -1):
            head = [inp.original[i].strip() for i in downs[:j]]
            tail = have[len(have) - j :] if j else []
            # the section crosses the deletion: the line before the lines below is the last above
            if tail != head or not ups or len(have) <= j or have[len(have) - j - 1] != inp.original[ups[-1]].strip():
                continue
            start = downs[j - 1] + 1 if j else ups[-1] + 1
            lines = inp.original[start : bottom + 1] if j else inp.original[start:lo] + inp.original[hi + 1 : bottom + 1]
            if j < len(downs):
                b = inp.sections[before][1]
                out.append(Option(f"{says} (below snippet line {b + 1})", (Edit(
                    "insert", at=b + 2, text="\n".join(lines), original_line=start + 1),)))
            break
    # a section after the place that already starts with the lines below (and perhaps the last above)
    after = prev + 1 if prev is not None else 0
    if after < len(inp.sections) and (nxt is None or after <= nxt):
        have = _content(inp, after)
        for j in range(len(ups), -1, -1):
            tail = [inp.original[i].strip() for i in ups[len(ups) - j :]] if j else []
            if have[:j] != tail or not downs or len(have) <= j or have[j] != inp.original[downs[0]].strip():
                continue
            lines = inp.original[top : ups[len(ups) - j]] if j else inp.original[top:lo] + inp.original[hi + 1 : downs[0]]
            if j < len(ups):
                a = inp.sections[after][0]
                out.append(Option(f"{says} (above snippet line {a + 1})", (Edit(
                    "insert", at=a + 1, text="\n".join(lines), original_line=top + 1),)))
            break
    if out:
        return out
    if prev is not None and nxt is not None and nxt != prev + 1:
        return []  # a section without a place between them: where the lines go is a guess
    if nxt is not None:
        at = inp.sections[nxt][0] + 1
        if not any(inp.is_marker(k) for k in range(inp.sections[prev][1] + 1 if prev is not None else 0, at - 1)):
            return []
    elif inp.markers and inp.markers[-1] > (inp.sections[prev][1] if prev is not None else -1):
        at = inp.markers[-1] + 2
    else:
        return []
    text = "\n".join(inp.original[top:lo] + inp.original[hi + 1 : bottom + 1])
    return [Option(f"{says} (a section of its own before snippet line {at})",
                   (Edit("insert", at=at, text=text, original_line=top + 1),
                    Edit("marker", at=at, text=indented(inp.marker, inp.original[lo]))))]


def removal_options(refusal: Refusal, original: str, snippet: str, language: str | None = None) -> Refusal:
    """`refusal` with the options that show the deletion of the definition it names (module docstring);
    unchanged when it names none or no option fits."""
    k = refusal.detail.get("removes")
    if not isinstance(k, int) or refusal.options:
        return refusal
    inp = read_input(original, snippet, language)
    if not 0 <= k < len(inp.original):
        return refusal
    options = tuple(dict.fromkeys(o for lo, hi in _spans(inp.original, k) for o in _options(inp, lo, hi)))
    return refusal.with_(options=options) if options else refusal
