"""Orphaned code: a definition the edit left without a use, kept only because the snippet never showed it.

A planner rewrites every call of a private helper and leaves the helper itself under a marker or
outside the snippet; the real commit often deletes it, and no merge can read that deletion from the
snippet. `check_orphans(original, snippet, result, language)` refuses (unshown-deletion) when a
definition of the original

- is private or local by its language's reading (`private_definitions`): a Python `_name` function
  (not a dunder), a Rust `fn` without `pub` (not in a trait or a trait's impl: those are called
  through the trait), a Go lower-case func, a JS/TS top-level function or function-valued
  `const`/`let` that is not exported, a Lua `local function`, a `private` method of
  C#/Java/Kotlin/PHP/Scala/Swift;
- is used in the original (its name occurs as a word outside its own lines);
- is kept by the result unchanged (its first line, once in the original and once in the result),
  while the result uses it nowhere outside its own lines;
- and the snippet does not show it (no snippet line is its first line).

Measured (main's written files on the foreign sets ftune + ftune2 and the tuned pool): imports
(Python, JS, Go, Rust, Java, Kotlin) are left unused by real commits about as often as a planner's
snippet orphans them (pool: 17 right files for 1 wrong on the first five sets), and so are Python
public module-level functions (API: 4 right, 0 wrong): the check reads neither.

The refusal names the definition and carries `detail["removes"]` (its first original line), so
refuse/removal.py offers the deletion's options; showing it kept (its first line in the snippet)
is the other reading (refuse/kept_option.py).

A replaced statement kept beside its replacement: a planner rewrites a statement and shows only
the new one; the merge inserts it and keeps the old one, which a marker covers (line-level doubts
miss it when the two read differently). `check_replaced_kept` refuses (new-or-changed) when, in
one block of the result, two assignments to the same target follow each other with nothing
reading it between (the second's own statement, continuation lines included, reads none: `x =
f(x)` builds on the first), one inserted by the merge and the other an original line the snippet does
not show. An assignment is `target = ...` / `target := ...`, with an optional declaration keyword and
type annotation. The same for imports: an import line the merge inserted that binds every name an
unshown original import line binds (`from config import settings` beside `from settings import
Settings as settings`).

Both know no snippet form and no merge rule: they read the finished file against the original and
the snippet's lines.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Sequence

from fastapply.merge.refuse.refusal import Line, Refusal
from fastapply.merge.text.compare import added, line_opcodes, origins
from fastapply.merge.text.imports import bound_names
from fastapply.merge.text.lines import block_end, indent_len
from fastapply.merge.text.spans import code, quote

_PY_DEF = re.compile(r"^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(")
_RUST_FN = re.compile(r"^(?:(?:const|async|unsafe|extern\s+\"\w+\")\s+)*fn\s+([A-Za-z_]\w*)")
_GO_FUNC = re.compile(r"^func\s+(?:\([^)]*\)\s*)?([a-z_]\w*)\s*[\[(]")
_JS_FUNC = re.compile(r"^(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]")
_JS_ARROW = re.compile(r"^(?:const|let)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>)")
_LUA_FUNC = re.compile(r"^local\s+function\s+([A-Za-z_]\w*)\s*\(")
_PRIVATE = re.compile(r"^(?:(?:@\w+(?:\([^)]*\))?\s+)*)(?:[\w\s]*\s)?private\s+(?:[\w\s<>\[\]?,.:]*\s)?"
                      r"(?:fun|function|def|func)?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>\s*)?\(")
_JS = {"javascript", "typescript", "tsx", "jsx"}
_PRIVATE_LANGS = {"csharp", "java", "kotlin", "php", "scala", "swift"}


def private_definitions(lines: Sequence[str], language: str | None,
                        wanted: set[str] | None = None) -> list[tuple[int, str]]:
    """(line index, name) of each definition `lines` holds that its language reads as private or
    local (module docstring). `wanted`: only these names (None: all)."""
    out: list[tuple[int, str]] = []
    parents = None
    for k, line in enumerate(lines):
        text = line.strip()
        top = line[:1] not in (" ", "\t")
        m = None
        if language == "python":
            m = _PY_DEF.match(text)
            m = m if m and m.group(1).startswith("_") and not m.group(1).startswith("__") else None
        elif language == "rust":
            m = _RUST_FN.match(text)
            if m and not top and (wanted is None or m.group(1) in wanted):
                parents = parents if parents is not None else _parents(lines)
                m = None if _in_trait(lines, parents[k]) else m
        elif language == "go":
            m = _GO_FUNC.match(text) if top else None
        elif language in _JS:
            m = (_JS_FUNC.match(text) or _JS_ARROW.match(text)) if top else None
        elif language == "lua":
            m = _LUA_FUNC.match(text)
        elif language in _PRIVATE_LANGS:
            m = _PRIVATE.match(text) if not text.endswith(";") else None
        if m and len(m.group(1)) >= 3 and (wanted is None or m.group(1) in wanted):
            out.append((k, m.group(1)))
    return out


def _parents(lines: Sequence[str]) -> list[int | None]:
    """Each line's nearest content line above it at a smaller indentation (its enclosing header), in one pass."""
    out: list[int | None] = []
    stack: list[tuple[int, int]] = []  # (indentation, index) of content lines, indentation rising
    for k, line in enumerate(lines):
        width = indent_len(line)
        if not line.strip():
            out.append(None)
            continue
        while stack and stack[-1][0] >= width:
            stack.pop()
        out.append(stack[-1][1] if stack else None)
        stack.append((width, k))
    return out


