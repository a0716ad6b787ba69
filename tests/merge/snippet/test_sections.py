"""Sections and diff lines inside lazy snippets."""

from fastapply.merge.snippet.sections import (
    CANONICAL_MARKER, as_hunks, check_diff_counts, diff_counts_agree, line_label, split_sections, undiff_lazy,
)

ORIGINAL = ["def f():", "    a = 1", "    b = 2", "    return a + b", "", "x = f()"]


def test_diff_prefixes_in_a_lazy_snippet_are_undone():
    snippet = ["# ... existing code ...", "def f():", "-    a = 1", "+    a = 10", "     b = 2", "@@ ... @@", "x = f()"]
    assert undiff_lazy(snippet, ORIGINAL) == [
        "# ... existing code ...", "def f():", "    a = 10", "     b = 2", CANONICAL_MARKER, "x = f()"
    ]


def test_unified_context_lines_lose_their_space():
    snippet = [" def f():", "-    a = 1", "+    a = 10", "     b = 2"]
    assert undiff_lazy(snippet, ORIGINAL) == ["def f():", "    a = 10", "    b = 2"]


def test_indented_context_found_verbatim_keeps_its_space():
    # `          b)` is found both with and without its first space; the other context lines only
    # as written, so none of them is unified-diff context.
    original = ["def f(a, b):", "    x = g(a,", "          b)", "    y = h(a,", "         b)", "    return x + y"]
    snippet = ["@@ -0,0 +0,0 @@", "    x = g(a,", "          b)", "-    y = h(a,", "-         b)", "+    y = 0",
               "    return x + y"]
    assert undiff_lazy(snippet, original) == [CANONICAL_MARKER, "    x = g(a,", "          b)", "    y = 0", "    return x + y"]


def test_a_merge_must_agree_with_the_diff_lines_counts():
    snippet = ["def f():", "-    a = 1", "+    a = 10", "     b = 2"]
    right = ["def f():", "    a = 10", "    b = 2", "    return a + b", "", "x = f()"]
    assert check_diff_counts(ORIGINAL, right, snippet) is None
    reason = check_diff_counts(ORIGINAL, right[:1] + ["    a = 1"] + right[1:], snippet)
    assert reason and "removes `a = 1`" in reason
    # A `-` line whose text the snippet also adds (a moved line) may stay once.
    moved = ["def f():", "-    a = 1", "     b = 2", "+    a = 1"]
    assert check_diff_counts(ORIGINAL, ["def f():", "    b = 2", "    a = 1"] + ORIGINAL[3:], moved) is None
    # An added line that repeats an original one: the merge must have both.
    twice = ["@@ -1,3 +1,4 @@", "def f():", "     a = 1", "+    a = 1", "     b = 2"]
    assert check_diff_counts(ORIGINAL, ORIGINAL[:2] + ORIGINAL[1:], twice) is None
    assert "appear 1 times" in check_diff_counts(ORIGINAL, ORIGINAL, twice)
    # A context line kept twice, a blank line added, a line dropped that no `-` line removes.
    assert "`b = 2` would appear 2 times" in check_diff_counts(ORIGINAL, right[:3] + right[2:], snippet)
    assert "a blank line would appear 2 times" in check_diff_counts(ORIGINAL, right[:1] + [""] + right[1:], snippet)
    assert "`x = f()` would appear 0 times" in check_diff_counts(ORIGINAL, right[:-1], snippet)
    # A generic line's count is said with the snippet line that names it, and a distinctive line's
    # disagreement comes first: `}` alone locates nothing (issue 20).
    braces = ["f() {", "  a();", "}", "g() {", "  b();", "}"]
    closes = ["g() {", "-  b();", "+  c();", "+}", "+h() {", "+  d();", " }"]
    kept = ["f() {", "  a();", "}", "g() {", "  c();", "}", "h() {", "  d();", "}", "}"]
    assert "`}` (snippet line 4) would appear 4 times" in check_diff_counts(braces, kept, closes)
    assert "`d();` would appear 2 times" in check_diff_counts(braces, kept[:8] + kept[7:], closes)
    # Prefixes that are not diff syntax (here code of the file) prove no removal.
    assert check_diff_counts(["items:", "- one"], ["items:", "- one"], ["items:", "- one"]) is None


