"""Explain a refusal: turn the merge's reason into a `Refusal` with numbered lines and options.

`explain(original, snippet, reason, candidate)` runs only when the instant merge refused. It
takes what the refusing site knew (the `Refusal` a site attached to its sentence, refusal.py's
`Reason`), or else reads the site's sentence, and adds what only the whole input shows:

- the snippet's line numbers (of the snippet as sent: options edit that text) and the original's;
- the real cause where the sentence names a symptom: sections whose unique lines are all found,
  but in another order than the snippet's, are "out-of-order" (order.py: the move that puts them
  in file order is the option); a section "not found" whose lines are in the original at another
  indentation says so;
- options: the unchanged original lines that pin each candidate place (ambiguous-place), the
  original lines that settle a doubtful one (new-or-changed: doubt.py), a generic edge line (`}`) the
  snippet may add round original code read as new (`_new_edge`), a marker where the merge drops
  code or where the snippet stops without one, the move (out-of-order); last, every section pinned
  where the scored alignment of the whole snippet reads it (`_with_aligned`);
- never a blank or lone bracket line as "the" line: the nearest distinctive one instead.

A sentence no rule here recognises keeps its words, with kind "form" (`FORM_FIX` as its fix when it
has no `;`). The input is read once (reading.py); the options are built by options.py.
This module decides nothing about merging; it only describes a refusal.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from fastapply.merge.align.scored import MAX_CELLS, align, reading_lines
from fastapply.merge.refuse.new_lines import new_block, new_places, new_sections, settle
from fastapply.merge.refuse.order import out_of_order
from fastapply.merge.refuse.options import (around, below, deleted_head, dropped, edge_markers, pin_options, reach,
                                            section_pins)
from fastapply.merge.refuse.readings import difference_options, gap_options, reading_pins
from fastapply.merge.refuse.doubt import doubt_refusal
from fastapply.merge.refuse.every_refusal import with_edges, with_weak
from fastapply.merge.refuse.reading import Input, find, quoted_at, read_input, section_of
from fastapply.merge.refuse.shown_copies import copies_shown
from fastapply.merge.refuse.sentences import (DOUBT, FORM_FIX, NAMED, PLACES, QUOTE, SECTION, section_number,
                                              split_sentence)
from fastapply.merge.refuse.shown_deletion import deletions_shown
from fastapply.merge.refuse.late_options import LATER_NEW, with_late
from fastapply.merge.refuse.refusal import Edit, Option, Refusal, attached
from fastapply.merge.text.quoting import numbered, placed_lines, placed_places
from fastapply.merge.text.lines import is_generic, nearest_distinctive
from fastapply.merge.text.spans import code, quote, readable, restored, unquoted



def _ambiguous(inp: Input, sentence: str) -> Refusal | None:
    m = PLACES.search(sentence)
    sec = SECTION.match(sentence)
    if m is None:
        return None
    places = [int(x) - 1 for x in re.findall(r"\d+", m.group(2))]
    k = None
    section = inp.sections[int(sec.group(1)) - 1] if sec and int(sec.group(1)) <= len(inp.sections) else None
    named = NAMED.match(sentence)
    if section is not None:
        a, b = section

        def quoted(text: str) -> list[int]:  # the section's lines the sentence quotes (cut short or not)
            return [j for j in quoted_at(inp.snippet, text) if a <= j <= b]

        if named and named.group(4) is not None:
            k = next(iter(quoted(named.group(4))), None)
        elif named:
            nb = next(iter(quoted(named.group(3))), None)
            if nb is not None:
                step = 1 if named.group(2) == "after" else -1
                named_at = set(quoted(named.group(1)))
                k = next((j for j in (range(nb + 1, b + 1) if step > 0 else range(nb - 1, a - 1, -1))
                          if j in named_at), None)
        else:
            k = a
    cause, fix = split_sentence(sentence)
    options = []
    if section is not None and not any(inp.counts.get(inp.snippet[j].strip()) for j in range(a, b + 1)):
        # a section of lines the original lacks, placed by lines it resembles: a pin on one side
        # leaves it new beside that line or a change of it; close it in on both sides, per reading
        for p in places:
            if 0 <= p < len(inp.original):
                options.extend(o for o in settle(inp, section, p) if o not in options)
    if k is not None:
        for p in places:
            if 0 <= p < len(inp.original):
                options.extend(pin_options(inp, k, p))
        if named and named.group(4) is None and section is not None:
            options.extend(o for o in _new_edge(inp, section, k, named.group(2), unquoted(named.group(3))) if o not in options)
    lines = tuple(inp.oline(nearest_distinctive(inp.original, p)) for p in places if 0 <= p < len(inp.original))
    sec = section_of(inp, k) if k is not None else None
    shown = (inp.sline(nearest_distinctive(inp.snippet[sec[0] : sec[1] + 1], k - sec[0]) + sec[0]),) if sec else ()
    if options:
        fix = ("add the unchanged lines that pin the place you mean: " +
               "; or ".join(o.says for o in options[:3]))
    return Refusal("ambiguous-place", cause, fix or FORM_FIX, lines, shown, tuple(options))


def _new_edge(inp: Input, section: tuple[int, int], k: int, side: str, next_to: str, limit: int = 6) -> tuple[Option, ...]:
    """A generic edge line (`}`, `end`) the sentence places `side` (after/before) the line `next_to`
    may be one the snippet adds (closing, or opening, a block it wraps round original code): the
    pins above read it as an original line. For each place of `next_to` in the original (at most
    `limit`), the original lines beyond it out to a line the file holds once, put beyond the
    section's edge, read it as new there."""
    a, b = section
    content = [j for j in range(a, b + 1) if inp.snippet[j].strip()]
    text = inp.snippet[k].strip()
    if not content or not is_generic(text) or k != (content[-1] if side == "after" else content[0]):
        return ()
    at = quoted_at(inp.original, next_to)
    out = []
    for i in at[:limit] if len(at) <= limit else ():
        step = 1 if side == "after" else -1
        q = reach(inp, i + step, step)
        if q is None:
            continue
        lo, hi = (i + 1, q) if step > 0 else (q, i - 1)
        where = f"below snippet line {b + 1}" if step > 0 else f"above snippet line {a + 1}"
        says = (f"add the unchanged original lines {lo + 1}-{hi + 1} {where} if {code(text)} (snippet line {k + 1}) "
                f"is new {side} original line {i + 1}")
        edits = below(inp, b, lo, hi) if step > 0 else (
            Edit("insert", at=a + 1, text="\n".join(inp.original[lo : hi + 1]), original_line=lo + 1),)
        out.append(Option(says, edits))
    return tuple(out)


