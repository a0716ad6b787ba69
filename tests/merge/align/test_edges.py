"""Section edges: a generic closing pair stays adjacent when an adjacent reading exists."""

import pytest

from fastapply.merge.align import edges
from fastapply.merge.align.edges import Ambiguous, _Cand
from fastapply.merge.align.lazy import merge_lazy

TEST_A = """\
  it('calls back', function(done){
    app.use(function(req, res){
      res.sendfile('a.html', function(err){
        ++calls;
      });
    });

    request(app)
    .end(function(res){
      calls.should.equal(1);
      done();
    });
  })
"""
TEST_404 = """\
  it('calls back on 404', function(done){
    app.use(function(req, res){
      res.sendfile('nope.html', function(err){
        ++calls;
      });
    });

    request(app)
    .end(function(res){
      res.statusCode.should.equal(404);
      done();
    });
  })
"""
NEW_TEST = """\
  it('honours maxAge', function(done){
    app.use(function(req, res){
      res.sendfile('b.html', { maxAge: 60000 });
    });

    request(app)
    .end(function(res){
      res.should.have.header('Cache-Control');
      done();
    });
  })
"""
ORIGINAL = "describe('res', function(){\n" + TEST_A + "\n" + TEST_404 + "})\n"
# The new test ends like test A (`done(); }); })`), so the run matched back from the anchor
# (`it('calls back on 404'`) swallows the new test's end; the snippet's first lines `});` `})`
# then have an adjacent match (test A's end) and a split one (`});` of app.use, `})` of test A).
SNIPPET = "    // ... existing code ...\n    });\n  })\n\n" + NEW_TEST + "\n  it('calls back on 404', function(done){\n    // ... existing code ...\n"


def test_generic_closing_pair_lands_on_the_adjacent_match_and_deletes_nothing():
    m = merge_lazy(ORIGINAL.split("\n"), SNIPPET.split("\n"))
    assert m.refused_reason is None
    expected = "describe('res', function(){\n" + TEST_A + "\n" + NEW_TEST + "\n" + TEST_404 + "})\n"
    assert "\n".join(m.lines) == expected


def _best(at=5, deleted=2, inserted=()):
    return _Cand(at, True, deleted, 1, inserted)


def test_split_run_takes_the_one_adjacent_reading_when_its_new_lines_balance():
    assert edges._check_split_run(_best(), [(8, 2)], "});", lambda p, c: ["f() {", "}"]) == 8


def test_split_run_refuses_two_adjacent_readings_or_an_unbalanced_one():
    with pytest.raises(Ambiguous):
        edges._check_split_run(_best(), [(8, 2), (12, 2)], "});", lambda p, c: ["x"])
    with pytest.raises(Ambiguous):
        edges._check_split_run(_best(), [(8, 2)], "});", lambda p, c: ["f() {"])


def test_split_run_leaves_a_reading_that_deletes_and_inserts_nothing_alone():
    assert edges._check_split_run(_best(deleted=0), [(8, 2)], "});", lambda p, c: []) is None
    assert edges._check_split_run(_best(), [], "});", lambda p, c: []) is None


def test_adjacent_tail_mirrors_the_head():
    key = lambda l: l.rstrip()
    orig = ["A()", "{", "x", "}", "{", "y", "}"]
    index = edges.LineIndex.build(orig, "exact")
    sec = ["A()", "{", "n", "}", "{", "x"]  # anchor A() at 0; a new block, then `}` `{` ... of the old
    # the run forward from the anchor matches `{` only; `}` `{`... would need an adjacent pair after it
    assert edges.adjacent_tail(sec, index, key, 0, 0, 2, len(orig)) == []
    sec = ["A()", "{", "x", "}", "{", "z", "}", "{", "x", "}"]
    found = edges.adjacent_tail(sec, index, key, 0, 0, 4, len(orig))
    assert found == [(4, 3)]  # `{ x }` of the section's end matches original lines 1-3, adjacent to the anchor


def test_sibling_spacing_takes_the_originals_blank_lines_above():
    from fastapply.merge.align.blank_edges import sibling_spacing

    orig = ["}", "", "var S = 1", "}", "", "", "var T = 2"]
    assert sibling_spacing(orig, 2, 3) == 1  # one blank line above: keep one of three
    assert sibling_spacing(orig, 6, 3) == 2
    assert sibling_spacing(orig, 6, 1) == 1  # never more than the snippet shows
    assert sibling_spacing(["}", "var S = 1"], 1, 2) == 1  # at least one


def test_a_comment_ending_a_section_goes_right_above_the_code_the_marker_keeps():
    """A new comment, then a marker: the comment belongs to the line the marker keeps next
    (blank_edges.blank_separation), not separated from it by the original's blank line, which
    stays above the comment (the pattern grid's comment above a method, context_above style,
    in every language)."""
    from fastapply.merge.align.blank_edges import blank_separation
    from fastapply.merge.instant import instant_merge

    assert blank_separation(["", "    }"], "    public int beta(int x) {", "    // Counts the items.", tail=True) == 0
    assert blank_separation(["", "    }"], "    public int beta(int x) {", "    public int delta(int x) {", tail=True) == 1
    original = ("public class Shop {\n    public int alpha(int x) {\n        return x;\n    }\n\n"
                "    public int beta(int x) {\n        return x + 1;\n    }\n}\n")
    snippet = ("// ... existing code ...\n        return x;\n    }\n\n    // Counts the items that x selects.\n"
               "// ... existing code ...\n")
    merged = instant_merge(original, snippet, language="java")
    assert merged.text == original.replace("\n\n    public int beta", "\n\n    // Counts the items that x selects.\n"
                                                                      "    public int beta")


def test_a_new_import_next_to_a_kept_one_joins_its_group():
    """marker, a new `#include`, a blank line, then code: the include goes with the kept include
    above, not separated from it by a blank line of its own (pattern grid, add_import in C++,
    context_below style)."""
    from fastapply.merge.align.blank_edges import blank_separation
    from fastapply.merge.instant import instant_merge

    assert blank_separation(["", "int Shop::alpha(int x) {"], '#include "shop.h"', "#include <iostream>") == 0
    assert blank_separation(["", "int Shop::alpha(int x) {"], '#include "shop.h"', "int Shop::delta(int x) {") == 1
    # a comment opens no group at a section's head (a new function's doc comment keeps its blank line)
    assert blank_separation(["", "int Shop::alpha(int x) {"], "}", "// Counts the items.") == 1
    original = '#include "shop.h"\n\nint Shop::alpha(int x) {\n  return loadPrice(x);\n}\n'
    snippet = ("// ... existing code ...\n#include <iostream>\n\nint Shop::alpha(int x) {\n"
               "  return loadPrice(x);\n// ... existing code ...\n")
    merged = instant_merge(original, snippet, language="cpp")
    assert merged.text == original.replace('"shop.h"\n', '"shop.h"\n#include <iostream>\n')


def test_a_changed_first_line_keeps_the_files_leading_blank_line_the_snippet_shows():
    from fastapply.merge.instant import instant_merge

    original = "\nfoo = Plugin.extend({\n  on: {\n    response: function(e) {\n      x()\n    }\n  }\n})\n\nbar()\n"
    snippet = "\nbaz = Plugin.extend({\n  on: {\n    response: function(e) {\n// ... existing code ...\n"
    result = instant_merge(original, snippet, language="javascript")
    assert result.merged and result.text == original.replace("foo", "baz")
    # without the blank line in the snippet, the file loses it (as the snippet shows its edge)
    result = instant_merge(original, snippet[1:], language="javascript")
    assert result.merged and result.text == original.replace("foo", "baz")[1:]