def test_new_lines_written_without_a_plus_count_as_added_and_free_the_lines_the_snippet_does_not_name():
    # `    c = 3` is new code the planner wrote without `+`: the merge must have it once; the lines the
    # snippet names nowhere (`a = 1` here, which a lazy section may replace) and blank lines are not bound
    snippet = ["def f():", "    c = 3", "# ... existing code ...", "-x = f()"]
    right = ["def f():", "    c = 3", "    b = 2", "    return a + b", ""]
    assert check_diff_counts(ORIGINAL, right, snippet) is None
    assert "removes `x = f()`" in check_diff_counts(ORIGINAL, right + ["x = f()"], snippet)
    assert "`c = 3` would appear 0 times" in check_diff_counts(ORIGINAL, ORIGINAL[:-1], snippet)
    assert "`c = 3` would appear 2 times" in check_diff_counts(ORIGINAL, right[:2] + right[1:], snippet)


def test_diff_counts_agree_only_for_diff_lines_that_hold():
    snippet = ["@@ -0,0 +0,0 @@", "def f():", "+    log(a)", "+    log(b)", "    a = 1"]
    original = ["def f():", "    a = 1", "    log(a)", "    log(b)"]
    assert diff_counts_agree(original, ["def f():", "    log(a)", "    log(b)", "    a = 1", "    log(a)", "    log(b)"], snippet)
    assert not diff_counts_agree(original, ["def f():", "    log(a)", "    log(b)", "    a = 1"], snippet)
    assert not diff_counts_agree(original, original, ["def f():", "    a = 1"])  # no diff lines at all


def test_a_lazy_snippet_with_diff_lines_as_hunks():
    # Verbatim context gains the unified space; markers and `@@` lines separate hunks; a snippet
    # that does not open with a header gets one.
    snippet = ["def f():", "-    a = 1", "+    a = 10", "", "# ... existing code ...", "x = f()", "+y = 2"]
    assert as_hunks(snippet, ORIGINAL) == ["@@ @@", " def f():", "-    a = 1", "+    a = 10", "", "@@ @@", " x = f()", "+y = 2"]
    # Unified context keeps its one space; no diff syntax, no hunks.
    assert as_hunks(["@@ -1 +1 @@", " def f():", "-    a = 1", "+    a = 10", "     b = 2"], ORIGINAL)[1] == " def f():"
    assert as_hunks(["def f():", "    a = 1"], ORIGINAL) is None
    # a line the original does not have, written without a prefix, is new code: `+`
    assert as_hunks(["def f():", "    c = 3", "-    a = 1"], ORIGINAL) == ["@@ @@", " def f():", "+    c = 3", "-    a = 1"]


def test_code_that_starts_with_a_sign_is_not_diff_syntax():
    original = ["items:", "- one", "- two"]
    assert undiff_lazy(["items:", "- one", "- three"], original) is None  # `- one` is in the file
    assert undiff_lazy(["x = 1", "y = 2"], ORIGINAL) is None  # no prefixes at all


def test_a_minus_line_the_original_lacks_is_no_deletion():
    assert undiff_lazy(["def f():", "-    nothing = 0", "+    a = 3"], ORIGINAL) is None


def test_canonical_marker_splits_sections():
    sections = split_sections(["def f():", CANONICAL_MARKER, "x = f()"], ORIGINAL)
    assert [(s.lines, s.open_start, s.open_end) for s in sections] == [
        (("def f():",), False, True), (("x = f()",), True, False)
    ]


def test_a_snippet_ending_on_an_original_blocks_opener_gets_the_end_marker_it_implies():
    from fastapply.merge.snippet.sections import CANONICAL_MARKER, close_open_end

    original = ["def a():", "    return 1", "", "def test_nested(runner):", "    run()"]
    snippet = ["# ... existing code ...", "def a():", "    return 2", "", "def test_nested(runner):", ""]
    assert close_open_end(snippet, original) == snippet + [CANONICAL_MARKER]
    # A body shown, a new opener, or no marker at all (maybe a whole file): left as written.
    assert close_open_end(snippet[:-2], original) == snippet[:-2]
    assert close_open_end(snippet[:-2] + ["def test_brand_new(runner):"], original)[-1] != CANONICAL_MARKER
    assert close_open_end(snippet[1:], original) == snippet[1:]


def test_line_label_quotes_a_distinctive_line_and_places_a_blank_or_a_bracket():
    lines = ["    zz = 1", "", "    return x", "", "}", "def g():"]
    assert line_label("    return x", lines) == "`return x`"
    assert line_label("", lines, 1) == "the blank line after `zz = 1`"
    assert line_label("", lines, 3) == "the blank line after `return x`"
    assert line_label("}", lines) == "the line `}` before `def g():`"
    assert line_label("", ["", "  )", ""]) == "the blank line"
    assert line_label("", ["x = 1", ""]) == "the blank line after `x = 1`"  # the edge occurrence by default