_BLOCK = re.compile(r"^`(.*?)` could open a new block next to `(.*?)` or be that block changed")  # gate/siblings.py


def _not_found(inp: Input, sentence: str, window: tuple[int, int] | None = None) -> Refusal | None:
    """line-not-found: a section the merge could not place in the original lines `window` (the
    site's; the whole file when it gave none)."""
    sec = SECTION.match(sentence)
    if sec is None or "could not be found" not in sentence:
        return None
    n = int(sec.group(1)) - 1
    cause, fix = split_sentence(sentence)
    if n >= len(inp.sections):
        return Refusal("line-not-found", cause, fix or FORM_FIX)
    a, b = inp.sections[n]
    first = nearest_distinctive(inp.snippet[a : b + 1], 0) + a
    # lines that are in the original, but at another indentation
    by_text = {}
    for i, line in enumerate(inp.original):
        by_text.setdefault(line.strip(), i)
    moved = [(k, by_text[inp.snippet[k].strip()]) for k in range(a, b + 1)
             if inp.snippet[k].strip() and not is_generic(inp.snippet[k]) and inp.snippet[k].strip() in by_text
             and inp.original[by_text[inp.snippet[k].strip()]] != inp.snippet[k]]
    if moved and all(inp.original[i].rstrip() != inp.snippet[k].rstrip() for k, i in moved):
        k, i = moved[0]
        cause = (f"section {n + 1} (starting {quote(inp.snippet[first])}): its line "
                 f"{quote(inp.snippet[k])} is at original line {i + 1}, but at another indentation")
        return Refusal("line-not-found", cause, "indent the section's lines as the original has them",
                       (inp.oline(i),), (inp.sline(k),))
    present = [k for k in range(a, b + 1) if inp.snippet[k].strip() in by_text and not is_generic(inp.snippet[k])]
    if present:
        k = present[0]
        i = by_text[inp.snippet[k].strip()]
        cause = (f"section {n + 1} (starting {quote(inp.snippet[first])}) could not be placed after the "
                 f"previous section: its line {quote(inp.snippet[k])} is at original line {i + 1}, "
                 f"outside the span the sections around it leave")
        return Refusal("line-not-found", cause, fix or FORM_FIX, (inp.oline(i),), (inp.sline(k),))
    may = re.search(r"`([^`]*)` may change original line (\d+)", sentence)
    if may is not None:
        k = find(inp, may.group(1))
        at = int(may.group(2)) - 1
        if k is not None and 0 <= at < len(inp.original):
            sec = section_of(inp, k) or (k, k)
            width = sum(1 for j in range(sec[0], sec[1] + 1) if inp.snippet[j].strip())
            options = settle(inp, sec, at) + (settle(inp, sec, at, width)[:1] if width > 1 else ())
            options += tuple(o for o in around(inp, k, at) + new_sections(inp, sec) if o not in options)
            return Refusal("new-or-changed", cause, fix or FORM_FIX, (inp.oline(at),), (inp.sline(k),),
                           options + _new_places(inp, n, window, options))
    close = difflib.get_close_matches(inp.snippet[first].strip(), list(by_text), n=1, cutoff=0.6)
    lines = (inp.oline(by_text[close[0]]),) if close else ()
    return Refusal("line-not-found", cause, fix or FORM_FIX, lines, (inp.sline(first),), _new_places(inp, n, window))


