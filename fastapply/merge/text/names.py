"""What a line defines: the name of a definition header, read from the line alone.

`header_name`: the name a definition header (with a parameter list) defines, with or without a
keyword; `defined_name`: the name a line defines in its block, keyword-led or a member
(`exports.get =`, `save: function`, `host: null,`), a PHP method, a Ruby `def` with or without
parentheses (`def self.empty?`), a Lua `function M.f(`; `keyword_name`: the name after a defining
keyword anywhere in a header; `undeclared`: a name without its `var` / `let` / `const`.

This module knows single lines and the definition shapes of mainstream languages; it does not
parse, and it does not know where a line stands.
"""

from __future__ import annotations

import re
from functools import lru_cache

_NOT_HEADER_NAMES = frozenset("func function def fn sub if for while switch catch return new await async".split())
# A definition header: modifiers, types or a keyword (`public static int`, `def`, `func (s *T)`),
# an optional qualifier (`Shop::`, `Shop:`, `self.`), the name, its parameter list.
_HEADER = re.compile(r"^(?:func\s*\([^)]*\)\s*)?(?:[\w$<>\[\],]+\s+)*(?:[\w$]+(?:::|:|\.))?([A-Za-z_$][\w$]*)\s*\(")
_STATEMENT_WORDS = frozenset("return if for while switch catch await yield throw new else echo print elif when".split())


_DECLARATION = re.compile(r"^(?:var|let|const)\s+")


def undeclared(name: str) -> str:
    """`name` (a leading name, or a line) without its declaration keyword (`var x` -> `x`, `const x`
    -> `x`): the same name declared with another keyword, or continued in a `var` chain, is one name."""
    return _DECLARATION.sub("", name)


def header_name(line: str) -> str | None:
    """The name a line defines when it reads as a definition header (`delta` of `int Shop::delta(int
    x) {`, of `public function delta($x)`, of `def delta(self):`), else None: a statement (`return
    f(x)`, `x = f(y);`, `en: f('en'),`) defines nothing."""
    text = line.strip()
    if not text or text.endswith((";", ",")) or text.split()[0].rstrip("(") in _STATEMENT_WORDS:
        return None
    m = _HEADER.match(text)
    return m.group(1) if m is not None and m.group(1) not in _NOT_HEADER_NAMES else None


_NOT_NAMES = {"if", "for", "while", "switch", "catch", "return", "else", "elif", "with", "function", "new",
              "typeof", "await", "yield", "match", "loop", "do", "try", "except", "case", "assert", "print",
              "super", "require", "import", "from", "export", "let", "const", "var", "default"}
_DEFINES = [
    re.compile(r"^(?:async\s+)?def\s+(\w+)\s*\("),
    re.compile(r"^class\s+(\w+)"),
    re.compile(r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*(\w+)\s*\("),
    re.compile(r"^func\s+(\([^)]*\)\s*\w+)\s*\("),  # a Go method: the receiver is part of the name
    re.compile(r"^func\s+(\w+)\s*\("),
    re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)"),
    re.compile(r"^(?:(?:public|protected|private|static|abstract|final)\s+)+function\s+&?(\w+)\s*\("),  # a PHP method
    re.compile(r"^def\s+((?:self\.)?[A-Za-z_]\w*[?!=]?)(?=\s*(?:\(|;|#|$))"),  # a Ruby method, parentheses or not
    re.compile(r"^(?:local\s+)?function\s+(\w+(?:[.:]\w+)*)\s*\("),  # a Lua function (`M.f`, `M:f`)
    re.compile(r"^((?:module\.)?exports\.\w+|[\w$]+\.prototype\.[\w$]+)\s*="),
    re.compile(r"^([\w$]+)\s*:\s*(?:async\s+)?function\b"),
    # an object key (JS, JSON, YAML-like); not `has_many :posts`, a Ruby call with a symbol argument
    re.compile(r"^['\"]?([\w$]+)['\"]?(?::|\s+:(?=\s))\s*\S"),
]


@lru_cache(maxsize=1 << 16)  # asked of every line of a result by several guards
def defined_name(line: str) -> str | None:
    """The name `line` defines (`def f(` -> f, `exports.get = ...` -> exports.get, `host: null,`
    -> host, `func (a T) Len(` -> `(a T) Len`), or None."""
    text = line.strip()
    for pattern in _DEFINES:
        m = pattern.match(text)
        if m:
            name = m.group(1)
            return None if name in _NOT_NAMES else re.sub(r"\s+", " ", name)
    return None


_NAME = re.compile(r"(?:def|fn|func|function|fun|sub|class|struct|trait|enum|interface|module|impl)\s+"
                   r"(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")


def keyword_name(header: str) -> str | None:
    """The name after a defining keyword anywhere in a header (`def test_x(runner):` -> `test_x`, `pub
    struct Shop {` -> `Shop`), or None."""
    m = _NAME.search(header)
    return m.group(1) if m else None
