"""The languages of the pattern grid (data/patterns.py) and how a file of methods is written in each.

A `Language` describes one language's surface syntax: a method around body lines, a call, a
return, a log statement, a comment, and the lines a few everyday edits need (an import, a field, a
parameter, an `if`, an annotation, a second class, a return type). `file_of` writes one small
class-like file from (name, body) methods; `body_of` gives each method its own distinct body.

It knows surface syntax only: nothing about edits, snippets or the merge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

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
    rtype: tuple[str, str] = ("", "")  # a return type changed: (old, new) text of a signature ("" where none)


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
        when=("if (x > 0) {", "}"), note="@Deprecated", second=("", "class Item {", "    int id;", "}"), rtype=("public int", "public long")),
    "csharp": Language(
        "csharp", ("namespace Shop", "{", "    public class Shop", "    {"), ("    }", "}"), "        ",
        _braces(lambda n: f"public int {n.capitalize()}(int x)", allman=True),
        lambda v, h, a: f"var {v} = {h[0].upper() + h[1:]}({a});", lambda e: f"return {e};",
        'Console.WriteLine($"total {total}");',
        use=("using System;", ""), field="private int limit = 10;", param=("(int x)", "(int x, int scale)"),
        when=("if (x > 0)", ""), note="[Obsolete]", second=("", "public class Item", "{", "    public int Id;", "}"),
        rtype=("public int", "public long")),
    "cpp": Language(
        "cpp", ('#include "shop.h"', ""), (), "",
        _braces(lambda n: f"int Shop::{n}(int x)"), lambda v, h, a: f"int {v} = {h}({a});",
        lambda e: f"return {e};", 'std::cout << "total " << total << std::endl;',
        use=("#include <iostream>",), use_at=1, field="static const int kLimit = 10;",
        param=("(int x)", "(int x, int scale)"), when=("if (x > 0) {", "}"), note="[[nodiscard]]",
        second=("", "struct Item {", "  int id;", "};"), rtype=("int Shop::", "long Shop::")),
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
        second=("", "export class Item {", "  id = 0;", "}"), rtype=("): number", "): string")),
    "php": Language(  # PSR-12: a method's brace on its own line
        "php", ("<?php", "", "class Shop", "{"), ("}",), "    ",
        _braces(lambda n: f"public function {n}($x)", allman=True),
        lambda v, h, a: f"${v} = $this->{h}({a.replace('x', '$x')});", lambda e: f"return ${e};",
        'echo "total $total";',
        use=("use Shop\\Logger;", ""), use_at=2, field="private $limit = 10;", param=("($x)", "($x, $scale)"),
        when=("if ($x > 0) {", "}"), note="#[Deprecated]", second=("", "class Item", "{", "    public $id;", "}"),
        rtype=("($x)", "($x): int")),
    "go": Language(
        "go", ("package shop", "", "type Shop struct{}", ""), (), "",
        _braces(lambda n: f"func (s *Shop) {n.capitalize()}(x int) int"), lambda v, h, a: f"{v} := s.{h}({a})",
        _returns, 'fmt.Println("total", total)',
        use=('import "fmt"', ""), use_at=2, field="const limit = 10", param=("(x int)", "(x int, scale int)"),
        when=("if x > 0 {", "}"), second=("", "type Item struct {", "  ID int", "}"), rtype=("int {", "int64 {")),
    "rust": Language(
        "rust", ("pub struct Shop;", "", "impl Shop {"), ("}",), "    ",
        _braces(lambda n: f"pub fn {n}(&self, x: i32) -> i32"), lambda v, h, a: f"let {v} = self.{h}({a});",
        lambda e: e, 'println!("total {}", total);',
        use=("use std::fmt;", ""), field="pub const LIMIT: i32 = 10;", param=("x: i32)", "x: i32, scale: i32)"),
        when=("if x > 0 {", "}"), note="#[inline]", second=("", "pub struct Item {", "    pub id: i32,", "}"),
        rtype=("-> i32", "-> i64")),
    "python": Language(
        "python", ("import logging", "", "", "class Shop:"), (), "    ", _python,
        lambda v, h, a: f"{v} = self.{h}({a})", _returns, 'logging.info("total %s", total)',
        use=("import os",), use_at=1, field="limit = 10", param=("(self, x)", "(self, x, scale=1)"),
        when=("if x > 0:", ""), note="@functools.cache", second=("", "", "class Item:", "    id = 0"),
        rtype=("(self, x):", "(self, x) -> int:")),
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
        when=("if (x > 0) {", "}"), note="@deprecated", second=("", "class Item {", "  val id = 0", "}"),
        rtype=("): Int =", "): Long =")),
    "kotlin": Language(
        "kotlin", ("package shop", "", "class Shop {"), ("}",), "    ",
        _braces(lambda n: f"fun {n}(x: Int): Int"), lambda v, h, a: f"val {v} = {h}({a})", _returns,
        'println("total $total")',
        use=("import kotlin.math.max", ""), use_at=2, field="private val limit = 10", param=("(x: Int)", "(x: Int, scale: Int)"),
        when=("if (x > 0) {", "}"), note='@Deprecated("old")', second=("", "class Item {", "    val id = 0", "}"),
        rtype=("): Int", "): Long")),
    "swift": Language(
        "swift", ("import Foundation", "", "class Shop {"), ("}",), "    ",
        _braces(lambda n: f"func {n}(x: Int) -> Int"), lambda v, h, a: f"let {v} = {h}({a})", _returns,
        'print("total \\(total)")',
        use=("import os",), use_at=1, field="private let limit = 10", param=("(x: Int)", "(x: Int, scale: Int)"),
        when=("if x > 0 {", "}"), note="@discardableResult", second=("", "struct Item {", "    var id = 0", "}"),
        rtype=("-> Int", "-> Int64")),
    "c": Language(
        "c", ('#include "shop.h"', ""), (), "",
        _braces(lambda n: f"int shop_{n}(int x)"), lambda v, h, a: f"int {v} = {h}({a});",
        lambda e: f"return {e};", 'printf("total %d\\n", total);',
        use=("#include <stdio.h>",), use_at=1, field="static const int limit = 10;",
        param=("(int x)", "(int x, int scale)"), when=("if (x > 0) {", "}"),
        second=("", "struct item {", "  int id;", "};"), rtype=("int shop_", "long shop_")),
}

NAMES = ("alpha", "beta", "gamma")
# Each method's own body: a local it computes, the helper it calls, what it returns. Distinct
# bodies, as real neighbouring methods have; `delta` is the one an edit adds.
BODIES = {"alpha": ("price", "loadPrice", "price"), "beta": ("count", "countItems", "count"),
          "gamma": ("label", "formatLabel", "label"), "delta": ("limit", "computeLimit", "limit")}


def file_of(lang: Language, methods: list[tuple], head: tuple[str, ...] | None = None, field: bool = False,
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


def body_of(lang: Language, name: str, arg: str = "x") -> list[str]:
    var, helper, value = BODIES[name]
    return [lang.call(var, helper, arg), lang.ret(value)]


def step_of(lang: Language) -> str:
    """One level of indentation inside a method body, as the language's methods write it."""
    inner = lang.method("f", ["@"], lang.indent)
    return next(l for l in inner if l.strip() == "@")[: -1][len(lang.indent):]


def wrapped(lang: Language, line: str) -> list[str]:
    """`line` under an `if x > 0` (with its closing line where the language has one)."""
    step = step_of(lang)
    return [lang.when[0], step + line, *([lang.when[1]] if lang.when[1] else [])]


