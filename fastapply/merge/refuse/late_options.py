"""Options offered after every other option a refusal has (so its sentence and fix stay as they were).

`with_late(inp, refusal, sentence)` adds, by the refusal's kind (after the refusal's own options, but
`inserted_places`, which come first: the pins of a place the file holds as is settle nothing):

- ambiguous-place: `as_changes`, the section's first line read as a change of each listed place's line
  where that line stands unchanged elsewhere in the file;
- line-not-found: `fresh_places` and `reindented` (a section whose original lines stand only at
  another indentation, as a change of the run they stand in, or of the block they leave);
- no-change: `similar_changed`, the section as a change of each copy of the similar line the sentence
  names; `inserted_places`, each section that the file already holds as is pinned where its lines
  stand with some of them new between (the same addition made elsewhere, or meant for a twin);
- ambiguous-place and new-or-changed (`LATER_NEW`): `fresh_places` (new_lines.new_places for a
  section of mostly new lines), `all_new` (new_places for a section none of whose lines the
  original has) and `wrapped.wrapped` (a line added round an original one). (Unbalanced refusals
  were given them too in the twenty-fourth session: +3 right retries readable, +4 held out, and one
  held-out retry written wrong, so left out);
(retry14 also offered an option joined to the section across a marker, `fused.py`; it was removed at
merge: it made a retry write a wrong file on a held-out seed.)

It reads the refusal sentence (sentences.py) and the input (reading.py); it decides nothing about
merging.
"""

from __future__ import annotations

import re

from fastapply.merge.refuse.new_lines import new_places, settle
from fastapply.merge.refuse.options import below, reach
from fastapply.merge.refuse.reading import Input, find, quoted_at, section_of
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.sentences import NAMED, PLACES, section_number
from fastapply.merge.refuse.wrapped import wrapped
from fastapply.merge.text.lines import block_end, indent_width, is_generic, next_non_blank
from fastapply.merge.text.spans import cut, unquoted

LATER_NEW = ("ambiguous-place", "new-or-changed")  # also offered the places of later sections of new lines


def with_late(inp: Input, refusal: Refusal, sentence: str) -> Refusal:
    """`refusal` with the late options of its kind appended."""
    late: tuple[Option, ...] = ()
    n = section_number(sentence)
    if refusal.kind == "ambiguous-place":
        late += as_changes(inp, sentence)
    if refusal.kind in LATER_NEW:
        late += all_new(inp, n) + fresh_places(inp, n) + wrapped(inp)
    first: tuple[Option, ...] = ()
    if refusal.kind == "no-change":
        late += similar_changed(inp, sentence)
        first = tuple(o for o in inserted_places(inp) if o not in refusal.options)  # before the pins of the place held
    if refusal.kind == "line-not-found":
        late += fresh_places(inp, n) + reindented(inp, n)
    late = tuple(dict.fromkeys(o for o in late if o not in refusal.options and o not in first))
    return refusal.with_(options=first + refusal.options + late)


def fresh_places(inp: Input, n: int | None) -> tuple[Option, ...]:
    """new_places for section n when most of its lines (two in three) are new: a new block ends as
    blocks in the file do (`end`, `}`) and may repeat a comment line of a block like it, and those
    lines made it look like original code (a change of the block it copies from). Sections none
    of whose lines the original has get them elsewhere."""
    if n is None or n >= len(inp.sections):
        return ()
    a, b = inp.sections[n]
    texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
    held = [t for t in texts if inp.counts.get(t)]
    if not held or 3 * (len(texts) - len(held)) < 2 * len(texts) or len(texts) - len(held) < 2:
        return ()
    return new_places(inp, (a, b))


def all_new(inp: Input, n: int | None) -> tuple[Option, ...]:
    """new_places for section n when the original has none of its lines: the refusal names where its
    first line fits (or the similar line beside it), but a section of new lines may also change the
    line most like its last one (a list item added before one that gains a trailing comma) or a run
    of lines (two doc lines rewrapped)."""
    if n is None or n >= len(inp.sections):
        return ()
    a, b = inp.sections[n]
    if any(inp.counts.get(inp.snippet[k].strip()) for k in range(a, b + 1)):
        return ()
    return new_places(inp, (a, b))


