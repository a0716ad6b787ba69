"""Tie-breakers between equal places of a section with no anchor: a changed line, open blocks, twins (ties.py),
and sections in order (settled by the twins' readings)."""

from fastapply.merge.align.anchors import key_function
from fastapply.merge.align.lazy import merge_lazy
from fastapply.merge.align.ties import (
    depths, enclosed_places, pinned_stretch, twin_free_stretch,
)
from fastapply.merge.result import Merged

# --------------------------------------------------------------------------- order (the twin readings settle it)


TWINS = ["def a():", "    x = compute()", "    return x", "", "def b():", "    x = compute()", "    return x"]
SNIPPET = ["# ... existing code ...", "    x = compute()", "    log(x)", "    return x"] * 2 + ["# ... existing code ..."]


def test_two_equal_sections_land_on_two_equal_places_in_order():
    m = merge_lazy(TWINS, SNIPPET)
    assert m.refused_reason is None
    assert m.lines == TWINS[:2] + ["    log(x)"] + TWINS[2:6] + ["    log(x)", "    return x"]


def test_one_section_on_two_equal_places_stays_ambiguous():
    m = merge_lazy(TWINS, SNIPPET[:4] + ["# ... existing code ..."])
    assert m.lines is None and "matches 2 places" in m.refused_reason


NOTES = ["// Run starts the server.", "// Note: this blocks the calling goroutine undefinitelly.", "func Run() {}", "",
         "// RunTLS starts the TLS server.", "// Note: this blocks the calling goroutine undefinitelly.", "func RunTLS() {}",
         "", "// RunUnix starts the unix socket server.", "// Note: this blocks the calling goroutine undefinitelly.",
         "func RunUnix() {}"]


def test_sections_editing_one_comment_three_times_land_in_order():
    # Each section is the same lone changed line, with no line of the original in it: an edited
    # copy of three comment lines alike, one per section in file order (floating.py's rival runs).
    fixed = "// Note: this blocks the calling goroutine indefinitely."
    m = merge_lazy(NOTES, ["// ... existing code ...", fixed] * 3 + ["// ... existing code ..."])
    assert m.refused_reason is None
    assert m.lines == [fixed if "undefinitelly" in line else line for line in NOTES]


def test_one_section_editing_one_of_three_alike_comments_stays_ambiguous():
    fixed = "// Note: this blocks the calling goroutine indefinitely."
    m = merge_lazy(NOTES, ["// ... existing code ...", fixed, "// ... existing code ..."])
    assert m.lines is None and "matches 3 places" in m.refused_reason


# --------------------------------------------------------------------------- a changed line


