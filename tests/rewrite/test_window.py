"""Choosing the window the model rewrites, and cutting the file around it."""

import pytest

from fastapply.rewrite.window import MAX_LINES, Window, choose_window, split_around

GO = [f"func F{i}() int {{\n\tx := {i}\n\treturn x\n}}\n" for i in range(80)]
GO_LINES = "".join(GO).split("\n")[:-1]


def test_the_window_is_the_enclosing_block_plus_context():
    at = GO_LINES.index("\tx := 40")
    w = choose_window(GO_LINES, [(at, at + 1)])
    block_start = GO_LINES.index("func F40() int {")
    assert w == Window(block_start - 3, block_start + 4 + 3)  # the block with its closing `}`, 3 lines each side


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