_SIMILAR = re.compile(r"`(.*?)` is already in the file, and so is the similar `(.*?)`, which it may mean to change")


def similar_changed(inp: Input, sentence: str) -> tuple[Option, ...]:
    """A no-change refusal whose line is in the file and like another original line it may mean to
    change (the sentence names both): the lines that close the section in as a change of each copy
    of that similar line (new_lines.settle), at most 6."""
    m = _SIMILAR.search(sentence)
    k = find(inp, m.group(1)) if m else None
    sec = section_of(inp, k) if k is not None else None
    if sec is None:
        return ()
    first = next((j for j in range(sec[0], sec[1] + 1) if inp.snippet[j].strip()), None)
    if first != k:
        return ()  # settle reads the section's first line as the changed one
    at = quoted_at(inp.original, m.group(2))
    out: list[Option] = []
    for p in at[:6]:
        out.extend(o for o in settle(inp, sec, p, 1, ("changed",)) if o not in out)
    return tuple(out)


def inserted_places(inp: Input, limit: int = 4) -> tuple[Option, ...]:
    """For each section whose lines the file holds as a run already (the merge placed it there, a
    change of nothing), the other places where its lines stand in order with some of them missing
    between its first and its last (those lines are new there: the same lines added to a twin
    docstring, a twin test), at most `limit` places: the unchanged original lines that pin the
    section there, above its first line and below its last, out to a line the file holds once."""
    out: list[Option] = []
    for a, b in inp.sections:
        shown = [k for k in range(a, b + 1) if inp.snippet[k].strip()]
        if len(shown) < 3:
            continue
        places = [fit for p, line in enumerate(inp.original)
                  if line.strip() == inp.snippet[shown[0]].strip() and (fit := _fits_with_new(inp, shown, p))]
        if not any(fit[2] == 0 for fit in places):
            continue  # not held as is: the refusal is about something else
        places = [fit for fit in places if fit[2]]
        if not places or len(places) > limit:
            continue
        for first, last, _ in places:
            top, bottom = reach(inp, first - 1, -1), reach(inp, last + 1, +1)
            if top is None or bottom is None:
                continue
            edits = (Edit("insert", at=a + 1, text="\n".join(inp.original[top:first]), original_line=top + 1),
                     ) + below(inp, b, last + 1, bottom)
            option = Option(f"add the unchanged original lines {top + 1}-{first} above snippet line {a + 1} and "
                            f"{last + 2}-{bottom + 1} below snippet line {b + 1} if the section goes at original lines "
                            f"{first + 1}-{last + 1}, where its other lines stand", edits)
            if option not in out:
                out.append(option)
    return tuple(out)


def _fits_with_new(inp: Input, shown: list[int], p: int) -> tuple[int, int, int] | None:
    """Where the snippet lines `shown` (a section's non-blank lines) stand from original line p on,
    in order, every original line between them shown (blank lines aside) and some shown lines
    missing there (new ones; at most as many as stand), its first and last shown lines among those
    that stand: (first, last, how many are new), else None."""
    i, new = p, 0
    for n, k in enumerate(shown):
        while 0 < n and i < len(inp.original) and not inp.original[i].strip():
            i += 1
        if i < len(inp.original) and inp.original[i].strip() == inp.snippet[k].strip():
            last, i = i, i + 1
        elif n in (0, len(shown) - 1):
            return None
        else:
            new += 1
    return (p, last, new) if 2 * new <= len(shown) else None


