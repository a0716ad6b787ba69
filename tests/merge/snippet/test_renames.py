"""Renamed or re-signed headers whose bodies a snippet elides (merge/renames.py)."""

from fastapply.merge.snippet import renames
from fastapply.merge.instant import instant_merge

ORIGINAL = """use clap::App;

#[test]
fn negate_requred() {
    App::new("one");
}

#[test]
fn negate_requred_2() {
    App::new("two");
}

#[test]
fn fromstr() {
    assert!(true);
}
"""

SNIPPET = """#[test]
fn negate_required() {
    // ... existing code ...
}

#[test]
fn negate_required_2() {
    // ... existing code ...
}
// ... existing code ...
"""


def _lines(text: str) -> list[str]:
    return text.rstrip("\n").split("\n")


def test_two_tests_renamed_side_by_side_are_matched_one_to_one_and_merged():
    found = renames.find_renames(_lines(ORIGINAL), _lines(SNIPPET))
    assert [(r.old, r.new) for r in found] == [("fn negate_requred() {", "fn negate_required() {"),
                                              ("fn negate_requred_2() {", "fn negate_required_2() {")]
    result = instant_merge(ORIGINAL, SNIPPET, language="rust")
    assert result.text == ORIGINAL.replace("requred", "required")
    # Read literally, `#[test]` matches three places and the headers nowhere: refused.
    assert instant_merge(ORIGINAL, SNIPPET.replace("required", "renamed_away"), language="rust").text is None


def test_a_re_signed_header_keeps_its_name_and_is_found_among_similar_names():
    original = ["class T:", "    def test_paths(self):", "        a = 1", "", "    def test_module_paths(self):",
                "        b = 2"]
    snippet = ["# ... existing code ...", "    def test_paths(self, monkeypatch):", "# ... existing code ...",
               "        a = 2"]
    found = renames.find_renames(original, snippet)
    assert [(r.line, r.at) for r in found] == [(1, 1)]
    assert renames.substitute(snippet, found)[1] == "    def test_paths(self):"


def test_no_rename_when_two_headers_are_equally_close_or_none_is_close_enough():
    original = ["describe('a', function () {", "  x()", "});", "describe('b', function () {", "  y()", "});"]
    # `c` is one change away from both `a` and `b`: not clearly either.
    assert renames.find_renames(original, ["describe('c', function () {", "// ... existing code ..."]) == []
    # A name far from every original one is a new block, whatever follows it.
    assert renames.find_renames(original, ["describe('unrelated thing', function () {", "// ..."]) == []
    # A header the snippet also shows is kept, so it is not the one renamed: `ab` renames `b`.
    snippet = ["describe('a', function () {", "// ...", "describe('ab', function () {", "// ..."]
    assert [r.old for r in renames.find_renames(original, snippet)] == ["describe('b', function () {"]


def test_only_a_header_followed_by_a_marker_counts():
    original = ["def test_usage_error(runner):", "    pass", "", "def other(runner):", "    pass"]
    shown_body = ["def test_usage_error_missing(runner):", "    run()", "# ... existing code ..."]
    assert renames.elided_heads(original, shown_body) == []
    elided = ["def test_usage_error_missing(runner):", "    # ... existing code ..."]
    assert renames.elided_heads(original, elided) == [0]
    assert [r.line for r in renames.find_renames(original, elided)] == [0]


def test_restore_needs_the_original_header_exactly_once():
    found = [renames.Rename(0, 0, "  def b():", "  def a():")]
    assert renames.restore(["x", "  def a():", "y"], found) == ["x", "  def b():", "y"]
    assert renames.restore(["  def a():", "  def a():"], found) is None
    assert renames.restore(["x"], found) is None


def test_restored_writes_the_snippets_header_back_or_refuses():
    from fastapply.merge.result import Merged

    found = [renames.Rename(0, 0, "def b():", "def a():")]
    merged = renames.restored(Merged(["def a():", "    pass"], None, "exact", alternative=["def a():", "  x"]), found)
    assert merged.lines == ["def b():", "    pass"] and merged.alternative == ["def b():", "  x"]
    twice = renames.restored(Merged(["def a():", "def a():"], None, "exact"), found)
    assert twice.lines is None and "renamed header" in twice.refused_reason


