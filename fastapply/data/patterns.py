"""Common edits in many languages, made by construction: a conformance grid for the instant merge.

The real-commit sets cover the six languages of our training pairs; planners edit files in many
more. This module writes one small class-like file per language (three methods, each calling a
helper and returning), applies each of a few everyday edits to it (a method added first, in the
middle or last, a line changed, inserted or deleted, a method deleted, renamed or rewritten, two
methods edited at once, an import, a field, a parameter, an annotation, a comment above a method,
a statement wrapped in an `if`, a second class at the end of the file), and turns
every (before, after) pair into snippets of each planner style (data/planner_snippets.py). Each
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
from dataclasses import dataclass
from typing import Callable

from fastapply.data.planner_snippets import STYLES, planner_snippet
from fastapply.data.snippets import comment_prefix


@dataclass(frozen=True)
class Language:
    """How one language writes a file of methods: `method(name, lines, indent)` gives a method's
    lines around body lines; `call(var, helper, arg)` a statement assigning a helper's result;
    `ret(expr)` a return; `log` a statement logging `total` (renamed to the method's own local);
    `head`/`tail` the lines around the methods."""

    name: str
    head: tuple[str, ...]
    tail: tuple[str, ...]
    indent: str
    method: Callable[[str, list[str], str], list[str]]
    call: Callable[[str, str, str], str]
    ret: Callable[[str], str]
    log: str
    blank_between: bool = True
    use: tuple[str, ...] = ()  # an import added: these lines go in at head[use_at]
    use_at: int = 0
    field: str = ""  # a field or constant added before the first method
    param: tuple[str, str] = ("", "")  # a parameter added: (old, new) text of the signature
    when: tuple[str, str] = ("", "")  # an `if x > 0` opening (and closing line, if any)
    note: str = ""  # an annotation, decorator or attribute line ("" where the language has none)
    second: tuple[str, ...] = ()  # a second class or struct appended at the end of the file
    comment: str = ""  # the line-comment prefix where data/snippets.comment_prefix has it wrong (Lua)


def _braces(signature: Callable[[str], str], allman: bool = False):
    """Methods in braces, K&R (`f() {`) or Allman (`{` on its own line); bodies one step deeper
    (four spaces under an indented header or in Allman style, else two)."""
    def method(name: str, body: list[str], ind: str) -> list[str]:
        step = "    " if len(ind) >= 4 or allman else "  "
        inner = [ind + step + b for b in body]
        if allman:
            return [ind + signature(name), ind + "{", *inner, ind + "}"]
        return [ind + signature(name) + " {", *inner, ind + "}"]
    return method


def _ended(signature: Callable[[str], str], end: str = "end", step: str = "  "):
    """Methods closed by a keyword (`def f(x)` ... `end`)."""
    def method(name: str, body: list[str], ind: str) -> list[str]:
        return [ind + signature(name), *[ind + step + b for b in body], ind + end]
    return method


def _python(name: str, body: list[str], ind: str) -> list[str]:
    return [f"{ind}def {name}(self, x):", *[ind + "    " + b for b in body]]


def _returns(e: str) -> str:
    return f"return {e}"


LANGUAGES = {
    "java": Language(
        "java", ("package shop;", "", "public class Shop {"), ("}",), "    ",
        _braces(lambda n: f"public int {n}(int x)"), lambda v, h, a: f"int {v} = {h}({a});",
        lambda e: f"return {e};", 'System.out.println("total " + total);',
        use=("import java.util.List;", ""), use_at=2, field="private int limit = 10;", param=("(int x)", "(int x, int scale)"),
        when=("if (x > 0) {", "}"), note="@Deprecated", second=("", "class Item {", "    int id;", "}")),
    "csharp": Language(
        "csharp", ("namespace Shop", "{", "    public class Shop", "    {"), ("    }", "}"), "        ",
        _braces(lambda n: f"public int {n.capitalize()}(int x)", allman=True),
        lambda v, h, a: f"var {v} = {h[0].upper() + h[1:]}({a});", lambda e: f"return {e};",
        'Console.WriteLine($"total {total}");',
        use=("using System;", ""), field="private int limit = 10;", param=("(int x)", "(int x, int scale)"),
        when=("if (x > 0)", ""), note="[Obsolete]", second=("", "public class Item", "{", "    public int Id;", "}")),
    "cpp": Language(
        "cpp", ('#include "shop.h"', ""), (), "",
        _braces(lambda n: f"int Shop::{n}(int x)"), lambda v, h, a: f"int {v} = {h}({a});",
        lambda e: f"return {e};", 'std::cout << "total " << total << std::endl;',
        use=("#include <iostream>",), use_at=1, field="static const int kLimit = 10;",
        param=("(int x)", "(int x, int scale)"), when=("if (x > 0) {", "}"), note="[[nodiscard]]",
        second=("", "struct Item {", "  int id;", "};")),
    "javascript": Language(
        "javascript", ("class Shop {",), ("}", "", "module.exports = Shop;"), "  ",
        _braces(lambda n: f"{n}(x)"), lambda v, h, a: f"const {v} = this.{h}({a});",
        lambda e: f"return {e};", 'console.log("total", total);',
        use=('const fs = require("fs");', ""), field="limit = 10;", param=("(x)", "(x, scale)"),
        when=("if (x > 0) {", "}"), second=("", "class Item {", "  constructor(id) {", "    this.id = id;", "  }", "}")),
    "typescript": Language(
        "typescript", ("export class Shop {",), ("}",), "  ",
        _braces(lambda n: f"{n}(x: number): number"), lambda v, h, a: f"const {v} = this.{h}({a});",
        lambda e: f"return {e};", 'console.log("total", total);',
        use=('import { Logger } from "./logger";', ""), field="private limit = 10;",
        param=("(x: number)", "(x: number, scale: number)"), when=("if (x > 0) {", "}"), note="@memoize()",
        second=("", "export class Item {", "  id = 0;", "}")),
    "php": Language(  # PSR-12: a method's brace on its own line
        "php", ("<?php", "", "class Shop", "{"), ("}",), "    ",
        _braces(lambda n: f"public function {n}($x)", allman=True),
        lambda v, h, a: f"${v} = $this->{h}({a.replace('x', '$x')});", lambda e: f"return ${e};",
        'echo "total $total";',
        use=("use Shop\\Logger;", ""), use_at=2, field="private $limit = 10;", param=("($x)", "($x, $scale)"),
        when=("if ($x > 0) {", "}"), note="#[Deprecated]", second=("", "class Item", "{", "    public $id;", "}")),
    "go": Language(
        "go", ("package shop", "", "type Shop struct{}", ""), (), "",
        _braces(lambda n: f"func (s *Shop) {n.capitalize()}(x int) int"), lambda v, h, a: f"{v} := s.{h}({a})",
        _returns, 'fmt.Println("total", total)',
        use=('import "fmt"', ""), use_at=2, field="const limit = 10", param=("(x int)", "(x int, scale int)"),
        when=("if x > 0 {", "}"), second=("", "type Item struct {", "  ID int", "}")),
    "rust": Language(
        "rust", ("pub struct Shop;", "", "impl Shop {"), ("}",), "    ",
        _braces(lambda n: f"pub fn {n}(&self, x: i32) -> i32"), lambda v, h, a: f"let {v} = self.{h}({a});",
        lambda e: e, 'println!("total {}", total);',
        use=("use std::fmt;", ""), field="pub const LIMIT: i32 = 10;", param=("x: i32)", "x: i32, scale: i32)"),
        when=("if x > 0 {", "}"), note="#[inline]", second=("", "pub struct Item {", "    pub id: i32,", "}")),
    "python": Language(
        "python", ("import logging", "", "", "class Shop:"), (), "    ", _python,
        lambda v, h, a: f"{v} = self.{h}({a})", _returns, 'logging.info("total %s", total)',
        use=("import os",), use_at=1, field="limit = 10", param=("(self, x)", "(self, x, scale=1)"),
        when=("if x > 0:", ""), note="@functools.cache", second=("", "", "class Item:", "    id = 0")),
    "ruby": Language(
        "ruby", ("class Shop",), ("end",), "  ", _ended(lambda n: f"def {n}(x)"),
        lambda v, h, a: f"{v} = {h}({a})", lambda e: e, 'puts "total #{total}"',
        use=('require "json"', ""), field="LIMIT = 10", param=("(x)", "(x, scale = 1)"), when=("if x > 0", "end"),
        second=("", "class Item", "  attr_reader :id", "end")),
    "lua": Language(
        "lua", ("local Shop = {}", ""), ("", "return Shop"), "", _ended(lambda n: f"function Shop:{n}(x)"),
        lambda v, h, a: f"local {v} = self:{h}({a})", _returns, 'print("total", total)',
        use=('local json = require("json")',), field="Shop.limit = 10", param=("(x)", "(x, scale)"),
        when=("if x > 0 then", "end"), comment="--"),
    "scala": Language(
        "scala", ("package shop", "", "class Shop {"), ("}",), "  ",
        _braces(lambda n: f"def {n}(x: Int): Int ="), lambda v, h, a: f"val {v} = {h}({a})",
        lambda e: e, 'println(s"total $total")',
        use=("import scala.util.Try", ""), use_at=2, field="val limit = 10", param=("(x: Int)", "(x: Int, scale: Int)"),
        when=("if (x > 0) {", "}"), note="@deprecated", second=("", "class Item {", "  val id = 0", "}")),
}

NAMES = ("alpha", "beta", "gamma")
# Each method's own body: a local it computes, the helper it calls, what it returns. Distinct
# bodies, as real neighbouring methods have; `delta` is the one an edit adds.
BODIES = {"alpha": ("price", "loadPrice", "price"), "beta": ("count", "countItems", "count"),
          "gamma": ("label", "formatLabel", "label"), "delta": ("limit", "computeLimit", "limit")}


def _file(lang: Language, methods: list[tuple], head: tuple[str, ...] | None = None, field: bool = False,
          second: tuple[str, ...] = ()) -> str:
    """A file of `methods`, each (name, body) or (name, body, lines above its header)."""
    lines = list(lang.head if head is None else head)
    if field:
        lines.extend([lang.indent + lang.field, ""])
    for k, (name, body, *above) in enumerate(methods):
        if k and lang.blank_between:
            lines.append("")
        lines.extend(lang.indent + a for a in (above[0] if above else ()))
        lines.extend(lang.method(name, body, lang.indent))
    lines.extend(lang.tail)
    lines.extend(second)
    return "\n".join(lines) + "\n"


def _body(lang: Language, name: str, arg: str = "x") -> list[str]:
    var, helper, value = BODIES[name]
    return [lang.call(var, helper, arg), lang.ret(value)]


def _step(lang: Language) -> str:
    """One level of indentation inside a method body, as the language's methods write it."""
    inner = lang.method("f", ["@"], lang.indent)
    return next(l for l in inner if l.strip() == "@")[: -1][len(lang.indent):]


def _wrapped(lang: Language, line: str) -> list[str]:
    """`line` under an `if x > 0` (with its closing line where the language has one)."""
    step = _step(lang)
    return [lang.when[0], step + line, *([lang.when[1]] if lang.when[1] else [])]


def edits(lang: Language) -> dict[str, tuple[str, str]]:
    """Each everyday edit as (before, after) file text; edits a language cannot write (an
    annotation in Go, Ruby, Lua or JavaScript, a second class after Lua's `return`) are left out."""
    base = [(n, _body(lang, n)) for n in NAMES]
    before = _file(lang, base)
    new = ("delta", _body(lang, "delta"))
    changed = [(n, _body(lang, n, "x * 2") if n == "beta" else b) for n, b in base]
    log = lang.log.replace("total", "label")
    logged = [(n, b[:1] + [log] + b[1:] if n == "gamma" else b) for n, b in base]
    rewritten = [(n, [lang.log.replace("total", "count"), *_body(lang, "beta", "x + 1")] if n == "beta" else b)
                 for n, b in base]
    renamed = [("gammaLabel" if n == "gamma" else n, b) for n, b in base]
    out = {
        "add_first": (before, _file(lang, [new] + base)),
        "add_middle": (before, _file(lang, base[:1] + [new] + base[1:])),
        "add_last": (before, _file(lang, base + [new])),
        "change_line": (before, _file(lang, changed)),
        "insert_line": (before, _file(lang, logged)),
        "delete_method": (before, _file(lang, [m for m in base if m[0] != "beta"])),
        "rename_method": (before, _file(lang, renamed)),
        "rewrite_body": (before, _file(lang, rewritten)),
    }
    # Further everyday edits (each needs the language's descriptor for it).
    head = lang.head[: lang.use_at] + lang.use + lang.head[lang.use_at:]
    out["add_import"] = (before, _file(lang, base, head=head))
    out["add_field"] = (before, _file(lang, base, field=True))
    out["wrap_in_if"] = (_file(lang, logged), _file(lang, [(n, b[:1] + _wrapped(lang, log) + b[1:] if n == "gamma"
                                                            else b) for n, b in base]))
    old_param, new_param = lang.param
    header = lang.method("beta", [], lang.indent)[0]
    assert old_param in header, (lang.name, header)
    out["add_parameter"] = (before, before.replace(header, header.replace(old_param, new_param, 1), 1))
    if lang.note:
        out["add_annotation"] = (before, _file(lang, [(n, b, [lang.note]) if n == "gamma" else (n, b)
                                                      for n, b in base]))
    doc = f"{lang.comment or comment_prefix(lang.name)} Counts the items that x selects."
    out["add_comment"] = (before, _file(lang, [(n, b, [doc]) if n == "beta" else (n, b) for n, b in base]))
    if lang.second:
        out["add_class"] = (before, _file(lang, base, second=lang.second))
    out["delete_line"] = (_file(lang, logged), before)
    out["two_methods"] = (before, _file(lang, [(n, _body(lang, n, "x + 1") if n != "beta" else b)
                                               for n, b in base]))
    return out


def pattern_rows(languages=tuple(LANGUAGES), styles=STYLES, seed: int = 0) -> list[dict]:
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
