"""A refusal reaches every surface as data: `apply --json`, POST /v1/apply's body, the Morph and
Relace endpoints' error object, and the MCP tool's answer."""

from __future__ import annotations

import json

import pytest

from fastapply import cli
from fastapply.pipeline import apply_edit

ORIGINAL = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(2))
SNIPPET = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"


def test_apply_json_prints_the_refusal_as_data_and_keeps_its_exit_code(tmp_path, capsys):
    orig, snip = tmp_path / "a.py", tmp_path / "s.py"
    orig.write_text(ORIGINAL)
    snip.write_text(SNIPPET)
    assert cli.main(["apply", str(orig), str(snip), "--strategy", "instant", "--json", "-q"]) == 7
    out = json.loads(capsys.readouterr().out)
    assert out["merged"] is False and out["refusal"]["kind"] == "ambiguous-place"
    assert out["refusal"]["fix"] and [x["number"] for x in out["refusal"]["original_lines"]] == [2, 6]
    pins = [o for o in out["refusal"]["options"] if "for the place" in o["says"]]  # then the places at its depth
    assert len(pins) == 3 and pins[0]["edits"][0]["action"] == "insert"  # three pins for two places, all listed
    # in reading order (instant.ordered_refusal): the options whose revision merges come first
    from fastapply.merge.instant import instant_merge
    from fastapply.merge.refuse.refusal import Edit, Option
    from fastapply.merge.refuse.revise import revise

    first = out["refusal"]["options"][0]
    revised = revise(SNIPPET, Option(first["says"], tuple(Edit(**e) for e in first["edits"])))
    assert instant_merge(ORIGINAL, revised).merged
    assert orig.read_text() == ORIGINAL


def test_apply_json_prints_the_merged_file(tmp_path, capsys):
    orig, snip = tmp_path / "a.py", tmp_path / "s.py"
    orig.write_text(ORIGINAL)
    snip.write_text("def handler_1(request):\n    value = compute(request)\n    return value + 1\n")
    assert cli.main(["apply", str(orig), str(snip), "--strategy", "instant", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["merged"] is True and "return value + 1" in out["text"] and "refusal" not in out


def test_apply_json_and_diff_together_are_refused(tmp_path, capsys):
    orig, snip = tmp_path / "a.py", tmp_path / "s.py"
    orig.write_text(ORIGINAL)
    snip.write_text(SNIPPET)
    assert cli.main(["apply", str(orig), str(snip), "--json", "--diff"]) != 0
    assert "--json and --diff" in capsys.readouterr().err


@pytest.mark.extras  # the server needs [serve]
def test_the_server_bodies_carry_the_refusal():
    from fastapply.serve.compat import ApplyFailed
    from fastapply.serve.errors import from_exception
    from fastapply.serve.responses import apply_body

    result = apply_edit(ORIGINAL, SNIPPET, strategy="instant")
    assert apply_body(result)["refusal"]["kind"] == "ambiguous-place"
    status, body, _ = from_exception(ApplyFailed(result))
    assert status == 422 and body["error"]["code"] == "apply_failed"
    assert body["error"]["refusal"]["kind"] == "ambiguous-place" and body["error"]["refusal"]["options"]


def test_the_mcp_answer_names_the_kind_the_lines_the_fix_and_the_options(tmp_path):
    from fastapply.mcp.tool import EditFailed, FileEditor

    (tmp_path / "a.py").write_text(ORIGINAL)
    with pytest.raises(EditFailed) as exc:
        FileEditor([tmp_path], strategy="instant").edit("a.py", "", SNIPPET)
    message = str(exc.value)
    assert message.startswith("a.py was not changed: the edit was refused (ambiguous-place)")
    assert "file line 2 `value = compute(request)`" in message and "code_edit line 2" in message
    assert "Fix: " in message and "Option 1: add the unchanged original line 1 above snippet line 2" in message
    assert (tmp_path / "a.py").read_text() == ORIGINAL


def test_the_mcp_answer_shows_lines_to_delete_as_minus_lines(tmp_path):
    from fastapply.mcp.tool import EditFailed, FileEditor

    original = ('// Expose the helpers\nrequire.paths.unshift(__dirname + "/support");\n\n/**\n * Module dependencies.\n'
                ' */\n\nvar express = require("express");\n')
    (tmp_path / "a.js").write_text(original)
    with pytest.raises(EditFailed) as exc:
        FileEditor([tmp_path], strategy="instant").edit("a.js", "", "/**\n * Module dependencies.\n// ... existing code ...\n")
    message = str(exc.value)
    assert "(would-delete-edge)" in message and "as `-` lines" in message
    assert "\n    -// Expose the helpers\n" in message
