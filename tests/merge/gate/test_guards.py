"""Each guard refuses what it should and lets a good merge through."""

from fastapply.merge.gate import guards, snippet_checks
from fastapply.merge.text.compare import line_opcodes

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"


def test_markers_left_refuses_a_leaked_marker():
    assert guards.check_markers_left(["a"], ["a", "# ... existing code ..."])
    assert guards.check_markers_left(["# ... existing code ..."], ["# ... existing code ..."]) is None


def test_empty_body_refuses():
    emptied = ORIGINAL.replace("    return 2", "    pass")
    assert "empty body" in guards.check_empty_bodies(ORIGINAL, emptied, "python")
    go_before = "package p\n\nfunc F() int {\n\treturn 1\n}\n"
    go_after = "package p\n\nfunc F() int {\n\t// TODO\n}\n"
    assert guards.check_empty_bodies(go_before, go_after, "go")
    assert guards.check_empty_bodies(ORIGINAL, ORIGINAL, "python") is None


def test_large_unshown_deletion_refuses():
    original = [f"line {i}" for i in range(100)]
    result = original[:10] + original[60:]
    assert "delete 50 lines" in guards.check_deletions(original, result, shown_lines=6)
    assert guards.check_deletions(original, original[:10] + original[25:], shown_lines=6) is None
    assert guards.check_deletions(original, result, shown_lines=40) is None


def test_run_guards_skips_deletions_when_the_snippet_shows_them():
    original = "\n".join(f"x{i} = {i}" for i in range(60))
    result = "x0 = 0"
    assert guards.run_guards(original, result, language="python", shown_lines=1)
    assert guards.run_guards(original, result, language="python", shown_lines=None) is None


def test_copied_lines_refuses_a_block_kept_twice():
    original = ["def moved():", "    return compute_something(1)", "", "def other():", "    pass"]
    result = original + ["", "def moved():", "    return compute_something(1)"]
    snippet = ["# ... existing code ...", "def moved():", "    return compute_something(1)"]
    assert "would appear 2 times" in snippet_checks.check_copied_lines(original, result, snippet)
    # Shown twice by the snippet (a deliberate copy): allowed.
    assert snippet_checks.check_copied_lines(original, result, snippet + snippet[1:]) is None


def test_copied_lines_allows_a_new_line_repeating_an_idiom_the_file_repeats():
    body = ["\tx, err := f()", "\tif err != nil {", "\t\treturn err", "\t}"]
    original = ["func a() error {"] + body + ["}", "func b() error {"] + body + ["\treturn nil", "}"]
    result = original[:-1] + ["\ty, err := g()", "\tif err != nil {", "\t\treturn err", "\t}", "}"]
    snippet = ["// ... existing code ...", "\ty, err := g()", "\tif err != nil {", "\t\treturn err", "\t}", "}"]
    assert snippet_checks.check_copied_lines(original, result, snippet) is None
    # The same shape for a line the original has only once is a twin of existing code: refused.
    once = original[:6] + ["func b() error {", "\treturn nil", "}"]
    assert "would appear 2 times" in snippet_checks.check_copied_lines(once, once[:-1] + snippet[1:], snippet)


def test_line_opcodes_agree_with_difflib_on_big_repetitive_files():
    a = ["x = 1", "y = 2"] * 3000
    b = a[:2999] + ["z = 3"] + a[3001:]
    ops = guards.line_opcodes(a, b)
    assert [op for op in ops if op[0] != "equal"] == [("replace", 2999, 3001, 2999, 3000)]
    assert guards.unreplaced_lines(a, b) == 1


def test_lost_distinctive_lines_counts_what_a_reading_overwrote():
    original = ["def test_old(self):", "    auth = make_auth('u')", "    assert result_code == 200", "}"]
    replaced = ["def test_new(self):", "    auth = make_auth('u')", "    assert stream_read() != ''", "}"]
    assert snippet_checks.lost_distinctive_lines(original, replaced) == 2  # the header and the assert
    assert snippet_checks.lost_distinctive_lines(original, original + replaced) == 0  # added, not replaced
    assert snippet_checks.lost_distinctive_lines(original, original[:1]) == 2  # `}` is not distinctive


def test_file_head_refuses_a_result_that_starts_inside_a_block():
    original = ["import os", "", "class A:", "    def f(self):", "        self.x = 1", "        self.y = 2"]
    dropped = ["        self.x = 1", "        self.y = 20"]
    assert "drop the original's first lines" in guards.check_file_head(original, dropped)
    assert guards.check_file_head(original, original[2:]) is None  # starts at column 0: may be a real deletion
    assert guards.check_file_head(["    indented()", "x"], ["    other()"]) is None  # the original started indented
    assert guards.run_guards("\n".join(original), "\n".join(dropped), language=None, shown_lines=None)


