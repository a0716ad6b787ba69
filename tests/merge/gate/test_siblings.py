"""A new block read as an edit of its sibling (merge/siblings.py)."""

from fastapply.merge.gate import siblings
from fastapply.merge.text import lines
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

ORIGINAL = ["describe('app', function(){", "  it('a', function(done){", "    run(1, done)", "  })",
            "  it('b', function(done){", "    run(2, done)", "  })", "})"]
SNIPPET = ["// ... existing code ...", "  })", "  it('c', function(done){", "    run(3, done)", "  })",
           "// ... existing code ..."]
OVERWRITTEN = ORIGINAL[:4] + ["  it('c', function(done){", "    run(3, done)", "  })", "})"]


def test_a_renamed_sibling_the_snippet_cannot_tell_from_a_new_block_is_refused():
    reason = siblings.check_sibling_overwritten(ORIGINAL, OVERWRITTEN, SNIPPET)
    assert reason and "it('c'" in reason and "it('b'" in reason
    # Inserted as new (the original `b` kept): nothing overwritten, nothing to say.
    inserted = ORIGINAL[:4] + OVERWRITTEN[4:7] + ORIGINAL[4:]
    assert siblings.check_sibling_overwritten(ORIGINAL, inserted, SNIPPET) is None


ROUTES = ["var app = express();", "app.get('/a', function(req, res){", "  res.send(1);", "});",
          "app.get('/b', function(req, res){", "  setup_only_in_b();", "  res.send(2);", "});", "app.listen(3000);"]
ROUTE_SNIPPET = ["// ... existing code ...", "});", "app.get('/c', function(req, res){", "  setup_only_in_b();",
                 "  res.send(3);", "// ... existing code ..."]
ROUTE_RESULT = ROUTES[:4] + ["app.get('/c', function(req, res){", "  setup_only_in_b();", "  res.send(3);", "});",
                             "app.listen(3000);"]


def test_the_snippet_settles_it_with_a_line_only_the_sibling_has_or_lines_after_it():
    assert siblings.check_sibling_overwritten(ROUTES, ROUTE_RESULT, ROUTE_SNIPPET) is None
    # The unique line lies in another block than the overwritten one: it settles nothing.
    elsewhere = ROUTES[:2] + ["  setup_only_in_b();"] + ROUTES[2:5] + ROUTES[6:]
    result = elsewhere[:5] + ["app.get('/c', function(req, res){", "  setup_only_in_b();", "  res.send(3);", "});",
                              "app.listen(3000);"]
    assert siblings.check_sibling_overwritten(elsewhere, result, ROUTE_SNIPPET)
    after = SNIPPET[:-1] + ["})"]  # the new block, then the file's closing line: still generic
    assert siblings.check_sibling_overwritten(ORIGINAL, OVERWRITTEN, after)
    # A distinctive line right above the new opener (no generic closing line between) is where
    # the snippet puts it; the guard leaves that reading alone.
    flat = ["var one = require('one');", "blog.get('/', function(req, res){", "  next()", "});"]
    flat_snippet = ["var one = require('one');", "admin.get('/', function(req, res){", "  next()", "});"]
    assert siblings.check_sibling_overwritten(flat, flat_snippet, flat_snippet) is None
    assert siblings.check_sibling_overwritten(flat, flat_snippet, ["});", *flat_snippet[1:]])


def test_a_new_test_copies_its_neighbours_lines_so_they_settle_nothing():
    # For tests (`it(`, `func TestX`, `def test_x`) a line only the sibling has is no proof of an
    # edit: a new test is written by copying its neighbour and changing a line or two.
    original = ORIGINAL[:5] + ["    setup_only_in_b()"] + ORIGINAL[5:]
    snippet = SNIPPET[:3] + ["    setup_only_in_b()"] + SNIPPET[3:]
    result = original[:4] + ["  it('c', function(done){", "    setup_only_in_b()", "    run(3, done)", "  })", "})"]
    assert siblings.check_sibling_overwritten(original, result, snippet)
    assert siblings.is_test_opener("  it('c', function(done){") and siblings.is_test_opener("func TestX(t *testing.T) {")
    assert siblings.is_test_opener("def test_names(runner):") and not siblings.is_test_opener("app.get('/', f){")


