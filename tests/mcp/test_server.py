"""The MCP server through the SDK's own client: in-process, and `fastapply mcp` over stdio."""

import json
import os
import select
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from fastapply.mcp.server import build_server
from fastapply.mcp.tool import FileEditor
from tests.fakes import FakeLoaded
from tests.mcp.test_tool import (
    AMBIGUOUS_EXPECTED, AMBIGUOUS_ORIGINAL, AMBIGUOUS_SNIPPET, EXPECTED, MERGEABLE, ORIGINAL, no_model,
)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "a.py").write_text(ORIGINAL)
    (tmp_path / "b.py").write_text(AMBIGUOUS_ORIGINAL)
    return tmp_path


def call(server, *calls):
    """Run tool calls through an in-process SDK client; return (tools, results)."""

    async def main():
        async with Client(server) as client:
            tools = (await client.list_tools()).tools
            results = [await client.call_tool("edit_file", args) for args in calls]
            return tools, results

    return anyio.run(main)


def edit(target, code_edit, instructions=""):
    return {"target_file": target, "instructions": instructions, "code_edit": code_edit}


def test_the_tool_is_listed_with_morph_style_parameters_and_description(project):
    tools, _ = call(build_server(FileEditor([project], loader=no_model)))
    (tool,) = tools
    assert tool.name == "edit_file"
    schema = tool.input_schema
    assert schema["required"] == ["target_file", "instructions", "code_edit"]
    assert all(schema["properties"][name]["description"] for name in schema["required"])
    for phrase in ("// ... existing code ...", "context", "delete", "one call"):
        assert phrase in tool.description
    assert tool.annotations.destructive_hint and not tool.annotations.read_only_hint


def test_an_instant_edit_returns_the_diff(project):
    _, (result,) = call(build_server(FileEditor([project], loader=no_model)), edit("a.py", MERGEABLE, "I return 10"))
    assert not result.is_error
    text = result.content[0].text
    assert text.startswith("Applied the edit to a.py") and "+    return 10" in text
    assert (project / "a.py").read_text() == EXPECTED


def test_a_refusal_is_a_tool_error_with_advice_and_writes_nothing(project):
    server = build_server(FileEditor([project], strategy="instant"))
    _, (result,) = call(server, edit("b.py", AMBIGUOUS_SNIPPET))
    assert result.is_error
    text = result.content[0].text
    # the refusal as data: its kind, the lines, the fix (the generic advice was replaced by it)
    assert "b.py was not changed" in text and "(ambiguous-place)" in text and "matches 2 places" in text
    assert "Fix: " in text and "file line 2" in text
    assert (project / "b.py").read_text() == AMBIGUOUS_ORIGINAL


def test_the_model_path_rescues_a_refusal_with_the_fake_model(project):
    server = build_server(FileEditor([project], loaded=FakeLoaded(AMBIGUOUS_EXPECTED)))
    _, (result,) = call(server, edit("b.py", AMBIGUOUS_SNIPPET, "I return 3 from f"))
    assert not result.is_error and "path=model" in result.content[0].text
    assert (project / "b.py").read_text() == AMBIGUOUS_EXPECTED


def test_an_unfinished_model_answer_is_a_tool_error(project):
    server = build_server(FileEditor([project], strategy="model", loaded=FakeLoaded(EXPECTED, close=False)))
    _, (result,) = call(server, edit("a.py", MERGEABLE))
    assert result.is_error and "did not finish" in result.content[0].text
    assert (project / "a.py").read_text() == ORIGINAL


def test_escapes_are_tool_errors(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "x.py"
    outside.write_text(ORIGINAL)
    os.symlink(outside, project / "link.py")
    server = build_server(FileEditor([project], loader=no_model))
    _, results = call(server, edit("../x.py", MERGEABLE), edit(str(outside), MERGEABLE), edit("link.py", MERGEABLE))
    assert all(r.is_error and "outside the allowed root" in r.content[0].text for r in results)
    assert outside.read_text() == ORIGINAL


def test_fastapply_mcp_over_stdio(project):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "fastapply.cli", "mcp", "--root", str(project), "--strategy", "instant"],
        env=env, cwd=str(project),
    )

    async def main():
        with anyio.fail_after(60):
            async with Client(params) as client:
                tools = (await client.list_tools()).tools
                ok = await client.call_tool("edit_file", edit("a.py", MERGEABLE))
                refused = await client.call_tool("edit_file", edit("b.py", AMBIGUOUS_SNIPPET))
                return tools, ok, refused

    tools, ok, refused = anyio.run(main)
    assert [t.name for t in tools] == ["edit_file"]
    assert not ok.is_error and "+    return 10" in ok.content[0].text
    assert refused.is_error and "was not changed" in refused.content[0].text
    assert (project / "a.py").read_text() == EXPECTED and (project / "b.py").read_text() == AMBIGUOUS_ORIGINAL


