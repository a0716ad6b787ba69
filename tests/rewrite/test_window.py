"""Choosing the window the model rewrites, and cutting the file around it."""

import pytest

from fastapply.rewrite.window import MAX_LINES, Window, choose_window, split_around, strip_edge_markers

GO = [f"func F{i}() int {{\n\tx := {i}\n\treturn x\n}}\n" for i in range(80)]
GO_LINES = "".join(GO).split("\n")[:-1]


def test_the_window_is_the_enclosing_block():
    at = GO_LINES.index("\tx := 40")
    block_start = GO_LINES.index("func F40() int {")
    assert choose_window(GO_LINES, [(at, at + 1)]) == Window(block_start, block_start + 4)  # with its `}`
    py = "x = 1\n\n\ndef f():\n    a = 1\n    return a\n\n\ndef g():\n    return 2\n".split("\n")[:-1]
    assert choose_window(py, [(4, 5)]) == Window(3, 6)  # def f(), without the blank lines around it


def test_a_region_opening_on_the_blank_lines_before_a_definition_starts_at_it():
    # regions [4, 9) = the blank lines after f(), then `def g():` and its body: the window is g()
    # alone, not f() (the block the blank lines follow) and g()
    py = "x = 1\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n".split("\n")[:-1]
    assert choose_window(py, [(5, 9)]) == Window(7, 9)
    assert choose_window(py, [(4, 9)]) == Window(3, 9)  # a region that starts inside f() keeps f()
    flat = [f"import m{i}" for i in range(10)] + ["jsonify = json.jsonify", "", "# compat", "Session = Cookie"]
    assert choose_window(flat, [(11, 14)]) == Window(10, 14)  # a top-level line above the blank stays as context


def test_edge_markers_of_a_window_answer_are_dropped_inner_ones_kept():
    answer = "# ... existing code ...\ndef f():\n    # ... existing code ...\n    return 1\n# ... existing code ...\n"
    assert strip_edge_markers(answer) == "def f():\n    # ... existing code ...\n    return 1\n"


def test_a_region_after_the_last_line_is_the_last_block():
    # An append at the end of the file is reported at len(lines): it must not index past the end.
    assert choose_window(GO_LINES, [(len(GO_LINES), len(GO_LINES) + 1)]) == Window(len(GO_LINES) - 4, len(GO_LINES))


def test_no_window_without_regions_or_when_it_would_be_most_of_the_file():
    assert choose_window(GO_LINES, []) is None
    assert choose_window(GO_LINES, [(5, len(GO_LINES) - 5)]) is None
    long_body = ["def f():"] + ["    x = 1"] * (MAX_LINES + 10) + ["", "def g():", "    pass"] + ["y = 2"] * 400
    assert choose_window(long_body, [(100, 101)]) is None  # the enclosing block is too long


@pytest.mark.parametrize("text", ["a\nb\n  c\n  d\ne\n", "a\nb\nc", "a\n", "x\ny\n\n"])
def test_split_around_gives_back_the_file(text):
    n = len(text.split("\n")) - (1 if text.endswith("\n") else 0)
    for start in range(n):
        for end in range(start + 1, n + 1):
            assert "".join(split_around(text, Window(start, end))) == text
