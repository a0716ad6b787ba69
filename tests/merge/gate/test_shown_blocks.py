"""Deletions inside a bracketed block the snippet shows whole."""

from fastapply.merge.gate import snippet_checks
from fastapply.merge.gate.shown_blocks import deletion_in_shown_block, enclosing_block

ORIGINAL = """function got(url, opts, cb) {
\tif (typeof opts === 'function') {
\t\tcb = opts;
\t\topts = {};
\t} else if (!opts) {
\t\topts = {};
\t}
\treturn run(url, opts, cb);
}

function other(url, opts, cb) {
\tif (typeof opts === 'function') {
\t\tcb = opts;
\t\topts = {};
\t}
}""".split("\n")
RESULT = ORIGINAL[:4] + ORIGINAL[6:]  # the `else if` branch dropped
MARK = "// ... existing code ..."


def test_enclosing_block_finds_the_innermost_open_bracket_around_a_gap():
    assert enclosing_block(RESULT, 4) == (1, 4)  # `if (...) {` .. `}`
    assert enclosing_block(RESULT, 0) is None  # top level


def test_a_deletion_inside_a_block_the_snippet_shows_whole_is_shown():
    snippet = [MARK, *ORIGINAL[:4], "\t}", "", MARK]
    assert deletion_in_shown_block(ORIGINAL, RESULT, snippet, 4)
    assert snippet_checks.check_unshown_deletions(ORIGINAL, RESULT, snippet) is None


def test_a_block_that_repeats_or_is_cut_by_a_marker_shows_nothing():
    # The `if` block alone: two functions open it, nothing in the run says which one.
    alone = [MARK, *ORIGINAL[1:4], "\t}", MARK]
    assert not deletion_in_shown_block(ORIGINAL, RESULT, alone, 4)
    assert "does not touch" in snippet_checks.check_unshown_deletions(ORIGINAL, RESULT, alone)
    # A marker inside the block: the snippet does not show all of it.
    cut = [MARK, ORIGINAL[0], ORIGINAL[1], MARK, ORIGINAL[3], "\t}", MARK]
    assert not deletion_in_shown_block(ORIGINAL, RESULT, cut, 4)


def test_a_long_deletion_inside_a_shown_block_is_still_refused():
    # The snippet shows a function's header, an `if` opener and the closers, no marker: a planner
    # that left out the marker may have meant a long body to stay, so only short deletions pass.
    original = ["function fetch(url) {", "\tif (ok) {", "\t\tx();", "\t\ty();", "\t\tz();", "\t\tw();", "\t}", "}", "",
                "function other(url) {", "\tif (ok) {", "\t}", "}"]
    snippet = [MARK, "function fetch(url) {", "\tif (ok) {", "\t}", "}", MARK]
    short = original[:2] + original[4:]  # `x();` `y();` deleted, the block shown with what it keeps
    shown_short = [MARK, *short[:6], MARK]
    assert snippet_checks.check_unshown_deletions(original, short, shown_short) is None
    long = original[:2] + original[6:]  # all four deleted
    assert deletion_in_shown_block(original, long, snippet, 2)
    assert "does not touch" in snippet_checks.check_unshown_deletions(original, long, snippet)
