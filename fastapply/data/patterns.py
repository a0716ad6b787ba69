"""Common edits in many languages, made by construction: a conformance grid for the instant merge.

The real-commit sets cover the six languages of our training pairs; planners edit files in many
more. This module takes one small class-like file per language (data/pattern_languages.py: three
methods, each calling a helper and returning; 15 languages), applies each of a few everyday edits
to it (a method added first, in the middle or last, a line changed, inserted or deleted, a method
deleted, renamed or rewritten, two methods edited at once, an import, a field, a parameter, an
annotation, a comment above a method, a statement wrapped in an `if`, a second class at the end
of the file) and the harder shapes of data/pattern_shapes.py (twin bodies, repeated guards, a
method moved, ...), and turns every (before, after) pair into snippets of each planner style
(data/planner_snippets.py: STYLES and EXTRA_STYLES). Each
row is an eval row (`original`, `snippet`, `expected`, `language`, `snippet_style`, plus `edit`),
so `fastapply eval` and the tests read it like any set.

    >>> rows = pattern_rows(languages=("java",), styles=("agent",))
    >>> {r["edit"] for r in rows} >= {"add_last", "delete_method"}
    True

It knows each language's surface syntax for a method, a call and a comment; it does not know
the merge, and nothing here is tuned to what the merge does.
"""

from __future__ import annotations

import random

from fastapply.data.pattern_languages import LANGUAGES, NAMES, Language, body_of, file_of, wrapped
from fastapply.data.pattern_shapes import shapes
from fastapply.data.planner_snippets import EXTRA_STYLES, STYLES, planner_snippet
from fastapply.data.snippets import comment_prefix

__all__ = ["LANGUAGES", "edits", "pattern_rows"]


def edits(lang: Language) -> dict[str, tuple[str, str]]:
    """Each everyday edit as (before, after) file text; edits a language cannot write (an
    annotation in Go, Ruby, Lua or JavaScript, a second class after Lua's `return`) are left out."""
    base = [(n, body_of(lang, n)) for n in NAMES]
    before = file_of(lang, base)
    new = ("delta", body_of(lang, "delta"))
    changed = [(n, body_of(lang, n, "x * 2") if n == "beta" else b) for n, b in base]
    log = lang.log.replace("total", "label")
    logged = [(n, b[:1] + [log] + b[1:] if n == "gamma" else b) for n, b in base]
    rewritten = [(n, [lang.log.replace("total", "count"), *body_of(lang, "beta", "x + 1")] if n == "beta" else b)
                 for n, b in base]
    renamed = [("gammaLabel" if n == "gamma" else n, b) for n, b in base]
    out = {
        "add_first": (before, file_of(lang, [new] + base)),
        "add_middle": (before, file_of(lang, base[:1] + [new] + base[1:])),
        "add_last": (before, file_of(lang, base + [new])),
        "change_line": (before, file_of(lang, changed)),
        "insert_line": (before, file_of(lang, logged)),
        "delete_method": (before, file_of(lang, [m for m in base if m[0] != "beta"])),
        "rename_method": (before, file_of(lang, renamed)),
        "rewrite_body": (before, file_of(lang, rewritten)),
    }
    # Further everyday edits (each needs the language's descriptor for it).
    head = lang.head[: lang.use_at] + lang.use + lang.head[lang.use_at:]
    out["add_import"] = (before, file_of(lang, base, head=head))
    out["add_field"] = (before, file_of(lang, base, field=True))
    out["wrap_in_if"] = (file_of(lang, logged), file_of(lang, [(n, b[:1] + wrapped(lang, log) + b[1:] if n == "gamma"
                                                            else b) for n, b in base]))
    old_param, new_param = lang.param
    header = lang.method("beta", [], lang.indent)[0]
    assert old_param in header, (lang.name, header)
    out["add_parameter"] = (before, before.replace(header, header.replace(old_param, new_param, 1), 1))
    if lang.note:
        out["add_annotation"] = (before, file_of(lang, [(n, b, [lang.note]) if n == "gamma" else (n, b)
                                                      for n, b in base]))
    doc = f"{lang.comment or comment_prefix(lang.name)} Counts the items that x selects."
    out["add_comment"] = (before, file_of(lang, [(n, b, [doc]) if n == "beta" else (n, b) for n, b in base]))
    if lang.second:
        out["add_class"] = (before, file_of(lang, base, second=lang.second))
    out["delete_line"] = (file_of(lang, logged), before)
    out["two_methods"] = (before, file_of(lang, [(n, body_of(lang, n, "x + 1") if n != "beta" else b)
                                               for n, b in base]))
    out.update(shapes(lang))
    return out


def pattern_rows(languages=tuple(LANGUAGES), styles=STYLES + EXTRA_STYLES, seed: int = 0) -> list[dict]:
    """Eval rows: every edit of every language in every planner style."""
    rows = []
    for lang_name in languages:
        lang = LANGUAGES[lang_name]
        for edit, (before, after) in edits(lang).items():
            for style in styles:
                rng = random.Random(f"{seed}:{lang_name}:{edit}:{style}")
                made = planner_snippet(before, after, lang_name, style, rng)
                if made is None:
                    continue
                rows.append({"id": f"pattern:{lang_name}:{edit}:{style}", "language": lang_name, "edit": edit,
                             "snippet_style": f"pattern-{style}", "original": before, "snippet": made.text,
                             "expected": made.expected, "instruction": edit.replace("_", " ")})
    return rows