def test_reindent_shifts_a_section_by_the_constant_offset_of_its_matched_lines():
    from fastapply.merge.snippet.sections import reindent

    region = ["    def f(self):", "        return 1"]
    assert reindent(["def f(self):", "    return 2", "", "    x = 1"], region) == \
        ["    def f(self):", "        return 2", "", "        x = 1"]  # pasted without its class indentation
    assert reindent(["        def f(self):"], region) == ["    def f(self):"]  # over-indented by a constant
    assert reindent(["def f(self):", "        return 1"], region) == ["def f(self):", "        return 1"]  # no one offset
    # A line the region has twice at two depths pairs with its first: the offset the joint and the
    # greedy reading both take.
    assert reindent(["pass"], ["        pass", "    pass"]) == ["        pass"]


def test_reindent_reads_the_offset_from_the_lines_both_hold_once():
    # pasted without two levels of indentation; `});` closes blocks at two depths in the region, so
    # its first twin shows no offset: the lines the region and the section each hold once settle it
    from fastapply.merge.snippet.sections import reindent

    region = ["\t});", "\t\tsetImmediate(function () {", "\t\t\temit(res);", "\t\t});", "", "\t\treq.once('error', f);"]
    section = ["\temit(res);", "});", "", "req.once('error', f);", "go();"]
    assert reindent(section, region) == ["\t\t\temit(res);", "\t\t});", "", "\t\treq.once('error', f);", "\t\tgo();"]


def test_reindent_keeps_a_section_whose_base_lines_are_all_new():
    # a statement wrapped in an `if` (the grid's C# `wrap_in_if`, minimal style): the matched
    # line is one level deeper than the original only because the edit nests it; the new `if`
    # at the section's base is at the original's depth, so nothing is shifted
    from fastapply.merge.snippet.sections import reindent

    region = ["            var label = FormatLabel(x);", "            Log(label);", "            return label;"]
    wrapped = ["            if (x > 0)", "                Log(label);"]
    assert reindent(wrapped, region) == wrapped
    # a matched line at the base still shows the offset
    assert reindent(["                var label = FormatLabel(x);", "                if (x > 0)"], region) == \
        ["            var label = FormatLabel(x);", "            if (x > 0)"]


def test_a_statement_wrapped_in_an_if_keeps_its_new_depth():
    from fastapply.merge.instant import instant_merge

    original = ("class A\n{\n    int G(int x)\n    {\n        var label = F(x);\n        Log(label);\n"
                "        return label;\n    }\n}\n")
    snippet = "// ... existing code ...\n        if (x > 0)\n            Log(label);\n// ... existing code ...\n"
    r = instant_merge(original, snippet, language="csharp")
    assert not r.merged or r.text == original.replace("        Log(label);\n", "        if (x > 0)\n            Log(label);\n")


def test_a_section_starting_with_a_bracket_is_named_by_the_line_that_locates_it():
    from fastapply.merge.snippet.sections import Section, section_label

    sec = Section(("    }", "", "    public int gamma(int x) {"), True, True)
    assert section_label(sec, 1) == "section 2 (starting `}`, before `public int gamma(int x) {`)"
    assert section_label(Section(("def f():", "    pass"), True, True), 0) == "section 1 (starting `def f():`)"
    # a lone keyword locates nothing either (text.lines.is_generic): `end`, `/**`
    ruby = Section(("  end", "", "  def size", "    @items.size"), True, True)
    assert section_label(ruby, 2) == "section 3 (starting `end`, before `def size`)"
    assert line_label("  end", ["    @items << x", "  end"]) == "the line `end` after `@items << x`"


def test_a_refusal_naming_such_a_section_is_still_read_as_data():
    from fastapply.merge.instant import instant_merge

    original = "class A {\n  int a() {\n    return 1;\n  }\n\n  int b() {\n    return 2;\n  }\n\n  int c() {\n    return 3;\n  }\n}\n"
    snippet = "// ... existing code ...\n  }\n\n  int c() {\n// ... existing code ...\n"  # deletes b() or nothing?
    r = instant_merge(original, snippet, language="java")
    assert not r.merged and r.refusal is not None and r.refusal.kind != "form"
    assert "its part with `int c() {`" in r.refused_reason  # not "its part starting `}`"


def test_undiff_each_reads_every_line_as_undiff_lazy_does():
    from fastapply.merge.snippet.sections import undiff_each

    original = ["def f():", "    a = 1", "    b = 2"]
    snippet = ["--- a/f.py", "@@ -1,3 +1,3 @@", "def f():", "-    a = 1", "+    a = 10", "    b = 2"]
    each = undiff_each(snippet, original)
    assert each == [None, CANONICAL_MARKER, "def f():", None, "    a = 10", "    b = 2"]
    assert undiff_lazy(snippet, original) == [line for line in each if line is not None]
    assert undiff_each(["def f():", "    a = 1"], original) is None
