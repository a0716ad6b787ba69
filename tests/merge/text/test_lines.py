"""Line helpers shared across stages: where a run of lines occurs."""

from fastapply.merge.text.lines import next_non_blank, run_starts


def test_run_starts_lists_every_place_a_run_occurs_line_for_line():
    lines = ["a", "b", "a", "b", "c"]
    assert run_starts(lines, ["a", "b"]) == [0, 2]
    assert run_starts(lines, ["b", "c"]) == [3]
    assert run_starts(lines, ["c", "a"]) == []
    assert run_starts(lines, ["a", "b", "c", "d", "e", "f"]) == []  # longer than the lines


def test_an_empty_run_occurs_everywhere():
    assert run_starts(["x", "y"], []) == [0, 1, 2]
    assert run_starts([], []) == [0]


def test_next_non_blank_counts_its_start_and_walks_either_way():
    lines = ["a", "", "  ", "b", ""]
    assert [next_non_blank(lines, k) for k in range(6)] == [0, 3, 3, 3, None, None]
    assert [next_non_blank(lines, k, -1) for k in (-1, 0, 2, 4)] == [None, 0, 0, 3]


def test_stripped_counts_counts_each_stripped_line_and_remembers_the_list():
    from collections import Counter

    from fastapply.merge.text.lines import stripped_counts

    lines = ["  x = 1", "x = 1 ", "", "y()"]
    counts = stripped_counts(lines)
    assert counts == Counter({"x = 1": 2, "": 1, "y()": 1})
    assert stripped_counts(list(lines)) is counts  # an equal list: the same (shared, read-only) count
    assert stripped_counts(lines + ["y()"])["y()"] == 2
