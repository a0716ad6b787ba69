"""How a refusal sentence quotes lines, so that every line it points at can be found by the snippet's writer.

An agent answering a refusal has the original file and its own snippet, not the merged file the
merge refused to write, and a line quoted as `}`, `end`, `*` or a blank line locates nothing in
either. The rules, applied to every refusal sentence and option (refuse/explain.py calls
`placed_lines` last; gate/parses.py calls `where_in_inputs`, gate/snippet_checks.py `placed`):

- `placed(lines, i)`: an original line that is generic (text.lines.is_generic: a blank line, brackets
  alone, a lone keyword) is quoted with its nearest distinctive line: "`*`, below `* @param x`".
  `placed_lines` rewrites every "line N (`...`)" of a sentence so (the original's line N, when the
  quote is that line and it is generic); in a refusal's sentence (not its options, `bare`) also a
  bare "original line N" of a generic line: "original line 26 (a blank line, below `var a;`)"; a
  distinctive line whose first WIDTH characters are generic (`*` and the spaces before a comment) is
  quoted by its end: "line 208 (ending `// passed to addEventListener`)".
- `numbered(snippet, sections, text)`: a generic line a sentence quotes that nothing beside it
  places is said with the snippet line it is, where the words pin one ("section 2 (starting `/**`
  at snippet line 6)", "the line `})` (snippet line 4) matches 2 places"); refuse/explain.py calls it
  on the sentence last.
- `placed_places(original, text)`: a generic line said to match several places is said with each
  place placed ("lines 118 (`})`, below `x`), 324 (...)"); refuse/explain.py calls it on the sentence.
- `one_line_ranges`: "lines 24-24" is "line 24", "24-24 before" is "24 before".
- `where_in_inputs(original, result, snippet, r)`: line r of a merged file, said as the original
  line it keeps or the snippet line that wrote it (its nearest distinctive line, quoted), else as a
  line of the merged file; `placed_in_inputs` quotes line r itself, a generic one with that place.

This module knows line texts and numbers; it decides nothing and reads no refusal's data.
"""

from __future__ import annotations

import re
from typing import Sequence

from fastapply.merge.text.compare import line_opcodes, origins
from fastapply.merge.text.lines import is_generic, nearest_distinctive
from fastapply.merge.text.spans import CUT, WIDTH, code, cut, quote, unquoted

_LINE_QUOTE = re.compile(r"\bline (\d+) \(`([^`\n]*)`\)")
_ONE_LINE = re.compile(r"\blines (\d+)-\1\b")
_ONE_MORE = re.compile(r"(?<![\w.`-])(\d+)-\1(?![\w`-])")  # "... and 9-9 below ...", "deletes: 9-9 before ..."
_QUOTED = re.compile(r"(`[^`\n]*`)")
# an original line number said as a pointer (not an edit's place, nor a candidate place); evaluation/pointing.py too
LINE_POINTER = (r"(?<!place )(?<!place at )(?:original line|, or line|near line|at line|at original line) (\d+)"
                r"(?![-\d])(?! (?:above|below) snippet)")
_BARE_LINE = re.compile(LINE_POINTER + r"(?! \()")  # ... said bare
# a quote placed by the distinctive line after it ("`}`, below `return a`"), or numbered ("`}` (snippet line 4)")
PLACED_BY = re.compile(r",?\s*(?:after|before|below|above)\s+`([^`\n]*)`")
NUMBERED_AFTER = re.compile(r"(?: at | \()snippet line \d+")


def placed(lines: Sequence[str], i: int) -> str:
    """Line i quoted, and, when it is generic, placed by its nearest distinctive line."""
    text = cut(lines[i], WIDTH)
    head = code(text) if text else "a blank line"
    if not is_generic(lines[i]):
        return head
    j = nearest_distinctive(lines, i)
    if j == i:
        return head
    return f"{head}, {'below' if j < i else 'above'} {quote(lines[j], WIDTH)}"


