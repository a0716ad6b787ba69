"""evaluation/pointing.py: what a refusal sentence points at that locates nothing."""

from __future__ import annotations

from fastapply.evaluation.pointing import unplaced
from fastapply.evaluation.retry import format_summary, summarise

ORIGINAL = ["def f(a):", "    if a:", "        return a", "    }", "", "def g():", "    pass"]


def test_a_generic_line_placed_by_a_distinctive_one_points_somewhere():
    assert unplaced("section 1 (starting `if a:`): the line `}` after `return a` matches 2 places", ORIGINAL) == []
    assert unplaced("near line 4 (`}`, below `return a`) that the snippet does not touch", ORIGINAL) == []
    assert unplaced("start with a marker, or show them as `-` lines to delete them", ORIGINAL) == []
    # a generic line of the writer's own snippet, by its number
    assert unplaced("the new closer at snippet line 23 (`end`) is followed by original line 2", ORIGINAL) == []
    # ... or by the number the refusal gives it after the quote
    assert unplaced("section 2 (starting `end` at snippet line 6) matches 8 places in the original", ORIGINAL) == []
    assert unplaced("the line `}` (snippet line 4) matches 2 places; snippet lines 3 (`}`), 5 (`}`) are notes", ORIGINAL) == []
    # a bare number of a generic original line, placed after it
    assert unplaced("fits only at original line 5 (a blank line, below `return a`)", ORIGINAL) == []
    # a line holding a backtick, quoted fenced, is one quote
    assert unplaced("section 1 (starting `` log(`}`) ``) matches 2 places", ORIGINAL) == []


def test_a_lone_generic_line_or_its_number_points_nowhere():
    assert unplaced("section 2 (starting `end`) matches 8 places in the original", ORIGINAL) == ["`end`"]
    assert unplaced("include line 2 if it is new, or line 4 (`}`) if it replaces it", ORIGINAL) == ["`}`", "line 4"]
    assert unplaced("the result drops 2 line(s) of the original near line 5 that the snippet does not touch",
                    ORIGINAL) == ["line 5"]


def test_numbers_that_name_an_edit_or_a_candidate_place_are_not_pointers():
    assert unplaced("add the unchanged original line 4 above snippet line 2 (for the place at original line 5)",
                    ORIGINAL) == []


def test_a_merged_files_line_number_points_nowhere_the_reader_has():
    assert unplaced("the merged python file no longer parses near line 12, although the original did", ORIGINAL) == [
        "no longer parses near line 1"]
    assert unplaced("the merged python file no longer parses near snippet line 3 (`x = (`), although", ORIGINAL) == []


def test_the_retry_summary_counts_the_refusals_that_point_nowhere():
    rows = [{"first": "refused", "second": "right", "kind": "ambiguous-place", "unplaced": True, "options": 1},
            {"first": "refused", "second": "refused", "kind": "new-or-changed", "unplaced": False, "options": 1},
            {"first": "right", "second": "right"}]
    summary = summarise(rows)
    assert summary["unplaced"] == 1
    assert "pointing at a line that locates nothing" in format_summary(summary) and ": 1 of 2" in format_summary(summary)
