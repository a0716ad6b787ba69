"""Landing checks: did the snippet's copy of an existing definition land *on* that definition?

A lazy snippet that shows a definition the original already has means that definition, edited or
not. A merge that matched the section's generic lines (`}`, attributes, blank lines) onto a
similar sibling instead keeps the original and pastes the snippet's copy next to it: the header
then appears once more than the original or the snippet has it (`check_definition_kept_twice`).
Only *definition headers* at the outer levels count: a defining keyword (after modifiers) or a
signature that opens a block, distinctive or a member header directly inside a container, not
continued on the next line, at column 0 or directly inside a container. Nested helpers, which a
file legitimately repeats, are left alone.

The mirror mistake reads a new sibling as an edit of the old one and overwrites it:
`check_dropped_definition`. `check_definition_split` (for a reading no second one confirms)
refuses a new definition header laid inside an original definition's body (`definition_split`
says where, for settled.py's relanded reading). `check_lead_in_kept` refuses a definition deleted whole
under a doc comment or decorator the merge kept: the snippet's like lines (a new definition's own
lead-in) were matched to the original's, and the definition below them went to keep the snippet's
next line adjacent.

This module knows lines, a handful of keywords common to mainstream languages and a doc comment's
last line; it does not parse, and it does not know how the result was made.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from fastapply.merge.gate.dangling import is_decorator
from fastapply.merge.text.lines import (brace_follows, bracket_balance, distinctive, indent_len, indent_width as _depth,
                                        stripped_counts)
from fastapply.merge.text.names import defined_name, header_name, keyword_name
from fastapply.merge.text.compare import line_opcodes, origins
from fastapply.merge.text.spans import code, quote

_MODIFIERS = r"(?:export\s+|pub(?:\([\w:]+\))?\s+|public\s+|private\s+|protected\s+|internal\s+|static\s+|async\s+|" \
             r"override\s+|final\s+|abstract\s+|unsafe\s+|default\s+|const\s+(?=fn\b))*"
_DEFINITION = re.compile(_MODIFIERS + r"(?:def|fn|func|function|class|struct|impl|trait|enum|interface|module|"
                         r"object|fun|sub|macro_rules!)\b")
_CONTAINER = re.compile(_MODIFIERS + r"(?:class|impl|trait|interface|object|module|struct|enum|namespace|mod)\b")


# A method or function signature without a defining keyword (`public int Gamma(int x)`,
# `gamma(x: number): number {`, `int Shop::gamma(int x) {`): words, a name, one parameter list
# (one level of nested brackets), an optional return type; it must open a block (`{` at its end or
# alone on the next line). At column 0 a type must come before the name (a C or C++ function).
_SIGNATURE = re.compile(r"^(?P<typed>(?:[\w$<>\[\]?,.*&]+\s+)*)[*&]*[A-Za-z_$~][\w$]*(?:::[~\w$]+)*\s*"
                        r"\((?:[^()]|\([^()]*\))*\)\s*(?:(?::|->)\s*[\w$<>\[\]?,. |]+?)?\s*(?:const\s*)?\{?$")
_STATEMENT = re.compile(r"^(?:if|for|foreach|while|switch|catch|return|new|else|await|throw|using|lock|do|"
                        r"synchronized|with|elif|when|match)\b")


def _signature(lines: Sequence[str], k: int, text: str) -> bool:
    m = _SIGNATURE.match(text)
    if m is None or _STATEMENT.match(text) or (not indent_len(lines[k]) and not m.group("typed")):
        return False
    return text.endswith("{") or brace_follows(lines, k, same_depth=False)


def definition_headers(lines: Sequence[str], among: set[str] | None = None) -> list[str]:
    """The stripped definition-header lines at the outer levels of `lines` (see the module
    docstring; also a keyword-less signature, `_SIGNATURE`), in order, repeats included; with
    `among`, only those whose text is in it."""
    found = []
    for k, line in enumerate(lines):
        text = line.strip()
        if not text or (among is not None and text not in among):
            continue
        if not (_DEFINITION.match(text) or _signature(lines, k, text)):
            continue
        if not distinctive(text) and not (indent_len(line) and "(" in text):
            continue  # a short header says where it is only as a member of its container (`gamma(x) {`)
        if text.endswith(("(", "[", ",")):
            continue  # a signature continued on the next lines: its first line says little
        depth = indent_len(line)
        if depth:
            above = [x for x in reversed(lines[:k]) if x.strip() and indent_len(x) < depth]
            scope = above[1] if len(above) > 1 and above[0].strip() == "{" else above[0] if above else None
            if scope is None or not _CONTAINER.match(scope.strip()):
                continue  # nested inside a function body: files repeat such helpers freely
        found.append(text)
    return found


def check_definition_kept_twice(
    original: Sequence[str], result: Sequence[str], snippet: Sequence[str]
) -> str | None:
    """Refuse when an outer-level definition header appears in the result more often than in
    the original or in the snippet, whichever has more: the snippet's copy of a definition was
    pasted beside the original one instead of landing on it."""
    before = stripped_counts(original)
    after = stripped_counts(result)
    shown = stripped_counts(snippet)
    more = {text for text, n in after.items() if n > 1 and n > max(before.get(text, 0), shown.get(text, 0))}
    headers = set(definition_headers(result, more)) if more else set()
    for text in sorted(headers):
        n = after[text]
        if n > 1 and n > max(before.get(text, 0), shown.get(text, 0)):
            return (f"the definition {quote(text)} would appear {n} times, more than the original or the snippet "
                    "has it: the snippet's copy did not land on the original one; include the lines just above "
                    "it so it can be placed")
    return None


_DEFINED_NAME = re.compile(
    _MODIFIERS + r"(?:def|fn|func|function|fun|sub)\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*(?:<[^>]*>)?\s*\(")


def defined_names(lines: Sequence[str]) -> Counter:
    """Function names defined in `lines` (`def f(`, `function f(`, `fn f<T>(`, `func (r *T) f(`),
    counted."""
    return Counter(m.group(1) for line in lines if (m := _DEFINED_NAME.match(line.strip())))


def check_dropped_definition(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse when a function the original defines is defined nowhere in the result although the
    snippet itself calls it: the merge overwrote it with a new sibling shaped like it."""
    before, after = defined_names(original), defined_names(result)
    gone = [name for name in before if not after.get(name) and len(name) >= 3]
    if not gone:
        return None
    calls = "\n".join(l for l in snippet if not _DEFINED_NAME.match(l.strip()))
    for name in gone:
        if re.search(r"(?<![\w.])" + re.escape(name) + r"\s*\(", calls):
            return (f"the merge would remove the definition of {code(name)} although the snippet calls it; if the "
                    "snippet adds a function next to it, include the unchanged lines around the place it goes")
    return None


