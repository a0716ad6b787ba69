"""Options that show the deletion of a definition the instruction removes (refuse/removal.py)."""

from fastapply.evaluation.retry import choose, retry_example
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise
from tests.merge.gate.test_intent import ORIGINAL, SNIPPET

EXPECTED = ORIGINAL.replace(
    "function accessLogger(req, res, next) {\n  console.log('/restricted accessed by %s', "
    "req.session.user.name);\n  next();\n}\n\n", "").replace("restrict, accessLogger, function", "restrict, function")
TOLD = "Remove the accessLogger middleware"

DOC = """\
var cache = {};

/**
 * Clear the cache.
 */

exports.clear = function(){
  cache = {};
};

/**
 * Render a view.
 */

exports.render = function(view){
  return view;
};

/**
 * Close the store.
 */

exports.close = function(){
  cache = null;
};
"""
DOC_EXPECTED = DOC.replace("/**\n * Render a view.\n */\n\nexports.render = function(view){\n  return view;\n};\n\n", "")


def _row(original, snippet, expected, instruction, language="javascript"):
    return {"original": original, "snippet": snippet, "expected": expected, "instruction": instruction,
            "language": language}


def test_the_named_definition_is_offered_as_the_lines_around_it_one_after_the_other():
    refusal = instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction=TOLD).refusal
    assert refusal.kind == "unshown-deletion" and refusal.options
    revised = revise(SNIPPET, refusal.options[0])
    # the lines above the definition stand right before the ones below it: the deletion is shown
    assert "  }\n}\n\napp.get('/', function(req, res){" in revised and "accessLogger(req" not in revised
    assert retry_example(_row(ORIGINAL, SNIPPET, EXPECTED, TOLD))["second"] == "right"
    # the sentence is the gate's, unchanged; the options are only added
    assert refusal.sentence == instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction=TOLD).refused_reason


def test_a_definition_with_a_doc_comment_goes_with_its_comment():
    # the next section starts with the `/**` after the definition; the one before it is not shown
    snippet = ("// ... existing code ...\n/**\n * Close the store.\n */\n// ... existing code ...\n"
               "  cache = undefined;\n// ... existing code ...\n")
    told = "Remove exports.render and clear the cache with undefined"
    expected = DOC_EXPECTED.replace("cache = null;", "cache = undefined;")
    refusal = instant_merge(DOC, snippet, language="javascript", instruction=told).refusal
    assert refusal is not None and refusal.kind == "unshown-deletion"
    option = choose(refusal, snippet, expected, DOC)
    revised = revise(snippet, option)
    assert "Render a view" not in revised and "  cache = {};\n};\n\n/**\n * Close the store." in revised
    assert retry_example(_row(DOC, snippet, expected, told))["second"] == "right"


def test_a_definition_between_two_placed_sections_gets_a_section_of_its_own():
    snippet = ("var cache = {};\n// ... existing code ...\n"
               "exports.close = function(){\n  cache = undefined;\n};\n")
    told = "Remove exports.render and clear the cache with undefined"
    expected = DOC_EXPECTED.replace("cache = null;", "cache = undefined;")
    refusal = instant_merge(DOC, snippet, language="javascript", instruction=told).refusal
    assert refusal is not None and refusal.kind == "unshown-deletion"
    option = choose(refusal, snippet, expected, DOC)
    assert option is not None and [e.action for e in option.edits] == ["insert", "marker"]
    assert retry_example(_row(DOC, snippet, expected, told))["second"] == "right"


def test_a_refusal_that_names_no_definition_gets_no_new_option():
    # the gate's refusal without the definition's line (an older site) is left as it is
    from fastapply.merge.refuse.removal import removal_options
    refusal = instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction=TOLD).refusal
    bare = refusal.with_(options=(), detail={})
    assert removal_options(bare, ORIGINAL, SNIPPET, "javascript").options == ()
