"""new_lines.py (via explain): a section none of whose lines the original has is offered, for
each place it most likely goes, the unchanged lines that close it in there."""

from __future__ import annotations

import re

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

ORIGINAL = """\
class Tool < Formula
  version '1.0.0'
  if OS.mac?
      url "https://example.com/tool-mac.tar.gz"
      sha256 "aaaa1111aaaa1111aaaa1111aaaa1111"
  elsif OS.linux?
      url "https://example.com/tool-linux.tar.gz"
      sha256 "bbbb2222bbbb2222bbbb2222bbbb2222"
  end
end
"""
SNIPPET = """\
# ... existing code ...
  version '1.0.1'
# ... existing code ...
      sha256 "cccc3333cccc3333cccc3333cccc3333"
# ... existing code ...
      sha256 "dddd4444dddd4444dddd4444dddd4444"
# ... existing code ...
"""
EXPECTED = (ORIGINAL.replace("1.0.0", "1.0.1").replace("aaaa1111" * 4, "cccc3333" * 4)
            .replace("bbbb2222" * 4, "dddd4444" * 4))


def test_a_section_of_new_lines_is_offered_each_line_of_its_shape_and_both_changes_settle_it():
    r = instant_merge(ORIGINAL, SNIPPET, language="ruby")
    assert r.refusal.kind == "line-not-found" and "no line of it occurs there" in r.refused_reason
    says = [o.says for o in r.refusal.options]
    # both hash lines, for each new hash (the second section's too: one revision settles both)
    assert sum("if it changes original line 5" in s for s in says) == 2
    assert sum("if it changes original line 8" in s for s in says) == 2
    first = next(o for o in r.refusal.options if "snippet line 4" in o.says and "changes original line 5" in o.says)
    second = next(o for o in r.refusal.options if "snippet line 6" in o.says and "changes original line 8" in o.says)
    revised = revise(SNIPPET, type(first)("both", first.edits + second.edits))
    merged = instant_merge(ORIGINAL, revised, language="ruby")
    assert merged.merged and merged.text == EXPECTED


def test_only_places_in_the_window_the_merge_searched_are_offered():
    # a line of the same shape above the section the merge placed first is no place for the next one
    original = "class Tool < Formula\n  sha256 \"eeee5555eeee5555eeee5555eeee5555\"\n" + ORIGINAL.split("\n", 1)[1]
    r = instant_merge(original, SNIPPET, language="ruby")
    assert r.refusal.kind == "line-not-found" and r.refusal.options
    # (section 1, `version`, is pinned by that line: the scored alignment reads it as a change of line 3)
    assert not any(re.search(r"original lines? 2(?!\d)", o.says) and "snippet line 4" in o.says for o in r.refusal.options)
    assert any("changes original line 6" in o.says for o in r.refusal.options)


def test_a_section_that_may_change_a_line_is_offered_the_later_new_sections_places_too():
    snippet = ("# ... existing code ...\n      sha256 \"cccc3333cccc3333cccc3333cccc3333\"\n# ... existing code ...\n"
               "      sha256 \"dddd4444dddd4444dddd4444dddd4444\"\n# ... existing code ...\n")
    line = 'sha256 "cccc3333cccc3333cccc3333cccc3333"'
    sentence = (f"section 1 (starting `{line}`) could not be found in the original after the previous section (no line "
                f"of it occurs there; `{line}` may change original line 5 (`sha256 \"aaaa1111aaaa1111aaaa1111aaaa1111\"`) "
                "or be a new line, which the unchanged line above or below it would settle); include a few unchanged "
                "lines from the original around the change")
    from fastapply.merge.refuse.explain import explain

    refusal = explain(ORIGINAL, snippet, sentence, language="ruby")
    assert refusal.kind == "new-or-changed"
    later = [o for o in refusal.options if "snippet line 4" in o.says and "changes original line 8" in o.says]
    assert later  # the second section's own place, offered with the first's
    first = next(o for o in refusal.options if "snippet line 2" in o.says and "changes original line 5" in o.says)
    merged = instant_merge(ORIGINAL, revise(snippet, type(first)("both", first.edits + later[0].edits)), language="ruby")
    assert merged.merged and merged.text == ORIGINAL.replace("aaaa1111" * 4, "cccc3333" * 4).replace(
        "bbbb2222" * 4, "dddd4444" * 4)


def test_the_lines_closing_a_section_in_go_outside_its_own_blank_lines():
    from fastapply.merge.refuse.new_lines import settle
    from fastapply.merge.refuse.reading import read_input

    original = ("def sign(r, body):\n    alter_body = check(body)\n\n"
                "    full_url, new_body, headers = client.sign(r.url, body)\n    r.url = full_url\n"
                "    if alter_body:\n        r.data = new_body\n")
    snippet = "# ... existing code ...\n    full_url, headers, new_body = client.sign(r.url, body)\n\n# ... existing code ...\n"
    inp = read_input(original, snippet, "python")
    changed = settle(inp, inp.sections[0], 3, 1, ("changed",))
    assert len(changed) == 1
    revised = revise(snippet, changed[0])
    # the snippet's blank line after its new line stays next to it; the original's next line follows
    assert revised == ("# ... existing code ...\n    alter_body = check(body)\n\n"
                       "    full_url, headers, new_body = client.sign(r.url, body)\n\n    r.url = full_url\n"
                       "# ... existing code ...\n")
    merged = instant_merge(original, revised, language="python")
    assert merged.merged and merged.text == original.replace(
        "full_url, new_body, headers = client.sign(r.url, body)\n",
        "full_url, headers, new_body = client.sign(r.url, body)\n\n")


