"""text/whitespace.py: a blank run the snippet does not show is never longer than the original's."""

from fastapply.merge.instant import instant_merge
from fastapply.merge.text.whitespace import keep_original_whitespace

ORIGINAL = """\
function Partial(view, options){
  options = options || {};
  this.path = this.resolve();
};

/**
 * Resolve the partial path.
 */

Partial.prototype.resolve = function(){
  return this.dirname;
};

/**
 * Resolve the partial object name.
 */

Partial.prototype.name = function(){
  var name = basename(this.path);
  name = name.split('.')[0];
  return name.replace(/^_/, '');
};

/**
 * Expose `Partial`.
 */

module.exports = Partial;
"""


def test_blank_lines_ending_a_snippet_before_a_forgotten_marker_are_not_added():
    # the snippet ends `};` and two blank lines, no end marker: the file's tail is kept, and the
    # blank run between `};` and `/**` stays the original's one line (it was two)
    snippet = ("  options = options || {};\n  this.path = this.resolve(this.dirname);\n};\n\n"
               "// ... existing code ...\n * Resolve the partial path.\n */\n\n"
               "Partial.prototype.resolve = function(dir){\n  return dir;\n};\n\n\n")
    r = instant_merge(ORIGINAL, snippet, language="javascript")
    assert r.merged, r.refused_reason
    assert r.text == (ORIGINAL.replace("this.resolve();", "this.resolve(this.dirname);")
                      .replace("function(){\n  return this.dirname;", "function(dir){\n  return dir;"))


def test_a_run_the_snippet_shows_whole_is_the_snippets():
    snippet = "// ... existing code ...\n};\n\n\n/**\n * Resolve the partial path.\n// ... existing code ...\n"
    r = instant_merge(ORIGINAL, snippet, language="javascript")
    assert r.merged
    assert r.text == ORIGINAL.replace("};\n\n/**", "};\n\n\n/**", 1)


def test_unit_run_between_original_neighbours_capped_unless_shown():
    original = ["a", "", "b", "c"]
    result = ["a", "", "", "b", "x"]
    assert keep_original_whitespace(original, result, ["x"]) == ["a", "", "b", "x"]
    assert keep_original_whitespace(original, result, ["a", "", "", "b"]) == result
    # a shorter run than the original's is left as written
    assert keep_original_whitespace(["a", "", "", "b"], ["a", "", "b"], ["z"]) == ["a", "", "b"]
    # next to new code: no longer than the original's run on the original line's side, at least one
    assert keep_original_whitespace(["a", "", "b"], ["a", "new", "", "", "b"], ["new"]) == ["a", "new", "", "b"]
    assert keep_original_whitespace(["a", "b"], ["a", "new", "", "", "b"], ["new"]) == ["a", "new", "", "b"]
    # a diff's removed lines between shown lines do not hide the run the snippet shows
    assert keep_original_whitespace(["a", "", "old", "b"], ["a", "", "", "b"], ["a", "", "-old", "", "b"]) == ["a", "", "", "b"]


def test_blank_lines_after_a_marker_before_new_code_are_not_added():
    original = ("/**\n * Module dependencies.\n */\n\nvar connect = require('connect')\n  , https = require('https');\n\n"
                "/**\n * Initialize a new `Server`.\n *\n * @param {Object} options\n */\n\n"
                "function Server(options){\n  this.init(options);\n};\n")
    snippet = ("// ... existing code ...\n\n\n/**\n * Expose `Server`.\n */\n\nexports = module.exports = Server;\n\n"
               "/**\n * Initialize a new `Server`.\n// ... existing code ...\n")
    r = instant_merge(original, snippet, language="javascript")
    assert r.merged, r.refused_reason
    assert r.text == original.replace("https');\n\n", "https');\n\n/**\n * Expose `Server`.\n */\n\n"
                                      "exports = module.exports = Server;\n\n")


def test_dedent_keeps_whitespace_only_lines_beyond_the_margin():
    from fastapply.merge.text.whitespace import dedent

    assert dedent("    a\n        \n    b") == "a\n    \nb"
    assert dedent("\ta\n\t\t\n\tb\n") == "a\n\t\nb\n"
    assert dedent("    a\n  \n    b") == "a\n\nb"  # shorter than the margin: nothing beyond it


def test_a_whole_definition_keeps_its_indented_blank_line():
    # the whole-definition merger read the snippet through textwrap.dedent, which empties `\t\t\t`
    original = ("def first(url):\n\treturn url\n\n\n"
                "def lookup(url):\n\tfor (prefix, auth) in AUTHS:\n\t\tif prefix in url:\n\t\t\treturn auth\n\t\t\t\n\treturn None\n\n\n"
                "class Failure(Exception):\n\tpass\n")
    snippet = "def lookup(url):\n\tfor (prefix, auth) in AUTHS:\n\t\tif url.startswith(prefix):\n\t\t\treturn auth\n\t\t\t\n\treturn None\n"
    r = instant_merge(original, snippet, language="python")
    assert r.merged, r.refused_reason
    assert r.text == original.replace("if prefix in url:", "if url.startswith(prefix):")
