"""new-or-changed doubts: the refusal of a shown line that may be new or a change of the similar
original line next to it, with the options that settle it.

`doubt_refusal(inp, sentence, detail)` reads the doubt from its site's data (align/doubts.doubt_note:
the shown line, the similar original line `at`, the line `beyond` it, `step` away from the section)
or from the sentence (sentences.DOUBT), and offers the unchanged original line to show on the
section's open side (`beside`) for each reading: line `at` if the shown line is new; the
line beyond it if it replaces `at`, with the file's blank lines between (the section stays a run of
the file). A doubt about a section's blank padding before a marker offers that padding's removal
(`options.trailing_blanks`). (Tried and not kept, seventeenth session: also the line beyond a longer
replaced run, "if it replaces original lines a-b": its retries made 3 wrong files on held-out seeds.)

It knows refusal sentences, snippets and the original's lines; it does not know how the merge
placed the section.
"""

from __future__ import annotations

import re

from fastapply.merge.align.edge_edits import same_edit
from fastapply.merge.align.greedy_locate import BLANK_END
from fastapply.merge.refuse.options import MAX_CONTEXT, open_side, reach, trailing_blanks
from fastapply.merge.refuse.reading import Input, find, section_of
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.sentences import DOUBT, FORM_FIX, SECTION, split_sentence
from fastapply.merge.text.lines import next_non_blank
from fastapply.merge.text.spans import code, cut, quote, unquoted


def doubt_refusal(inp: Input, sentence: str, detail: dict) -> Refusal | None:
    """new-or-changed: the site's detail (shown line, the similar original line `at`, the line
    `beyond` it, `step` away from the section) or the numbers its sentence gives."""
    m = DOUBT.search(sentence)
    if not detail and m is None:
        return None
    shown = detail.get("shown") if detail else unquoted(m.group(1))
    at = detail.get("at") if detail else int(m.group(2)) - 1
    beyond = detail.get("beyond") if detail else (int(m.group(4)) - 1 if m.group(4) else None)
    k = find(inp, shown)
    cause, fix = split_sentence(sentence)
    options = []
    if k is not None and at is not None and 0 <= at < len(inp.original):
        step = detail.get("step") if detail else None
        side = step if step in (1, -1) else open_side(inp, k)
        for line, what, past in ((at, "if it is new", None), (beyond, "if it replaces that line", at + side)):
            if line is None or not 0 <= line < len(inp.original):
                continue
            opt = beside(inp, k, line, side, what, past)
            if opt is not None:
                options.append(opt)
        longer = run_replaced(inp, k, at, side)
        if longer is not None and longer[1] != beyond:
            last, past_run = longer
            what = f"if it replaces original lines {min(at, last) + 1}-{max(at, last) + 1}"
            opt = beside(inp, k, past_run, side, what, last + side)
            if opt is not None and opt not in options:
                options.append(opt)
    if shown == BLANK_END:  # the section's blank padding before a marker is the doubt
        sec = SECTION.match(sentence)
        padding = trailing_blanks(inp, int(sec.group(1)) - 1) if sec else None
        if padding is not None:
            options.append(padding)
    lines = (inp.oline(at),) if at is not None and 0 <= at < len(inp.original) else ()
    snip = (inp.sline(k),) if k is not None else ()
    return Refusal("new-or-changed", cause, fix or FORM_FIX, lines, snip, tuple(options))


def run_replaced(inp: Input, k: int, at: int, side: int, slack: int = 2) -> tuple[int, int] | None:
    """Where the section's new run (from snippet line k to its open edge) ends in the original if it
    replaces a run from line `at`: the nearest original line past `at` (toward the open side, within as
    many lines as the run holds and `slack` more) that the run's edge line edits (`same_edit`: the same
    leading name; or the same name a call or signature opens with: `help(): void;` ->
    `help(cb?: ...): void;`), with the first non-blank original line beyond it. None where the run is
    one line, or no such line stands there, or nothing follows it."""
    sec = section_of(inp, k) or (k, k)
    run = range(k, sec[1] + 1) if side > 0 else range(k, sec[0] - 1, -1)
    texts = [j for j in run if inp.snippet[j].strip() and j not in inp.markers]
    if len(texts) < 2:
        return None
    edge = inp.snippet[texts[-1]]
    for step in range(1, len(texts) + slack + 1):
        line = at + side * step
        if not 0 <= line < len(inp.original):
            return None
        head = _head(inp.original[line])
        edits = same_edit(edge, inp.original[line]) or head is not None and head == _head(edge)
        if inp.original[line].strip() and edits:
            past = next_non_blank(inp.original, line + side, side)
            return None if past is None else (line, past)
    return None


_HEAD = re.compile(r"\s*(?:[A-Za-z_$][\w$]*\s+)*([A-Za-z_$][\w$]*)\s*[(<]")


def _head(line: str) -> str | None:
    """The name a call or signature line opens with (`help(): void;` and `help(cb?: ...): void;`:
    `help`), None for other lines."""
    m = _HEAD.match(line)
    return m.group(1) if m and len(m.group(1)) > 2 else None


def beside(inp: Input, k: int, line: int, side: int, what: str, blank_from: int | None = None) -> Option | None:
    """Show original `line` unchanged on the marker's side of snippet line k: at the edge of k's
    section (after its last line when `side` > 0, before its first line otherwise), since the
    section's lines from k to that edge are the new run the doubt is about. A `line` that pins no
    place comes with the original lines out to the nearest one that does (within MAX_CONTEXT), and
    with the blank original lines between it and `blank_from` (the first line past a run the section
    replaces: the file's own spacing after the change stays, so the section stays a run of it)."""
    text = inp.original[line]
    sec = section_of(inp, k) or (k, k)
    # a line that pins no place (`})`, a repeated line) comes with the original lines out to the
    # nearest one that does: alone it leaves the doubt where it was
    q = reach(inp, line, side if side in (1, -1) else 1, MAX_CONTEXT + 1)
    lo, hi = sorted((line, line if q is None else q))
    if blank_from is not None:
        between = range(min(blank_from, line), max(blank_from, line) + 1)
        if all(not inp.original[i].strip() for i in between if i != line):
            lo, hi = min(lo, blank_from), max(hi, blank_from)
    if (lo, hi) != (line, line):
        where = f"after snippet line {sec[1] + 1}" if side > 0 else f"before snippet line {sec[0] + 1}"
        said = [cut(inp.original[i]) for i in range(lo, hi + 1) if inp.original[i].strip()]
        blanks = hi - lo + 1 - len(said)
        quoted = (f"{code(said[0])} to {code(said[-1])}" if len(said) > 1 else
                  f"{code(said[0])}, with the blank line{'s' if blanks > 1 else ''} next to it")
        return Option(f"add the unchanged original lines {lo + 1}-{hi + 1} ({quoted}) {where} {what}",
                      (Edit("insert", at=sec[1] + 2 if side > 0 else sec[0] + 1,
                            text="\n".join(inp.original[lo : hi + 1]), original_line=lo + 1),))
    if side > 0:
        return Option(f"add the unchanged original line {line + 1} ({quote(text)}) after snippet line "
                      f"{sec[1] + 1} {what}", (Edit("insert", at=sec[1] + 2, text=text, original_line=line + 1),))
    return Option(f"add the unchanged original line {line + 1} ({quote(text)}) before snippet line "
                  f"{sec[0] + 1} "
                  f"{what}", (Edit("insert", at=sec[0] + 1, text=text, original_line=line + 1),))