def test_unshown_deletion_strict_needs_a_unique_landmark_the_snippet_shows():
    original = [
        "def test_one(runner):", "    result = runner.invoke(cmd_one)", "    assert not result.exception",
        "    assert result.output == 'one'", "", "    result = runner.invoke(cmd_two)",
        "    assert result.output == 'two'", "", "def test_three(runner):", "    assert not result.exception",
    ]
    # The second check of test_one (lines 6-7) is dropped; the snippet only shows a new test that
    # repeats `assert not result.exception`, a line the file has twice.
    result = original[:5] + original[8:] + ["", "def test_new(runner):", "    assert not result.exception"]
    snippet = ["# ... existing code ...", "def test_new(runner):", "    assert not result.exception"]
    # The repeated line sits on both sides of the gap: it shows neither (even when not strict).
    assert "does not touch" in snippet_checks.check_unshown_deletions(original, result, snippet)
    reason = snippet_checks.check_unshown_deletions(original, result, snippet, strict=True)
    assert reason and "does not touch" in reason
    # Repeated lines shown in order around a gap pass the loose check, not the strict one.
    twins = ["def a():", "    x = compute_value(1)", "    drop_me_please()", "    y = compute_value(2)", "",
             "def b():", "    x = compute_value(1)", "    y = compute_value(2)"]
    around = ["# ... existing code ...", "    x = compute_value(1)", "    y = compute_value(2)", "# ... existing code ..."]
    dropped = twins[:2] + twins[3:]
    assert snippet_checks.check_unshown_deletions(twins, dropped, around) is None
    assert "does not touch" in snippet_checks.check_unshown_deletions(twins, dropped, around, strict=True)
    # A unique line next to the deletion that the snippet shows is enough, even when strict.
    snippet_near = snippet + ["# ... existing code ...", "    assert result.output == 'one'", "", "def test_three(runner):"]
    assert snippet_checks.check_unshown_deletions(original, result, snippet_near, strict=True) is None


def test_changed_refuses_a_no_op_merge_unless_unique_lines_pin_every_section_edge():
    original = ["def get():", '    """:param url: the URL."""', "", "def put():", '    """:param url: the URL."""',
                "    if url:", "        check(url)", "    return send(url)"]
    loose = ["# ... existing code ...", '    """:param url: the URL."""', "# ... existing code ..."]
    assert "no line of it is unique" in guards.check_changed(original, list(original), loose)
    pinned = original[3:]  # `def put():` ... `return send(url)`: unique lines at both edges
    assert guards.check_changed(original, list(original), pinned) is None  # applied already: fine
    # Pinned by a unique line but closing on a repeated one: lines after it may be meant deleted
    # (here `if url: check(url)` between the docstring and `return`), which the snippet cannot show.
    open_end = ["def put():", '    """:param url: the URL."""', "# ... existing code ..."]
    assert "at an edge" in guards.check_changed(original, list(original), open_end)
    assert guards.check_changed(original, original[:1] + ["    pass"] + original[2:], loose) is None
    assert guards.check_changed(original, list(original), None) is None  # blocks and hunks: not this guard
    assert "change nothing" in guards.run_guards("\n".join(original), "\n".join(original), language=None,
                                                 shown_lines=1, snippet="\n".join(loose))


def test_head_dropped_refuses_a_pure_deletion_above_an_unmarked_start():
    original = ["// Copyright 2020 the authors.", "", "package web", "", "import (", '\t"fmt"', ")", "",
                "func A() {}"]
    result = original[4:6] + ['\t"os"'] + original[6:]
    snippet = ["import (", '\t"fmt"', '\t"os"', ")", "// ... existing code ..."]
    reason = guards.check_head_dropped(original, result, snippet)
    assert reason and "first 2 line(s)" in reason and "Copyright" in reason
    # Opening with a marker, or marking the dropped lines with `-`, settles it.
    assert guards.check_head_dropped(original, result, ["// ... existing code ..."] + snippet) is None
    marked = ["-// Copyright 2020 the authors.", "-package web", *snippet]
    assert guards.check_head_dropped(original, result, marked) is None
    # Head lines replaced by new ones (not merely dropped) were shown by the snippet: no opinion.
    replaced = ['package web2'] + result
    assert guards.check_head_dropped(original, replaced, ["package web2", *snippet]) is None
    assert guards.check_head_dropped(original, original[:4] + result, snippet) is None  # head kept
    # a head that opens on a generic line (`/**`) is named by the first line that says which
    documented = ["/**", " * The web package.", " */", "package web", "", "import (", '\t"fmt"', ")"]
    reason = guards.check_head_dropped(documented, documented[5:7] + ['\t"os"', ")"], snippet)
    assert "first 4 line(s) (`/**`, above `* The web package.`) above" in reason


