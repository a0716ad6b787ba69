"""POST /v1/apply, and the apply flow the Morph- and Relace-shaped endpoints share (compat.py).

The instant merge never waits for the model: it runs in a worker process of its own (merges.py, at
most `Limits.merge_workers` at once), while the single model worker may be busy with a long generation
and its queue full. Only when the merge refuses (strategy "auto") does the edit become a model job
in that queue, with the refused merge's candidate as its first draft; strategy "model" goes there
directly. So a merge of a few milliseconds answers in a few milliseconds whatever the model is
doing, and a full queue refuses (503) only edits that need the model.

Inputs get the CLI's size limits first (an original up to 8 MiB, a snippet up to 1 MiB: limits.py),
so an oversized snippet is a 400 at once rather than seconds of a merge worker.

A client that leaves while its merge runs gets no answer, and its merge's worker process is killed
at once (a thread could not be stopped, and would take the model worker's GIL time meanwhile); a
merge over `Limits.merge_timeout_s` is killed and refused the same way. A client that leaves during
the model path cancels its job.

This module knows the pipeline's entry points and the scheduler; the instant merge's insides and
the decoding are elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fastapply import limits
from fastapply.merge.instant import MergeResult
from fastapply.pipeline import ApplyResult, EditStream
from fastapply.rewrite.edit import check_inputs
from fastapply.serve import jobs
from fastapply.serve.responses import apply_body
from fastapply.serve.scheduler import Job
from fastapply.serve.schemas import ApplyRequest
from fastapply.serve.server import Server
from fastapply.serve.streams import event_stream, just, sse_response


@dataclass
class ApplyRun:
    """An edit under way: `items` are text deltas then the `ApplyResult`; `job` is the model job,
    None when the instant merge answered."""

    items: AsyncIterator[Any]
    job: Job | None


async def instant_off_worker(server: Server, body: ApplyRequest) -> tuple[MergeResult, float]:
    """The instant merge in a merge worker process, never on the model worker: (result, seconds).
    Cancelling the awaiting task (the client left) kills the worker."""
    return await server.merges.merge(body.original, body.snippet, body.language, body.path, body.instruction)


async def start(server: Server, request: Request, body: ApplyRequest) -> ApplyRun:
    """Run the instant merge off the worker; queue the model only when it refuses (or is skipped)."""
    check_inputs(body.original, body.snippet)  # bad input is a 400 before any work
    limits.check_size(body.original, limits.DEFAULT_MAX_FILE_BYTES, "the original")  # the CLI's limits
    limits.check_size(body.snippet, limits.DEFAULT_MAX_SNIPPET_BYTES, "the snippet")
    merge, merge_s = None, 0.0
    if body.strategy != "model":
        merge, merge_s = await server.or_gone(request, instant_off_worker(server, body))
        if merge.merged or body.strategy == "instant":
            stream = EditStream(body.original, body.snippet, body.instruction, strategy=body.strategy,
                                language=body.language, path=body.path, merge=merge, merge_s=merge_s)
            deltas = list(stream)  # the merged text at once: nothing to wait for
            return ApplyRun(just(*deltas, stream.result), None)
    job = server.scheduler.submit(lambda: jobs.apply_model_job(server.holder, body, merge, merge_s))
    _prepared, items = await server.first_item(request, job)
    return ApplyRun(items, job)


async def finish(server: Server, request: Request, run: ApplyRun) -> ApplyResult:
    """Wait for the whole result (cancelling the model job if the client leaves)."""
    *_, result = await server.collect(request, run.job, run.items)
    observe(server, result, run.job)
    return result


def observe(server: Server, result: ApplyResult, job: Job | None) -> None:
    if result.path == "model" and result.stats is not None and job is not None:
        server.metrics.observe_decode(result.stats, job.queue_s)


async def apply(server: Server, request: Request) -> Response:
    body = await server.parse(request, ApplyRequest)
    server.check_model(body.model)
    run = await start(server, request, body)
    if body.stream:
        def render(item):
            if isinstance(item, str):
                yield {"object": "fastapply.apply.delta", "delta": item}
            else:
                observe(server, item, run.job)
                yield apply_body(item)

        return sse_response(event_stream(run.items, render, on_close=lambda: server.close_job(run.job),
                                         label="/v1/apply"))
    return JSONResponse(apply_body(await finish(server, request, run)))