def as_changes(inp: Input, sentence: str) -> tuple[Option, ...]:
    """An ambiguous section whose first line is new text that stands unchanged elsewhere in the
    file (`res.render('user.jade');` where the intent drops the `{}` of `res.render('user.jade', {});`
    at one of the places the sentence lists): at each listed place whose line it is not, the lines
    that close it in as a change of that line (new_lines.settle). The one-sided pins read it as a
    new line there, and the pins of `_ambiguous`'s lines-the-original-lacks case are not offered
    because the original has the line."""
    m, n = PLACES.search(sentence), section_number(sentence)
    if m is None or n is None or n >= len(inp.sections):
        return ()
    a, b = inp.sections[n]
    first = next((j for j in range(a, b + 1) if inp.snippet[j].strip()), None)
    named = NAMED.match(sentence)
    if first is None or not inp.counts.get(inp.snippet[first].strip()) or (
            named and named.group(4) is not None and unquoted(named.group(4)).strip() != cut(inp.snippet[first])):
        return ()  # a section of lines the original lacks has them in `_ambiguous` already
    if named and named.group(4) is None:
        return ()  # the line named is an edge next to another line, not the section's first
    out: list[Option] = []
    for p in (int(x) - 1 for x in re.findall(r"\d+", m.group(2))):
        if 0 <= p < len(inp.original) and inp.original[p].strip() != inp.snippet[first].strip():
            out.extend(o for o in settle(inp, (a, b), p, 1, ("changed",)) if o not in out)
    return tuple(out)


def reindented(inp: Input, n: int | None, spread: int = 2, each: int = 2) -> tuple[Option, ...]:
    """A section n whose original lines stand in the file only at another indentation (a block
    wrapped in a new `if`, or unwrapped from one): the section rewrites the run those lines stand in.
    For each place of its first such line (at most `each`), where the other such lines follow in the
    file's order, the lines that close the section in as a change of that run, reaching up to `spread`
    more original lines on each side where the section has lines of its own above (below) them
    (two lines may become one: `if a:` / `if b:` joined; new_lines.settle); and where the lines stand
    deeper than the section writes them, alone in one block, the change of that whole block (`_unwrapped`:
    `if x {` / the line / `}` -> the line, the block's opener and closer gone)."""
    if n is None or n >= len(inp.sections):
        return ()
    a, b = inp.sections[n]
    content = [k for k in range(a, b + 1) if inp.snippet[k].strip()]
    same = {line.rstrip() for line in inp.original}
    moved = [k for k in content if inp.counts.get(inp.snippet[k].strip()) and not is_generic(inp.snippet[k])
             and inp.snippet[k].rstrip() not in same]
    if not moved:
        return ()
    first, last = moved[0], moved[-1]
    above, below = sum(1 for k in content if k < first), sum(1 for k in content if k > last)
    out: list[Option] = []
    for i in [i for i, line in enumerate(inp.original) if line.strip() == inp.snippet[first].strip()][:each]:
        j = i  # the place of the last such line: each follows the one before in the file's order
        for k in moved[1:]:
            j = next((q for q in range(j + 1, len(inp.original)) if inp.original[q].strip() == inp.snippet[k].strip()),
                     None)
            if j is None:
                break
        if j is None:
            continue
        for up in range(spread + 1 if above else 1):
            for down in range(spread + 1 if below else 1):
                lo, hi = i - up, j + down
                if 0 <= lo and hi < len(inp.original):
                    out.extend(o for o in settle(inp, (a, b), lo, hi - lo + 1, ("changed",)) if o not in out)
        if (block := _unwrapped(inp, i, j, first)) is not None:
            lo, hi = block
            out.extend(o for o in settle(inp, (a, b), lo, hi - lo + 1, ("changed",)) if o not in out)
    return tuple(out)


def _unwrapped(inp: Input, i: int, j: int, first: int) -> tuple[int, int] | None:
    """Where original lines i..j stand deeper than the snippet writes them and make up the whole body
    of one block (`if cond {` / the lines / `}`): that block's [opener, last closing line], the run a
    section that unwraps them rewrites. None elsewhere."""
    depth = indent_width(inp.original[i])
    if depth <= indent_width(inp.snippet[first]):
        return None
    opener = next_non_blank(inp.original, i - 1, -1)
    if opener is None or indent_width(inp.original[opener]) >= depth:
        return None
    end = block_end(inp.original, opener) - 1
    after = next_non_blank(inp.original, j + 1)
    if end <= j or after is None or after > end or not is_generic(inp.original[after]):
        return None  # the block holds more than the lines, or does not close right after them
    return opener, end