def _in_trait(lines: Sequence[str], parent: int | None) -> bool:
    """True when the enclosing header `parent` of a Rust line is a trait or a trait's impl (`impl X
    for Y {`): a method there is called through the trait, not by its name."""
    if parent is None:
        return False
    text = lines[parent].strip()
    return bool(re.match(r"^(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?trait\b", text)) or (
        text.startswith(("impl ", "impl<", "unsafe impl")) and " for " in text)


_TOKEN = re.compile(r"[A-Za-z_$][\w$]*")
_BARE = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")  # a name not called as a member (`x.trim()`)


def _outside(lines: Sequence[str], total: Counter, name: str, skip: range, token: re.Pattern = _TOKEN) -> int:
    """How often `name` occurs as a word in `lines` (`total`: their words counted) outside the indexes `skip`."""
    return total[name] - sum(token.findall(lines[i]).count(name) for i in skip)


def _free(line: str) -> bool:
    """A definition at the file's top level that is no method (not Go's `func (r T) name`): only a
    bare name calls it, `x.name()` is another type's method of the same name."""
    return line[:1] not in (" ", "\t") and not line.startswith("func (")


def orphans(original: Sequence[str], snippet: Sequence[str], result: Sequence[str],
            language: str | None) -> list[tuple[int, str]]:
    """Each (original line index, name) of a definition the result keeps unused while the original
    used it and the snippet never shows it (module docstring), in the original's order. A top-level
    function (`_free`) counts only its bare uses."""
    old_lines, new_lines = Counter(original), Counter(result)
    removed_text = "\n".join((old_lines - new_lines).elements())
    added_text = "\n".join((new_lines - old_lines).elements())
    gone = {}  # token -> names the edit used less: a use gone orphans a definition
    for token in (_TOKEN, _BARE):
        removed, added = Counter(token.findall(removed_text)), Counter(token.findall(added_text))
        gone[token] = {n for n, c in removed.items() if added[n] < c}
    if not gone[_TOKEN] and not gone[_BARE]:
        return []
    shown = {line.strip() for line in snippet if line.strip()}
    found = [d for d in private_definitions(original, language, gone[_TOKEN] | gone[_BARE])
             if original[d[0]].strip() not in shown]
    if not found:
        return []
    words = {token: [Counter(token.findall("\n".join(lines))) for lines in (original, result)] for token in (_TOKEN, _BARE)}
    at = {line: i for i, line in enumerate(result)}
    out = []
    for k, name in found:
        head = original[k]
        token = _BARE if _free(head) else _TOKEN
        if name not in gone[token] or old_lines[head] != 1 or new_lines[head] != 1:
            continue
        old_words, new_words = words[token]
        if not _outside(original, old_words, name, range(k, block_end(original, k)), token):
            continue
        if not _outside(result, new_words, name, range(at[head], block_end(result, at[head])), token):
            out.append((k, name))
    return out


def check_orphans(original: Sequence[str], snippet: Sequence[str], result: Sequence[str],
                  language: str | None) -> Refusal | None:
    """A refusal (unshown-deletion) naming the first definition the result keeps unused while the
    original used it and the snippet never shows it (module docstring); None when there is none."""
    found = orphans(original, snippet, result, language)
    if not found:
        return None
    k, name = found[0]
    head = original[k]
    cause = (f"{code(name)} (original line {k + 1} {code(head.strip())}) is no longer used after your edit, but the "
             f"merged file keeps its definition: the snippet shows neither its deletion nor that it stays")
    fix = ("show it deleted (the unchanged lines just above and just below it one after the other in the "
           "snippet, no marker between them, or its lines as `-` lines), or show it kept (its first line in "
           "the snippet)")
    return Refusal("unshown-deletion", cause, fix, original=(Line(k + 1, head),), detail={"removes": k, "orphan": name, "orphans": [f[0] for f in found],
                                          "names": [f[1] for f in found]})


_ASSIGN = re.compile(
    r"^(?:(?:let|var|const|my|local|auto|final|val)\s+)?(?:mut\s+)?([A-Za-z_$@][\w$.@]*)\s*"
    r"(?::\s*[\w<>\[\], ]+)?\s*(?::=|(?<![=!<>+\-*/%&|^~])=(?![=>~]))"
)
_REACH = 60  # lines searched below an assignment for the next one to the same target


