"""text/outline.py: the definitions a source file holds, by tree-sitter."""

from fastapply.merge.text.outline import body_states, flatten, list_definitions

PY = """import os


def a():
    return 1


class K:
    def m(self):
        pass

    def n(self):
        return 3
"""


def test_list_definitions_nests_methods():
    defs = list_definitions(PY, "python")
    assert [d.key for d in defs] == [("def a",), ("class K",)]
    assert [m.key for m in defs[1].members] == [("class K", "def m"), ("class K", "def n")]
    assert [(d.start, d.end) for d in defs] == [(3, 5), (7, 13)]  # 0-based [start, end) lines


def test_flatten_walks_members_depth_first_and_body_states_say_which_are_empty():
    assert [d.key[-1] for d in flatten(list_definitions(PY, "python"))] == ["def a", "class K", "def m", "def n"]
    assert body_states(PY, "python") == {("def a",): False, ("class K", "def m"): True, ("class K", "def n"): False}


def test_a_language_without_a_grammar_has_no_outline():
    assert list_definitions("anything", "cobol") is None
    assert body_states("anything", "cobol") is None


def test_a_plain_constant_is_data_and_an_arrow_function_a_definition():
    js = "const LIMIT = 3;\nconst add = (a, b) => a + b;\nfunction main() {\n  return add(1, LIMIT);\n}\n"
    assert [d.key for d in list_definitions(js, "javascript")] == [("const add",), ("function main",)]
