"""The greedy (second) reading of lazy snippets: one construct per test (lines without newlines)."""

from fastapply.merge.greedy import merge_lazy

ORIGINAL = ["function a() {", "  return 1;", "}", "", "function b() {", "  return 2;", "}"]


def test_blank_line_after_a_marker_adds_no_empty_line():
    # The snippet's blank line sits between the marker and code that directly follows a line
    # the marker keeps: it carries no position and must not open a gap in the original.
    m = merge_lazy(ORIGINAL, ["// ... existing code ...", "", "  return 1;", "}", "", "function b() {",
                              "  return 20;", "}"])
    assert m.lines == ["function a() {", "  return 1;", "}", "", "function b() {", "  return 20;", "}"]


def test_blank_line_before_new_code_after_a_marker_is_kept():
    m = merge_lazy(ORIGINAL, ["// ... existing code ...", "", "const x = 1;", "", "function b() {",
                              "// ... existing code ..."])
    assert m.lines == ["function a() {", "  return 1;", "}", "", "const x = 1;", "", "function b() {",
                       "  return 2;", "}"]


def test_doubtful_blank_tail_refuses_with_a_candidate_without_the_leads_blank_line():
    m = merge_lazy(["a();", "b();", "c();", "d();"], ["// ... existing code ...", "", "b();", "c();", "",
                                                      "// ... existing code ..."])
    assert m.lines is None
    assert m.candidate == ["a();", "b();", "c();", "", "d();"]