PINNED_ORIGINAL = """interface Command {
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
    m = merge_lazy(PINNED_ORIGINAL, snippet)
    assert m.refused_reason is None
    assert m.lines == (PINNED_ORIGINAL[:9] + ["     * @param {object} args"] + PINNED_ORIGINAL[9:11]
                       + ["    description(str: string, args?: object): Command;"] + PINNED_ORIGINAL[12:])


def test_same_section_without_a_changed_line_stays_ambiguous():
    snippet = """    // ... existing code ...
     * @param {string} str
     * @param {object} args
     * @return {(Command | string)}
     */
    // ... existing code ...""".split("\n")
    m = merge_lazy(PINNED_ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_line_edited_around_several_places_pins_nothing():
    sec = ["     * @param {string} str", "     * @param {string} name"]
    assert pinned_stretch(sec, PINNED_ORIGINAL, KEY, [2, 8, 15], 0, len(PINNED_ORIGINAL)) is None


def test_two_lines_pinning_different_places_pin_nothing():
    sec = ["     * @param {string} str", "    description(str: string, x: number): Command;",
           "    usage(str: string, x: number): Command;"]
    assert pinned_stretch(sec, PINNED_ORIGINAL, KEY, [2, 8, 15], 0, len(PINNED_ORIGINAL)) is None
    assert pinned_stretch(sec[:2], PINNED_ORIGINAL, KEY, [2, 8, 15], 0, len(PINNED_ORIGINAL))[:2] == (8, 15)


def test_changed_line_that_replaces_no_old_form_pins_nothing():
    # Read in the second doc comment, the `description(...)` line is inserted between two kept
    # lines and its old form stays: it was no edit of that line, so it settles no place.
    snippet = """    // ... existing code ...
     * @param {string} str
    description(str: string, args?: object): Command;
     * @return {(Command | string)}
    // ... existing code ...""".split("\n")
    m = merge_lazy(PINNED_ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_cheap_filter_keeps_every_kind_of_edited_copy():
    from fastapply.merge.align.edge_edits import same_edit
    from fastapply.merge.align.ties import _head, _may_edit

    pairs = [("html_title = 'new'", "html_title = 'old'"), ("let context;", "let context = {};"),
             ("const x = 2", "var x = 1"), ("let total = 0", "total = 1"),
             ("// retried after a socket timeout, unless told not to", "// retried after a socket timeout."), ("    return a + b", "return a + b")]
    for new, old in pairs:
        assert same_edit(new, old), (new, old)
        assert _may_edit(_head(new), _head(old)), (new, old)
    assert not _may_edit(_head("return x"), _head("print(x)"))


# --------------------------------------------------------------------------- open blocks


ENCLOSED_ORIGINAL = """package render

func (_ plainRender) Render(w Writer, data []string) error {
	writeHeader(w, "text/plain")
	var err error
	if len(data) > 1 {
		_, err = w.Write(format(data))
	} else {
		_, err = w.Write(data[0])
	}
	return err
}

func (_ htmlRender) Render(w Writer, data []string) error {
	writeHeader(w, "text/html")
	var err error
	if len(data) > 1 {
		_, err = w.Write(format(data))
	} else {
		_, err = w.Write(data[0])
	}
	return err
}""".split("\n")


def test_next_section_closes_the_blocks_the_previous_one_left_open():
    # Section 2 occurs in both twins; the marker reaches the second only by keeping the first
    # function's `}` (and the twin's header), and section 2 closes the blocks section 1 opened.
    snippet = """// ... existing code ...
func (_ plainTextRender) Render(w Writer, data []string) (err error) {
	writeHeader(w, "text/plain")
	if len(data) > 1 {
// ... existing code ...
		_, err = w.Write(data[0])
	}
	return
}
// ... existing code ...""".split("\n")
    m = merge_lazy(ENCLOSED_ORIGINAL, snippet)
    assert m.refused_reason is None
    assert m.lines == (ENCLOSED_ORIGINAL[:2] + ["func (_ plainTextRender) Render(w Writer, data []string) (err error) {",
                                       '\twriteHeader(w, "text/plain")']
                       + ENCLOSED_ORIGINAL[5:10] + ["\treturn", "}"] + ENCLOSED_ORIGINAL[12:])


def test_section_closing_fewer_blocks_than_were_left_open_stays_ambiguous():
    # Section 2 closes only the `if` block: it says nothing about which function it is in.
    snippet = """// ... existing code ...
func (_ plainTextRender) Render(w Writer, data []string) (err error) {
	writeHeader(w, "text/plain")
	if len(data) > 1 {
// ... existing code ...
		_, err = w.Write(data[0])
	}
	return nil
// ... existing code ...""".split("\n")
    m = merge_lazy(ENCLOSED_ORIGINAL, snippet)
    assert m.lines is None
    assert "places in the original" in m.refused_reason


def test_depths():
    assert depths(["}", "if x {", "if y {"]) == (2, 1)  # opens two, closes one
    assert depths(["x", "}", "return", "}"]) == (0, 2)
    # From depth 2, `} else {` stays inside; `}` `return err` `}` closes both blocks.
    assert enclosed_places(["f() {", "if x {"], ["y", "}", "}"], ENCLOSED_ORIGINAL, 7, [8, 19]) == [8]
    assert enclosed_places(["f() {"], ["y"], ENCLOSED_ORIGINAL, 7, [8, 19]) == [8, 19]


# --------------------------------------------------------------------------- twins


SUBDOMAINS = """describe('subdomains', function(){
  it('returns both', function(done){
    request(app)
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect('["ferrets","tobi"]', done);
  })

  it('returns them with an offset', function(done){
    request(app)
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect('["tobi"]', done);
  })

  it('returns none', function(done){
    request(app)
    .get('/')
    .set('Host', 'example.com')
    .expect('[]', done);
  })
})""".split("\n")


def test_the_place_whose_reading_pastes_no_twin():
    # Section 1 fits both tests on tobi.ferrets; forced into the second, section 2 finds no
    # `.set('Host', 'tobi.ferrets.example.com')` after it and would paste a third copy.
    snippet = """// ... existing code ...
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect(["ferrets","tobi"], done);
// ... existing code ...
    .get('/')
    .set('Host', 'tobi.ferrets.example.com')
    .expect(["tobi"], done);
// ... existing code ...""".split("\n")
    m = merge_lazy(SUBDOMAINS, snippet)
    assert m.refused_reason is None
    assert m.lines == (SUBDOMAINS[:5] + ['    .expect(["ferrets","tobi"], done);'] + SUBDOMAINS[6:12]
                       + ['    .expect(["tobi"], done);'] + SUBDOMAINS[13:])


def _reading(lines):
    return Merged(lines, None, "exact")


A, X1, X2, B = "if (request.ok) {", "  total = compute(first);", "  total = compute(second);", "}"
NEW = "  total = compute(first, second);"
ORIG = [A, X1, B, A, X2, B]


def test_a_rival_undecided_further_on_with_a_clean_guess_settles_nothing():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]),
                (3, 6): Merged(None, "undecided", "ambiguous", [A, X1, B, A, NEW, B])}
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None
    # Its guess pastes a second copy of `total = compute(first);`: that place is out.
    readings[(3, 6)] = Merged(None, "undecided", "ambiguous", [A, X1, B, A, NEW, B, X1])
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) == (0, 3)