def test_the_block_s_own_lead_in_above_the_opener_settles_it():
    # A decorator (or comment) run right above the new opener, no blank line between, belongs to
    # the block the snippet shows: that block, renamed, not a new one.
    original = ["import pytest", "", "@pytest.mark.skipif(", "    WINDOWS, reason='paths'", ")",
                "def test_path_type(tmp):", "    check(tmp)", "", "def test_other():", "    pass"]
    snippet = ["# ... existing code ...", "@pytest.mark.skipif(", "    WINDOWS, reason='paths'", ")",
               "def test_invalid_path(tmp):", "    check(tmp)", "", "# ... existing code ..."]
    result = original[:5] + ["def test_invalid_path(tmp):"] + original[6:]
    assert siblings.check_sibling_overwritten(original, result, snippet) is None
    bare = ["# ... existing code ...", ")", "", "def test_invalid_path(tmp):", "    check(tmp)", "",
            "# ... existing code ..."]
    assert siblings.check_sibling_overwritten(original, result, bare)


def test_a_word_replaced_in_a_long_name_is_a_rename():
    assert siblings.renamed("describe('when given an object', function(){", "describe('when given an array', function(){")
    assert siblings.renamed("def test_POST_FILES_WITH_PARAMS(self):", "def test_POST_FILES_WITH_HEADERS(self):")
    assert siblings.word_replaced("it should work view engine setting", "it should work view engine with leading")
    # Only extended, or a word made longer: not replaced.
    assert not siblings.word_replaced("it should return the addr after trusted proxy",
                                      "it should return the addr after trusted proxy based on count")
    assert not siblings.word_replaced("describe .matchReq(req, i)", "describe .matchRequest(req, i)")


def test_renamed_ignores_parameter_changes_and_small_renames():
    assert siblings.renamed("blog.get('/', function(req, res){", "admin.get('/', function(req, res){")
    assert siblings.renamed("describe('trailing slashes', function(){", "describe('case sensitivity', function(){")
    assert not siblings.renamed("def echo(message=None, file=None):", "def echo(message=None, file=None, nl=True):")
    assert not siblings.renamed("describe('.accept(types)', function(){", "describe('.accepts(types)', function(){")
    assert not siblings.renamed("if err := f(); err != nil {", "if err := g(); err != nil {")  # names nothing


def test_instant_merge_refuses_a_new_test_written_over_its_sibling():
    # The snippet stops at a marker inside the new test: `c` may go before `b` or be `b` renamed.
    original = ("describe('app', function(){\n  it('a', function(done){\n    var app = express();\n"
                "    request(app).get('/').expect(200, done);\n  })\n\n  it('b', function(done){\n"
                "    var app = express();\n    request(app).get('/').expect(200, done);\n  })\n})\n")
    snippet = ("// ... existing code ...\n  })\n\n  it('c', function(done){\n    var app = express();\n"
               "    app.set('root', '/admin');\n    request(app).get('/').expect(200, done);\n"
               "// ... existing code ...\n")
    r = instant_merge(original, snippet, path="app.test.js")
    assert not r.merged and "could open a new block" in r.refused_reason


def test_the_line_right_after_the_overwritten_block_settles_nothing():
    # Both readings (new route after `/b`, or `/b` renamed) end the new block right before
    # `app.listen(3000);`; a distinctive line further on would pin the new block below it.
    original = ["var app = express();", "app.get('/a', function(req, res){", "  res.send(1);", "});",
                "app.get('/b', function(req, res){", "  res.send(2);", "});", "app.listen(3000);",
                "module.exports = app;"]
    result = original[:4] + ["app.get('/c', function(req, res){", "  res.send(3);", "});"] + original[7:]
    snippet = ["// ... existing code ...", "});", "app.get('/c', function(req, res){", "  res.send(3);", "});"]
    assert siblings.check_sibling_overwritten(original, result, snippet + ["app.listen(3000);",
                                                                            "// ... existing code ..."])
    assert siblings.check_sibling_overwritten(original, result, snippet + ["module.exports = app;"]) is None


