"""Import lines: which names an import binds, so a merge can tell when code still uses a name
whose import the snippet removed.

`bound_names(lines)` maps each import line of a file to the names it binds in the file's scope
(Python, JS/TS imports and `require`, Go, Java/Kotlin/Scala, Rust `use`, PHP `use` with `\\`
namespaces or `use function`/`use const`); lines that bind no usable name (`#include`, `using System;`,
`import a.*`) map to an empty set. `uses(lines, names)` says which of the names a run of lines mentions as a word (not as `x.name`).

This module knows import syntax line by line (a Go import block and a Python parenthesised
`from` continue over lines); it does not parse files, resolve modules or know re-exports.
"""

from __future__ import annotations

import functools
import re
from typing import Iterable, Sequence

_WORD = r"[A-Za-z_$][\w$]*"
_GO_SPEC = re.compile(rf"^(?:({_WORD}|\.)\s+)?\"([^\"]+)\"")
_AS = re.compile(rf"^({_WORD}(?:\.{_WORD})*)(?:\s+as\s+({_WORD}))?$")
_JS_FROM = re.compile(r"^import\s+(?:type\s+)?(.+?)\s+from\s+['\"]")
_REQUIRE = re.compile(rf"^(?:const|let|var)\s+(\{{[^}}]*\}}|{_WORD})\s*=\s*require\(")
_JVM = re.compile(rf"^import\s+(?:static\s+)?{_WORD}(?:\.{_WORD})*\.({_WORD}|\*|_)(?:\s+as\s+({_WORD}))?;?$")
_RUST = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?use\s+(.+?);?$")
_PHP_USE = re.compile(r"^use\s+(?:(function|const)\s+)?([^:;]+?);$")


def _names_in_list(text: str) -> set[str]:
    """`a, b as c, type d` -> {"a", "c", "d"} (Python / JS / Rust lists; `*` binds nothing)."""
    out = set()
    for part in text.strip().strip("{}()").split(","):
        words = part.split()
        if words and words[0] == "type":
            words = words[1:]
        if len(words) >= 3 and words[-2] == "as":
            out.add(words[-1])
        elif words and re.fullmatch(_WORD, words[0]) and words[0] != "*":
            out.add(words[0])
    return out


def _go_name(alias: str | None, path: str) -> set[str]:
    if alias in ("_", "."):
        return set()
    if alias:
        return {alias}
    parts = [p for p in path.split("/") if p]
    while len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]):
        parts.pop()  # `github.com/x/y/v2` is package `y`
    name = parts[-1].split(".")[0].replace("-", "_") if parts else ""
    return {name} if re.fullmatch(_WORD, name) else set()


def _line_names(s: str, python: bool) -> set[str] | None:
    """Names one stripped import line binds; None when it is no import line. `python`: read
    `import a.b` as Python does (binds `a`), not as Java, Kotlin and Scala do (binds `b`)."""
    if s.startswith("from ") and " import " in s:  # Python
        return _names_in_list(s.split(" import ", 1)[1])
    if s.startswith("import "):
        rest = s[len("import "):].strip()
        go = _GO_SPEC.match(rest)
        if go:
            return _go_name(go.group(1), go.group(2))
        js = _JS_FROM.match(s)
        if js:
            head = js.group(1).replace("* as ", "")
            return _names_in_list(head.replace("{", ",").replace("}", ""))
        if rest[:1] in "'\"":
            return set()  # a side-effect import: `import './style.css'`
        jvm = None if python else _JVM.match(s)
        if jvm:
            if jvm.group(2):
                return {jvm.group(2)}
            return set() if jvm.group(1) in ("*", "_") else {jvm.group(1)}
        names = set()  # Python: import a.b as c, d
        for part in rest.split(","):
            m = _AS.match(part.strip())
            if m is None:
                return set()
            names.add(m.group(2) or m.group(1).split(".")[0])
        return names
    req = _REQUIRE.match(s)
    if req:
        return _names_in_list(req.group(1).replace(":", " as "))
    php = _PHP_USE.match(s)
    if php and (php.group(1) or "\\" in php.group(2)):  # PHP: `use function count;`, `use App\Foo as Bar;`
        path = php.group(2)
        if "{" in path:  # `use App\{Foo, Bar as Baz}`
            parts = path[path.index("{") + 1 :].rstrip("}").split(",")
            return _names_in_list(",".join(re.sub(r"^(?:function|const)\s+", "", p.strip()).split("\\")[-1] for p in parts))
        return _names_in_list(path.split("\\")[-1])
    rust = _RUST.match(s)
    if rust:
        path = rust.group(1)
        if "{" in path:
            names = _names_in_list(path[path.index("{"):])
            if "self" in names:  # `use std::io::{self, Read}` binds `io`
                names = (names - {"self"}) | _names_in_list(path[: path.index("{")].rstrip(":").split("::")[-1])
            return names
        last = path.split("::")[-1].strip()
        return _names_in_list(last)
    if s.startswith(("#include", "using ", "@import", "require ", "require_relative ")):
        return set()
    return None


def bound_names(lines: Sequence[str], language: str | None = None) -> dict[int, set[str] | frozenset[str]]:
    """Each import line's index in `lines` -> the names it binds (see the module docstring).
    `language` ("python" or another) decides how `import a.b` reads; None: as Python when no
    line of the file ends with `;`."""
    python = language == "python" or (language is None and not any(l.rstrip().endswith(";") for l in lines))
    out: dict[int, set[str]] = {}
    block = None  # "go" inside `import (`, "py" inside `from a import (`
    for i, line in enumerate(lines):
        s = line.strip()
        if block is not None:
            if s.startswith(")"):
                out[i] = set()
                block = None
                continue
            if block == "go":
                spec = _GO_SPEC.match(s)
                out[i] = _go_name(spec.group(1), spec.group(2)) if spec else set()
            else:
                out[i] = _names_in_list(s.rstrip(")"))
                if s.endswith(")"):
                    block = None
            continue
        if s == "import (":
            out[i] = set()
            block = "go"
            continue
        if s.startswith("from ") and s.endswith("import ("):
            out[i] = set()
            block = "py"
            continue
        names = _known_line_names(s, python)
        if names is not None:
            out[i] = names
    return out


@functools.lru_cache(maxsize=1 << 14)  # asked of every line of the original and of each result
def _known_line_names(s: str, python: bool) -> frozenset[str] | None:
    names = _line_names(s, python)
    return None if names is None else frozenset(names)


def uses(lines: Iterable[str], names: Iterable[str]) -> set[str]:
    """The names that occur in `lines` as a word not preceded by a dot (`errors.New`, `viper`
    but not `x.viper`)."""
    text = "\n".join(lines)
    return {n for n in names if re.search(rf"(?<![\w$.]){re.escape(n)}(?![\w$])", text)}
