"""Search/replace blocks and diff hunks: parsing, each ladder rung, ambiguity, bad input."""

import pytest

from fastapply.merge.snippet.sections import ContextEvidence, context_evidence, is_lazy_diff
from fastapply.merge.snippet.blocks import (
    MalformedEdit, looks_like_diff, looks_like_search_replace, match_exact, match_fuzzy, match_whitespace,
    merge_blocks, merge_diff, parse_search_replace,
)

ORIGINAL = ["def f(x):", "    y = x + 1", "    return y", "", "def g():", "    return 2"]


def sr(search, replace):
    return ["<<<<<<< SEARCH", *search, "=======", *replace, ">>>>>>> REPLACE"]


def test_match_exact_finds_every_place():
    assert [m.start for m in match_exact(["a", "b", "a", "b"], ["a", "b"])] == [0, 2]
    assert match_exact(ORIGINAL, ["    y = x + 2"]) == []


def test_match_whitespace_ignores_indentation_and_reports_the_shift():
    (m,) = match_whitespace(ORIGINAL, ["y = x + 1", "return y"])
    assert (m.start, m.end, m.rung) == (1, 3, "whitespace")
    assert m.reindent == (("", "    "),)


def test_match_fuzzy_needs_a_clear_best():
    (m, *rest) = match_fuzzy(ORIGINAL, ["def f(x):", "    y = x + 1  ", "    return  y;"])
    assert (m.start, m.rung) == (0, "fuzzy") and not rest
    assert match_fuzzy(ORIGINAL, ["completely different text here"]) == []


def test_exact_block():
    m = merge_blocks(ORIGINAL, sr(["    return 2"], ["    return 3"]))
    assert m.lines[-1] == "    return 3" and m.rung == "exact"


def test_whitespace_block_is_reindented():
    m = merge_blocks(ORIGINAL, sr(["y = x + 1"], ["y = x + 10", "z = y"]))
    assert m.rung == "whitespace"
    assert m.lines[1:3] == ["    y = x + 10", "    z = y"]


def test_fuzzy_block():
    m = merge_blocks(ORIGINAL, sr(["def f(x) :", "    y = x + 1", "    return y"], ["def f(x):", "    return x + 1"]))
    assert m.rung == "fuzzy"
    assert m.lines[:2] == ["def f(x):", "    return x + 1"]


def test_ambiguous_block_is_refused_with_a_candidate():
    m = merge_blocks(["a = 1", "b = 2", "a = 1"], sr(["a = 1"], ["a = 3"]))
    assert m.lines is None and "occurs 2 times" in m.refused_reason
    assert m.candidate == ["a = 3", "b = 2", "a = 1"]


def test_missing_block_is_refused():
    m = merge_blocks(ORIGINAL, sr(["nothing like this"], ["x"]))
    assert m.lines is None and "not found" in m.refused_reason


@pytest.mark.parametrize(
    "snippet",
    [
        ["<<<<<<< SEARCH", "a", ">>>>>>> REPLACE"],  # no divider
        ["<<<<<<< SEARCH", "a", "=======", "b"],  # no end
        ["=======", "b", ">>>>>>> REPLACE"],  # no start
    ],
)
def test_malformed_blocks_are_refused(snippet):
    m = merge_blocks(ORIGINAL, snippet)
    assert m.lines is None and "malformed" in m.refused_reason


def test_parse_ignores_text_around_blocks():
    edits = parse_search_replace(["path/to/file.py", "```python", *sr(["a"], ["b"]), "```"])
    assert [(e.search, e.replace) for e in edits] == [(("a",), ("b",))]
    with pytest.raises(MalformedEdit):
        parse_search_replace(["no blocks at all"])


def test_recognisers():
    assert looks_like_search_replace(sr(["a"], ["b"]))
    assert looks_like_diff(["--- a/f.py", "+++ b/f.py", "@@ -1,2 +1,2 @@", " a", "-b", "+c"])
    assert not looks_like_diff(["@decorator", "def f(): pass"])


def test_diff_hunk_exact():
    m = merge_diff(ORIGINAL, ["@@ -4,3 +4,3 @@", " ", " def g():", "-    return 2", "+    return 20"])
    assert m.lines == ORIGINAL[:5] + ["    return 20"] and m.rung == "exact"


def test_diff_hunk_without_line_numbers_and_two_hunks():
    m = merge_diff(ORIGINAL, ["@@ ... @@", " def f(x):", "-    y = x + 1", "+    y = x + 2", "@@ ... @@",
                              " def g():", "-    return 2", "+    return 3"])
    assert m.lines == ["def f(x):", "    y = x + 2", "    return y", "", "def g():", "    return 3"]