def _target(line: str) -> tuple[str, int] | None:
    """(target, end of the assignment operator) when `line` assigns, else None."""
    m = _ASSIGN.match(line.strip())
    return (m.group(1), m.end()) if m else None


def check_replaced_kept(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> Refusal | None:
    """A refusal (new-or-changed) when the result keeps an unshown original import or assignment
    right beside an inserted line that may replace it (module docstring); None when there is none."""
    shown = {line.strip() for line in snippet if line.strip()}
    ops = line_opcodes(original, result)
    inserted = added(ops)
    old_at = origins(ops)  # result index -> original index, for lines the merge kept
    unshown = lambda k: k in old_at and result[k].strip() not in shown  # noqa: E731
    kept = set(old_at.values())
    replaced = lambda: set().union(*(names for i, names in bound_names(original).items() if i not in kept))  # noqa: E731
    rebound = _import_rebound(result, inserted, unshown, replaced)
    if rebound is not None:
        new, old = rebound
        return _kept_beside(result, old_at, new, old, "imports a name the original import", "already binds")
    for i, line in enumerate(result):
        found = _target(line)
        if found is None or not (i in inserted or unshown(i)):
            continue
        target, depth = found[0], indent_len(line)
        reads = _reader(target)
        for j in range(i + 1, min(len(result), i + _REACH)):
            other = result[j]
            if not other.strip():
                continue
            if indent_len(other) < depth:
                break
            again = _target(other) if indent_len(other) == depth else None
            if again is not None and again[0] == target:
                if reads.search(other.strip()[again[1]:]) or any(reads.search(line) for line in _continued(result, j, depth)):
                    break  # `x = f(x)`, its reading perhaps on a continuation line: it builds on the first
                if (i in inserted and unshown(j)) or (j in inserted and unshown(i)):
                    old, new = (j, i) if unshown(j) else (i, j)
                    return _kept_beside(result, old_at, new, old,
                                        f"assigns {code(target)} again right beside the original",
                                        "with nothing reading it between")
                break
            if reads.search(other):
                break
    return None


@functools.lru_cache(maxsize=1 << 12)  # one per assigned name; asked of every assignment line of each result
def _reader(target: str) -> re.Pattern:
    """What a line that reads `target` (not as part of a longer name or a member) matches."""
    return re.compile(r"(?<![\w$.@])" + re.escape(target) + r"(?![\w$])")


def _continued(lines: Sequence[str], j: int, depth: int, most: int = 30) -> list[str]:
    """The continuation lines of the statement that starts at line j (indented `depth`): the lines
    below it indented deeper, up to `most`, and a closing line at its depth (`);`, `]`, `}, $url);`:
    text.lines.block_end stops before a closer that carries more than brackets)."""
    out = []
    for line in lines[j + 1: j + 1 + most]:
        if line.strip() and indent_len(line) <= depth:
            if line.strip()[0] in ")]}":
                out.append(line)
            break
        out.append(line)
    return out


def _kept_beside(result: Sequence[str], old_at: dict[int, int], new: int, old: int, does: str, why: str) -> Refusal:
    """The refusal for the inserted line `new` kept beside the unshown original line `old` (result
    indexes): the new line `does` ... the old one, which the snippet does not show, `why`."""
    number = old_at[old] + 1
    cause = (f"{quote(result[new])} {does} {quote(result[old])} (original line {number}), "
             f"which the snippet does not show, {why}: it may replace that line")
    fix = (f"if it replaces it, show original line {number} deleted (the lines around it, or a `-` line); if both "
           "stay, include that line in the snippet")
    # what refuse/replaced.py builds the two answers from: the old line, the new one, and which comes first
    detail = {"replaced": (number, result[new], old < new)}
    return Refusal("new-or-changed", cause, fix, original=(Line(number, result[old]),), detail=detail)


_PLAIN_IMPORT = re.compile(r"^import\s+[\w.]+(?:\s*,\s*[\w.]+)*$")  # Python `import os`, `import os.path`


def _import_rebound(result: Sequence[str], inserted: set[int], unshown, replaced=frozenset) -> tuple[int, int] | None:
    """(new, old): an import line the merge inserted that binds every name an unshown original
    import line at the top level binds (the new line takes over the old one's names: a file imports
    a name once; `import os` beside `import os.path` is no such pair, nor one name of several, which a
    commit may shadow). Not where the merge removed an original import binding those names too
    (`replaced()`, read only once a pair is found: it reads the whole original): the original bound them
    twice already, and the new line replaces that other one."""
    bound = {i: names for i, names in bound_names(result).items()
             if names and not result[i][:1].isspace() and not _PLAIN_IMPORT.match(result[i].strip())}
    removed = None
    for new, names in bound.items():
        if new not in inserted:
            continue
        for old, other in bound.items():
            if old != new and unshown(old) and other <= names:
                removed = replaced() if removed is None else removed
                if not other <= removed:
                    return new, old
    return None
