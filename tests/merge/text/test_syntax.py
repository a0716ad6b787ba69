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
