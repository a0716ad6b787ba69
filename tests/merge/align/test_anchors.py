"""Anchors: unique lines chained in order, generic lines, bracket balance, the line index."""

from fastapply.merge.align.anchors import LineIndex, longest_chain, unique_anchors
from fastapply.merge.text.lines import block_close, bracket_balance, is_generic


def test_generic_lines_pin_nothing():
    for line in ["}", "  });", "end", "else:", "    return", "*/", "", "pass"]:
        assert is_generic(line), line
    for line in ["return x + 1", "def f():", "}) // close the handler"]:
        assert not is_generic(line), line


def test_longest_chain_drops_the_out_of_order_pair():
    assert longest_chain([(0, 5), (1, 9), (2, 6), (3, 7)]) == [(0, 5), (2, 6), (3, 7)]


def test_unique_anchors_skip_lines_repeated_in_either_text():
    original = ["a", "b", "b", "c", "d"]
    index = LineIndex.build(original, "exact")
    keys = ["a", "b", "c", "c", "d"]  # b repeats in the original, c in the snippet
    assert unique_anchors(keys, index) == [(0, 0), (4, 4)]
    assert unique_anchors(["b"], index, lo=2) == [(0, 2)]  # unique inside the window


def test_whitespace_rung_index_collapses_runs():
    index = LineIndex.build(["    x  =  1"], "whitespace")
    assert index.places("x = 1") == [0]


def test_bracket_balance_ignores_strings_and_comments():
    assert bracket_balance(["func f() {", '    s := "}}}"  // }', "    if x {"]) == 2
    assert bracket_balance(["}", "})"]) == -3


def test_block_close_finds_the_line_that_closes_the_enclosing_block():
    assert block_close(["\treturn run(x)", "}", "", "func c() {", "}"]) == 1
    assert block_close(["\tif x {", "\t}", "\ty()"]) is None  # never leaves the block
    assert block_close(["\tx()", "})"]) is None  # closes two at once: no single block end
