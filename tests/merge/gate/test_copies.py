"""Copies a merge may rightly add: in a new block shown whole, or as a changed line equal to one elsewhere."""

from fastapply.merge import instant
from fastapply.merge.gate.copies import closed_block, copies_in_new_blocks, copies_replace_changed_lines
from fastapply.merge.gate.snippet_checks import check_copied_lines

ORIGINAL = """package gin

func TestRun(t *testing.T) {
	router := New()
	assert.NoError(t, router.Run(":8080"))
}

func TestRunTLS(t *testing.T) {
	router := New()
	assert.NoError(t, router.RunTLS(":8443"))
}
""".split("\n")

NEW_TEST = """// ... existing code ...
func TestRunTLS(t *testing.T) {
	router := New()
	assert.NoError(t, router.RunTLS(":8443"))
}

func TestBadUnixSocket(t *testing.T) {
	router := New()
	assert.Error(t, router.RunUnix("#/tmp/unix_unit_test"))
}
"""


def _appended(snippet_block: list[str]) -> list[str]:
    return ORIGINAL[:-1] + [""] + snippet_block + [""]


def test_closed_block():
    assert closed_block(["func f() {", "\tx := g(1)", "}"])
    assert not closed_block(["\tx := g(1)", "}"])  # closes what it did not open
    assert not closed_block(["func f() {", "\tx := 1"])  # left open
    assert not closed_block(["\tx := 1", "y := 2"])  # a line indented less than the first
    assert closed_block(["def f():", "    return 1"])


def test_new_test_repeating_an_idiom_is_new_code():
    block = ["func TestBadUnixSocket(t *testing.T) {", "\trouter := New()",
             '\tassert.Error(t, router.RunUnix("#/tmp/unix_unit_test"))', "}"]
    result = _appended(block)
    snippet = NEW_TEST.split("\n")
    assert copies_in_new_blocks(ORIGINAL, result, snippet)
    assert check_copied_lines(ORIGINAL, result, snippet) is None


def test_instant_merge_writes_the_new_test():
    r = instant.instant_merge("\n".join(ORIGINAL), NEW_TEST, language="go")
    assert r.merged, r.refused_reason
    assert r.text.count("router := New()") == 3 and r.text.endswith("unix_unit_test\"))\n}\n")


def test_renamed_copy_is_not_new_code():
    # only the header is new: a block copied (or renamed and kept twice), not new code
    block = ["func TestRunAgain(t *testing.T) {", "\trouter := New()", '\tassert.NoError(t, router.Run(":8080"))', "}"]
    result = _appended(block)
    snippet = ["// ... existing code ...", ""] + block
    assert not copies_in_new_blocks(ORIGINAL, result, snippet)
    assert check_copied_lines(ORIGINAL, result, snippet) is not None


def test_block_with_a_known_head_is_not_new():
    # the run opens with a line the original has once: the old block moved or kept twice
    block = ["func TestRun(t *testing.T) {", "\trouter := New()", "\tx := brandNewCall(1)", "\ty := anotherNewCall(2)",
             "\tassert.NoError(t, router.Run(\":8080\"))", "}"]
    result = _appended(block)
    snippet = ["// ... existing code ...", ""] + block
    assert not copies_in_new_blocks(ORIGINAL, result, snippet)


def test_block_not_shown_whole_is_not_new():
    block = ["func TestBadUnixSocket(t *testing.T) {", "\trouter := New()",
             '\tassert.Error(t, router.RunUnix("#/tmp/unix_unit_test"))', "}"]
    result = _appended(block)
    snippet = ["// ... existing code ...", block[0], block[1], "// ... existing code ...", block[2], block[3]]
    assert not copies_in_new_blocks(ORIGINAL, result, snippet)


def test_no_copies_is_false():
    assert not copies_in_new_blocks(ORIGINAL, ORIGINAL, ["x"])


TWINS_ORIGINAL = """def load_alpha(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value


def load_beta(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=False)
    return value
"""

# beta's call changes into the one alpha already makes: the file has that line twice, rightly
CHANGE_BETA = """# ... existing code ...
def load_beta(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value
"""
CHANGED = TWINS_ORIGINAL.replace("handle, strict=False", "handle, strict=True")


def test_changed_line_exempt_from_copied_lines_guard():
    original, result, snippet = TWINS_ORIGINAL.split("\n"), CHANGED.split("\n"), CHANGE_BETA.split("\n")
    assert copies_replace_changed_lines(original, result, snippet)
    assert check_copied_lines(original, result, snippet) is None


def test_misplaced_section_keeps_its_refusal():
    # A section meant for alpha (it shows alpha's header and adds a check) pasted over beta: the
    # copy replaced beta's similar line, but the snippet's context points to alpha, the twin.
    snippet = """def load_alpha(path):
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    check_value(value)
    return value
# ... existing code ...
""".split("\n")
    misplaced = TWINS_ORIGINAL.replace("handle, strict=False)\n", "handle, strict=True)\n    check_value(value)\n")
    original, result = TWINS_ORIGINAL.split("\n"), misplaced.split("\n")
    assert not copies_replace_changed_lines(original, result, snippet)
    assert check_copied_lines(original, result, snippet) is not None


def test_context_shared_by_both_places_is_not_enough():
    # The snippet's context fits beta no better than alpha: nothing says which place it changed.
    snippet = """# ... existing code ...
    handle = open_resource(path)
    value = parse_payload(handle, strict=True)
    return value
# ... existing code ...
""".split("\n")
    assert not copies_replace_changed_lines(TWINS_ORIGINAL.split("\n"), CHANGED.split("\n"), snippet)


def test_copy_that_replaced_no_similar_line_is_not_exempt():
    # beta's call replaced by an unrelated line that happens to be alpha's: not an edit of it
    result = TWINS_ORIGINAL.replace("value = parse_payload(handle, strict=False)",
                              "handle = open_resource(path)").split("\n")
    snippet = """# ... existing code ...
def load_beta(path):
    handle = open_resource(path)
    handle = open_resource(path)
    return value
""".split("\n")
    assert not copies_replace_changed_lines(TWINS_ORIGINAL.split("\n"), result, snippet)


def test_new_functions_each_under_an_attribute_the_file_repeats_are_new_code():
    # two new functions, each under the attribute the file puts on every function: 2 in the original,
    # 2 new in the snippet, 4 in the result
    attr = '#[cfg_attr(feature = "optimize", optimize(size))]'
    original = [attr, "fn a() {}", "", attr, "fn b() {}", ""]
    snippet = ["// ... existing code ...", attr, "fn c() {}", "", attr, "fn d() {}"]
    result = original + [attr, "fn c() {}", "", attr, "fn d() {}"]
    assert check_copied_lines(original, result, snippet) is None
    # a line the file has once is no idiom: shown twice and pasted twice more, it is refused
    once = [attr, "fn a() {}", "", "fn b() {}", ""]
    assert check_copied_lines(once, once + snippet[1:], snippet) is not None