def test_diff_line_number_settles_a_repeated_hunk():
    original = ["a", "x", "b", "a", "x", "b"]
    m = merge_diff(original, ["@@ -4,3 +4,3 @@", " a", "-x", "+y", " b"])
    assert m.lines == ["a", "x", "b", "a", "y", "b"]


def test_diff_pure_addition_uses_the_line_number():
    m = merge_diff(["a", "b"], ["@@ -1,0 +2 @@", "+new"])
    assert m.lines == ["a", "new", "b"]


def test_diff_hunks_after_a_changed_one_are_placed_by_their_new_side_numbers():
    # The first hunk adds a line, so the second one's old-side number is one line short here.
    original = ["a", "x", "b", "c", "a", "x", "b"]
    m = merge_diff(original, ["@@ -1,0 +1 @@", "+top", "@@ -5,3 +6,3 @@", " a", "-x", "+y", " b"])
    assert m.lines == ["top", "a", "x", "b", "c", "a", "y", "b"]
    # Pure additions: the second goes after old line 3 (`c`), not after old line 3 of the edited text.
    m = merge_diff(["a", "b", "c", "d"], ["@@ -1,0 +2,2 @@", "+n1", "+n2", "@@ -3,0 +6 @@", "+n3"])
    assert m.lines == ["a", "n1", "n2", "b", "c", "n3", "d"]


def test_diff_hunk_removing_only_blank_lines_is_placed_by_its_numbers():
    # `-4 +4,0`: old line 4 goes; the new side has no lines, so it names the line before (index 4
    # once the first hunk's line is in).
    m = merge_diff(["a", "", "b", "", "c"], ["@@ -1,0 +2 @@", "+n", "@@ -4 +4,0 @@", "-"])
    assert m.lines == ["a", "n", "", "b", "c"]


def test_diff_placeholder_numbers_place_nothing():
    m = merge_diff(["a", "b"], ["@@ -0,0 +0,0 @@", "+new"])
    assert m.lines is None and "nothing to search for" in m.refused_reason
    m = merge_diff(["a", "b", "a"], ["@@ -0,0 +0,0 @@", " a", "+new"])
    assert m.lines is None and "occurs 2 times" in m.refused_reason  # `-0` is no line hint


def test_diff_whitespace_rung():
    m = merge_diff(ORIGINAL, ["@@ -1,3 +1,3 @@", " def f(x):", "-  y = x + 1", "+  y = x * 2", "   return y"])
    assert m.rung == "whitespace"
    assert m.lines[1] == "    y = x * 2"


def test_diff_for_several_files_is_refused():
    m = merge_diff(ORIGINAL, ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b", "--- a/y", "+++ b/y", "@@ -1 +1 @@", "-a", "+b"])
    assert m.lines is None and "several files" in m.refused_reason


# A JavaScript-like file whose indented lines are never found with one space less.
JS = ["function f(a) {", "  if (a) {", "    return 1;", "  }", "  return 2;", "}"]


def test_context_copied_verbatim_makes_a_diff_shaped_snippet_lazy():
    snippet = ["@@ -0,0 +0,0 @@", "  if (a) {", "-    return 1;", "+    return 10;", "  }"]
    assert looks_like_diff(snippet)
    assert context_evidence(snippet, JS) == ContextEvidence(verbatim=2, unified=0)
    assert is_lazy_diff(snippet, JS)


def test_unified_context_keeps_the_diff_reading_whatever_its_header():
    for header in ("@@ -2,3 +2,3 @@", "@@ ... @@", "@@ -0,0 +0,0 @@"):
        snippet = [header, "   if (a) {", "-    return 1;", "+    return 10;", "   }"]
        assert context_evidence(snippet, JS) == ContextEvidence(verbatim=0, unified=2)
        assert not is_lazy_diff(snippet, JS), header


def test_placeholder_headers_decide_only_when_the_context_proves_nothing():
    original = ["a", " a", "b"]  # ` a` is found both as written and without its space
    assert not is_lazy_diff(["@@ -1,2 +1,2 @@", " a", "-b", "+c"], original)
    assert is_lazy_diff(["@@ -0,0 +0,0 @@", " a", "-b", "+c"], original)
    assert is_lazy_diff(["@@ @@", " a", "-b", "+c"], original)
    assert not is_lazy_diff(["@@ -0,0 +0,0 @@", "-b", "+c"], original)  # no context line at all
