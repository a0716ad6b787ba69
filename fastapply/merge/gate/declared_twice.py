"""A declaration kept twice, read from the syntax tree, for languages that declare members by signature.

`repeats.check_name_defined_twice` reads definitions line by line with the header shapes of Python,
JS, Go and Rust (`def`, `function`, `func`, `fn`, object keys). C#, Java, Kotlin, PHP, Swift and
Scala declare members with modifiers and return types in front of the name (`internal
DelegateResult(TResult result)`, `private class TestOptions : Base;`), which it cannot see; and
there a name may be declared twice legitimately (overloads). This check asks tree-sitter instead:

- `declarations(text, language)`: each function-like declaration (method, constructor, function,
  init) keyed by its enclosing declarations, its name and its parameter list (an overload differs
  there), each property and each name a class body's field declaration declares (`private int x, y;`,
  `protected $type;`, Kotlin/Swift `val x`; not a local in a function or lambda) by its enclosing
  declarations and name, and each type declaration (class,
  struct, interface, enum, record, trait, object; not a Swift `extension` or a C# `partial` class,
  which may reopen a type) by its enclosing declarations, node type and name; None without a grammar
  or when the text does not parse;
- `check_declared_twice(original, result, language)`: a reason when one scope of the result declares
  such a key twice where no scope of the original does (an anonymous class's body is a scope of its
  own): a snippet's new member pasted beside
  the original one it was meant to replace (a new constructor `public D(T r)` above the kept
  `internal D(T r)`), which the compiler would reject.

It knows tree-sitter node shapes of those languages; it does not know snippets or how the result
was made.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from fastapply.merge.text.syntax import normalize_language, parse_tree
from fastapply.merge.text.spans import code

LANGUAGES = {"csharp", "java", "kotlin", "php", "swift", "scala"}
_TYPE_WORDS = ("class", "struct", "interface", "enum", "record", "trait", "object", "protocol")
_FUNCTION_WORDS = ("function", "method", "constructor", "init")
_NAME_TYPES = {"identifier", "simple_identifier", "type_identifier", "name"}
_BODIES = ("class_body", "declaration_list", "template_body", "object_body")


def _family(node_type: str) -> str | None:
    """"type", "function", "property" or None (not a declaration this check keys) for a node type."""
    if not node_type.endswith(("_declaration", "_definition")):
        return None
    head = node_type.rsplit("_", 1)[0]
    if any(word in head for word in _FUNCTION_WORDS):
        return "function"
    if any(word == head or head.endswith(word) for word in _TYPE_WORDS):
        return "type"
    return "property" if head in ("property", "field") else None


def _reopens(node) -> bool:
    """A type declaration that may legitimately appear twice: a Swift `extension`, a C# `partial` class."""
    words = node.text[:200].decode("utf-8", "replace").split("{")[0].split()
    return "extension" in words or "partial" in words


def _name(node) -> str | None:
    named = node.child_by_field_name("name")
    if named is None:
        named = next((c for c in node.children if c.type in _NAME_TYPES), None)
    return named.text.decode("utf-8", "replace") if named is not None else None


_DECLARATORS = ("property_element", "variable_declarator", "variable_declaration", "pattern")


def _field_names(node) -> list[str]:
    """The names a field declaration of a class body declares (`private int x, y;`, `protected $type;`,
    `val x: Int`, `var x = 1`): each declarator's name; none outside a class body (a local `val` in a
    lambda or a script is not a member)."""
    if node.parent is None or not node.parent.type.endswith(_BODIES):
        return []
    names = []
    for child in node.children:
        if child.type not in _DECLARATORS:
            continue
        inner = [c for c in child.children if c.type in _DECLARATORS] or [child]
        for part in inner:
            name = _name(part)
            if name is None:
                variable = next((c for c in part.children if c.type == "variable_name"), None)  # PHP `$name`
                name = _name(variable) if variable is not None else None
            if name:
                names.append(name)
    return names


def _parameters(node) -> str:
    """The parameter list's text, whitespace runs as one space (what tells two overloads apart)."""
    params = node.child_by_field_name("parameters")
    parts = [params] if params is not None else [c for c in node.children if "parameter" in c.type]
    return " ".join(" ".join(p.text.decode("utf-8", "replace").split()) for p in parts)


def declarations(text: str, language: str | None) -> Counter | None:
    """(enclosing names, family or type node, name, parameters) -> how often `text` declares it; None without a
    grammar for `language` (or outside LANGUAGES) or when `text` does not parse cleanly."""
    language = normalize_language(language)
    if language not in LANGUAGES:
        return None
    tree = parse_tree(text, language)
    if tree is None or tree.root_node.has_error:
        return None
    found: Counter = Counter()
    stack = [(tree.root_node, ())]
    while stack:
        node, scope = stack.pop()
        family = _family(node.type)
        name = _name(node) if family else None
        if family == "function" and name:
            found[(scope, family, name, _parameters(node))] += 1
            continue  # members are not declared inside a function body
        if family == "property":  # a field or property: each name it declares
            for field in _field_names(node) or ([name] if name else []):
                found[(scope, family, field, "")] += 1
            continue
        if family == "type" and name:
            if not _reopens(node):
                found[(scope, node.type, name, "")] += 1  # a class and its companion object differ by node type
            scope = scope + (name,)
        elif node.type.endswith(_BODIES):  # an anonymous class's body (`new Factory() { ... }`): a scope of its own
            scope = scope + (f"@{node.start_byte}",)
        stack.extend((child, scope) for child in node.children if child.is_named)
    return found


def _named(key: tuple) -> tuple:
    """The key without its anonymous scopes (their byte offsets differ between two files)."""
    scope, *rest = key
    return (tuple(s for s in scope if not s.startswith("@")), *rest)


def check_declared_twice(original: Sequence[str], result: Sequence[str], language: str | None) -> str | None:
    """Refuse when the result declares a member or type (same enclosing declarations, name and
    parameters) twice where the original declares it at most once."""
    if normalize_language(language) not in LANGUAGES:
        return None
    after = declarations("\n".join(result) + "\n", language)
    if not after or max(after.values()) < 2:
        return None
    before = declarations("\n".join(original) + "\n", language)
    if before is None:
        return None
    twice_before = {_named(key) for key, n in before.items() if n >= 2}
    for key, n in sorted(after.items()):
        scope, family, name, params = _named(key)
        if n >= 2 and _named(key) not in twice_before:
            shown = f"{name}{params}" if family == "function" else name
            where = f" in {code(scope[-1])}" if scope else ""
            return (f"{code(shown)} would be defined twice in one block{where} (the original's declaration kept beside "
                    "the snippet's); include the lines around it so the snippet's declaration replaces the original one")
    return None
