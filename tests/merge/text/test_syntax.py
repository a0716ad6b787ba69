"""Language detection and the bundled grammars (all load offline: each wheel carries its grammar)."""

import pytest

from fastapply.merge.text import syntax

SAMPLES = {
    "c": ("int main(void) { return 0; }\n", "int main(void) { return 0;\n"),
    "cpp": ("namespace a { int f() { return 1; } }\n", "namespace a { int f() { return 1; }\n"),
    "java": ("class A { int f() { return 1; } }\n", "class A { int f() { return 1; }\n"),
    "ruby": ("def f\n  1\nend\n", "def f\n  1\n"),
    "lua": ("local function f()\n  return 1\nend\n", "local function f()\n  return 1\n"),
    "scala": ("object A { def f = 1 }\n", "object A { def f = 1\n"),
    "html": ("<html><body><p>x</p></body></html>\n", "<html><body><p x=></body>\n"),
    "shell": ("if true; then echo x; fi\n", "if true; then echo x;\n"),
    "json": ('{"a": [1, 2]}\n', '{"a": [1, 2}\n'),
    "csharp": ("class A { int F() { return 1; } }\n", "class A { int F() { return 1; }\n"),
    "php": ("<?php function f() { return 1; }\n", "<?php function f() { return 1;\n"),
}


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_grammar_loads_and_tells_good_from_broken(language):
    good, broken = SAMPLES[language]
    assert syntax.has_grammar(language)
    assert syntax.parses(good, language) is True
    assert syntax.parses(broken, language) is False


@pytest.mark.parametrize(
    "path, language",
    [("a/b.lua", "lua"), ("x.scala", "scala"), ("x.hpp", "cpp"), ("x.HTML", "html"), ("Main.java", "java"),
     ("x.rb", "ruby"), ("x.kts", "kotlin"), ("x.yml", "yaml"), ("x.unknown", None)],
)
def test_language_from_path(path, language):
    assert syntax.language_from_path(path) == language


def test_language_from_content_when_the_path_says_nothing():
    lua = "local x = 1\nfunction foo(a)\n  if a then\n    return 1\n  end\nend\n"
    cpp = "#include <vector>\nnamespace a {\nint f() { return std::max(1, 2); }\n}\n"
    assert syntax.detect_language(None, lua) == "lua"
    assert syntax.detect_language("README", cpp) == "cpp"
    assert syntax.normalize_language("C++") == "cpp"


def test_python_break_finds_what_tree_sitter_reads_as_fine():
    original = "import os\n\n\ndef f():\n    return 1\n\n\ntry:\n    import json\nexcept ImportError:\n    json = None\n"
    broken = original.replace("def f():\n    return 1\n", "def f():\n    return 1\n\ntry:\n\nx = 2\n")
    assert syntax.parses(broken, "python")  # tree-sitter's error recovery lets it through
    assert syntax.python_break(original, broken) == 8  # 0-based: the unindented line after `try:`
    assert syntax.python_break(original, original.replace("return 1", "return 2")) is None
    assert syntax.python_break(original, original) is None


def test_python_break_parses_whole_statements_around_the_change():
    # the change sits in an `else:` branch under a decorated function: the chunk must take the
    # decorator and the `if` it continues, or a correct edit would read as broken
    original = "@wrap\ndef f(x):\n    if x:\n        return 1\n    else:\n        return 2\n\nvalue = f(1)\n"
    edited = original.replace("return 2", "return 3")
    assert syntax.python_break(original, edited) is None
    assert syntax.python_break(original, original.replace("        return 2\n", "        return (2\n")) is not None


def test_python_break_has_no_opinion_when_the_original_does_not_compile():
    py2 = "print 'hello'\n\ndef f():\n    return 1\n"
    assert syntax.python_break(py2, py2.replace("    return 1\n", "try:\n\nx = 1\n")) is None