def test_tests_opened_by_a_call_without_parentheses_are_openers_with_names():
    # JSpec / CoffeeScript / RSpec: `describe 'x'`, `it 'y' do`.
    assert lines.is_opener("        describe 'given a custom layout name'")
    assert lines.identity("it 'does x' do") == "it does x"
    assert siblings.renamed("describe 'and layout of the same type does not exist'",
                            "describe 'given a custom layout name'")
    assert not lines.is_opener("puts 'hello'")  # a bare call that opens nothing


def test_names_that_differ_only_in_their_numbers_are_siblings_numbered_in_turn():
    assert siblings.renamed("app.get('/alternate', function(req, res){", "app.get('/alternate2', function(req, res){")
    assert siblings.renumbered("it test1", "it test2") and not siblings.renumbered("it test", "it test")
    assert not siblings.renamed("describe('.accept(types)', function(){", "describe('.accepts(types)', function(){")


CSHARP = """namespace Shop
{
    public class Shop
    {
        public int Alpha(int x)
        {
            var price = LoadPrice(x);
            return price;
        }

        public int Beta(int x)
        {
            var count = CountItems(x);
            return count;
        }
    }
}
"""


def test_allman_and_qualified_headers_are_openers_with_their_own_names():
    """The pattern grid's method added in the middle, in the context_above style (the snippet
    stops inside the new method): C# matched its lone `{` on the next method's and wrote the new
    method over it; C++ (`int Shop::beta(`), Go (`func (s *Shop) Beta(`) and Lua
    (`function Shop:beta(`) the same, their names read as the leading `int`, `func`, `function`."""
    snippet = ("// ... existing code ...\n            var price = LoadPrice(x);\n            return price;\n        }\n\n"
               "        public int Delta(int x)\n        {\n            var limit = ComputeLimit(x);\n"
               "            return limit;\n// ... existing code ...\n")
    merged = instant_merge(CSHARP, snippet, language="csharp")
    assert merged.text is None or "public int Beta(int x)" in merged.text
    assert siblings.renamed("int Shop::beta(int x) {", "int Shop::delta(int x) {")
    assert siblings.renamed("func (s *Shop) Beta(x int) int {", "func (s *Shop) Delta(x int) int {")
    assert siblings.renamed("function Shop:beta(x)", "function Shop:delta(x)")
    assert not siblings.renamed("int Shop::beta(int x) {", "int Shop::beta(int x, int scale) {")


def test_the_enclosing_header_above_a_first_member_is_no_lead_in():
    """A new first method right under `class Shop` / `{` (PHP, Allman) was written over the first
    one: the class header above it is not the method's own lead-in and settles nothing."""
    original = ("<?php\n\nclass Shop\n{\n    public function alpha($x)\n    {\n        $price = $this->loadPrice($x);\n"
                "        return $price;\n    }\n\n    public function beta($x)\n    {\n        return $x;\n    }\n}\n")
    snippet = ("// ... existing code ...\nclass Shop\n{\n    public function delta($x)\n    {\n"
               "        $limit = $this->computeLimit($x);\n        return $limit;\n    }\n\n// ... existing code ...\n")
    merged = instant_merge(original, snippet, language="php")
    assert merged.text is None or "public function alpha($x)" in merged.text


JS_ROUTES = """var app = express();

app.get('/xxx', [allow('member')], function(req, res){
    res.send(200);
});

app.get('/booze', [allow('member')], restrictAge(18), function(req, res){
    res.send(200);
});

['xxx', 'booze'].forEach(function(thing){
    assert.response(app, { url: '/' + thing });
});
"""
JS_ROUTE_SNIPPET = """// ... existing code ...
    res.send(200);
});

app.get('/tobi', [allow('member')], [restrictAge(18)], function(req, res){
    res.send(200);
});

['xxx', 'booze', 'tobi'].forEach(function(thing){
    assert.response(app, { url: '/' + thing });
// ... existing code ...
"""