ROUTES = """\
var app = express()
  , blog = express();

app.get('/render', function(req, res){
  res.render('hello');
});

blog.get('/', function(req, res){
  res.send('Hello World');
});

app.get('/', function(req, res){
  res.send('Hello World');
});

app.listen(3000);
"""
NEW_ROUTE = """\
// ... existing code ...
app.get('/render', function(req, res){
  res.render('hello');
});

admin.get('/', function(req, res){
  res.send('Hello World');
});

// ... existing code ...
"""


def test_a_new_block_read_as_a_renamed_one_is_offered_the_original_opener_after_it():
    first = instant_merge(ROUTES, NEW_ROUTE, language="javascript")
    assert not first.merged and first.refusal.kind == "new-or-changed"
    stays = [o for o in first.refusal.options if "if that block stays" in o.says]
    assert len(stays) == 1 and "original line 8 (`blog.get('/', function(req, res){`)" in stays[0].says
    second = instant_merge(ROUTES, revise(NEW_ROUTE, stays[0]), language="javascript")
    block = "admin.get('/', function(req, res){\n  res.send('Hello World');\n});\n\n"
    assert second.merged and second.text == ROUTES.replace("blog.get('/'", block + "blog.get('/'")


def test_a_new_line_like_no_original_line_is_offered_each_place_at_its_depth():
    """`log_event('saving')` resembles no line and shares no name with one: the planner, told to show
    the lines around its change, shows them where it means; each place at the line's own depth is
    offered (depth_places), and the one the intent has merges right."""
    from fastapply.evaluation.retry import retry_example
    from fastapply.merge.refuse.new_lines import depth_places
    from fastapply.merge.refuse.reading import read_input

    original = ("import os\n\n\ndef load(path):\n    with open(path) as f:\n        data = f.read()\n    return data\n\n\n"
                "def save(path, data):\n    with open(path, \"w\") as f:\n        f.write(data)\n    return True\n")
    snippet = "# ... existing code ...\n    log_event('saving')\n# ... existing code ...\n"
    expected = original.replace('    with open(path, "w")', "    log_event('saving')\n    with open(path, \"w\")")
    inp = read_input(original, snippet, "python")
    assert depth_places(inp, inp.sections[0]) == [3, 4, 5, 6, 9, 10, 11, 12]  # around each line indented 4, never after a `def` body's end
    assert depth_places(inp, inp.sections[0], limit=2) == [3, 12]
    row = retry_example({"original": original, "snippet": snippet, "expected": expected, "language": "python"})
    assert (row["first"], row["second"]) == ("refused", "right")


def test_depth_places_include_the_end_of_a_block_at_the_lines_depth():
    """A line new at the end of a block (`return;` after `request.abort();`, before the closing `}`)
    stands after an original line at its depth, with no such line after it."""
    from fastapply.merge.refuse.new_lines import depth_places
    from fastapply.merge.refuse.reading import read_input

    original = "function run() {\n\tif (cancel) {\n\t\trequest.abort();\n\t}\n\tfinish();\n}\n"
    snippet = "// ... existing code ...\n\t\treturn;\n// ... existing code ...\n"
    inp = read_input(original, snippet, "javascript")
    assert 2 in depth_places(inp, inp.sections[0])  # new after `request.abort();`


DOCS = """\
var server = require('server');

/**
 * Listen on the given `port` after running configuration blocks.
 *
 * @param {Number} port
 * @api public
 */

exports.listen = function(port){
  return server.listen(port);
};

/**
 * Close the server after the last request.
 *
 * @param {Function} done
 * @api public
 */

exports.close = function(done){
  return server.close(done);
};
"""


def test_a_closing_line_that_pins_no_place_is_first_offered_with_the_lines_out_to_one_that_does():
    # the changed doc line's "changes" reading closes it in below with ` *`, a line the file holds
    # twice: before a marker the merge may read it anywhere, so the lines out to `@param` come first
    snippet = ("// ... existing code ...\n * Start listening on the given `port`.\n// ... existing code ...\n"
               "exports.close = function(done){\n  return server.close(done, true);\n};\n")
    expected = DOCS.replace("Listen on the given `port` after running configuration blocks.",
                            "Start listening on the given `port`.").replace("close(done);", "close(done, true);")
    r = instant_merge(DOCS, snippet, language="javascript")
    says = [o.says for o in r.refusal.options]
    wide = next(k for k, s in enumerate(says) if "5-6 below snippet line 2 if it changes original line 4" in s)
    short = next(k for k, s in enumerate(says) if " 5 below snippet line 2 if it changes original line 4" in s)
    assert wide < short
    from fastapply.evaluation.retry import retry_example
    row = {"original": DOCS, "snippet": snippet, "expected": expected, "language": "javascript"}
    assert retry_example(row)["second"] == "right"