def _new_places(inp: Input, n: int, window: tuple[int, int] | None, known: tuple[Option, ...] = ()) -> tuple[Option, ...]:
    """new_places for section n (in the site's `window`) and for every later section none of whose
    lines the original has: the merge stops at the first, and one revision should settle them all."""
    lo, hi = window if window is not None else (0, len(inp.original))
    seen = set(known)
    options = tuple(o for o in new_places(inp, inp.sections[n], lo, hi) if o not in seen)
    return options + _later_places(inp, n, lo, known + options)


def _later_places(inp: Input, n: int, lo: int = 0, known: tuple[Option, ...] = ()) -> tuple[Option, ...]:
    """new_places (from original line `lo` on) for every section after section n none of whose
    lines the original has: the merge stops at the first section it refuses, and the revision that
    settles that one should settle these too (else the second try stops at the next one)."""
    options: tuple[Option, ...] = ()
    seen = set(known)  # the options given so far (sets: a long file's sections offer hundreds of places)
    for later in inp.sections[n + 1 :]:
        if not any(inp.counts.get(inp.snippet[k].strip()) for k in range(later[0], later[1] + 1)):
            fresh = tuple(o for o in new_places(inp, later, lo) if o not in seen)
            options += fresh
            seen.update(fresh)
    return options


_KINDS = (  # sentence words -> kind, for the sites not converted one by one
    (re.compile(r"no longer parses|empty body|re-nested|balance their brackets|new closer|block comment|"
                r"indented deeper|more end line\(s\) than blocks it opens"), "unbalanced"),
    (re.compile(r"would appear|defined twice|kept twice|twice around|is defined \d+ times|overwritten"), "duplicate"),
    (re.compile(r"would change nothing|changes nothing|markers but no code to apply"), "no-change"),
    (re.compile(r"drops \d+ line|would delete \d+ lines|dropped it there|would remove the definition|"
                r"keeps lines the snippet|which would delete original lines"), "unshown-deletion"),
    (re.compile(r"first \d+ line\(s\)|start with the indented line|stops without a marker|without a marker while|"
                r"has no `\.\.\. existing code \.\.\.` markers|starts with new lines and no marker|"
                r"the snippet ends inside"), "would-delete-edge"),
    (re.compile(r"could be a new line|could open a new block|or be that block changed|may be new or|"
                r"could never run"), "new-or-changed"),
    (re.compile(r"places in the original|two ways|is new and the snippet shows no existing|defined \d+ times"),
     "ambiguous-place"),
    (re.compile(r"could not be found|overlaps the previous section|fits only at"), "line-not-found"),
)


_ORIGINAL_LINE = re.compile(r"(?<!snippet )\blines? (\d+)\b(?! of the merged file)")  # not a snippet's line