def placed_lines(original: Sequence[str], text: str, bare: bool = False) -> str:
    """`text` (read with spans.readable) with each "line N (`q`)" whose q is the original's generic
    line N placed (`placed`), with `bare` each bare "original line N" (or "near line N", "at line N")
    whose line is generic followed by it placed ("original line 26 (a blank line, below `var a;`)"),
    and one-line ranges said as one line. A number that says where an edit goes ("above snippet line
    2") or names a candidate place ("the place at original line 9") is left as it is."""
    def one(match: re.Match) -> str:
        i = int(match.group(1)) - 1
        if not 0 <= i < len(original):
            return match.group(0)
        head, whole = cut(original[i], WIDTH), original[i].strip()
        if head != unquoted(match.group(2)).strip():
            return match.group(0)
        end = whole if len(whole) <= WIDTH else CUT + whole[-WIDTH:].strip()
        if not is_generic(original[i]) and is_generic(head.removesuffix(CUT)) and not is_generic(end.removeprefix(CUT)):
            return f"line {i + 1} (ending {code(end)})"  # its start cut to `*` and spaces
        if not is_generic(original[i]) or nearest_distinctive(original, i) == i:
            return match.group(0)
        return f"line {i + 1} ({placed(original, i)})"

    def one_bare(match: re.Match) -> str:
        i = int(match.group(1)) - 1
        if not 0 <= i < len(original) or not is_generic(original[i]) or nearest_distinctive(original, i) == i:
            return match.group(0)
        return f"{match.group(0)} ({placed(original, i)})"
    parts = _QUOTED.split(_LINE_QUOTE.sub(one, one_line_ranges(text)))
    if not bare:
        return "".join(parts)
    return "".join(part if k % 2 else _BARE_LINE.sub(one_bare, part) for k, part in enumerate(parts))


# how a sentence says a line matches several places; refuse/sentences.PLACES reads it
PLACES_SAID = r"matches (\d+) places in the original \(lines ([\d, .]+)\)"
_AMBIGUOUS = re.compile(r"(\(starting `([^`\n]*)`[^()]*\): )?((?:the line )?`([^`\n]*)`) " + PLACES_SAID)


def placed_places(original: Sequence[str], text: str) -> str:
    """`text` (read with spans.readable) with each generic line said to match several places ("the
    line `})` matches 2 places in the original (lines 118, 324)") said with each place `placed`
    ("(lines 118 (`})`, below `x`), 324 (`})`, below `y`))"); when that line is the first line the
    section's label already quotes ("section 1 (starting `})`): the line `})` matches"), the
    section is the subject ("it matches"). Other sentences are left as they are."""
    def one(m: re.Match) -> str:
        line = unquoted(m.group(4)).strip()
        nums = [int(n) for n in m.group(6).split(",") if n.strip().isdigit()]
        if not is_generic(line) or not nums or any(
                not 0 < n <= len(original) or cut(original[n - 1], WIDTH) != line for n in nums):
            return m.group(0)
        subject = "it" if m.group(1) and unquoted(m.group(2)).strip() == line else m.group(3)
        places = ", ".join(f"{n} ({placed(original, n - 1)})" for n in nums)
        more = ", ..." if "..." in m.group(6) else ""
        return (f"{m.group(1) or ''}{subject} matches {m.group(5)} places in the original "
                f"(lines {places}{more})")
    return _AMBIGUOUS.sub(one, text)


def one_line_ranges(text: str) -> str:
    """"lines 24-24" said as "line 24", and any other one-line range "24-24" as "24" ("... and 24-24
    below", "as `-` lines: 24-24 before snippet line 3"); quoted code is left as it is."""
    parts = _QUOTED.split(text)
    return "".join(part if k % 2 else _ONE_MORE.sub(r"\1", _ONE_LINE.sub(r"line \1", part))
                   for k, part in enumerate(parts))


def where_in_inputs(original: str | Sequence[str], result: str | Sequence[str], snippet: str | Sequence[str] | None,
                    r: int, nearest: bool = True) -> str:
    """Where line r (0-based) of the merged `result` is, in the lines the snippet's writer has:
    "original line M (`text`)" for a kept original line, "snippet line K (`text`)" for a line the
    snippet wrote, else "line r of the merged file (`text`)". The line said is r's nearest
    distinctive one (`nearest`), or r itself."""
    res, orig, snip = (_lines(t) for t in (result, original, snippet))
    if not 0 <= r < len(res):
        return f"line {r + 1} of the merged file"
    k = nearest_distinctive(res, r) if nearest else r
    text = cut(res[k], WIDTH)
    at = _counterpart(orig, res, k)
    if at is not None:
        return f"original line {at + 1} ({code(text)})"
    at = _counterpart(snip, res, k) if snip else None
    if at is not None:
        return f"snippet line {at + 1} ({code(text)})"
    return f"line {k + 1} of the merged file ({code(text)})"


