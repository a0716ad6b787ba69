"""Options for sections of new lines: where a section the original does not hold may go, closed in.

A section none of whose lines the original has (or whose first line only resembles one) has no
place the merge can find; a planner settles it by adding the unchanged original lines on both
sides of the place it means. The options here offer that for each place a planner most likely
means:

- `settle`: a section like original line `at`, closed in for each reading (it changes that line
  or lines, is new after it, is new before it);
- `new_sections`: `settle` for every other such section, by the original line most like its first
  (`similar_line`);
- `new_places`: `settle` at the lines most like the section's first line (as is, and with string and
  number literals emptied: a changed hash keeps its line's shape) and after the lines sharing most
  of its names, within the window the merge searched; after each place at its depth; as a change of
  the lines `changed_places` names (the line keeping its first or last line's head, the one most
  like its last line) and, for one new line, of each line at its depth;
- `new_block`: a new block whose opener may rename an original one (gate/siblings.py's doubt): the
  original opener shown after it (that block stays), or shown as a `-` line above it (renamed).

This module builds options from an `Input` (reading.py); which refusal gets them is explain.py's.
"""

from __future__ import annotations

import difflib
import re

from fastapply.merge.refuse.options import pad_after, reach
from fastapply.merge.refuse.reading import Input, quoted_at, unique
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.text.compare import most_alike
from fastapply.merge.text.lines import block_end, bracket_balance, indent_width, is_generic, next_non_blank
from fastapply.merge.text.spans import quote


def similar_line(inp: Input, text: str) -> int | None:
    """The original line most like `text` (difflib ratio of the stripped lines, at least 0.6), or
    None when there is none or two are as like it."""
    want = text.strip()
    if len(want) < 5:
        return None
    lines = ((i, got) for i, line in enumerate(inp.original) if (got := line.strip()) and got != want)
    at = most_alike(want, lines, 0.6)
    return at[0] if len(at) == 1 else None


def new_sections(inp: Input, but: tuple[int, int] | None = None) -> tuple[Option, ...]:
    """`settle`'s options for every section (other than `but`) whose lines the original does not
    have at all, by the original line most like its first line: a snippet that sends one such
    section without context mostly sends others, and one revision should settle them all."""
    out: list[Option] = []
    for sec in inp.sections:
        a, b = sec
        texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
        if sec == but or not texts or any(inp.counts.get(t) for t in texts):
            continue
        at = similar_line(inp, texts[0])
        if at is not None:
            out.extend(settle(inp, sec, at) + (settle(inp, sec, at, len(texts))[:1] if len(texts) > 1 else ()))
    return tuple(out)


def settle(inp: Input, sec: tuple[int, int], at: int, width: int = 1,
           readings: tuple[str, ...] = ("changed", "after", "before")) -> tuple[Option, ...]:
    """Options for a section of new lines (snippet indexes `sec`) whose first line is like
    original line `at`: the unchanged original lines that close it in on both sides (on one
    side up to a line the file holds once, on the other the nearest non-blank line), outside the
    section's own blank lines, for each reading a planner may mean: it changes original lines
    `at`..`at + width - 1`, it is new after `at`, or new before it. The two runs bracket the
    section, so the merge reads the change (or insertion) between them."""
    a, b = sec
    n = len(inp.original)
    # the section's own blank lines next to it are its spacing: the lines closing it in go outside them
    above, under = a, b + pad_after(inp, b)
    while above > 0 and not inp.snippet[above - 1].strip() and above - 1 not in inp.markers:
        above -= 1
    head = not any(m < a for m in inp.markers)  # nothing above the section: it starts the file
    tail = not any(m > b for m in inp.markers)  # nothing below: it ends the file
    out = []
    for reading, top, bottom, what in (
            ("changed", at - 1, at + width, f"if it changes original line{'s' if width > 1 else ''} "
                                            f"{at + 1}{f'-{at + width}' if width > 1 else ''}"),
            ("after", at, at + 1, f"if it is new after original line {at + 1}"),
            ("before", at - 1, at, f"if it is new before original line {at + 1}")):
        if reading not in readings:
            continue
        if not (0 <= top < n or head and top < 0) or not (0 <= bottom < n or tail and bottom >= n):
            continue
        spans = []
        if top < 0 or bottom >= n:  # the file's edge closes the section in on that side
            spans.append((top + 1, reach(inp, bottom, +1)) if top < 0 else (reach(inp, top, -1), bottom - 1))
        else:
            hi, lo = reach(inp, top, -1), next_non_blank(inp.original, bottom, +1)
            if hi is None:  # pinned below instead: the line above only closes the section in
                hi, lo = next_non_blank(inp.original, top, -1), reach(inp, bottom, +1)
            elif lo is not None and not unique(inp, lo):
                # a closing line below that pins no place (` *`, `}`) leaves the section's end to the
                # merge's guess: first offer the lines out to one the file holds once there too
                wide = reach(inp, bottom, +1)
                if wide is not None and wide != lo:
                    spans.append((hi, wide))
            spans.append((hi, lo))
        for hi, lo in spans:
            if hi is None or lo is None:
                continue
            out.extend(_closing(inp, above, under, top, bottom, hi, lo, what))
    return tuple(out)