def _by_words(inp: Input, sentence: str, candidate: str | None) -> Refusal:
    cause, fix = split_sentence(sentence)
    kind = next((k for pattern, k in _KINDS if pattern.search(sentence)), "form")
    options: tuple[Option, ...] = ()
    if kind == "would-delete-edge":
        lead = bool(re.search(r"first \d+ line|indented line|first line|starts with new lines", sentence)) or (
            "markers" in sentence and "last line" not in sentence)
        trail = bool(re.search(r"final block|while the file goes on|last line|ends inside", sentence)) or (
            "markers" in sentence and "first line" not in sentence)
        if not inp.markers and (lead or trail):
            lead = trail = True  # the first marker makes both unmarked ends claim the file's edges
        if inp.markers and inp.markers[0] <= (inp.sections[0][0] if inp.sections else 0):
            lead = False
        options = edge_markers(inp, lead, trail)
        if not inp.markers and options:
            # markers alone leave a section whose edge lines the file has several times to a guess:
            # offer them with the unchanged lines that pin each place, first when the sentence says so
            # each edge's marker with the pins, or one edge's alone (the other may be the file's own edge)
            pinned = tuple(Option(f"{edge.says}, and {pin.says}", _around(inp, edge, pin))
                           for edge in options for pin in section_pins(inp, 0)[1])
            options = pinned + (() if "several places" in sentence else options)
    elif kind == "new-or-changed" and _BLOCK.search(sentence):
        options = new_block(inp, *map(unquoted, _BLOCK.search(sentence).groups()))
    elif kind in ("unshown-deletion", "duplicate"):
        options = dropped(inp, sentence, candidate) if kind == "unshown-deletion" else ()
    lines = tuple(inp.oline(nearest_distinctive(inp.original, int(x) - 1))
                  for x in _ORIGINAL_LINE.findall(sentence)[:4] if 0 < int(x) <= len(inp.original))
    snip = tuple(inp.sline(k) for k in (find(inp, q) for q in re.findall(QUOTE, sentence)[:3])
                 if k is not None and not is_generic(inp.snippet[k]))
    if options and not fix:
        fix = options[0].says
    return Refusal(kind, cause, fix or FORM_FIX, lines, snip, options)


def _around(inp: Input, edge: Option, pin: Option) -> tuple:
    """The edits of `edge` (markers at the snippet's start and/or end) and `pin`: a start marker
    before the pin's lines, an end marker after them."""
    head = next((k for k, line in enumerate(inp.snippet) if line.strip()), 0) + 1
    return (tuple(e for e in edge.edits if e.at <= head) + pin.edits
            + tuple(e for e in edge.edits if e.at > head))


def explain(original: str, snippet: str, sentence: str, candidate: str | None = None,
            language: str | None = None, readings: tuple[str, ...] = ()) -> Refusal:
    """The Refusal for the instant merge's refusal `sentence` of `snippet` on `original`;
    `candidate` and `readings` (the whole-file readings the merge refused between) are where
    the options pin the snippet's sections."""
    inp = read_input(original, snippet, language)
    refusal = with_weak(inp, with_edges(inp, _explain(inp, sentence, candidate, readings)))
    sentence = readable(sentence)  # (its data, if any, was read by _explain: `attached` needs the sentence as sent)
    refusal = copies_shown(inp, refusal, candidate)  # a duplicate the intent may mean: show the original's copy
    refusal = deletions_shown(inp, refusal, candidate, readings)  # a deletion the intent may mean: `-` lines
    refusal = with_late(inp, refusal, sentence)  # after every other option: the sentence stays as it was
    refusal = _with_aligned(inp, refusal)  # last: every section where the scored alignment reads it
    # the lines a refusal points at say where: never a blank line or a lone bracket (`{`, `];`) alone
    said = lambda text: restored(placed_lines(inp.original, readable(text)))
    # ... and a generic line the sentence quotes that nothing beside it places is numbered in the snippet
    told = lambda text, before="": restored(numbered(inp.snippet, inp.sections, placed_places(
        inp.original, placed_lines(inp.original, readable(text), bare=True)), readable(before)))
    cause = told(refusal.cause)
    return refusal.with_(original=tuple(x for x in refusal.original if not is_generic(x.text)),
                         snippet=tuple(x for x in refusal.snippet if not is_generic(x.text)),
                         cause=cause, fix=told(refusal.fix, cause + "; "),
                         options=tuple(replace(o, says=said(o.says)) for o in refusal.options))


def _with_aligned(inp: Input, refusal: Refusal) -> Refusal:
    """The refusal with, last, the pins of every section where the scored alignment of the whole
    snippet (align/scored.py) reads it (`readings.reading_pins`): a reading of every section at once,
    where the merge's own readings are often of one part or none (a refusal the merge could not place),
    so a planner who means it settles the whole snippet in one revision. Not for out-of-order (the move
    comes first) nor no-change (the reading of a snippet that changes nothing pins no change)."""
    if refusal.kind in ("out-of-order", "no-change") or len(inp.original) * len(inp.snippet) > MAX_CELLS:
        return refusal
    alignment = align(inp.original, inp.snippet)
    if alignment is None:
        return refusal
    reading = "\n".join(reading_lines(alignment, inp.original, inp.snippet))
    known = {frozenset(o.edits) for o in refusal.options}  # (each edit may be offered apart: their sum is new)
    extra = tuple(o for o in reading_pins(inp, reading) if frozenset(o.edits) not in known)
    return refusal.with_(options=refusal.options + extra) if extra else refusal


