"""gate/intent.py: the instruction refuses a result that still defines what it says to remove."""

from fastapply.merge.gate.intent import check_removals, removal_targets
from fastapply.merge.instant import instant_merge

ORIGINAL = """\
var express = require('express');
var app = express();

function restrict(req, res, next) {
  if (req.session.user) {
    next();
  }
}

function accessLogger(req, res, next) {
  console.log('/restricted accessed by %s', req.session.user.name);
  next();
}

app.get('/', function(req, res){
  res.redirect('login');
});

app.get('/restricted', restrict, accessLogger, function(req, res){
  res.send('Wahoo! restricted area');
});
"""

# the use goes, the definition's deletion is shown by nothing: a generic `}` could be either function's end
SNIPPET = """\
// ... existing code ...
}

app.get('/', function(req, res){
  res.redirect('login');
});

app.get('/restricted', restrict, function(req, res){
  res.send('Wahoo! restricted area');
});
"""


def test_targets_are_code_like_names_after_a_removal_verb():
    assert removal_targets("Remove the unused `accessLogger` middleware") == ["accessLogger"]
    assert removal_targets("removed accessLogger from auth example") == ["accessLogger"]
    assert removal_targets("Remove utils.contentDisposition") == ["utils.contentDisposition"]
    assert removal_targets("Delete parse_args() and drop OLD_LIMIT") == ["parse_args", "OLD_LIMIT"]


def test_plain_words_and_uses_of_a_name_are_not_targets():
    assert removal_targets("Remove logging from the handler") == []
    assert removal_targets("Remove `accessLogger` calls from the routes") == []
    assert removal_targets("Drop the `timeout` parameter") == []
    assert removal_targets("Add accessLogger to the restricted route") == []
    assert removal_targets(None) == [] and removal_targets(42) == []  # not text: nothing to read


def test_a_result_that_keeps_the_named_definition_is_refused_with_its_line():
    kept = ORIGINAL.replace("restrict, accessLogger, function", "restrict, function")
    refusal = check_removals(ORIGINAL, kept, "removed accessLogger from auth example")
    assert refusal is not None and refusal.kind == "unshown-deletion"
    assert [(x.number, x.text) for x in refusal.original] == [(10, "function accessLogger(req, res, next) {")]
    assert "accessLogger" in refusal.cause and refusal.fix


def test_a_result_without_the_definition_passes():
    gone = ORIGINAL.replace(
        "function accessLogger(req, res, next) {\n  console.log('/restricted accessed by %s', "
        "req.session.user.name);\n  next();\n}\n\n", "")
    assert check_removals(ORIGINAL, gone, "removed accessLogger from auth example") is None
    # a name the original does not define refuses nothing
    assert check_removals(ORIGINAL, ORIGINAL, "Remove `notDefinedHere`") is None


def test_instant_merge_refuses_instead_of_keeping_the_named_definition():
    plain = instant_merge(ORIGINAL, SNIPPET, path="app.js")
    assert plain.merged and "function accessLogger" in plain.text  # the snippet alone reads as "keep it"
    told = instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction="Remove the accessLogger middleware")
    assert not told.merged
    assert told.refusal.kind == "unshown-deletion" and told.candidate == plain.text
    assert told.refused_reason == told.refusal.sentence
    # an instruction that names nothing the result keeps changes nothing
    assert instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction="Stop logging restricted access").text == plain.text
