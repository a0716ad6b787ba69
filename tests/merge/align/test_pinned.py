"""Floating sections pinned by the old form of a line they change (pinned.py)."""

from fastapply.merge.align.anchors import key_function
from fastapply.merge.align.lazy import merge_lazy
from fastapply.merge.align.pinned import pinned_stretch

ORIGINAL = """interface Command {
    /**
     * @param {string} str
     * @return {Command}
     */
    version(str: string): Command;

    /**
     * @param {string} str
     * @return {(Command | string)}
     */
    description(str: string): Command;
    description(): string;

    /**
     * @param {string} str
     * @return {(Command | string)}
     */
    usage(str: string): Command;
    usage(): string;
}""".split("\n")

KEY = key_function("exact")


def test_changed_signature_pins_the_doc_comment_it_follows():
    # `* @param {string} str` opens three doc comments; only the second is followed by the old
    # `description(str: string): Command;` the section changes.
    snippet = """    // ... existing code ...
     * @param {string} str
     * @param {object} args
     * @return {(Command | string)}
     */
    description(str: string, args?: object): Command;
    // ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.refused_reason is None
    assert m.lines == (ORIGINAL[:9] + ["     * @param {object} args"] + ORIGINAL[9:11]
                       + ["    description(str: string, args?: object): Command;"] + ORIGINAL[12:])


def test_same_section_without_a_changed_line_stays_ambiguous():
    snippet = """    // ... existing code ...
     * @param {string} str
     * @param {object} args
     * @return {(Command | string)}
     */
    // ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_line_edited_around_several_places_pins_nothing():
    sec = ["     * @param {string} str", "     * @param {string} name"]
    assert pinned_stretch(sec, ORIGINAL, KEY, [2, 8, 15], 0, len(ORIGINAL)) is None


def test_two_lines_pinning_different_places_pin_nothing():
    sec = ["     * @param {string} str", "    description(str: string, x: number): Command;",
           "    usage(str: string, x: number): Command;"]
    assert pinned_stretch(sec, ORIGINAL, KEY, [2, 8, 15], 0, len(ORIGINAL)) is None
    assert pinned_stretch(sec[:2], ORIGINAL, KEY, [2, 8, 15], 0, len(ORIGINAL))[:2] == (8, 15)


def test_changed_line_that_replaces_no_old_form_pins_nothing():
    # Read in the second doc comment, the `description(...)` line is inserted between two kept
    # lines and its old form stays: it was no edit of that line, so it settles no place.
    snippet = """    // ... existing code ...
     * @param {string} str
    description(str: string, args?: object): Command;
     * @return {(Command | string)}
    // ... existing code ...""".split("\n")
    m = merge_lazy(ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_cheap_filter_keeps_every_kind_of_edited_copy():
    from fastapply.merge.align.edge_edits import same_edit
    from fastapply.merge.align.pinned import _head, _may_edit

    pairs = [("html_title = 'new'", "html_title = 'old'"), ("let context;", "let context = {};"),
             ("const x = 2", "var x = 1"), ("let total = 0", "total = 1"),
             ("// retried after a socket timeout, unless told not to", "// retried after a socket timeout."), ("    return a + b", "return a + b")]
    for new, old in pairs:
        assert same_edit(new, old), (new, old)
        assert _may_edit(_head(new), _head(old)), (new, old)
    assert not _may_edit(_head("return x"), _head("print(x)"))