CLICK_LIKE = """import click


def test_usage_error(runner):
    run(1)
    check(1)


def test_usage_error_metavar(runner):
    \"\"\"Metavar.\"\"\"
    run(2)
    check_twice(2)


def test_nested(runner):
    run(3)
    check(3)
"""

CLICK_SNIPPET = """def test_usage_error_metavar_missing_arg(runner):
    # ... existing code ...
    check_twice(2)


def test_usage_error_metavar_bad_arg(runner):
    run(4)
    check_twice(4)


def test_nested(runner):
"""


def test_a_snippet_starting_on_a_renamed_header_and_ending_on_an_opener_keeps_both_ends():
    """The header renamed with its body elided anchors mid-file (the lines above it are kept, as
    a forgotten start marker), and the final `def test_nested(runner):` keeps its body."""
    new_test = "def test_usage_error_metavar_bad_arg(runner):\n    run(4)\n    check_twice(4)\n\n\n"
    expected = CLICK_LIKE.replace("metavar(runner)", "metavar_missing_arg(runner)").replace(
        "def test_nested", new_test + "def test_nested")
    assert instant_merge(CLICK_LIKE, CLICK_SNIPPET, language="python").text == expected

def test_placing_marks_a_start_in_the_middle_of_the_file():
    original = ["import x", "", "def a(r):", "    pass"]
    found = [renames.Rename(0, 2, "def a_b(r):", "def a(r):")]
    assert renames.placing(["def a_b(r):", "    # ..."], found, original) == [
        "// ... existing code ...", "def a(r):", "    # ..."]
    at_top = [renames.Rename(0, 0, "def a_b(r):", "def a(r):")]
    assert renames.placing(["def a_b(r):", "    # ..."], at_top, original[2:]) == ["def a(r):", "    # ..."]


SIBLING_ORIGINAL = CLICK_LIKE.replace("    run(2)\n    check_twice(2)\n",
                                      "    run(2)\n    assert usage() == 'cmd metavar'\n    assert error() == 'missing metavar'\n")
SIBLING_SNIPPET = """def test_usage_error_metavar_missing_arg(runner):
    # ... existing code ...
    assert error() == 'missing metavar'


def test_usage_error_metavar_bad_arg(runner):
    run(4)
    assert usage() == 'cmd metavar'
    assert error() == 'bad metavar'


def test_nested(runner):
"""


def test_a_new_block_shaped_like_the_renamed_ones_body_does_not_eat_that_body():
    """Anchored on the old header, the new test's copy of `usage()` pins the snippet inside the
    renamed test's body and both readings drop `run(2)` and `usage()`, which the marker keeps."""
    original, snippet = SIBLING_ORIGINAL.split("\n"), SIBLING_SNIPPET.split("\n")
    found = renames.find_renames(original, snippet)
    assert len(found) == 1
    eaten = [l for l in original if l not in ("    run(2)", "    assert usage() == 'cmd metavar'")]
    eaten[eaten.index("def test_usage_error_metavar(runner):")] = "def test_usage_error_metavar_missing_arg(runner):"
    assert "would not be kept" in renames.check_bodies_kept(original, eaten, snippet, found)
    kept = [found[0].new if l == found[0].old else l for l in original]
    assert renames.check_bodies_kept(original, kept, snippet, found) is None
    assert instant_merge(SIBLING_ORIGINAL, SIBLING_SNIPPET, language="python").text is None


def test_a_changed_body_line_after_the_marker_leaves_the_body_unchecked():
    original = ["def test_a(runner):", "    run()", "    assert code == 2", "", "def test_b(runner):", "    pass"]
    found = [renames.Rename(0, 0, "def test_a_x(runner):", "def test_a(runner):")]
    changed = ["def test_a_x(runner):", "    # ... existing code ...", "    assert code == 3"]
    result = ["def test_a_x(runner):", "    run()", "    assert code == 3", "", "def test_b(runner):", "    pass"]
    assert renames.check_bodies_kept(original, result, changed, found) is None
    # Resuming beyond the block, the marker kept all of it: `run()` dropped is refused.
    beyond = ["def test_a_x(runner):", "    # ... existing code ...", "", "def test_b(runner):"]
    assert renames.check_bodies_kept(original, result, beyond, found)
    assert renames.check_bodies_kept(original, [result[0]] + original[1:], beyond, found) is None