def _closing(inp: Input, above: int, under: int, top: int, bottom: int, hi: int, lo: int, what: str) -> list[Option]:
    """The option that adds original lines hi..top above snippet line `above` and bottom..lo below
    `under` (either side may add nothing), said with `what` (the reading)."""
    edits, words = [], []
    if hi <= top:
        edits.append(Edit("insert", at=above + 1, text="\n".join(inp.original[hi : top + 1]), original_line=hi + 1))
        words.append(f"the unchanged original lines {hi + 1}-{top + 1} above snippet line {above + 1}")
    if bottom <= lo:
        edits.append(Edit("insert", at=under + 2, text="\n".join(inp.original[bottom : lo + 1]),
                          original_line=bottom + 1))
        words.append(f"{'' if edits[:-1] else 'the unchanged original lines '}{bottom + 1}-{lo + 1} below snippet "
                     f"line {under + 1}")
    return [Option(f"add {' and '.join(words)} {what}", tuple(edits))] if edits else []


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_LITERAL = re.compile(r""""[^"]*"|'[^']*'|\b[0-9][0-9a-fA-F.xX_]*\b""")


def _shape(line: str) -> str:
    """The line with its string and number literals emptied: a changed hash, version or message
    keeps the shape of the line it replaces."""
    return _LITERAL.sub(lambda m: m.group(0)[0] * 2 if m.group(0)[0] in "\"'" else "0", line)


def new_places(inp: Input, sec: tuple[int, int], lo: int = 0, hi: int | None = None, each: int = 3) -> tuple[Option, ...]:
    """`settle`'s options for a section none of whose lines the original has, at the places in the
    original lines lo..hi-1 (the window the merge searched) a planner most likely means: it
    changes one of the `each` lines most like its first line (as it is, and with `_shape`'s
    literals emptied; that line alone, as many lines as the section has, or the rest of the block
    body it stands in, `_rest_of_body`), or it is new after one of the `each` lines that share most of its names
    (identifiers) with the line and its successor, or it changes that successor (not a generic line,
    nor one the snippet shows). Each option closes the section in with the unchanged lines there, so
    it has one place."""
    hi = len(inp.original) if hi is None else min(hi, len(inp.original))
    a, b = sec
    texts = [inp.snippet[k].strip() for k in range(a, b + 1) if inp.snippet[k].strip()]
    lines = [i for i in range(max(lo, 0), hi) if inp.original[i].strip()]
    if not texts or not lines:
        return ()
    like = []
    for shaped in (lambda x: x, _shape):
        like.extend(i for i in _most_like(inp, texts[0], lines, each, shaped) if i not in like)
    names = set(_WORD.findall(" ".join(texts)))
    near = []
    for n, i in enumerate(lines):
        around = set(_WORD.findall(inp.original[i])) | (set(_WORD.findall(inp.original[lines[n + 1]]))
                                                         if n + 1 < len(lines) else set())
        shared = len(names & around)
        if shared:
            near.append((-shared, i, lines[n + 1] if n + 1 < len(lines) else None))
    shown = {line.strip() for k, line in enumerate(inp.snippet) if line.strip() and k not in inp.markers}
    out: list[Option] = []
    for i in like:
        out.extend(o for o in settle(inp, sec, i, 1, ("changed",)) if o not in out)
        if len(texts) > 1:
            out.extend(o for o in settle(inp, sec, i, len(texts), ("changed",)) if o not in out)
            rest = _rest_of_body(inp, i)
            if 1 < rest != len(texts) and not shown & {line.strip() for line in inp.original[i : i + rest]}:
                out.extend(o for o in settle(inp, sec, i, rest, ("changed",)) if o not in out)
    for _, i, nxt in sorted(near)[:each]:
        out.extend(o for o in settle(inp, sec, i, 1, ("after",)) if o not in out)
        if nxt is not None and not is_generic(inp.original[nxt]) and inp.original[nxt].strip() not in shown:
            out.extend(o for o in settle(inp, sec, nxt, 1, ("changed",)) if o not in out)
    at_depth = depth_places(inp, sec, lo, hi)
    for i in at_depth:
        out.extend(o for o in settle(inp, sec, i, 1, ("after",)) if o not in out)
    # a line the snippet shows is kept (or moved), never the one a section of new lines replaces:
    # the merge reads the snippet's copy as that original line (abl202 389, 403: retry-made wrong files)
    for i, width in changed_places(inp, texts, lines, each):
        if not shown & {line.strip() for line in inp.original[i : i + width]}:
            out.extend(o for o in settle(inp, sec, i, width, ("changed",)) if o not in out)
    if len(texts) == 1:  # one new line may replace any line at its depth (a comment for a call), not a `{`
        depth = next(indent_width(inp.snippet[k]) for k in range(a, b + 1) if inp.snippet[k].strip())
        for i in at_depth:
            line = inp.original[i]
            if indent_width(line) == depth and line.strip() and not is_generic(line) and line.strip() not in shown:
                out.extend(o for o in settle(inp, sec, i, 1, ("changed",)) if o not in out)
    return tuple(out)


