"""text/compare.py: line opcodes between two versions of a file."""


def test_line_opcodes_remembers_pairs_but_hands_out_fresh_lists():
    from fastapply.merge.text.compare import line_opcodes

    a, b = ["x = 1", "y = 2"], ["x = 1", "y = 3"]
    first = line_opcodes(a, b)
    first.append(("bogus", 0, 0, 0, 0))  # a caller changing its copy changes nothing remembered
    assert line_opcodes(a, b) == [("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 2)]
    assert line_opcodes(a, ["x = 1"]) == [("equal", 0, 1, 0, 1), ("delete", 1, 2, 1, 1)]
