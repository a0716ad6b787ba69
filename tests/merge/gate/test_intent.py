"""gate/intent.py: the instruction refuses a result that still defines what it says to remove."""

from fastapply.merge.gate.intent import check_removals, import_targets, removal_targets
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
    # the snippet alone leaves accessLogger unused and unshown: gate/orphans.py refuses it too
    assert not plain.merged and plain.refusal.detail.get("orphan") == "accessLogger"
    assert "function accessLogger" in plain.candidate
    told = instant_merge(ORIGINAL, SNIPPET, path="app.js", instruction="Remove the accessLogger middleware")
    assert not told.merged and "the instruction says to remove `accessLogger`" in told.refusal.cause
    assert told.refusal.kind == "unshown-deletion" and told.candidate == plain.candidate
    assert told.refused_reason == told.refusal.sentence
    # an instruction that names nothing the result keeps changes nothing
    assert instant_merge(ORIGINAL, SNIPPET, path="app.js",
                         instruction="Stop logging restricted access").refused_reason == plain.refused_reason


PY_ORIGINAL = """\
import binascii
import io
import os


def to_hex(data):
    return binascii.hexlify(data).decode()


def size(path):
    return os.path.getsize(path)
"""
PY_REWRITTEN = PY_ORIGINAL.replace("binascii.hexlify(data).decode()", "data.hex()")


def test_import_targets_are_names_said_to_go_as_imports():
    assert import_targets("Drop unneccessary `binascii` import (#2909)") == ["binascii"]
    assert import_targets("remove the os and sys imports") == ["os", "sys"]
    assert import_targets("Remove unused `Foo`") == ["Foo"]
    assert import_targets("remove unused imports") == []  # no name: nothing to check
    assert import_targets("Remove unused Logger instance.") == []  # a thing, not its import
    assert import_targets("Add the binascii import") == [] and import_targets(None) == []


def test_a_result_that_keeps_the_import_the_instruction_drops_is_refused():
    refusal = check_removals(PY_ORIGINAL, PY_REWRITTEN, "Drop unneccessary `binascii` import")
    assert refusal is not None and refusal.kind == "unshown-deletion"
    assert [(x.number, x.text) for x in refusal.original] == [(1, "import binascii")]
    assert "binascii" in refusal.cause and refusal.detail["removes"] == 0


def test_an_import_gone_changed_or_still_used_passes():
    gone = PY_REWRITTEN.replace("import binascii\n", "")
    assert check_removals(PY_ORIGINAL, gone, "Drop unneccessary `binascii` import") is None
    # the result still uses the name: the instruction means something else
    assert check_removals(PY_ORIGINAL, PY_ORIGINAL, "Drop unneccessary `binascii` import") is None
    # a name the original does not import refuses nothing
    assert check_removals(PY_ORIGINAL, PY_REWRITTEN, "remove the unused `sys` import") is None


def test_instant_merge_refuses_to_keep_an_import_the_instruction_drops():
    snippet = "# ... existing code ...\ndef to_hex(data):\n    return data.hex()\n# ... existing code ...\n"
    told = instant_merge(PY_ORIGINAL, snippet, path="hexes.py", instruction="Drop unneccessary `binascii` import")
    assert not told.merged and told.refusal.kind == "unshown-deletion"
    assert "the instruction says to remove the import of `binascii`" in told.refusal.cause
    assert told.candidate.startswith("import binascii\nimport io") and "data.hex()" in told.candidate
