"""Cut a lazy snippet into sections at its marker lines, after undoing diff prefixes in it.

A lazy snippet alternates *sections* (runs of new-file lines) and *markers* (lines standing for an
unchanged run of the original). `split_sections` returns the sections with, for each, whether a
marker comes before it (`open_start`) and after it (`open_end`).

Reasoning models often write a lazy snippet as half a diff: `+` before new lines, `-` before removed
ones, `@@` between places. `undiff_lazy` turns such a snippet back into plain lazy form (`-` lines
dropped: the lines around them become adjacent, which is how a lazy snippet shows a deletion; `+`
prefixes removed; `@@` lines become markers), but only when the evidence says the prefixes are
diff syntax and not code (the `-` lines exist in the original without their prefix, the `+` lines
do not exist in it with theirs).

A unified-diff-shaped snippet whose context lines were copied verbatim is such a snippet
(`is_lazy_diff`); it is also the unified diff it stands for (`as_hunks`), and it fixes how often
every line text occurs in the result (`check_diff_counts`).

This module knows lines and markers; where a section goes is `lazy.py`'s business.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.text.lines import collapse, indentation, is_generic, is_opener
from fastapply.merge.text.markers import is_elision, is_marker
from fastapply.merge.text.spans import code, cut, quote

CANONICAL_MARKER = "// ... existing code ..."  # what an `@@` line becomes (any comment syntax is recognised)


@dataclass(frozen=True)
class Section:
    """A run of snippet lines between markers; `open_start`/`open_end`: a marker before/after."""

    lines: tuple[str, ...]
    open_start: bool
    open_end: bool


def split_sections(snippet: Sequence[str], original: Sequence[str]) -> list[Section]:
    """Cut the snippet at marker lines. Consecutive markers count as one; blank-only sections
    between markers are dropped (a blank line next to a marker carries no position)."""
    original_stripped = frozenset(line.strip() for line in original)
    sections: list[Section] = []
    current: list[str] = []
    open_start = False
    seen_any = False
    for line in snippet:
        if is_gap(line, original_stripped):
            if current and any(s.strip() for s in current):
                sections.append(Section(tuple(current), open_start, True))
            current = []
            open_start = True
            seen_any = True
            continue
        current.append(line)
    if current and (any(s.strip() for s in current) or not seen_any):
        sections.append(Section(tuple(current), open_start, False))
    return sections


def is_gap(line: str, known: frozenset[str]) -> bool:
    """A line that cuts the snippet into sections: a marker whose text the original (`known`,
    stripped lines) does not have (`is_elision`), or CANONICAL_MARKER, which the merge writes itself."""
    return line.strip() == CANONICAL_MARKER or is_elision(line, known)


def close_open_end(snippet: Sequence[str], original: Sequence[str]) -> list[str]:
    """The snippet with the end marker it implies when, having markers, it ends on an original
    block opener without its body (a block cannot end without a body); else as it is."""
    lines = list(snippet)
    last = next((line for line in reversed(lines) if line.strip()), None)
    # an original line is never an elision (`is_elision`): it is the opener itself
    if last is None or last.strip() not in {l.strip() for l in original} or not is_opener(last) \
            or not has_markers(lines, original):
        return lines
    return lines + [CANONICAL_MARKER]


def has_markers(snippet: Sequence[str], original: Sequence[str]) -> bool:
    """True when some snippet line stands for elided original code."""
    original_stripped = frozenset(line.strip() for line in original)
    return any(is_elision(line, original_stripped) for line in snippet)


# --------------------------------------------------------------------------- diff lines in lazy snippets

_HUNK = re.compile(r"^@@.*@@.*$|^@@\s*$")
_PLACEHOLDER_HUNK = re.compile(r"^@@+\s*(?:-0(?:,0)?\s+\+0(?:,0)?\s*)?@@+\s*$|^@@\s*$")  # no real place
_HEADER = re.compile(r"^(\+\+\+|---) (a/|b/|/dev/null|\S+\.\w+)")


def _prefixed(line: str, sign: str) -> bool:
    return line.startswith(sign) and not line.startswith(sign * 3)


@dataclass(frozen=True)
class ContextEvidence:
    """How a diff-like snippet's unprefixed context lines relate to the original.

    verbatim: lines found in the original as written, but not with one leading space removed;
    unified: lines found only with one leading space removed (unified-diff context)."""

    verbatim: int
    unified: int


def context_evidence(snippet: Sequence[str], original: Sequence[str]) -> ContextEvidence:
    """Count the snippet's context lines (not blank, not `+`/`-`/`\\`, not a hunk header or diff
    preamble) that prove one of the two readings. A line found both ways, or neither, proves nothing."""
    known = set(original)
    verbatim = unified = 0
    for line in snippet:
        if not line.strip() or line[0] in "+-\\" or _HUNK.match(line):
            continue
        as_is = line in known
        stripped = line.startswith(" ") and line[1:] in known
        verbatim += as_is and not stripped
        unified += stripped and not as_is
    return ContextEvidence(verbatim, unified)


def is_lazy_diff(snippet: Sequence[str], original: Sequence[str]) -> bool:
    """True when a snippet shaped like a unified diff is really a lazy snippet with diff lines:
    more context lines found verbatim than only without their first space; when that is even,
    placeholder headers only (`@@ @@`, `@@ -0,0 +0,0 @@`) and some context line shown."""
    evidence = context_evidence(snippet, original)
    if evidence.verbatim != evidence.unified:
        return evidence.verbatim > evidence.unified
    headers = [line for line in snippet if _HUNK.match(line)]
    has_context = any(line.strip() and line[0] not in "+-\\" and not _HUNK.match(line)
                      for line in snippet)
    return bool(headers) and has_context and all(_PLACEHOLDER_HUNK.match(line) for line in headers)


def undiff_lazy(snippet: Sequence[str], original: Sequence[str]) -> list[str] | None:
    """The snippet with `+`/`-`/`@@` diff syntax undone, or None when it is not diff syntax.

    Evidence required: at least one `+` or `-` line; every `-` line's text exists in the original
    (stripped comparison) while the prefixed text does not; no `+` line exists in the original
    with its prefix. Context lines that all start with one space (unified-diff context) lose it.
    """
    each = undiff_each(snippet, original)
    return None if each is None else [line for line in each if line is not None]


def undiff_each(snippet: Sequence[str], original: Sequence[str]) -> list[str | None] | None:
    """`undiff_lazy` line by line: each snippet line undone, None for a diff header or a `-`
    line (what `undiff_lazy` drops), or None for the whole when it is not diff syntax."""
    stripped = {line.strip() for line in original}
    plus = [l for l in snippet if _prefixed(l, "+")]
    minus = [l for l in snippet if _prefixed(l, "-")]
    hunks = [l for l in snippet if _HUNK.match(l)]
    if not plus and not minus:
        return None
    if any(l.strip() in stripped for l in plus + minus):
        return None  # the prefixed text is real content of the original (a list, an expression)
    if any(l[1:].strip() not in stripped for l in minus if l[1:].strip()):
        return None
    if not minus and not hunks:
        # Only `+` lines: diff syntax only when their text is code next to known context.
        if not any(is_marker(l) for l in snippet) or len(plus) < 2:
            return None
    unified = _unified_context(snippet, original)
    out: list[str | None] = []
    for line in snippet:
        if _HEADER.match(line):
            out.append(None)
        elif _HUNK.match(line):
            out.append(CANONICAL_MARKER)
        elif _prefixed(line, "-"):
            out.append(None)
        elif _prefixed(line, "+"):
            out.append(line[1:])
        elif unified and line.startswith(" ") and not is_marker(line):
            out.append(line[1:])
        else:
            out.append(line)
    return out


def _unified_context(snippet: Sequence[str], original: Sequence[str]) -> bool:
    """Unified-diff context: every context line starts with a space and more are found without
    it than with it."""
    context = [l for l in snippet if l.strip() and not _prefixed(l, "+") and not _prefixed(l, "-")
               and not _HUNK.match(l) and not _HEADER.match(l) and not is_marker(l)]
    evidence = context_evidence(context, original)
    return bool(context) and all(l.startswith(" ") for l in context) and evidence.unified > evidence.verbatim


def as_hunks(snippet: Sequence[str], original: Sequence[str]) -> list[str] | None:
    """A lazy snippet with diff lines written as the unified diff it stands for (each run between
    `@@` lines or markers a hunk, context given its one-space prefix and new code written bare beside
    diff lines its `+`, `_bare_new`), or None when `undiff_lazy` does not read its prefixes as diff syntax."""
    if undiff_lazy(snippet, original) is None:
        return None
    unified = _unified_context(snippet, original)
    bare = _bare_new(snippet, original)
    first = next((l for l in snippet if l.strip()), "")
    out = [] if _HUNK.match(first) else ["@@ @@"]
    for k, line in enumerate(snippet):
        if _HEADER.match(line):
            continue
        if _prefixed(line, "+") or _prefixed(line, "-") or not line.strip():
            out.append(line)
        elif _HUNK.match(line) or is_marker(line):
            out.append("@@ @@")
        else:
            out.append(line if unified else ("+" if k in bare else " ") + line)
    return out


def _bare_new(snippet: Sequence[str], original: Sequence[str]) -> set[int]:
    """The snippet lines that are new code written without their `+`: runs of unprefixed lines the
    original does not have that touch a `+` or `-` line (part of a change the diff lines show). A
    run that touches none (a section of new code, a changed line at a section's edge) stays context,
    which the literal reading cannot find: the lazy reading places it."""
    held = {line.strip() for line in original}
    diff = [_prefixed(l, "+") or _prefixed(l, "-") for l in snippet]
    new = [bool(l.strip()) and not diff[k] and l.strip() not in held and not is_marker(l) and not _HUNK.match(l)
           and not _HEADER.match(l) for k, l in enumerate(snippet)]
    out: set[int] = set()
    k = 0
    while k < len(snippet):
        if not new[k]:
            k += 1
            continue
        end = k
        while end < len(snippet) and new[end]:
            end += 1
        if (k > 0 and diff[k - 1]) or (end < len(snippet) and diff[end]):
            out.update(range(k, end))
        k = end
    return out


def check_diff_counts(original: Sequence[str], merged: Sequence[str], snippet: Sequence[str]) -> str | None:
    """A refusal reason when `merged` disagrees with the lines of `snippet` (before `undiff_lazy`),
    a lazy snippet with diff lines, else None (also when its prefixes are not diff syntax).

    Such a snippet fixes how often each line text (whitespace aside) occurs afterwards: as often
    as in the original, less its `-` lines, plus its `+` lines; a lazy reading loses that (it may
    keep a removed line, move an original line as a `+` line's anchor, keep a block twice, drop
    lines no `-` line removes), so the result's lines as a multiset must be exactly that."""
    if undiff_lazy(snippet, original) is None:
        return None
    removed = Counter(l[1:].strip() for l in snippet if _prefixed(l, "-"))
    added = Counter(l[1:].strip() for l in snippet if _prefixed(l, "+"))
    before = Counter(l.strip() for l in original)
    # A line written without a prefix that the original does not have is new code all the same, and a
    # section of it may replace original lines no `-` line names, as a lazy section does: the counts
    # then bind only the lines the snippet names (`-`, `+` and new), blank lines aside.
    unprefixed = Counter(text for line, done in zip(snippet, undiff_each(snippet, original) or ())
                         if done is not None and not _prefixed(line, "+") and (text := done.strip())
                         and text not in before and not is_marker(done))
    added.update(unprefixed)
    after = Counter(l.strip() for l in merged)
    # a distinctive line's disagreement first: a generic one (`*`, `}`) alone locates nothing
    for text in sorted(set(before) | set(after) | set(added), key=lambda t: (-removed[t], is_generic(t), not t, t)):
        if unprefixed and (not text or not (removed[text] or added[text])):
            continue
        want = before[text] - removed[text] + added[text]
        line = quote(text) if text else "a blank line"
        named = _naming_line(snippet, text, bool(removed[text])) if text and is_generic(text) else None
        line += f" (snippet line {named + 1})" if named is not None else ""
        if after[text] > want and removed[text]:
            return (f"the snippet removes {line} (a `-` line) but the merge keeps it; include the "
                    "unchanged lines around the removal so it can be placed")
        if after[text] != want:
            return (f"{line} would appear {after[text]} times, but the original with the snippet's "
                    f"`-` and `+` lines has it {want} times; include more unchanged lines around the change")
    return None


def _naming_line(snippet: Sequence[str], text: str, removed: bool) -> int | None:
    """The first snippet line that names `text` (a generic line, which nothing else places): its `-`
    line where the snippet removes it, else a `+` line or an unprefixed one."""
    for k, line in enumerate(snippet):
        if removed and _prefixed(line, "-") and line[1:].strip() == text:
            return k
        if not removed and (line.strip() == text or (_prefixed(line, "+") and line[1:].strip() == text)):
            return k
    return None


def diff_counts_agree(original: Sequence[str], merged: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when `snippet` is a lazy snippet with diff lines and `merged` has every line text
    exactly as often as its `+`/`-` lines say (`check_diff_counts`): the copied-lines guard's
    bound is then redundant, and wrong for a `+` line that repeats existing code."""
    return undiff_lazy(snippet, original) is not None and check_diff_counts(original, merged, snippet) is None


def reindent(lines: list[str], region: Sequence[str]) -> list[str]:
    """Re-indent a section placed on collapsed whitespace over the original `region` by the
    constant offset its matched lines show (each paired with the first region line equal to it
    but for whitespace; only the lines both hold once, where there are any: a `}` may close any
    depth); anything but one constant offset, or none shown at the section's base (a deeper line
    may be one the edit re-nests), leaves it as written."""
    first: dict[str, str] = {}
    for o in region:
        if o.strip():
            first.setdefault(collapse(o), o)
    matched = [l for l in lines if l.strip() and collapse(l) in first]
    if not matched:
        return lines
    once = Counter(collapse(o) for o in region if o.strip())
    shown = Counter(collapse(l) for l in lines if l.strip())
    matched = [l for l in matched if once[collapse(l)] == 1 == shown[collapse(l)]] or matched
    pairs = [(indentation(first[collapse(l)]), indentation(l)) for l in matched]
    base = min(len(indentation(l)) for l in lines if l.strip())
    if all(len(s) > base for _, s in pairs):
        return lines
    o0, s0 = pairs[0]
    if o0.endswith(s0) and len(o0) > len(s0):
        prefix = o0[: len(o0) - len(s0)]
        if all(o == prefix + s for o, s in pairs):
            return [prefix + line if line.strip() else line for line in lines]
    if s0.endswith(o0) and len(s0) > len(o0):
        extra = s0[: len(s0) - len(o0)]
        if all(s == extra + o for o, s in pairs) and all(line.startswith(extra) for line in lines if line.strip()):
            return [line[len(extra) :] if line.strip() else line for line in lines]
    return lines


def section_label(section: Section, index: int) -> str:
    """How refusals name a section: its number and first non-blank line; a generic first line
    (text.lines.is_generic: brackets alone, `end`, `/**`) is placed by the section's nearest
    distinctive line, which is what locates it: "section 2 (starting `}`, before `def g():`)"."""
    at = next((i for i, line in enumerate(section.lines) if line.strip()), 0)
    first = cut(section.lines[at], 50) if section.lines else ""
    return f"section {index + 1} ({starting(first, section.lines, at) if first else 'starting ``'})"


def starting(first: str, lines: Sequence[str], at: int) -> str:
    """"starting `first`" for line `at` of a section's `lines` (`first`: that line as quoted); a
    generic one placed by the section's nearest distinctive line: "starting `}`, before `def g():`"."""
    if is_generic(first):
        where = re.search(r" ((?:before|after) `.*`)$", line_label(lines[at], lines, at))
        if where:  # `the line `}` before `X``: keep the place, drop the repeated line
            return f"starting {code(first)}, {where.group(1)}"
    return f"starting {code(first)}"


def line_label(line: str, lines: Sequence[str], at: int | None = None) -> str:
    """How refusals name one line of a section (`lines`; `at`: its index there, else its edge
    occurrence): quoted, or, when it is generic (`` , `}` or `end` would locate nothing),
    by where it stands next to the section's nearest distinctive line:
    "the blank line after `return x`", "the line `}` before `def g():`"."""
    text = line.strip()
    if not is_generic(text):
        return quote(text)
    what = "the blank line" if not text else f"the line {quote(text, 20)}"
    if at is None:
        at = len(lines) - 1 if lines and lines[-1] == line and lines[0] != line else next(
            (i for i, l in enumerate(lines) if l == line), 0)
    for d in range(1, len(lines)):
        for i, side in ((at - d, "after"), (at + d, "before")):
            if 0 <= i < len(lines) and not is_generic(lines[i]):
                return f"{what} {side} {quote(lines[i])}"
    return what