def test_unconfirmed_runs_the_edge_checks_a_confirmed_reading_skips():
    original = ["// Copyright 2020 the authors.", "", "package web", "", "import (", '\t"fmt"', ")", "",
                "func A() {}"]
    result = original[4:6] + ['\t"os"'] + original[6:]
    snippet = ["import (", '\t"fmt"', '\t"os"', ")", "// ... existing code ..."]
    assert guards.check_unconfirmed(original, result, snippet) == guards.check_head_dropped(original, result, snippet)
    assert guards.run_guards("\n".join(original), "\n".join(result), language=None, shown_lines=None,
                             snippet="\n".join(snippet)) is None  # the guards every reading runs pass it
    assert guards.check_unconfirmed(original, original[:4] + result, snippet) is None  # head kept


def test_tail_dropped_refuses_closing_lines_dropped_below_an_unmarked_end():
    original = ["describe('route', function(){", "  it('responds', function(){", "    get('/user')",
                "    body.should.equal('test')", "    status.should.equal(200)", "  })", "})", ""]
    snippet = ["// ... existing code ...", "    get('/users')", "    body.should.equal('test')"]
    result = original[:2] + ["    get('/users')", "    body.should.equal('test')", ""]  # everything below went
    reason = guards.check_tail_dropped(original, result, snippet)
    assert reason and "last 3 line(s)" in reason and "status.should.equal" in reason
    assert reason.refusal.kind == "would-delete-edge"
    # Ending with a marker, or marking the dropped lines with `-`, settles it.
    assert guards.check_tail_dropped(original, result, snippet + ["// ... existing code ..."]) is None
    marked = snippet + ["-    status.should.equal(200)", "-  })", "-})"]
    assert guards.check_tail_dropped(original, result, marked) is None
    # A whole trailing block dropped (its brackets balance) is a commit's usual deletion: no opinion.
    whole = ["function a() {", "  return 1", "}", "", "function b() {", "  return 2", "}", ""]
    assert guards.check_tail_dropped(whole, whole[:4], ["// ... existing code ...", "function a() {",
                                                         "  return 1", "}"]) is None


def test_a_short_deletion_shown_by_its_two_plain_neighbours_is_allowed():
    body = ["    exception = None", "    exit_code = 0", "    error_message = ''", "", "    try:", "        run()",
            "    except Exception:", "        pass"]
    original = ["def invoke():"] + body + ["", "def other():", "    try:", "        run()", "    finally:", "        pass"]
    result = original[:3] + original[4:]  # `error_message = ''` deleted
    snippet = ["# ... existing code ...", "    exit_code = 0", "", "    try:", "# ... existing code ..."]
    assert snippet_checks.check_unshown_deletions(original, result, snippet) is None
    # The same pair far apart (a long gap): the pair may be a changed line placed too far; refused.
    long = original[:3] + [f"    step_{i}()" for i in range(6)] + original[3:]
    assert snippet_checks.check_unshown_deletions(long, original[:3] + original[4:], snippet)
    # Neighbours already adjacent elsewhere in the original say nothing about this gap.
    twice = original + ["def third():", "    exit_code = 0", "    try:", "        pass"]
    assert snippet_checks.check_unshown_deletions(twice, result + twice[len(original):], snippet)


def test_copied_lines_allows_a_repeated_boilerplate_comment_line_but_not_a_code_line():
    original = ["/// Example:", "/// # use clap::App;", "/// let app = App::new();", "pub const A: u32 = 1;",
                "", "pub const B: u32 = 2;"]
    new = ["/// Example:", "/// # use clap::App;", "/// let c = App::new().about(C);", "pub const C: u32 = 3;"]
    result = original + new
    snippet = ["// ... existing code ...", "pub const B: u32 = 2;"] + new[1:]
    assert snippet_checks.check_copied_lines(original, result, snippet) is None
    # The same shape for a code line (shown once, once more than the original has it): refused.
    code_snippet = ["// ... existing code ...", "pub const B: u32 = 2;", "pub const A: u32 = 1;"]
    code_result = original + ["pub const A: u32 = 1;"]
    assert "would appear 2 times" in snippet_checks.check_copied_lines(original, code_result, code_snippet)


def test_a_deleted_line_is_no_landmark_for_the_deletion_beside_it():
    original = ["def follow(r):", "    _r = r.request.response", "    _r.history.append(r)", "    print _r.status_code", "",
                "    # r.request.response", "    print locals()", "    print _r.headers", "    return _r", "",
                "def other():", "    return 1"]
    # Both debug runs go; the blank line between them stays. The snippet shows the lines around
    # the whole gap, one after the other.
    result = original[:3] + [""] + original[8:]
    snippet = ["# ... existing code ...", "    _r.history.append(r)", "", "    return _r", "# ... existing code ..."]
    assert snippet_checks.deleted_lines(line_opcodes(original, result)) == {3, 5, 6, 7}
    assert snippet_checks.check_unshown_deletions(original, result, snippet) is None
    # The snippet that shows only the lines above the gap still shows no deletion.
    above = ["# ... existing code ...", "    _r.history.append(r)", "# ... existing code ..."]
    assert "does not touch" in snippet_checks.check_unshown_deletions(original, result, above)
