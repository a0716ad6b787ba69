"""Copies a merge may rightly add: in a new block shown whole; a section pasted over a twin's sibling is refused."""

from fastapply.merge import instant
from fastapply.merge.gate.copies import closed_block, copies_in_new_blocks
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
    assert check_copied_lines(original, result, snippet) is not None
