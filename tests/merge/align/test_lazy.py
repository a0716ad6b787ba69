"""Lazy-snippet location and splicing, one construct per test (lines without newlines)."""

import pytest

from fastapply.merge.align.lazy import merge_lazy, split_sections

ORIGINAL = """import os

def a():
    return 1

def b():
    return 2

def c():
    return 3

print(c())""".split("\n")


def merge(snippet: str, original=ORIGINAL):
    return merge_lazy(original, snippet.split("\n"))


def test_single_section_with_context_both_sides():
    m = merge("# ... existing code ...\ndef b():\n    return 20\n\ndef c():\n# ... existing code ...")
    assert m.refused_reason is None
    assert m.lines == ORIGINAL[:5] + ["def b():", "    return 20", "", "def c():"] + ORIGINAL[9:]
    assert m.rung == "exact"


def test_insertion_at_file_start():
    m = merge("import sys\nimport os\n# ... existing code ...")
    assert m.lines == ["import sys"] + ORIGINAL


def test_insertion_at_file_end():
    m = merge("# ... existing code ...\nprint(c())\nprint(a())")
    assert m.lines == ORIGINAL + ["print(a())"]


def test_deletion_shows_context_before_and_after():
    m = merge("# ... existing code ...\n    return 1\n\ndef c():\n# ... existing code ...")
    assert m.lines == ORIGINAL[:4] + ["", "def c():"] + ORIGINAL[9:]


def test_multiple_sections_in_order():
    m = merge(
        "# ... existing code ...\ndef a():\n    return 10\n\ndef b():\n# ... existing code ...\n"
        "def c():\n    return 30\n\nprint(c())"
    )
    expected = list(ORIGINAL)
    expected[3] = "    return 10"
    expected[9] = "    return 30"
    assert m.lines == expected


def test_marker_standing_for_the_middle_of_a_definition():
    original = ["def f():", "    x = 1", "    y = 2", "    z = 3", "    return x + y + z"]
    m = merge_lazy(original, ["def f():", "    x = 10", "    y = 2", "    # ... existing code ...", "    return x + y + z"])
    assert m.lines == ["def f():", "    x = 10", "    y = 2", "    z = 3", "    return x + y + z"]


def test_section_whose_anchor_appears_twice_is_refused_with_a_candidate():
    original = ["def a():", "    return 1", "", "def b():", "    return 1", "", "end"]
    m = merge_lazy(original, ["# ... existing code ...", "    return 1", "    # new", "# ... existing code ..."])
    assert m.lines is None
    assert "the line `return 1` before `# new` matches 2 places" in m.refused_reason  # generic: placed
    assert m.candidate is not None
    assert m.regions == ((1, 2), (4, 5))


def test_repeated_anchor_settled_by_the_rest_of_the_section():
    original = ["def a():", "    return 1", "", "def b():", "    return 1", "", "end"]
    m = merge_lazy(original, ["# ... existing code ...", "def b():", "    return 2", "", "end"])
    assert m.lines == ["def a():", "    return 1", "", "def b():", "    return 2", "", "end"]


def test_a_changed_last_line_before_a_marker_is_refused():
    # Is `return 2` a replacement of `return 1` or a new line before it? Without the unchanged
    # line that follows, the snippet cannot say; the convention shows closing context.
    original = ["def a():", "    return 1", "", "end"]
    m = merge_lazy(original, ["def a():", "    return 2", "# ... existing code ..."])
    assert m.lines is None
    assert m.candidate is not None


def test_section_not_in_original_is_refused():
    m = merge("# ... existing code ...\nfn totally_new() {}\n# ... existing code ...")
    assert m.lines is None
    assert "could not be found" in m.refused_reason


def test_whitespace_rung_places_a_reindented_section():
    original = ["class A:", "    def f(self):", "        return 1", "", "    def g(self):", "        return 2"]
    snippet = ["# ... existing code ...", "def f(self):", "    return 10", "", "def g(self):", "# ... existing code ..."]
    m = merge_lazy(original, snippet)
    assert m.rung == "whitespace"
    assert m.lines == ["class A:", "    def f(self):", "        return 10", "", "    def g(self):", "        return 2"]