# The last line of what introduces a definition: a doc comment's end (`*/`, a one-line `/** ... */`, a
# `///` line) or, by dangling.is_decorator, a decorator or attribute line.
_DOC_END = re.compile(r"^(?:/\*\*.*\*/|///.*|.*\*/)$")


def check_lead_in_kept(original: Sequence[str], result: Sequence[str], snippet: Sequence[str],
                       language: str | None = None) -> str | None:
    """Refuse when the merge deletes a definition, its header and its whole body (at least three lines,
    brackets balanced), but keeps the doc comment or decorator right above its header, which then
    introduces whatever follows. The snippet showed lines like that lead-in (a new definition's
    `@pytest.mark.anyio`, a new `/** @return string */`) and the merge matched them to the original's,
    deleting the definition below them to keep the snippet's next line adjacent (blank lines between the
    lead-in and the header go with it; a JS function bound by assignment or as an object key is a
    definition too: `_assigned_function`). Not when the snippet
    shows the deleted header itself, nor when the merge writes a header of the same name in its place
    (a definition rewritten under its own decorator), nor when the deletion ends with a twin of the lead-in
    (two `@pytest.fixture` lines: deleting the first with the definition is the same file)."""
    shown = {line.strip() for line in snippet}
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        while tag == "delete" and i1 > 0 and original[i1 - 1] == original[i2 - 1]:
            i1, i2 = i1 - 1, i2 - 1  # the same deletion one line up: a twin lead-in deleted with it
        if tag not in ("delete", "replace") or i1 == 0:
            continue
        h = i1
        while h < i2 - 1 and not original[h].strip():
            h += 1  # blank lines between the lead-in and the header: still its lead-in
        header, lead = original[h].strip(), original[i1 - 1].strip()
        name = _definition_name(header)
        if name is None or header in shown or not (_DOC_END.match(lead) or is_decorator(lead, language)):
            continue
        gone = [line for line in original[i1:i2] if line.strip()]
        if len(gone) < 3 or bracket_balance(original[i1:i2]) != 0:
            continue
        written = next((n for n in map(_definition_name, result[j1:j2]) if n), None)
        if written == name:
            continue
        return (f"the result drops {len(gone)} line(s) of the original near line {h + 1} ({quote(header)}, a "
                f"whole definition) but keeps {quote(lead, 40)} (line {i1}) that introduces it, so that lead-in would "
                "introduce the next definition instead; if the snippet's lines like it are new, include the unchanged "
                "line above them, and if the definition goes, show the lead-in deleted with it")
    return None