def _rest_of_body(inp: Input, i: int, limit: int = 16) -> int:
    """How many original lines from line i to the end of the block body it stands in: out to the
    last line before one indented less than line i (a block's closer, the next definition), blank
    lines at the end left out; 1 where that is more than `limit` lines. A section of new lines like
    the first statement of a short body mostly rewrites the whole of it."""
    depth, last = indent_width(inp.original[i]), i
    for j in range(i + 1, min(i + limit + 1, len(inp.original))):
        if not inp.original[j].strip():
            continue
        if indent_width(inp.original[j]) < depth:
            return last - i + 1
        last = j
    return 1


_KEY = re.compile(r"^(.*?[A-Za-z_][A-Za-z0-9_]*\s*(?:[:+\-*/.|&]?=(?!=)|\())")


def _key(text: str) -> str | None:
    """The head a changed line keeps: its text up to the first assignment (`version =`,
    `x +=`, `key:` is not one) or call / definition bracket (`private record Builder(`), when it
    holds a name of 3 characters or more; None when it has none."""
    m = _KEY.match(text.strip())
    return m.group(1) if m and _WORD.search(m.group(1)) else None


def _statement_width(inp: Input, i: int, limit: int = 16) -> int:
    """How many original lines the statement starting at line i spans: out to the line where its
    brackets balance (`private record Builder(` ... `TelemetryListener? Listener);`), 1 when
    they never do within `limit` lines."""
    if bracket_balance([inp.original[i]]) <= 0:
        return 1
    for j in range(i + 1, min(i + limit, len(inp.original))):
        if bracket_balance(inp.original[i : j + 1]) <= 0:
            return j - i + 1
    return 1


def changed_places(inp: Input, texts: list[str], lines: list[int], each: int = 3) -> list[tuple[int, int]]:
    """Original lines (and how many from there) a section of new lines may change where no line
    is alike by ratio: a changed line keeps its head (an assignment's target, a call's or
    definition's name: `version = "2.0"` -> `version = project.property(...)`; a statement
    spread over lines written as one: all its lines), and a rewritten run mostly ends as the
    line it replaces does (the section's last line keyed or most like an original one: 6 new
    lines for `return implode(...)`). Among `lines` (the window's non-blank lines); at most `each` of each."""
    out: list[tuple[int, int]] = []
    for text, whole in ((texts[0], True), (texts[-1], False)) if len(texts) > 1 else ((texts[0], True),):
        key = _key(text)
        if key is None:
            continue
        keyed = [i for i in lines if inp.original[i].strip().startswith(key) and inp.original[i].strip() != text]
        out.extend(p for i in keyed[:each] if len(keyed) <= each
                   and (p := (i, _statement_width(inp, i) if whole else 1)) not in out)
    if len(texts) > 1:
        out.extend((i, 1) for i in _most_like(inp, texts[-1], lines, each) if (i, 1) not in out)
    return out