def test_a_misquoted_line_next_to_the_edit_is_read_as_its_edit():
    original = ["def long_function_name(alpha, beta):", "    value = alpha + beta", "    return value", "", "x = 1"]
    snippet = ["# ... existing code ...", "def long_function_name(alpha, beta)", "    value = alpha * beta",
               "    return value", "# ... existing code ..."]
    m = merge_lazy(original, snippet)
    # Both lines share their leading name with the original lines they follow: edits of them
    # (the parse guard of instant.py refuses the missing colon).
    assert m.lines == ["def long_function_name(alpha, beta)", "    value = alpha * beta", "    return value", "", "x = 1"]


def test_an_edited_signature_without_context_before_it_replaces_the_line():
    original = ["x = 1", "def map(requests, keep_alive=False):", "    '''Doc.'''", "    return 1"]
    snippet = ["# ... existing code ...", "def map(requests):", "    '''Doc.'''", "# ... existing code ..."]
    m = merge_lazy(original, snippet)
    assert m.lines == ["x = 1", "def map(requests):", "    '''Doc.'''", "    return 1"]


def test_a_line_merely_similar_to_its_neighbour_is_refused_with_a_candidate():
    original = ["x = 1", "def a():", "    total = compute(1)", "    return value"]
    snippet = ["# ... existing code ...", "    value = compute(1) + 1", "    return value"]
    m = merge_lazy(original, snippet)
    assert m.lines is None
    assert "could be a new line" in m.refused_reason
    assert m.candidate is not None


def test_split_sections_marks_open_ends():
    sections = split_sections(["a", "# ...", "b", "c", "// ... existing code ..."], ["a", "x", "b", "c"])
    assert [s.lines for s in sections] == [("a",), ("b", "c")]
    assert [(s.open_start, s.open_end) for s in sections] == [(False, True), (True, True)]



HEADED = ["", "import os", "", "def f():", "    return 1", "", "def g():", "    return 2"]


def test_snippet_without_leading_marker_replaces_blank_lines_at_the_file_start():
    # Only blank lines lie above the section's first matched line: no forgotten marker can have
    # meant to keep them, so the file starts where the snippet starts.
    m = merge_lazy(HEADED, ["import os", "import sys", "", "def f():", "# ... existing code ..."])
    assert m.lines == ["import os", "import sys"] + HEADED[2:]


def test_snippet_starting_with_a_blank_line_keeps_it_at_the_file_start():
    # Without a marker before it, the snippet's first (blank) line is the file's first line.
    m = merge_lazy([""] + HEADED, ["", "import os", "", "def f():", "    return 1", "", "def h():", "    return 3",
                                   "", "def g():", "# ... existing code ..."])
    assert m.lines == HEADED[:6] + ["def h():", "    return 3", ""] + HEADED[6:]
    m = merge_lazy(HEADED, ["", "import os", "import sys", "", "def f():", "# ... existing code ..."])
    assert m.lines == ["", "import os", "import sys"] + HEADED[2:]


def test_blank_lines_at_the_file_end_stay_after_a_snippet_without_trailing_marker():
    original = HEADED + ["", ""]
    m = merge_lazy(original, ["# ... existing code ...", "def g():", "    return 2", "    # done"])
    assert m.lines == HEADED + ["    # done", "", ""]


BLOCKS = ["function a() {}", "", "function b() {}", "", "run();"]


def test_new_block_before_context_keeps_the_originals_blank_line_above_it():
    # The blank line between `a` and `b` separates blocks: new code inserted after the marker
    # goes below it, and the snippet's own blank line separates the new code from `b`.
    m = merge_lazy(BLOCKS, ["// ... existing code ...", "const limit = 10;", "", "function b() {}",
                            "// ... existing code ..."])
    assert m.lines == ["function a() {}", "", "const limit = 10;", "", "function b() {}", "", "run();"]


def test_new_block_after_context_keeps_the_originals_blank_line_below_it():
    m = merge_lazy(BLOCKS, ["// ... existing code ...", "function a() {}", "", "const limit = 10;",
                            "// ... existing code ..."])
    assert m.lines == ["function a() {}", "", "const limit = 10;", "", "function b() {}", "", "run();"]


def test_blank_line_shown_after_the_marker_is_not_doubled():
    m = merge_lazy(BLOCKS, ["// ... existing code ...", "", "const limit = 10;", "", "function b() {}",
                            "// ... existing code ..."])
    assert m.lines == ["function a() {}", "", "const limit = 10;", "", "function b() {}", "", "run();"]