def _assigned_function(header: str) -> str | None:
    """The name a function bound by assignment or as an object key defines (`x.prototype.f = function(a) {`,
    `f : function(a) {`, `exports.f = (a) => {`): a line that opens a function's block, named by
    names.defined_name; None for any other line."""
    if not header.endswith("{") or not ("function" in header or "=>" in header):
        return None
    return defined_name(header)


def _definition_name(line: str) -> str | None:
    """The name a definition header defines: a signature's (`header_name`), a defining keyword's
    (`def`, `fn`, `func`, `function`, `class`, after `async`, `pub`, `local`, `export`) or a function
    bound by assignment or as an object key (`_assigned_function`)."""
    text = line.strip()
    if _KEYWORD_HEADER.match(text):
        return header_name(text) or keyword_name(text) or _assigned_function(text)
    return header_name(text) or _assigned_function(text)


_KEYWORD_HEADER = re.compile(r"(?:async\s+|pub\s+|local\s+|export\s+)*(?:def|fn|func|function|class)\b")


def check_definition_split(original: Sequence[str], result: Sequence[str],
                           snippet: Sequence[str] | None = None) -> str | None:
    """Refuse a result in which a new definition header lands inside an original definition's
    body, taking over its repeated lines below and dropping the rest (`definition_split`); for a
    reading no second one confirms."""
    split = definition_split(original, result, snippet)
    if split is None:
        return None
    j, parent, _, lost = split
    return (f"the new definition {quote(result[j])} would land inside "
            f"{quote(original[parent])} and replace its lines ({quote(lost)}); include the "
            f"unchanged lines just above the new definition")


def _pinned_above(result: Sequence[str], j: int, snippet: Sequence[str]) -> bool:
    """The snippet shows the header `result[j]` right below the same distinctive line the result
    has right above it (blank lines aside, no marker between): no guess laid it there."""
    above = next((l.strip() for l in reversed(result[:j]) if l.strip()), None)
    if above is None or not distinctive(above):
        return False  # a `}` or `pass` shown above pins nothing
    header = result[j].strip()
    return any(line.strip() == header and next((l.strip() for l in reversed(snippet[:k]) if l.strip()), None) == above
               for k, line in enumerate(snippet))


def definition_split(original: Sequence[str], result: Sequence[str],
                     snippet: Sequence[str] | None = None) -> tuple[int, int, int, str] | None:
    """(j, parent, end, lost) when `result[j]` is a new definition header laid inside the body of
    the original definition `original[parent]`, which ends before `original[end]` (the next
    line at the header's depth or shallower), taking over its repeated lines and dropping
    `lost`, one of its distinctive lines (`check_definition_split`); else None. With the
    `snippet`, a header it pins from above (`_pinned_above`) is no split."""
    orig_of = origins(line_opcodes(original, result))
    new = [j for j in range(len(result)) if j not in orig_of]
    kept = set(orig_of.values())
    counts = stripped_counts(original)
    for j in new:
        header = result[j]
        if not header.strip() or not _DEFINITION.match(header.strip()):
            continue
        if snippet is not None and _pinned_above(result, j, snippet):
            continue
        depth = _depth(header)
        moved = []
        k = j + 1
        while k < len(result) and (not result[k].strip() or _depth(result[k]) > depth):
            if k in orig_of and result[k].strip():
                i = orig_of[k]
                p = next((x for x in range(i - 1, -1, -1) if original[x].strip() and _depth(original[x]) <= depth), None)
                if p is not None and p in kept and _DEFINITION.match(original[p].strip()):
                    moved.append((i, p))
            k += 1
        if not moved or any(counts[original[i].strip()] == 1 for i, _ in moved):
            continue
        parent = moved[0][1]
        end = next((x for x in range(parent + 1, len(original))
                    if original[x].strip() and _depth(original[x]) <= depth), len(original))
        lost = [original[x] for x in range(parent + 1, end) if x not in kept and distinctive(original[x])]
        if lost:
            return j, parent, end, lost[0]
    return None
