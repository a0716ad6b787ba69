"""The MCP server: one tool, `edit_file(target_file, instructions, code_edit)`, over the official SDK.

`build_server(editor)` returns an `mcp.server.mcpserver.MCPServer` whose `edit_file` tool runs
`FileEditor.edit` (tool.py) and answers with the unified diff, or with an MCP tool error
(`is_error`) whose text says why nothing was written and what to add to the snippet. The tool
description teaches an agent the snippet format it already knows from Morph's `edit_file`.
`run_stdio(editor)` serves it on standard input/output (what Claude Code, Cursor and Codex start),
through transport.py, which answers the requests the SDK cannot parse. Any failure is a tool error
with one line of reason (an unexpected one also one line on stderr), and every answer is text
JSON can carry.

This module knows the MCP SDK; the editing itself is in tool.py and the path rules in roots.py.
"""

from __future__ import annotations

import sys
from typing import Annotated

from pydantic import Field

from fastapply import __version__
from fastapply.errors import FastApplyError
from fastapply.mcp.roots import shown_path
from fastapply.mcp.tool import FileEditor

SERVER_NAME = "fastapply"

TOOL_DESCRIPTION = """\
Edit an existing file (or create a new one) by sending only the parts that change. fastapply merges \
the edit into the whole file (a deterministic merge first, a fast-apply model when that is unsure), \
writes it atomically and answers with the unified diff.

Write code_edit as the changed code in file order, with a comment `... existing code ...` (in the \
file's comment syntax: `// ... existing code ...`, `# ... existing code ...`) standing for each span \
of unchanged code in between:

// ... existing code ...
FIRST_EDIT
// ... existing code ...
SECOND_EDIT
// ... existing code ...

Rules:
- Start and end with a `... existing code ...` comment unless the edit touches the file's first or last line.
- Never leave out unchanged code without the `... existing code ...` comment: code that is neither \
shown nor marked is deleted.
- Give each edit enough unchanged context, copied exactly (same indentation) from the current file, \
to find it in one place: a line the file has only once (a signature, a distinctive statement), not \
just `}`, `end`, a blank line or a line repeated elsewhere. One or two such lines before and after \
each edit are enough.
- Show a changed line once, in its new form, between unchanged lines: a new line next to a similar \
old one is read as a change of it unless the unchanged line beside it is shown.
- To delete code, show the unchanged lines just before and just after it, with nothing between them.
- Keep the edits in the order they have in the file; put all edits to one file in one call.
- Send code only: no labels such as `// NEW:` or `// CHANGED`, no prose.
- Search/replace blocks (<<<<<<< SEARCH / ======= / >>>>>>> REPLACE) and unified diffs are accepted too.

When the edit cannot be placed safely, nothing is written and the answer is a refusal: its kind \
(ambiguous-place: a part fits several places; out-of-order: edits not in file order; line-not-found: \
context not in the file as written; new-or-changed: a line could be new or replace a similar one; \
unshown-deletion or would-delete-edge: code would be deleted that you did not show deleted, usually a \
missing `... existing code ...` comment; unbalanced; duplicate; no-change; form: a label line such as \
`// NEW:`, or input the merge cannot read), the file's lines and your \
code_edit's lines involved (by number), a fix, and options: concrete edits of your code_edit (add \
these unchanged file lines above line K, add a marker at the start, show these file lines as `-` lines \
to delete them, move lines K-L before line M). \
Options at the same code_edit lines are alternatives (the places one part fits): pick the one that \
matches what you meant, plus one for each other part an option names, apply them to your code_edit, and \
call again once.
"""

TargetFile = Annotated[str, Field(description="The file to modify, relative to the project root (or absolute inside it).")]
Instructions = Annotated[str, Field(description=(
    "One sentence, in the first person, saying what you are changing (e.g. 'I am adding a retry to "
    "fetch()'). It guides a model that rewrites the file and is not applied as code. It can only make the "
    "edit stricter: if it says you remove a "
    "function or other definition by name, the edit is refused unless code_edit shows that deletion (the "
    "lines around it one after the other, no marker between them)."
))]
CodeEdit = Annotated[str, Field(description=(
    "Only the lines you change, with enough unchanged context around each edit to locate it; every span "
    "of unchanged code left out is written as a `... existing code ...` comment in the file's language."
))]


def build_server(editor: FileEditor):
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    server = MCPServer(
        SERVER_NAME,
        version=__version__,
        instructions="Use edit_file to change files: send only the changed lines with `... existing code ...` "
                     "markers for unchanged code; it answers with the diff it applied.",
        log_level="WARNING",
    )

    def edit_file(target_file: TargetFile, instructions: Instructions, code_edit: CodeEdit) -> str:
        try:
            return answerable(editor.edit(target_file, instructions, code_edit).message())
        except FastApplyError as exc:
            raise ToolError(answerable(str(exc))) from None
        except Exception as exc:  # noqa: BLE001 - a bug: one line here and for the agent, never silence
            reason = f"{type(exc).__name__}: {exc}"
            print(f"fastapply mcp: edit_file failed: {answerable(reason)}", file=sys.stderr, flush=True)
            raise ToolError(answerable(f"{shown_path(str(target_file))} was not changed: an internal error "
                                       f"({reason[:300]}). Nothing was written.")) from None

    server.add_tool(
        edit_file, name="edit_file", title="Edit a file with fastapply", description=TOOL_DESCRIPTION,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                                    open_world_hint=False),
        structured_output=False,
    )
    return server


def answerable(text: str) -> str:
    """`text` as JSON-RPC over UTF-8 can carry it: a lone surrogate would make the answer itself
    fail to encode, and the agent would wait for a reply that never comes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def run_stdio(editor: FileEditor) -> None:
    import anyio

    from fastapply.mcp.transport import serve_stdio

    anyio.run(serve_stdio, build_server(editor))
