"""Marker-free excerpts: loose ends, and when the merged file still settles them."""

from fastapply.merge.decide.excerpt import dropped_lines, edge_holds, edited_pin, loose_edge
from fastapply.merge.instant import instant_merge

TESTS = """test('first', async t => {
\tconst err = await fetchError('a.com');
\tt.equal(err.code, 'EFIRST');
\tt.end();
});

test('second', async t => {
\tconst err = await fetchError('b.com');
\tt.equal(err.code, 'ESECOND');
\tt.end();
});
""".split("\n")


def test_loose_edge_names_the_end_without_a_unique_line():
    assert loose_edge(TESTS, ["\tconst err = await fetchError('b.com');", "\tt.ok(err);", "\tt.end();", "});"]) == "last"
    assert loose_edge(TESTS, ["\tt.end();", "});", "", "test('third', async t => {"]) == "first"
    assert loose_edge(TESTS, ["test('first', async t => {", "\tconst err = await fetchError('a.com');"]) is None


def test_a_loose_end_after_a_change_pinned_by_a_unique_line_holds():
    # The snippet ends on `t.end();` `});`, which close every test: the changed assertion right
    # after the unique `fetchError('b.com')` line pins them to the second test.
    snippet = ["\tconst err = await fetchError('b.com');", "\tt.equal(err.code, 'ENEW');", "\tt.end();", "});"]
    result = TESTS[:8] + ["\tt.equal(err.code, 'ENEW');"] + TESTS[9:]
    assert edge_holds(TESTS, result, snippet, "last")
    r = instant_merge("\n".join(TESTS), "\n".join(snippet) + "\n", path="t.js")
    assert r.merged and r.text == "\n".join(result)


def test_a_loose_end_that_is_inserted_does_not_hold():
    snippet = ["});", "", "test('third', async t => {", "\tt.end();", "});", "", "test('second', async t => {"]
    result = TESTS[:6] + ["test('third', async t => {", "\tt.end();", "});", ""] + TESTS[6:]
    assert edge_holds(TESTS, result, snippet, "first")  # lands on the first test's `});`: pinned below
    assert not edge_holds(TESTS, result, ["  extra();", *snippet[1:]], "first")  # its first line is nowhere


def test_a_change_with_no_unique_unchanged_line_on_its_inner_side_does_not_hold():
    # `t.end();` `});` then a changed `t.equal(` and only repeated lines before it: any test fits.
    snippet = ["\tt.equal(err.code, 'ENEW');", "\tt.end();", "});"]
    result = TESTS[:8] + ["\tt.equal(err.code, 'ENEW');"] + TESTS[9:]
    assert not edge_holds(TESTS, result, snippet, "last")


def test_dropped_lines_counts_deleted_and_overwritten_lines_only():
    assert dropped_lines(["a", "b", "", "c"], ["a", "c"]) == 1  # the blank line is no code
    assert dropped_lines(["a", "b", "c"], ["a", "B", "c"]) == 0
    assert dropped_lines(["a", "b", "c", "d"], ["a", "X", "d"]) == 1


def test_an_excerpt_whose_loose_end_overwrites_a_look_alike_is_refused():
    snippet = "\tt.end();\n});\n\ntest('third', async t => {\n\tconst err = await fetchError('c.com');\n"
    r = instant_merge("\n".join(TESTS), snippet, path="t.js")
    assert not r.merged and "its first lines" in r.refused_reason and "`t.end();`" in r.refused_reason


EXPORTS = """/**
 * Expose `Router`.
 */

exports.Router = require('./router');

/**
 * Expose `View`.
 */

exports.View = require('./view');

/**
 * Expose `utils`.
 */

exports.utils = require('./utils');
""".split("\n")


def test_a_change_pinned_by_its_own_edit_holds_between_loose_ends():
    # Only ` */`, a blank line and `/**` around it, but `exports.View =` can only edit the one
    # `exports.View = require('./view');` line.
    snippet = [" */", "", "exports.View =", "exports.view = require('./view');", "", "/**"]
    result = EXPORTS[:10] + ["exports.View =", "exports.view = require('./view');"] + EXPORTS[11:]
    assert edge_holds(EXPORTS, result, snippet, "first")
    r = instant_merge("\n".join(EXPORTS), "\n".join(snippet) + "\n", path="index.js")
    assert r.merged and r.text == "\n".join(result)


def test_an_edit_that_fits_several_lines_alike_pins_nothing():
    old, new = ["exports.View = require('./view');"], ["exports.View = require('./view2');"]
    assert edited_pin(EXPORTS, old, new)
    alike = [line.replace("exports.Router", "exports.View") for line in EXPORTS]  # two `exports.View =` lines
    assert not edited_pin(alike, old, new)
    assert not edited_pin(EXPORTS, [" */"], [" * more */"])  # a generic line pins nothing
    snippet = [" */", "", "exports.View = require('./view2');", "", "/**"]
    assert not instant_merge("\n".join(alike), "\n".join(snippet) + "\n", path="index.js").merged


def test_an_excerpt_refused_between_two_readings_keeps_both_for_the_model_path():
    # `let fd = OUT;` pins the excerpt to b(), or its last lines change a()'s call: two files.
    # The model path needs both readings to know when its answer merely picked one of them.
    original = ("fn a() {\n    let fd = IN;\n    let mut out = 0;\n    mode(get(fd), &mut out)\n}\n\n"
                "fn b() {\n    let fd = OUT;\n    let mut out = 0;\n    mode(handle, &mut out)\n}\n")
    snippet = "    let fd = OUT;\n    let mut out = 0;\n    mode(get(fd), &mut out)\n}\n"
    result = instant_merge(original, snippet, language="rust")
    assert not result.merged and "two ways" in result.refused_reason and "excerpt" in result.refused_reason
    assert result.choice == "readings" and len(result.alternatives) == 2
    assert original.replace("mode(handle", "mode(get(fd)") in result.alternatives


def test_a_loose_end_on_a_lone_bracket_is_named_by_its_neighbour():
    orig = "".join(f"function f{i}() {{\n  let x = {i};\n  go();\n}}\n\n" for i in range(10))
    r = instant_merge(orig, "}\n  go(2);\n", path="a.js")
    assert not r.merged and "the line `}` before `go(2);` could be several places" in r.refused_reason
    assert "`}` could" not in r.refused_reason


SHOP = """public class Shop {
    public int alpha(int x) {
        return x;
    }
}"""
ITEM = "\n\nclass Item {\n    int id;\n}"


def test_an_excerpt_appending_after_the_files_unique_last_lines_holds():
    """`    }` `}` then a new class, no markers: its loose first lines end the original and occur
    there in a row once, so the new class goes after them (refused before: nothing unique on
    its inner side). With two classes ending alike the place is not proven."""
    m = instant_merge(SHOP, "    }\n}" + ITEM, language="java")
    assert m.merged and m.text == SHOP + ITEM, m.refused_reason
    two = SHOP + "\n\nclass Other {\n    public int beta(int x) {\n        return x;\n    }\n}"
    assert not instant_merge(two, "    }\n}" + ITEM, language="java").merged
