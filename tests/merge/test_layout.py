"""The layout of merge/: sub-packages in the order they act, no import circle, no private name
imported across modules.

Read from the source with `ast` (imports inside functions count too): a circle hidden behind a
function-level import is still a circle for a reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

import fastapply.merge

MERGE = Path(fastapply.merge.__file__).resolve().parent
PACKAGE = "fastapply.merge"
# The flow, in order: a sub-package may import only from those before it (and from result.py,
# the one result shape every merger returns, and refuse/refusal.py, the data a refusing site
# attaches). refuse/ (the rest of it) describes a refusal after the merge decided one.
# instant.py, on top, may import from all of them.
LAYERS = ("text", "snippet", "align", "gate", "decide", "refuse")
DATA = (["result"], ["refuse", "refusal"])  # the shapes any layer may import


def module_files(root: Path = MERGE, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((package, *parts))] = path
    return out


def imports(modules: dict[str, Path]) -> tuple[dict[str, set[str]], list[str]]:
    """Each module's imports of other modules in `modules`, and every private name (`_x`) one
    module takes from another (`from m import _x`, or `m._x` on a module it imported)."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    private: list[str] = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                private.append(f"{name}: relative import (write the absolute path)")
            elif isinstance(node, ast.ImportFrom) and node.module in modules:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in modules:
                        edges[name].add(full)
                        aliases[alias.asname or alias.name] = full
                    else:
                        edges[name].add(node.module)
                        if alias.name.startswith("_"):
                            private.append(f"{name} imports {node.module}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        edges[name].add(alias.name)
                        if alias.asname:
                            aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                private.append(f"{name} uses {aliases[node.value.id]}.{node.attr}")
    for name in edges:
        edges[name].discard(name)
    return edges, private


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> int:
    """The module's place in the flow: its sub-package's index in LAYERS; the DATA modules and the
    package itself come first, instant.py (and anything else at the top) last."""
    rest = module[len(PACKAGE) + 1:].split(".") if module != PACKAGE else []
    if not rest or rest in DATA:
        return -1
    return LAYERS.index(rest[0]) if rest[0] in LAYERS else len(LAYERS)


def test_merge_has_no_import_circle():
    edges, _ = imports(module_files())
    assert circles(edges) == []


def test_no_private_name_is_imported_across_merge_modules():
    _, private = imports(module_files())
    assert private == []


def test_each_sub_package_imports_only_from_those_before_it_in_the_flow():
    edges, _ = imports(module_files())
    backwards = sorted(f"{a} -> {b}" for a, targets in edges.items() for b in targets if layer(b) > layer(a))
    assert backwards == []


def test_every_sub_package_of_the_flow_exists_and_the_entry_point_stays_put():
    modules = module_files()
    assert all(f"{PACKAGE}.{name}" in modules for name in LAYERS)
    assert f"{PACKAGE}.instant" in modules
    from fastapply.merge.instant import instant_merge  # noqa: F401 (the entry point's path)


def _write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return module_files(root, "pkg")


def test_the_checks_find_a_circle_through_a_function_level_import_and_a_private_name(tmp_path):
    modules = _write(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg.b import helper\n",
        "b.py": "def helper():\n    from pkg import c\n    return c._secret\n",
        "c.py": "from pkg.a import helper\n_secret = 1\n",
        "d.py": "from pkg.c import _secret\n",
    })
    edges, private = imports(modules)
    assert circles(edges) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert sorted(private) == ["pkg.b uses pkg.c._secret", "pkg.d imports pkg.c._secret"]


def test_the_layer_check_names_an_import_against_the_flow():
    assert layer(f"{PACKAGE}.text.lines") < layer(f"{PACKAGE}.snippet.sections") < layer(f"{PACKAGE}.align.lazy")
    assert layer(f"{PACKAGE}.align.lazy") < layer(f"{PACKAGE}.gate.guards") < layer(f"{PACKAGE}.decide.settled")
    assert layer(f"{PACKAGE}.decide.settled") < layer(f"{PACKAGE}.instant")
    assert layer(f"{PACKAGE}.result") < layer(f"{PACKAGE}.text.lines")
    assert layer(f"{PACKAGE}.refuse.refusal") < layer(f"{PACKAGE}.text.lines")
    assert layer(f"{PACKAGE}.decide.settled") < layer(f"{PACKAGE}.refuse.explain") < layer(f"{PACKAGE}.instant")