def test_lone_keyword_lines_never_anchor_but_lines_with_an_operand_may():
    from fastapply.merge.align.lazy import _no_anchor

    for line in ("        pass", "    else:", "end", "  fi", "    done", "    return", "    });"):
        assert _no_anchor(line), line
    for line in ("    return 0", "    return nil", "    value = 1", "def f():"):
        assert not _no_anchor(line), line


def test_a_unique_pass_does_not_pin_a_new_block_onto_another_body():
    """`pass` is unique in this original (one stub); the snippet's new function also has one.
    Anchored on it, the section would span from the stub to `main` (deleting `build`); not
    anchored, the new function is inserted before `main`."""
    original = ["def stub():", "    pass", "", "def build(config):", "    return make(config)", "",
                "def main():", "    run(build({}))"]
    snippet = ["# ... existing code ...", "def hook():", "    pass", "", "def main():", "# ... existing code ..."]
    m = merge(snippet="\n".join(snippet), original=original)
    assert m.refused_reason is None
    expected = original[:6] + ["def hook():", "    pass", ""] + original[6:]
    assert [l for l in m.lines if l.strip()] == [l for l in expected if l.strip()]  # blank lines: edges.py's rules


RUST = """impl Matcher {
    fn add_val(&mut self, arg: &Id) {
        let ma = self.entry(arg).or_insert(Matched {
            occurs: 0, // TODO: should this be 1?
            ty,
            vals: Vec::new(),
        });
        ma.push();
    }

    fn add_index(&mut self, arg: &Id) {
        let ma = self.entry(arg).or_insert(Matched {
            occurs: 0,
            vals: Vec::new(),
            ty,
        });
        ma.index();
    }
}""".split("\n")


def test_section_stays_inside_the_block_its_first_anchor_opens():
    # `occurs: 0,` is unique only in the next function; the section never closes `add_val`'s
    # block, so it is the edited copy of the TODO line, not an anchor across the block's end.
    m = merge("    fn add_val(&mut self, arg: &Id) {\n"
              "        let ma = self.entry(arg).or_insert(Matched {\n"
              "            // occurrences are counted later\n"
              "            occurs: 0,\n"
              "            ty,\n"
              "            // ... existing code ...", RUST)
    assert m.refused_reason is None
    assert m.lines == RUST[:3] + ["            // occurrences are counted later", "            occurs: 0,"] + RUST[4:]


def test_section_that_closes_its_block_keeps_the_far_anchor():
    # The section's own `}` closes `add_val`: `occurs: 0,` in the next function may be where it
    # goes on, so the far anchor stays and the unshown deletion is refused as before.
    m = merge("    fn add_val(&mut self, arg: &Id) {\n"
              "        ma.push();\n"
              "    }\n"
              "            occurs: 0,\n"
              "            vals: Vec::new(),\n"
              "            // ... existing code ...", RUST)
    assert m.lines is None
    assert "would delete original lines" in m.refused_reason


TEN_FUNCTIONS = "".join(f"def f{i}():\n    x = {i}\n\n    return x\n\n\n" for i in range(10)).splitlines()


@pytest.mark.parametrize("snippet, named", [
    # the ambiguous line is the snippet's trailing blank line: it used to read "`` matches 10 places"
    ("# ... existing code ...\n    zz = 1\n\n    return x\n\n", "the blank line after `return x` matches 10 places"),
    ("# ... existing code ...\n    zz = 1\n\n", "the blank line after `zz = 1` matches"),
])
def test_a_blank_ambiguous_line_is_named_by_its_distinctive_neighbour(snippet, named):
    m = merge_lazy(TEN_FUNCTIONS, snippet.splitlines())
    assert m.lines is None and named in m.refused_reason and "``" not in m.refused_reason


def test_a_lone_bracket_is_named_by_its_distinctive_neighbour():
    orig = "".join(f"function f{i}() {{\n  let x = {i};\n}}\n\n" for i in range(10)).splitlines()
    m = merge_lazy(orig, ["// ... existing code ...", "  q();", "}", "// ... existing code ..."])
    assert m.lines is None and "the line `}` after `q();` matches 10 places" in m.refused_reason
    assert ": `}` matches" not in m.refused_reason
