"""The MCP server through the SDK's own client: in-process, and `fastapply mcp` over stdio."""

import os
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
    assert "b.py was not changed" in text and "matches 2 places" in text and "exactly one place" in text
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