def _explain(inp: Input, sentence: str, candidate: str | None, readings: tuple[str, ...]) -> Refusal:
    readings = tuple(dict.fromkeys(r for r in (candidate, *readings) if r))
    site = attached(sentence)
    detail = site.detail if site is not None else {}
    sentence = readable(sentence)  # the patterns below match single-backtick spans (text/spans.py)
    if re.search(r"could not be found|places in the original|would appear|could be a new line|two ways", sentence):
        ordered = out_of_order(inp)
        if ordered is not None:
            # a section pinned by a line the intent copies or moves looks out of order too: after
            # the move, the options the sentence's own reading offers (the planner knows which holds)
            read = with_weak(inp, with_edges(inp, _read(inp, sentence, candidate, readings, site, detail)))
            return ordered.with_(options=ordered.options + tuple(o for o in read.options if o not in ordered.options))
    return _read(inp, sentence, candidate, readings, site, detail)


def _read(inp: Input, sentence: str, candidate: str | None, readings: tuple[str, ...], site, detail: dict) -> Refusal:
    """The Refusal the sentence (and the site's data) names, with its options."""
    for read in (lambda: doubt_refusal(inp, sentence, detail) if (site is not None and site.kind == "new-or-changed")
                 or DOUBT.search(sentence) else None,
                 lambda: _ambiguous(inp, sentence),
                 lambda: _not_found(inp, sentence, detail.get("window"))):
        found = read()
        if found is not None:
            return _with_pins(inp, sentence, found, readings)
    if site is not None and not site.options:
        made = _by_words(inp, sentence, candidate)
        if "dropped" in detail:  # the file's head the result drops: keep it (a marker) or delete it (`-` lines)
            head = deleted_head(inp, *detail["dropped"])
            made = made.with_(options=made.options + ((head,) if head is not None else ()))
        return _with_pins(inp, sentence, site.with_(original=site.original or made.original,
                                                    snippet=site.snippet or made.snippet, options=made.options),
                          readings)
    return _with_pins(inp, sentence, site if site is not None else _by_words(inp, sentence, candidate), readings)


PINNED = ("ambiguous-place", "new-or-changed", "duplicate", "line-not-found", "unshown-deletion", "unbalanced")
PLACES_ONLY = ("unbalanced",)  # pinned at each place its sections' edge lines fit, never where a reading put them
READ_PINNED = ("would-delete-edge",)  # pinned only where a reading put a section (not "unbalanced", "no-change":
# there the reading itself is what is doubted, and its places led the retry to wrong files)


def _with_pins(inp: Input, sentence: str, refusal: Refusal, readings: tuple[str, ...] = ()) -> Refusal:
    """The refusal with, after its own options, those that pin the section it names (every
    section when it names none) at each place its edge lines fit, and those that pin every
    section where each of the merge's untrusted readings (its candidate, its rival) put it."""
    if refusal.kind not in PINNED and refusal.kind not in READ_PINNED:
        return refusal
    n = section_number(sentence)
    extra: list[Option] = []
    readings = () if refusal.kind in PLACES_ONLY else readings
    for reading in readings:  # first: where the readings differ under a marker, or by one run, that settles it
        other = next((r for r in readings if r != reading), None)
        extra.extend(o for o in gap_options(inp, reading, other) if o not in extra)
    if len(readings) == 2:  # (an option making the same edits as one the refusal has is the same answer)
        same = {o.edits for o in refusal.options + tuple(extra)}
        extra.extend(o for o in difference_options(inp, *readings) if o.edits not in same)
    pins = [section_pins(inp, m) for m in ([n] if n is not None else range(len(inp.sections)))
            if refusal.kind in PINNED]  # (at the places the edge lines fit, and where a shorter part does too)
    for full, _ in pins:
        extra.extend(o for o in full if o not in refusal.options and o not in extra)
    known = {e for o in refusal.options + tuple(extra) for e in o.edits}
    for reading in readings:
        extra.extend(o for o in reading_pins(inp, reading) if not set(o.edits) <= known and o not in extra)
    # last, the places where only a shorter head (tail) of a section's lines stands: they must not
    # hide a reading's pins that share an edit with them (ftune2 623, 688 lost their right retry)
    for _, every in pins:
        extra.extend(o for o in every if o not in refusal.options and o not in extra)
    extra = extra[:30]
    if n is not None and refusal.kind in LATER_NEW:
        extra.extend(_later_places(inp, n, 0, refusal.options + tuple(extra)))
    if not extra:
        return refusal
    fix = refusal.fix if refusal.options else (refusal.fix + "; or " + extra[0].says if refusal.fix else extra[0].says)
    return refusal.with_(options=refusal.options + tuple(extra), fix=fix)
