"""Whole-definition replacement and insertion, per language."""

from fastapply.merge.snippet.definitions import merge_definitions


def lines(text):
    return text.split("\n")


PY = """import os


def a():
    return 1


class K:
    x = 1

    def m(self):
        return 2

    def n(self):
        return 3


def b():
    return 4"""


def test_function_replaced():
    m = merge_definitions(lines(PY), lines("def a():\n    return 10"), "python")
    assert m.lines[3:5] == ["def a():", "    return 10"]


def test_method_shown_with_class_header_keeps_other_methods():
    m = merge_definitions(lines(PY), lines("class K:\n    def n(self):\n        return 30"), "python")
    text = "\n".join(m.lines)
    assert "        return 30" in text and "    def m(self):\n        return 2" in text


def test_method_shown_alone_is_found_and_reindented():
    m = merge_definitions(lines(PY), lines("def m(self):\n    return 20"), "python")
    assert "    def m(self):\n        return 20" in "\n".join(m.lines)


def test_new_function_goes_after_its_snippet_neighbour():
    m = merge_definitions(lines(PY), lines("def a():\n    return 1\n\n\ndef a2():\n    return 1.5"), "python")
    text = "\n".join(m.lines)
    assert "def a():\n    return 1\n\n\ndef a2():\n    return 1.5\n\n\nclass K:" in text


def test_new_function_without_neighbours_is_refused_with_a_candidate():
    m = merge_definitions(lines(PY), lines("def z():\n    return 0"), "python")
    assert m.lines is None and "no existing neighbour" in m.refused_reason
    assert m.candidate[-2:] == ["def z():", "    return 0"]


def test_code_outside_definitions_is_refused():
    m = merge_definitions(lines(PY), lines("x = compute()\n\ndef a():\n    return 10"), "python")
    assert m.lines is None and "outside any definition" in m.refused_reason


def test_go_method_and_function():
    go = "package p\n\nfunc A() int {\n\treturn 1\n}\n\nfunc (s *S) M() int {\n\treturn 2\n}\n"
    m = merge_definitions(lines(go), lines("func (s *S) M() int {\n\treturn 20\n}"), "go")
    assert "\treturn 20" in m.lines and "\treturn 1" in m.lines


def test_rust_impl_member():
    rs = "struct S;\n\nimpl S {\n    fn a(&self) -> i32 {\n        1\n    }\n\n    fn b(&self) -> i32 {\n        2\n    }\n}\n"
    m = merge_definitions(lines(rs), lines("impl S {\n    fn b(&self) -> i32 {\n        20\n    }\n}"), "rust")
    text = "\n".join(m.lines)
    assert "        20" in text and "    fn a(&self) -> i32 {\n        1" in text


def test_typescript_class_method():
    ts = "export class C {\n  a(): number {\n    return 1;\n  }\n\n  b(): number {\n    return 2;\n  }\n}\n"
    m = merge_definitions(lines(ts), lines("  b(): number {\n    return 20;\n  }"), "typescript")
    assert m.refused_reason is None
    assert "    return 20;" in m.lines and "    return 1;" in m.lines


def test_javascript_function():
    js = "const x = 1;\n\nfunction f() {\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n"
    m = merge_definitions(lines(js), lines("function g() {\n  return 3;\n}"), "javascript")
    assert m.lines[-3:-1] == ["  return 3;", "}"]


def test_a_method_defined_in_two_classes_is_refused_naming_both():
    """Not "new": it exists twice and the snippet (a bare method) names neither class."""
    from fastapply.merge.instant import instant_merge

    original = (
        "class Inventory:\n    def remove(self, name):\n        del self.items[name]\n\n\n"
        "class Cart:\n    def remove(self, name):\n        del self.items[name]\n"
    )
    snippet = "    def remove(self, name):\n        self.items.pop(name)\n"
    result = instant_merge(original, snippet, path="store.py")
    assert not result.merged
    assert "defined 2 times" in result.refused_reason
    assert "Inventory.remove" in result.refused_reason and "Cart.remove" in result.refused_reason


TWO_LINE_BODY = "class K:\n    def m(self, x):\n        y = x + 1\n        return y\n\n    def n(self):\n        return 3\n"


def test_a_definition_cut_short_at_the_snippets_end_is_no_whole_definition():
    # the snippet stops after `y = x + 1`: in Python that still parses, but replacing `def m`
    # with it would delete `return y`, which nothing in the snippet shows deleted
    m = merge_definitions(lines(TWO_LINE_BODY), lines("def m(self, x):\n    y = x + 1\n"), "python")
    assert m.lines is None and "ends inside `def m(self, x):`" in m.refused_reason
    whole = merge_definitions(lines(TWO_LINE_BODY), lines("def m(self, x):\n    y = x + 2\n    return y\n"), "python")
    assert whole.lines is not None and "        y = x + 2" in whole.lines


def test_a_snippet_ending_inside_a_definition_is_read_as_an_excerpt():
    from fastapply.merge.instant import instant_merge

    snippet = "class K:\n    def l(self):\n        return 0\n\n    def m(self, x):\n        y = x + 1\n"
    r = instant_merge(TWO_LINE_BODY, snippet, language="python")
    assert r.merged and "return y" in r.text and "def l(self):" in r.text


def test_a_decorator_added_above_a_definition_cut_short_does_not_hide_the_cut():
    # the grid's `add_annotation` edit without edge markers: the snippet adds `@functools.cache`
    # above `def m` and stops after its first body line; the decorated definition's lines do not
    # start like the original's, but from the header on they are its first lines: cut short
    m = merge_definitions(lines(TWO_LINE_BODY), lines("@functools.cache\ndef m(self, x):\n    y = x + 1\n"), "python")
    assert m.lines is None and "ends inside `def m(self, x):`" in m.refused_reason
    from fastapply.merge.instant import instant_merge

    r = instant_merge(TWO_LINE_BODY, "    @functools.cache\n    def m(self, x):\n        y = x + 1\n", language="python")
    assert not r.merged or ("return y" in r.text and "@functools.cache" in r.text)


LONG_BODY = ("def test_traceback():\n    def bad():\n        1 / 0\n\n    result = run(bad)\n\n"
             "    try:\n        result.get()\n    except Exception as exc:\n        tb = exc\n    assert tb\n")


def test_a_head_with_a_line_edited_in_place_that_stops_inside_the_definition_is_cut_short():
    # one line changed, the last shown line unchanged, the original goes on: an excerpt of the head,
    # not the whole test rewritten as five lines (that would delete the try block nobody showed)
    head = "def test_traceback():\n    def bad():\n        raise ZeroDivisionError\n\n    result = run(bad)\n"
    m = merge_definitions(lines(LONG_BODY), lines(head), "python")
    assert m.lines is None and "ends inside `def test_traceback():`" in m.refused_reason
    from fastapply.merge.instant import instant_merge

    r = instant_merge(LONG_BODY, head, language="python")
    assert r.merged and r.text == LONG_BODY.replace("1 / 0", "raise ZeroDivisionError")
    # a shorter rewrite that ends on a line of its own is the whole definition
    short = "def test_traceback():\n    def bad():\n        raise ZeroDivisionError\n\n    assert run(bad)\n"
    assert merge_definitions(lines(LONG_BODY), lines(short), "python").lines is not None