def test_a_changed_line_after_the_new_block_does_not_settle_new_versus_edited():
    # the line after the new route is the line after `/booze`, changed: both readings keep it there
    overwritten = JS_ROUTES.replace("app.get('/booze', [allow('member')], restrictAge(18)",
                                 "app.get('/tobi', [allow('member')], [restrictAge(18)]").replace(
                                 "['xxx', 'booze']", "['xxx', 'booze', 'tobi']")
    reason = siblings.check_sibling_overwritten(JS_ROUTES.splitlines(), overwritten.splitlines(), JS_ROUTE_SNIPPET.splitlines())
    assert reason is not None and "could open a new block" in reason
    # the instant merge writes the other reading: the route added after `/booze`
    r = instant_merge(JS_ROUTES, JS_ROUTE_SNIPPET, language="javascript")
    assert r.merged and "restrictAge(18), function" in r.text and r.text.count("app.get(") == 3


def test_a_declaration_word_changed_names_the_same_block():
    # `var helpers = [` made `const helpers = [` declares the same block: an edit, not a new sibling
    assert not siblings.renamed("var helpers = [", "const helpers = [")
    assert not siblings.renamed("let config = {", "export const config = {")
    assert siblings.renamed("var helpers = [", "const filters = [")
    original = ["var helpers = [", "  'a',", "  'b',", "];", "", "module.exports = helpers;"]
    snippet = ["const helpers = [", "  'a',", "  'b',", "];", "// ... existing code ..."]
    result = ["const helpers = ["] + original[1:]
    assert siblings.check_sibling_overwritten(original, result, snippet) is None


def test_a_new_block_between_two_lines_the_original_holds_once_with_no_marker_between_is_the_sibling_edited():
    # the snippet shows the original from `parent::__construct(...)` down to the doc line below the
    # sibling with only the new method between: the sibling `__sleep` is shown deleted, not kept
    original = ("class E\n{\n    public function __construct()\n    {\n        parent::__construct();\n    }\n\n"
                "    public function __sleep(): array\n    {\n        return array_keys(get_object_vars($this));\n"
                "    }\n\n    /**\n     * Returns the trace.\n     */\n    public function trace(): array\n    {\n"
                "        return [];\n    }\n}\n")
    new = "    public function __serialize(): array\n    {\n        return get_object_vars($this);\n    }\n"
    snippet = ("// ... existing code ...\n        parent::__construct();\n    }\n\n" + new
               + "\n    /**\n     * Returns the trace.\n// ... existing code ...\n")
    merged = instant_merge(original, snippet, language="php")
    assert merged.text == original.replace(
        "    public function __sleep(): array\n    {\n        return array_keys(get_object_vars($this));\n    }\n", new)
    # with a marker between the new block and the line below, the sibling may stay under it: it is not overwritten
    floating = snippet.replace("\n    /**\n     * Returns the trace.\n", "\n// ... existing code ...\n    /**\n"
                               "     * Returns the trace.\n")
    kept = instant_merge(original, floating, language="php").text
    assert kept is None or "__sleep" in kept


def test_an_opener_the_snippet_shows_as_a_minus_line_is_shown_replaced():
    # the diff lines of a lazy snippet are dropped before its lazy reading; the guard is told the
    # lines they delete, and an original opener among them settles "renamed" (not a new block)
    assert siblings.check_sibling_overwritten(ORIGINAL, OVERWRITTEN, SNIPPET, frozenset({"it('b', function(done){"})) is None
    # another block's opener deleted says nothing about this one
    assert siblings.check_sibling_overwritten(ORIGINAL, OVERWRITTEN, SNIPPET, frozenset({"it('a', function(done){"}))
    # end to end: the refusal offers the `-` line, and the snippet revised by it merges the rename
    original = ("describe('app', function(){\n  before(function(){\n    setup();\n  })\n\n"
                "  describe('resting', function(){\n    it('works', function(){\n      run(1);\n    })\n  })\n})\n")
    snippet = ("// ... existing code ...\n    setup();\n  })\n\n  describe('restful', function(){\n"
               "    it('works', function(){\n// ... existing code ...\n")
    r = instant_merge(original, snippet, language="javascript")
    assert not r.merged and "could open a new block" in r.refusal.sentence
    option = next(o for o in r.refusal.options if "as a `-` line" in o.says)
    again = instant_merge(original, revise(snippet, option), language="javascript")
    assert again.merged and again.text == original.replace("'resting'", "'restful'")