def test_bad_input_gets_a_clear_tool_error_over_stdio(project):
    """Issue 18 items 10 and 11, through the SDK client and `fastapply mcp` itself: a 5,000-character
    path (was "Error executing tool edit_file" with no reason), a NUL (was written into the file), a
    read-only file (was replaced)."""
    os.chmod(project / "b.py", 0o444)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "fastapply.cli", "mcp", "--root", str(project), "--strategy", "instant"],
        env=env, cwd=str(project),
    )
    calls = [edit("x" * 5000, MERGEABLE), edit("a.py", MERGEABLE.replace("10", "1\x000")), edit("b.py", AMBIGUOUS_SNIPPET)]

    async def main():
        with anyio.fail_after(60):
            async with Client(params) as client:
                return [await client.call_tool("edit_file", args) for args in calls]

    results = anyio.run(main)
    texts = [r.content[0].text for r in results]
    assert all(r.is_error for r in results), texts
    assert "target_file is 5000 characters long, over the limit of 4096" in texts[0]
    assert "a.py was not changed: code_edit contains a NUL character" in texts[1]
    assert "b.py was not changed: it is read-only (mode 0444)" in texts[2] and "Tell the user" in texts[2]
    assert (project / "a.py").read_text() == ORIGINAL and (project / "b.py").read_text() == AMBIGUOUS_ORIGINAL


def test_a_lone_surrogate_is_answered_over_raw_stdio(project):
    """The SDK's client cannot even send a lone surrogate, an agent's JSON can: speak JSON-RPC to
    `fastapply mcp` directly. It used to drop the request (no answer, the agent waits for its
    timeout); a bad path used to print a traceback on stderr."""
    from mcp.types import LATEST_PROTOCOL_VERSION

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastapply.cli", "mcp", "--root", str(project), "--strategy", "instant"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=str(project),
    )

    def send(message):
        proc.stdin.write((json.dumps(message) + "\n").encode())  # ensure_ascii: "\\ud800", as agents send it
        proc.stdin.flush()

    def answer():
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no answer"
        return json.loads(proc.stdout.readline())

    def call(i, arguments, method="tools/call"):
        send({"jsonrpc": "2.0", "id": i, "method": method, "params": {"name": "edit_file", "arguments": arguments}})
        return answer()

    try:
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
        assert answer()["id"] == 0
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        surrogate = call(1, edit("a.py", MERGEABLE.replace("10", "1\ud8000")))
        long_path = call(2, edit("x" * 5000, MERGEABLE))
        other = call(3, {"a": "\udc00"}, method="tools/list")
        applied = call(4, edit("a.py", MERGEABLE))  # the session goes on
    finally:
        proc.stdin.close()
        proc.wait(30)
        stderr = proc.stderr.read().decode()
    assert surrogate["id"] == 1 and surrogate["result"]["isError"] is True
    assert surrogate["result"]["content"][0]["text"] == (
        "a.py was not changed: code_edit is not valid Unicode (a lone surrogate, U+D800, at character 21). "
        "Send it again as valid text.")
    assert long_path["result"]["isError"] and "5000 characters long" in long_path["result"]["content"][0]["text"]
    assert other["id"] == 3 and "lone surrogate" in other["error"]["message"]
    assert not applied["result"].get("isError") and (project / "a.py").read_text() == EXPECTED
    assert "Traceback" not in stderr, stderr


def test_an_unexpected_failure_is_a_one_line_tool_error(project, monkeypatch, capsys):
    editor = FileEditor([project], loader=no_model)

    def broken(*a):
        raise KeyError("\ud800boom")

    monkeypatch.setattr(editor, "edit", broken)
    _, (result,) = call(build_server(editor), edit("a.py", MERGEABLE))
    text = result.content[0].text
    assert result.is_error and "a.py was not changed: an internal error (KeyError: " in text and "Nothing was written" in text
    assert "\\ud800boom" in text  # the lone surrogate escaped: the answer stays encodable
    err = capsys.readouterr().err
    assert err.count("fastapply mcp: edit_file failed: KeyError") == 1 and "Traceback" not in err