def test_two_clean_readings_settle_nothing():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]), (3, 6): _reading([A, X1, B, A, NEW, B])}
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None


def test_a_reading_not_allowed_leaves_the_choice_open():
    readings = {(0, 3): _reading([A, NEW, B, A, X2, B]), (3, 6): None}  # None: the budget ran out
    assert twin_free_stretch(readings.get, ORIG, [A, NEW, B], [0, 3], 0, 6) is None


DOCS = """def get(url, **kwargs):
    \"\"\"Sends a GET request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of GET Parameters.
    \"\"\"

def options(url, **kwargs):
    \"\"\"Sends an OPTIONS request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of GET Parameters.
    \"\"\"

def delete(url, **kwargs):
    \"\"\"Sends a DELETE request.

    :param url: URL for the new :class:`Request` object.
    :param params: (optional) Dictionary of DELETE Parameters.
    \"\"\"""".split("\n")


def test_nested_rival_places_are_settled_by_the_readings_they_lead_to():
    # Three sections change three alike docstrings; the first two fit all three places. Placed
    # too far down, a later one must paste its unchanged `:param url:` line again: each section
    # lands on its own docstring, though no single section's order settles it.
    new = "    :param params: (optional) Dictionary of query parameters."
    snippet = ["# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "# ... existing code ...", "", "    :param url: URL for the new :class:`Request` object.", new,
               "    \"\"\""]
    m = merge_lazy(DOCS, snippet)
    assert m.refused_reason is None
    assert m.lines == [new if "Dictionary of" in line else line for line in DOCS]


ERRORS = ["test('a', t => {", "\tt.true(error.stack.includes('at Object.request'));", "\tif (retry) {",
          "\t\tt.true(error.code === 'ETIMEDOUT');", "\t}", "});", "test('b', t => {",
          "\tt.true(error.stack.includes('at Object.request'));", "});"]


def test_a_place_where_the_section_itself_cannot_be_placed_is_not_excluded():
    # The lone changed line edits either `t.true(...)` at the same depth; in the first test
    # another `t.true(` line makes its own tie-break fail. That says nothing about the place:
    # the second test does not win by default.
    m = merge_lazy(ERRORS, ["// ... existing code ...", "\tt.true(['ENOTFOUND', 'EAI_AGAIN'].includes(error.code));",
                            "// ... existing code ..."])
    assert m.lines is None


def test_long_files_get_fewer_readings(monkeypatch):
    import fastapply.merge.align.lazy as lazy

    monkeypatch.setattr(lazy, "TWIN_LINES", len(SUBDOMAINS))  # one reading: not enough to compare two places
    snippet = ["// ... existing code ...", "    .get('/')", "    .set('Host', 'tobi.ferrets.example.com')",
               '    .expect(["ferrets","tobi"], done);', "// ... existing code ...", "    .get('/')",
               "    .set('Host', 'tobi.ferrets.example.com')", '    .expect(["tobi"], done);', "// ... existing code ..."]
    assert merge_lazy(SUBDOMAINS, snippet).lines is None
