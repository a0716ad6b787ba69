"""Language detection and tree-sitter parsing for the instant path.

`detect_language(path, content)` names the language from a file path's extension, else guesses it
from the content (keyword evidence, confirmed by a clean parse). `parses(text, language)` answers
"does this parse without errors?" with True/False, or None when no grammar is installed for the
language. `parse_tree(text, language)` returns the tree for callers that walk definitions.

Grammars are individual wheels (`tree_sitter_python`, ...), each bundling its compiled grammar,
imported lazily and cached: a missing wheel only turns answers into None.

This module knows nothing about snippets, markers or merges.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Any

from fastapply.merge.text.compare import common_ends

# Extension -> language name: THE table (data/pairs.py labels pairs with it too). Names follow the
# data files (`python`, `go`, ...); `.tsx` is its own language (its own grammar).
_EXTENSIONS = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript", ".tsx": "tsx",
    ".go": "go", ".rs": "rust",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".java": "java",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
    ".cs": "csharp", ".kt": "kotlin", ".kts": "kotlin", ".swift": "swift", ".php": "php",
    ".scala": "scala", ".sc": "scala", ".lua": "lua", ".html": "html", ".htm": "html", ".css": "css",
    ".json": "json", ".toml": "toml", ".yaml": "yaml", ".yml": "yaml",
}
_ALIASES = {"py": "python", "js": "javascript", "ts": "typescript", "golang": "go", "rs": "rust",
            "jsx": "javascript", "node": "javascript", "bash": "shell", "sh": "shell", "zsh": "shell",
            "c++": "cpp", "cxx": "cpp", "c#": "csharp", "cs": "csharp", "kt": "kotlin", "rb": "ruby",
            "yml": "yaml", "htm": "html"}

# Language -> (module name, attribute holding the language function). Each is its own wheel,
# imported lazily; a missing one only turns that language's answers into None.
_GRAMMARS = {lang: (f"tree_sitter_{lang}", "language") for lang in
             "python javascript go rust c cpp java kotlin swift ruby scala lua html css json toml yaml".split()}
_GRAMMARS.update(typescript=("tree_sitter_typescript", "language_typescript"), tsx=("tree_sitter_typescript", "language_tsx"),
                 shell=("tree_sitter_bash", "language"), csharp=("tree_sitter_c_sharp", "language"),
                 php=("tree_sitter_php", "language_php"))

# Content evidence: each pattern that matches adds a vote for its language.
_EVIDENCE = {
    "python": [r"^\s*def \w+\(.*\)\s*(->.*)?:\s*$", r"^\s*class \w+.*:\s*$", r"^import \w+",
               r"^from [\w.]+ import ", r"^\s*elif\b", r"\bself\."],
    "go": [r"^package \w+", r"^func ", r"^\s*\w+ :?= ", r"^import \($", r"\bfmt\.", r":= "],
    "rust": [r"^\s*(pub )?fn \w+", r"^\s*use \w+(::\w+)+", r"^\s*impl\b", r"\blet mut\b",
             r"^\s*#\[\w+"],
    "javascript": [r"^\s*(const|let|var) \w+ = ", r"\bfunction\b", r"=>", r"require\(",
                   r"module\.exports", r"^\s*import .* from ['\"]"],
    "typescript": [r"^\s*(export )?interface \w+", r":\s*(string|number|boolean)\b",
                   r"^\s*(export )?type \w+ = ", r"\bas const\b"],
    "java": [r"^\s*(public|private|protected) (static )?(final )?[\w<>\[\]]+ \w+\(", r"^import java\.",
             r"^package [\w.]+;", r"\bSystem\.out\.", r"@Override"],
    "cpp": [r"^#include\s*[<\"]", r"\bstd::", r"^\s*template\s*<", r"^\s*namespace \w+", r"::\w+\("],
    "ruby": [r"^\s*def \w+[?!]?(\(.*\))?\s*$", r"^\s*end\s*$", r"^\s*require ['\"]", r"\bdo \|\w+",
             r"^\s*module \w+"],
    "lua": [r"^\s*local \w+ = ", r"^\s*function [\w.:]+\(", r"^\s*end\s*$", r"\bthen\s*$", r"~="],
    "scala": [r"^\s*(case )?class \w+", r"^\s*object \w+", r"^\s*def \w+.*=", r"^\s*val \w+", r"^import scala\."],
    "html": [r"<!DOCTYPE html", r"<html\b", r"</div>", r"<head>", r"<body\b"],
}


def normalize_language(language: str | None) -> str | None:
    """Lower-case a language name and resolve common aliases (`py` -> `python`)."""
    if not language:
        return None
    name = language.strip().lower()
    return _ALIASES.get(name, name)


def language_from_path(path: str | None) -> str | None:
    """The language for a path's extension, or None when unknown."""
    if not path:
        return None
    _, ext = os.path.splitext(path.lower())
    return _EXTENSIONS.get(ext)