def _most_like(inp: Input, text: str, lines: list[int], each: int, shaped=lambda x: x) -> list[int]:
    """The (at most `each`) original `lines` most like `text` by difflib ratio, at least 0.5, best
    first (ties in file order), both read through `shaped`."""
    m = difflib.SequenceMatcher(None, autojunk=False)
    m.set_seq2(shaped(text))
    scored = []
    for i in lines:
        m.set_seq1(shaped(inp.original[i].strip()))
        if m.real_quick_ratio() >= 0.5 and m.quick_ratio() >= 0.5 and m.ratio() >= 0.5:
            scored.append((-m.ratio(), i))
    return [i for _, i in sorted(scored)[:each]]


def depth_places(inp: Input, sec: tuple[int, int], lo: int = 0, hi: int | None = None, limit: int = 256) -> list[int]:
    """The original lines (in lo..hi-1) a section of new lines may be new after, at its own depth:
    each line right before an original line indented as the section's first line (the line above
    it, and its blank line if one stands between them, for the spacing), at most `limit` of them
    (the first and the last half). A planner told to show the lines around its change adds them
    at the place it means; these are the places that change could stand, so one of them is it.
    (64 places left a change in the middle of a long file unoffered: 256 since the twenty-fourth
    session, +12 right after one retry of 447 context-free refusals on the tuning sets.)"""
    hi = len(inp.original) if hi is None else min(hi, len(inp.original))
    first = next((inp.snippet[k] for k in range(sec[0], sec[1] + 1) if inp.snippet[k].strip()), None)
    if first is None:
        return []
    depth = indent_width(first)
    ats: list[int] = []
    for j in range(max(lo, 1), hi):
        if not inp.original[j].strip() or indent_width(inp.original[j]) != depth:
            continue
        above = j - 1
        while above >= 0 and not inp.original[above].strip():
            above -= 1
        ats.extend(i for i in dict.fromkeys((above, j - 1, j)) if 0 <= i and i not in ats)
    return ats if len(ats) <= limit else ats[: limit // 2] + ats[len(ats) - (limit - limit // 2):]


def new_block(inp: Input, new: str, old: str) -> tuple[Option, ...]:
    """The option for a new block (snippet opener `new`) the merge read as the original block `old`
    (both openers as the sentence quotes them, whole or marked cut: reading.quoted_at) changed: the original opener, a line the file holds
    once, after the new block if that block stays (yours is new). It goes where the new block and
    its blank lines end, before the marker there (none when other lines follow it: they would
    split them). For "yours replaces it" (the block renamed): the original opener as a `-` line right
    above the new one, which the sibling gate reads as the opener shown replaced (the lines after
    `old`'s block, which it still doubts when they follow the new block, are not offered)."""
    ks = [j for j in quoted_at(inp.snippet, new) if j not in inp.markers]
    ats = quoted_at(inp.original, old)
    if len(ks) != 1 or len(ats) != 1 or not unique(inp, ats[0]):
        return ()
    k, at = ks[0], ats[0]
    renames = Option(f"show the original line {at + 1} ({quote(inp.original[at])}) as a `-` line right above "
                     f"snippet line {k + 1} if yours replaces that block's opener (the block is renamed)",
                     (Edit("deleted", at=k + 1, text=inp.original[at], original_line=at + 1),))
    end = block_end(inp.snippet, k)
    while end < len(inp.snippet) and not inp.snippet[end].strip() and end not in inp.markers:
        end += 1
    if end >= len(inp.snippet) or end not in inp.markers:
        return (renames,)
    return (Option(f"add the unchanged original line {at + 1} ({quote(inp.original[at])}) before "
                   f"snippet line {end + 1} if that block stays (yours is new)",
                   (Edit("insert", at=end + 1, text=inp.original[at], original_line=at + 1),)), renames)
