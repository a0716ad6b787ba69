"""Server-Sent Events from a job's items: one generator behind every streamed answer.

`event_stream(items, render, head=..., on_close=...)` sends `head`'s objects, then `render(item)`'s
objects for each item as it comes, then `data: [DONE]`. After the 200 has gone out, a failure can
only travel as a last `data: {"error": ...}` event (OpenAI's shape), and the stream ends without
[DONE]. `on_close` runs however the stream ends: normally (a no-op), on an error, or when Starlette
closes the generator because the client left (it cancels the model job).

This module knows SSE framing and the error shape; what a chunk contains is the renderer's business.
"""

from __future__ import annotations

import logging
from typing import Any, AsyncIterator, Callable, Iterable

from starlette.responses import StreamingResponse

from fastapply.serve.errors import from_exception
from fastapply.serve.responses import SSE_DONE, SSE_HEADERS, sse

log = logging.getLogger("fastapply.serve")


async def event_stream(
    items: AsyncIterator[Any],
    render: Callable[[Any], Iterable[dict]],
    *,
    head: Iterable[dict] = (),
    on_close: Callable[[], None] = lambda: None,
    label: str = "stream",
) -> AsyncIterator[bytes]:
    try:
        for obj in head:
            yield sse(obj)
        async for item in items:
            for obj in render(item):
                yield sse(obj)
        yield SSE_DONE
    except Exception as exc:  # after the 200 went out, an error can only travel as an event
        status = from_exception(exc)[0]
        if status >= 500:
            log.exception("error while streaming %s", label)
        yield sse(from_exception(exc)[1])
    finally:
        on_close()


def sse_response(events: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers=SSE_HEADERS)


async def just(*items: Any) -> AsyncIterator[Any]:
    """Items already at hand as an async iterator (an instant merge's answer, streamed)."""
    for item in items:
        yield item