def detect_language(path: str | None = None, content: str | None = None) -> str | None:
    """Name the language of a file: from the path's extension, else the best-scoring language by
    keyword evidence whose grammar parses the content without errors; None rather than a weak guess."""
    by_path = language_from_path(path)
    if by_path or not content:
        return by_path
    sample = content[:20000]
    scores = {lang: sum(1 for p in patterns if re.search(p, sample, re.MULTILINE)) for lang, patterns in _EVIDENCE.items()}
    if scores["typescript"] and scores["javascript"]:
        scores["typescript"] += scores["javascript"]
    ranked = sorted((s, lang) for lang, s in scores.items() if s >= 2)
    for _, language in reversed(ranked):
        if parses(sample, language):
            return language
    return None


@functools.lru_cache(maxsize=None)
def _parser(language: str) -> Any | None:
    spec = _GRAMMARS.get(language)
    if spec is None:
        return None
    try:
        import importlib

        import tree_sitter

        module = importlib.import_module(spec[0])
        lang = tree_sitter.Language(getattr(module, spec[1])())
        return tree_sitter.Parser(lang)
    except Exception:  # a missing or incompatible wheel makes the language unknown, not an error
        return None


def has_grammar(language: str | None) -> bool:
    """True when a tree-sitter grammar for `language` is installed and loads."""
    language = normalize_language(language)
    return language is not None and _parser(language) is not None


def parse_tree(text: str, language: str | None) -> Any | None:
    """The tree-sitter tree for `text`, or None when there is no grammar for `language`. The last
    few trees are kept: the guards parse the same original and result several times (trees are
    only read, never edited, so sharing them is safe)."""
    language = normalize_language(language)
    parser = _parser(language) if language else None
    if parser is None:
        return None
    return _parse(text, language)


@functools.lru_cache(maxsize=8)
def _parse(text: str, language: str) -> Any:
    return _parser(language).parse(text.encode("utf-8", "surrogatepass"))


def parses(text: str, language: str | None) -> bool | None:
    """True when `text` parses without syntax errors, False when not, None without a grammar."""
    try:
        tree = parse_tree(text, language)
    except Exception:
        return None
    if tree is None:
        return None
    return not tree.root_node.has_error


def python_error(text: str) -> int | None | bool:
    """False when `text` compiles as Python, the 0-based line of its first syntax error when it
    does not, None when the parser cannot say (NUL bytes, nesting too deep)."""
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as exc:  # IndentationError included
        return max(0, (exc.lineno or 1) - 1)
    except Exception:
        return None
    return False


_CONTINUES = re.compile(r"^(else|elif|except|finally)\b|^[)\]}]")


def _statement_start(lines: list[str], i: int, step: int) -> int:
    """From line i, the nearest line (up for step -1, down for +1) that starts a top-level
    statement: unindented, not blank, not a comment, not continuing one (`else:`, a closing
    bracket); going up, decorators above it come with it. Falls back to the file's edge."""
    while 0 <= i < len(lines):
        line = lines[i]
        if line[:1] not in ("", " ", "\t", "#") and not _CONTINUES.match(line):
            if step < 0:
                while i > 0 and lines[i - 1].startswith("@"):
                    i -= 1
            return i
        i += step
    return 0 if step < 0 else len(lines)


def python_break(original: str, result: str) -> int | None:
    """Where tree-sitter is lenient (it reads `try:` followed by unindented code as fine), Python's
    own parser: the 0-based line of a syntax error in `result` where `original` compiles, else
    None. Fast on long files: only the top-level statements around the changed lines are parsed
    (the common head and tail trimmed), and the whole files only to confirm an error."""
    a, b = original.split("\n"), result.split("\n")
    head, tail = common_ends(a, b)
    if head == len(a) == len(b):
        return None
    start = _statement_start(b, min(head, len(b) - 1), -1)
    end_b = _statement_start(b, len(b) - tail, +1)
    end_a = end_b - len(b) + len(a)
    if python_error("\n".join(a[start:end_a])) is False and python_error("\n".join(b[start:end_b])) is False:
        return None  # the changed statements parse: the rest of the file is the original's
    if python_error(original) is not False:
        return None  # the original does not compile (or cannot be judged): no opinion
    line = python_error(result)
    return line if line is not None and line is not False else None


def error_lines(text: str, language: str | None, limit: int = 3) -> list[int] | None:
    """0-based lines where the first `limit` syntax errors (error or missing nodes) start, sorted;
    None without a grammar."""
    tree = parse_tree(text, language)
    if tree is None:
        return None
    found: list[int] = []
    stack = [tree.root_node]
    while stack and len(found) < limit:
        node = stack.pop()
        if not node.has_error:
            continue
        if node.is_error or node.is_missing:
            found.append(node.start_point[0])
            continue
        stack.extend(reversed(node.children))
    return sorted(found)
