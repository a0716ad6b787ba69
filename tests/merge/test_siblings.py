"""A new block read as an edit of its sibling (merge/siblings.py)."""

from fastapply.merge import siblings
from fastapply.merge.instant import instant_merge

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


def test_the_snippet_settles_it_with_a_line_only_the_sibling_has_or_lines_after_it():
    original = ORIGINAL[:5] + ["    setup_only_in_b()"] + ORIGINAL[5:]
    snippet = SNIPPET[:3] + ["    setup_only_in_b()"] + SNIPPET[3:]
    result = original[:4] + ["  it('c', function(done){", "    setup_only_in_b()", "    run(3, done)", "  })", "})"]
    assert siblings.check_sibling_overwritten(original, result, snippet) is None
    after = SNIPPET[:-1] + ["})"]  # the new block, then the file's closing line: still generic
    assert siblings.check_sibling_overwritten(ORIGINAL, OVERWRITTEN, after)
    # A distinctive line right above the new opener (no generic closing line between) is where
    # the snippet puts it; the guard leaves that reading alone.
    flat = ["var one = require('one');", "blog.get('/', function(req, res){", "  next()", "});"]
    flat_snippet = ["var one = require('one');", "admin.get('/', function(req, res){", "  next()", "});"]
    assert siblings.check_sibling_overwritten(flat, flat_snippet, flat_snippet) is None
    assert siblings.check_sibling_overwritten(flat, flat_snippet, ["});", *flat_snippet[1:]])


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
