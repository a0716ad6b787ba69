"""Line helpers shared across stages: where a run of lines occurs."""

from fastapply.merge.text.lines import run_starts


def test_run_starts_lists_every_place_a_run_occurs_line_for_line():
    lines = ["a", "b", "a", "b", "c"]
    assert run_starts(lines, ["a", "b"]) == [0, 2]
    assert run_starts(lines, ["b", "c"]) == [3]
    assert run_starts(lines, ["c", "a"]) == []
    assert run_starts(lines, ["a", "b", "c", "d", "e", "f"]) == []  # longer than the lines


def test_an_empty_run_occurs_everywhere():
    assert run_starts(["x", "y"], []) == [0, 1, 2]
    assert run_starts([], []) == [0]
