"""The definitions a source file holds, read by tree-sitter: functions, methods, classes, impls.

`list_definitions` gives the top-level definitions with their members nested (a class's methods,
an impl's functions), each keyed by its kind and name within its enclosing containers
(`("class A", "def f")`), with its line range and whether its body is empty; `flatten` walks them
depth first and `body_states` maps each key to its emptiness. Grammars: those text/syntax.py
loads (Python, JavaScript, TypeScript/TSX, Go, Rust, ...); None where the language has none.

This module reads one text; it knows no snippet, marker or merge (snippet/definitions.py merges
by these keys, gate/guards.py compares body states).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from fastapply.merge.text import syntax

# Node type -> kind word, per grammar family. Wrappers are unwrapped to the definition inside.
_KINDS = {
    "function_definition": "def", "class_definition": "class",
    "function_declaration": "function", "generator_function_declaration": "function",
    "class_declaration": "class", "abstract_class_declaration": "class",
    "method_definition": "method", "interface_declaration": "interface",
    "type_alias_declaration": "type", "enum_declaration": "enum",
    "method_declaration": "method", "type_declaration": "type",
    "function_item": "fn", "struct_item": "struct", "enum_item": "enum", "trait_item": "trait",
    "impl_item": "impl", "mod_item": "mod", "macro_definition": "macro",
    "lexical_declaration": "const", "function_signature_item": "fn",
}
_WRAPPERS = ("decorated_definition", "export_statement")
_CONTAINER_BODIES = ("block", "class_body", "declaration_list")
CONTAINERS = ("class", "impl", "trait", "mod")
_COMMENTS = ("comment", "line_comment", "block_comment")


@dataclass(frozen=True)
class Definition:
    """One definition: `key` names it with its enclosing containers, lines are [start, end)."""

    key: tuple[str, ...]
    kind: str
    start: int
    end: int
    body_empty: bool | None
    members: tuple["Definition", ...] = field(default_factory=tuple)



def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace") if node is not None else ""


def _name(node: Any) -> str | None:
    if node.type == "lexical_declaration":
        decls = [c for c in node.named_children if c.type == "variable_declarator"]
        if len(decls) != 1:
            return None
        value = decls[0].child_by_field_name("value")
        if value is None or value.type not in ("arrow_function", "function_expression", "function"):
            return None  # a plain constant is data, not a definition
        return _text(decls[0].child_by_field_name("name"))
    if node.type == "type_declaration":
        spec = next((c for c in node.named_children if c.type in ("type_spec", "type_alias")), None)
        return _text(spec.child_by_field_name("name")) if spec is not None else None
    if node.type == "impl_item":
        trait = node.child_by_field_name("trait")
        target = _text(node.child_by_field_name("type"))
        return f"{_text(trait)} for {target}" if trait is not None else target
    if node.type == "method_declaration":
        receiver = _text(node.child_by_field_name("receiver"))
        rtype = receiver.strip("()").split()[-1].lstrip("*") if receiver.strip("()") else ""
        return f"({rtype}).{_text(node.child_by_field_name('name'))}"
    name = node.child_by_field_name("name")
    return _text(name) if name is not None else None


def _unwrap(node: Any) -> Any:
    while node.type in _WRAPPERS:
        inner = node.child_by_field_name("definition") or node.child_by_field_name("declaration")
        if inner is None:
            inner = next((c for c in node.named_children if c.type in _KINDS), None)
        if inner is None:
            return node
        node = inner
    return node


def _body_empty(node: Any) -> bool | None:
    body = node.child_by_field_name("body")
    if body is None:
        return None
    stack = list(body.named_children)
    while stack:
        child = stack.pop()
        if child.type in _COMMENTS or child.type == "pass_statement":
            continue
        if child.type == "statement_list":
            stack.extend(child.named_children)
            continue
        if child.type == "expression_statement" and all(c.type == "ellipsis" for c in child.named_children):
            continue
        return False
    return True


def _collect(parent: Any, prefix: tuple[str, ...]) -> list[Definition]:
    found: list[Definition] = []
    for outer in parent.named_children:
        node = _unwrap(outer)
        kind = _KINDS.get(node.type)
        if kind is None:
            continue
        name = _name(node)
        if not name:
            continue
        key = prefix + (f"{kind} {name}",)
        members: list[Definition] = []
        if kind in CONTAINERS:
            body = node.child_by_field_name("body")
            if body is not None and body.type in _CONTAINER_BODIES:
                members = _collect(body, key)
        found.append(
            Definition(key, kind, outer.start_point[0], outer.end_point[0] + 1,
                       None if kind in CONTAINERS else _body_empty(node), tuple(members))
        )
    return found


def list_definitions(text: str, language: str | None) -> list[Definition] | None:
    """Top-level definitions (members nested inside), or None without a grammar."""
    tree = syntax.parse_tree(text, language)
    if tree is None:
        return None
    return _collect(tree.root_node, ())


def flatten(defs: Sequence[Definition]) -> list[Definition]:
    """The definitions with their members (methods of classes, nested ones), depth first."""
    out: list[Definition] = []
    for d in defs:
        out.append(d)
        out.extend(flatten(d.members))
    return out


def body_states(text: str, language: str | None) -> dict[tuple[str, ...], bool] | None:
    """Definition key -> whether its body is empty, for definitions that have a body."""
    try:
        defs = list_definitions(text, language)
    except Exception:
        return None
    if defs is None:
        return None
    return {d.key: bool(d.body_empty) for d in flatten(defs) if d.body_empty is not None}