def placed_in_inputs(original: str | Sequence[str], result: str | Sequence[str], snippet: str | Sequence[str] | None,
                     r: int) -> str:
    """Line r (0-based) of the merged `result` quoted; a generic one (`end`, `}`) with where it stands in
    the lines the writer has: "`}`, below `return a` (original line 40)" for a kept original line,
    "`end` (snippet line 21)" for one the snippet wrote, else quoted alone."""
    res, orig, snip = (_lines(t) for t in (result, original, snippet))
    text = res[r].strip()
    if not is_generic(text):
        return quote(text, 50)
    at = _counterpart(orig, res, r)
    if at is not None:
        return f"{placed(orig, at)} (original line {at + 1})"
    at = _counterpart(snip, res, r) if snip else None
    return quote(text, 50) + (f" (snippet line {at + 1})" if at is not None else "")


def _lines(text: str | Sequence[str] | None) -> list[str]:
    if text is None:
        return []
    return text.split("\n") if isinstance(text, str) else list(text)


def _counterpart(lines: list[str], res: list[str], k: int) -> int | None:
    """The line of `lines` that result line k is, by the merge's line diff (text/compare.line_opcodes) of
    the texts as they are (so that of two `end` lines the one at k's indentation is k's), else of the
    stripped texts (a line the merge reindented)."""
    for norm in (str.rstrip, str.strip):
        at = origins(line_opcodes([norm(x) for x in lines], [norm(x) for x in res])).get(k)
        if at is not None:
            return at
    return None


_SECTION_NAMED = re.compile(r"\bsection (\d+)\b")
_LINE_BEFORE = re.compile(r"(?:\blines? |\), )\d+(?:-\d+)? \($")  # "line 12 (`}`)", "lines 3 (`x`), 35 (`x`)"
_QUOTE_BEFORE = re.compile(r"`([^`\n]*)`\s*(after|before|and)\s*$")


def numbered(snippet: Sequence[str], sections: Sequence[tuple[int, int]], text: str, before: str = "") -> str:
    """`text` (read with spans.readable) with each generic line it quotes that nothing beside it
    places said with the snippet line it is: "section 2 (starting `/**` at snippet line 6)", "the
    line `})` (snippet line 4) matches 2 places". The line is looked up where the words put it: in the
    section the text last named ("section K", `sections`: its inclusive snippet index range), or
    right after the line a quote before it names ("between `x` and `end`"), else in the whole
    snippet; a quote that is no one line there (none, or several alike) is left as it is, and so is
    one an original line number says ("line 12 (`}`)"). `before`: the words the text follows (a
    sentence's cause, for its fix), read for where they put a line, not rewritten."""
    out: list[str] = []
    last = 0
    for m in _QUOTED.finditer(text):
        quoted = unquoted(m.group(1)[1:-1]).strip()
        if not quoted or quoted in ("-", "+") or not is_generic(quoted):
            continue
        after = PLACED_BY.match(text, m.end())
        if (after and not is_generic(unquoted(after.group(1)))) or NUMBERED_AFTER.match(text, m.end()) \
                or _LINE_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
            continue
        k = _snippet_line(snippet, sections, before + text[: m.start()], quoted)
        if k is None:
            continue
        starting = text[: m.start()].endswith("(starting ")
        out.append(text[last : m.end()] + (f" at snippet line {k + 1}" if starting else f" (snippet line {k + 1})"))
        last = m.end()
    return "".join(out) + text[last:]


def _snippet_line(snippet: Sequence[str], sections: Sequence[tuple[int, int]], before: str, quoted: str) -> int | None:
    """The one snippet index whose line is `quoted`, where the words `before` it put it (see `numbered`)."""
    same = lambda k: cut(snippet[k], WIDTH) == quoted
    prior = _QUOTE_BEFORE.search(before)
    if prior and prior.group(2) != "and":  # "`x` after `}`": the quote before places it
        return None
    if prior and not is_generic(unquoted(prior.group(1))):  # "between `x` and `}`": the line after x
        anchor = [k for k, line in enumerate(snippet) if cut(line, WIDTH) == unquoted(prior.group(1)).strip()]
        if len(anchor) != 1:
            return None
        nxt = next((k for k in range(anchor[0] + 1, len(snippet))
                    if snippet[k].strip() and any(a <= k <= b for a, b in sections)), None)
        return nxt if nxt is not None and same(nxt) else None
    named = list(_SECTION_NAMED.finditer(before))
    lo, hi = 0, len(snippet) - 1
    if named:
        n = int(named[-1].group(1)) - 1
        if not 0 <= n < len(sections):
            return None
        lo, hi = sections[n]
        if before.endswith("(starting ") or re.search(r"\bsection \d+ \($", before):  # its first line
            first = next((k for k in range(lo, hi + 1) if snippet[k].strip()), None)
            return first if first is not None and same(first) else None
    found = [k for k in range(lo, hi + 1) if same(k)]
    return found[0] if len(found) == 1 else None
