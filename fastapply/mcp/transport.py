"""The stdio transport of `fastapply mcp`: the SDK's, plus an answer to requests it cannot parse.

JSON can escape a lone surrogate (`"\\ud800"`), which UTF-8 and the SDK's parser cannot hold: the
SDK drops such a request without answering, and the agent waits for its timeout. `serve_stdio`
reads standard input through `AnsweringLines`, which hands every line to the SDK unchanged except
those requests: it answers them itself on the same write stream, a `tools/call` with a tool error
(`isError`, the reason: which argument, which character) like any other refusal, any other
request with JSON-RPC "invalid params". Notifications (no answer is due) pass through unchanged.

This module knows JSON-RPC lines and the SDK's stdio streams; nothing about editing.
"""

from __future__ import annotations

import json
import sys
from io import TextIOWrapper

from fastapply.mcp.roots import lone_surrogate


def _lone_surrogates(value, path: str = "") -> list[tuple[str, int, str]]:
    """(where, index, character) of the first lone surrogate in each string inside `value`."""
    found = []
    if isinstance(value, str):
        at = lone_surrogate(value)
        if at is not None:
            found.append((path, at, value[at]))
    elif isinstance(value, dict):
        for key, item in value.items():
            found += _lone_surrogates(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _lone_surrogates(item, f"{path}[{i}]")
    return found


def unparseable_request(line: str) -> dict | None:
    """The request on `line` when it carries a lone surrogate (the SDK would drop it), else None."""
    if "\\ud" not in line.lower():
        return None
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or "id" not in message or "method" not in message:
        return None
    return message if _lone_surrogates(message.get("params")) else None


def refusal(request: dict):
    """The answer to such a request: a tool error for tools/call, invalid params otherwise."""
    import mcp_types as types

    params = request.get("params") if isinstance(request.get("params"), dict) else {}
    where, at, char = _lone_surrogates(params)[0]
    field = where.removeprefix("arguments.")
    reason = f"{field} is not valid Unicode (a lone surrogate, U+{ord(char):04X}, at character {at})"
    if request.get("method") == "tools/call":
        target = (params.get("arguments") or {}).get("target_file") if isinstance(params.get("arguments"), dict) else None
        whose = f"{target} was not changed" if isinstance(target, str) and lone_surrogate(target) is None else "Nothing was changed"
        result = types.CallToolResult(
            content=[types.TextContent(type="text", text=f"{whose}: {reason}. Send it again as valid text.")],
            is_error=True,
        )
        return types.JSONRPCResponse(jsonrpc="2.0", id=request["id"],
                                     result=result.model_dump(by_alias=True, exclude_none=True, mode="json"))
    return types.JSONRPCError(jsonrpc="2.0", id=request["id"],
                              error=types.ErrorData(code=types.INVALID_PARAMS, message=f"invalid params: {reason}"))


class AnsweringLines:
    """Standard input's lines for the SDK, less the requests `unparseable_request` finds, which
    are answered on `answers` (the transport's write stream, set once it exists)."""

    def __init__(self, lines):
        self._lines = lines.__aiter__()
        self.answers = None

    def __aiter__(self):
        return self

    async def __anext__(self) -> str:
        from mcp.shared.message import SessionMessage

        while True:
            line = await self._lines.__anext__()
            request = unparseable_request(line)
            if request is None or self.answers is None:
                return line
            await self.answers.send(SessionMessage(refusal(request)))


async def serve_stdio(server) -> None:
    """Run an `MCPServer` on standard input/output, as `server.run("stdio")` does, reading
    standard input through `AnsweringLines`."""
    import anyio
    from mcp.server.stdio import stdio_server

    lowlevel = getattr(server, "_lowlevel_server", None)
    if lowlevel is None:  # another SDK layout: its own transport, without the answers
        await server.run_stdio_async()
        return
    lines = AnsweringLines(anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")))
    async with stdio_server(stdin=lines) as (read_stream, write_stream):
        lines.answers = write_stream
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
