"""Edit shapes the everyday grid (data/patterns.py) lacks and real planners send, as (before, after) pairs.

Each shape is built from a language's descriptor (data/pattern_languages.py) and stresses what
makes placement hard rather than what makes an edit common:

- `twin_edit`:        two sibling methods with identical bodies, the second one's return edited;
- `guard_change`:     every method opens with the same guard (`if x < 0` / `return 0`), one
                      method's guard changed (repeated `return` and `}` lines around the edit);
- `guarded_edit`:     the same file, the line after one method's guard changed;
- `nested_edit`:      the condition of an `if` nested in a method changed;
- `delete_block`:     an `if` block deleted from a method;
- `move_method`:      the last method moved first;
- `delete_first`:     a method's first statement deleted;
- `change_return`:    the last method's return changed (next to the file's closing lines);
- `return_type`:      a method's return type changed (where the language writes one);
- `after_comment`:    a line changed in a method under a long comment block;
- `second_class`:     a field added to the second class of a file with two;
- `add_header`:       a comment added above the file's first code line (in PHP below `<?php` and its blank line).

It knows surface syntax only; nothing here is tuned to what the merge does.
"""

from __future__ import annotations

import re

from fastapply.data.pattern_languages import NAMES, Language, body_of, file_of, step_of, wrapped
from fastapply.data.snippets import comment_prefix


def _comment(lang: Language) -> str:
    return lang.comment or comment_prefix(lang.name)


def _ends_statements(lang: Language) -> str:
    """`;` where the language ends a statement with one, else ""."""
    return ";" if lang.call("v", "f", "x").endswith(";") else ""


def _guard(lang: Language, value: str = "0") -> list[str]:
    """An early return opening a method: `if x < 0` / `return value` (/ its closing line)."""
    return [lang.when[0].replace("> 0", "< 0"), step_of(lang) + f"return {value}{_ends_statements(lang)}",
            *([lang.when[1]] if lang.when[1] else [])]


def _second_class(lang: Language) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The language's second class, and the same class with a field added after its last `id` line."""
    lines = list(lang.second)
    at = max(k for k, l in enumerate(lines) if re.search(r"\bid\b", l, re.I) and not re.search(r"\b(class|struct)\b", l))
    added = re.sub(r"\bID\b|\bId\b", "Code", re.sub(r"\bid\b", "code", lines[at]))
    return tuple(lines), tuple(lines[: at + 1] + [added] + lines[at + 1:])


def shapes(lang: Language) -> dict[str, tuple[str, str]]:
    """The added shapes as (before, after) file text; shapes a language cannot write are left out."""
    base = [(n, body_of(lang, n)) for n in NAMES]
    before = file_of(lang, base)
    out: dict[str, tuple[str, str]] = {}

    twin = [(n, body_of(lang, "alpha") if n == "beta" else b) for n, b in base]
    var = body_of(lang, "alpha")
    twin_edited = [(n, [var[0], lang.ret("price * 2")] if n == "beta" else b) for n, b in twin]
    out["twin_edit"] = (file_of(lang, twin), file_of(lang, twin_edited))

    guarded = [(n, _guard(lang) + b) for n, b in base]
    out["guard_change"] = (file_of(lang, guarded),
                           file_of(lang, [(n, _guard(lang, "-1") + b if n == "beta" else g)
                                          for (n, b), (_, g) in zip(base, guarded)]))
    out["guarded_edit"] = (file_of(lang, guarded),
                           file_of(lang, [(n, _guard(lang) + body_of(lang, n, "x * 2") if n == "beta" else g)
                                          for (n, _), (_, g) in zip(base, guarded)]))

    log = lang.log.replace("total", "label")
    nested = [(n, b[:1] + wrapped(lang, log) + b[1:] if n == "gamma" else b) for n, b in base]
    deeper = [(n, [l.replace("> 0", "> 10", 1) if l == lang.when[0] else l for l in b]) for n, b in nested]
    out["nested_edit"] = (file_of(lang, nested), file_of(lang, deeper))
    out["delete_block"] = (file_of(lang, nested), before)

    out["move_method"] = (before, file_of(lang, base[2:] + base[:2]))
    first = lang.log.replace("total", "x")
    out["delete_first"] = (file_of(lang, [(n, [first] + b if n == "beta" else b) for n, b in base]), before)
    out["change_return"] = (before, file_of(lang, [(n, [b[0], lang.ret("label + 1")] if n == "gamma" else b)
                                                    for n, b in base]))
    if lang.rtype[0]:
        header = lang.method("beta", [], lang.indent)[0]
        assert lang.rtype[0] in header, (lang.name, header)
        out["return_type"] = (before, before.replace(header, header.replace(*lang.rtype, 1), 1))

    block = [f"{_comment(lang)} {line}" for line in (
        "Counts the items that x selects.", "", "The count is cached by the store; callers that need a",
        "fresh count must reload the store first. Negative x counts nothing.")]
    block = [l.rstrip() for l in block]
    out["after_comment"] = (file_of(lang, [(n, b, block) if n == "beta" else (n, b) for n, b in base]),
                            file_of(lang, [(n, body_of(lang, n, "x + 1"), block) if n == "beta" else (n, b)
                                           for n, b in base]))
    if lang.second:
        old, new = _second_class(lang)
        out["second_class"] = (file_of(lang, base, second=old), file_of(lang, base, second=new))

    lines = before.split("\n")
    # The comment goes right above the first line of code, as in every language: in PHP that is
    # below `<?php` and the blank line PSR-12 writes after it (the file's preamble).
    at = 0
    if lines[0].startswith("<?php"):
        at = 1
        while at < len(lines) and not lines[at].strip():
            at += 1
    out["add_header"] = (before, "\n".join(lines[:at] + [f"{_comment(lang)} Shop: prices, counts and labels."]
                                           + lines[at:]))
    return out