def test_a_new_line_in_the_middle_of_a_long_file_is_offered_its_place():
    """A context-free new line whose depth recurs in ~180 places (sixty functions): the place the intent
    means, in the middle of the file, is among the options (64 places, the first and last 32, left it
    out), and the retry that picks it merges right."""
    from fastapply.evaluation.retry import retry_example

    original = "".join(f"def handler_{n}(request):\n    response = build_response(request, {n})\n    return response\n\n\n"
                       for n in range(60))
    snippet = "# ... existing code ...\n    audit()\n# ... existing code ...\n"
    expected = original.replace("request, 30)\n", "request, 30)\n    audit()\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal is not None
    assert any(o.says.endswith(f"if it is new after original line {30 * 5 + 2}") for o in refusal.options)
    row = retry_example({"original": original, "snippet": snippet, "expected": expected, "language": "python"})
    assert (row["first"], row["second"]) == ("refused", "right")


def test_a_section_is_offered_the_change_of_the_line_after_the_lines_that_share_its_names():
    # two new lines replace `if key.lower() != 'content-encoding':`; three other lines are more like
    # its first line, so only the names it shares with the line before that one (and that line) point
    # there: the section is offered as new after that line and as the change of the line after it
    original = ("def setup(options):\n    decompress = options.decompress or options.key != 'gzip'\n    return decompress\n\n\n"
                "def check(options):\n    allowed_keys = options.decompress and options.keys != 'identity'\n"
                "    return allowed_keys\n\n\ndef pick(options):\n    allow = options.decompress or options.key == 'br'\n"
                "    return allow\n\n\ndef proxy(key, value, options, destination):\n"
                "    for key, value in headers(options):\n        if key.lower() != 'content-encoding':\n"
                "            destination.set_header(key, value)\n    return destination\n")
    snippet = ("# ... existing code ...\n        allowed = options.decompress or key != 'content-encoding'\n"
               "        if allowed:\n# ... existing code ...\n")
    expected = original.replace("        if key.lower() != 'content-encoding':\n",
                                "        allowed = options.decompress or key != 'content-encoding'\n        if allowed:\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    change = [o for o in refusal.options if o.says.endswith("if it changes original line 18")]
    assert [o.says for o in change] == ["add the unchanged original line 17 above snippet line 2 and 19 below snippet "
                                        "line 3 if it changes original line 18"]
    assert instant_merge(original, revise(snippet, change[0]), language="python").text == expected


def test_a_long_new_opener_quoted_cut_is_still_offered_the_original_opener_after_it():
    """Openers over 60 characters are quoted cut and marked `…` in the sentence the option is read from."""
    path = "'/reports/quarterly/summary/by-region/with-totals'"
    routes = ROUTES.replace("blog.get('/'", f"blog.get({path}")
    snippet = NEW_ROUTE.replace("admin.get('/'", f"admin.get({path}")
    first = instant_merge(routes, snippet, language="javascript")
    assert not first.merged and first.refusal.kind == "new-or-changed" and "…`" in first.refusal.sentence
    stays = [o for o in first.refusal.options if "if that block stays" in o.says]
    assert len(stays) == 1
    second = instant_merge(routes, revise(snippet, stays[0]), language="javascript")
    assert second.merged and second.text.count(f"get({path}") == 2


DEPRECATE = """var deprecate = require('depd');

exports.deprecate = function(fn, msg){
  return 'test' !== process.env.NODE_ENV
    ? deprecate(fn, 'express: ' + msg)
    : fn;
};

exports.flatten = function(arr, ret){
  ret = ret || [];
  return ret;
};
"""
REWRITTEN_BODY = """  if (process.env.NODE_ENV === 'test') return fn;

  // prepend module name
  msg = 'express: ' + msg;
  return deprecate(fn, msg);
"""


def test_new_lines_like_a_body_first_statement_are_offered_the_rewrite_of_the_rest_of_that_body():
    """Four new lines rewrite a three-line statement, the whole body of `deprecate`: closed in as a
    change of the rest of that body (new_lines._rest_of_body), not of one line or of four."""
    from fastapply.evaluation.retry import retry_example

    snippet = "// ... existing code ...\n" + REWRITTEN_BODY + "// ... existing code ...\n"
    expected = DEPRECATE.replace("  return 'test' !== process.env.NODE_ENV\n    ? deprecate(fn, 'express: ' + msg)\n"
                                 "    : fn;\n", REWRITTEN_BODY)
    refusal = instant_merge(DEPRECATE, snippet, language="javascript").refusal
    assert refusal is not None and any(o.says.endswith("if it changes original lines 4-6") for o in refusal.options)
    row = retry_example({"original": DEPRECATE, "snippet": snippet, "expected": expected, "language": "javascript"})
    assert row["first"] == "refused" and row["second"] == "right"
