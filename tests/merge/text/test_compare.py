"""text/compare.py: line opcodes between two versions of a file."""


def test_line_opcodes_remembers_pairs_but_hands_out_fresh_lists():
    from fastapply.merge.text.compare import line_opcodes

    a, b = ["x = 1", "y = 2"], ["x = 1", "y = 3"]
    first = line_opcodes(a, b)
    first.append(("bogus", 0, 0, 0, 0))  # a caller changing its copy changes nothing remembered
    assert line_opcodes(a, b) == [("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 2)]
    assert line_opcodes(a, ["x = 1"]) == [("equal", 0, 1, 0, 1), ("delete", 1, 2, 1, 1)]


def test_most_alike_keeps_ties_in_order_and_honours_the_floor():
    from fastapply.merge.text.compare import most_alike
    lines = list(enumerate(["return a + b", "x = 1", "return a + b", "return a - b"]))
    assert most_alike("return a + b", lines) == [0, 2]
    assert most_alike("return a * b", lines[1:2], floor=0.6) == []
    assert most_alike("return a - c", lines) == [3]


def test_added_names_the_inserted_and_replaced_lines_of_the_second_list():
    from fastapply.merge.text.compare import added, line_opcodes
    assert added(line_opcodes(["a", "b", "c", "d"], ["a", "x", "c", "y", "z"])) == {1, 3, 4}
    assert added(line_opcodes(["a", "b"], ["a"])) == set()
