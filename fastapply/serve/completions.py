"""POST /v1/chat/completions and POST /v1/completions: OpenAI's API with Predicted Outputs.

Each handler parses and checks the body on the event loop, queues the job (jobs.py) on the model
worker, waits for its `Prepared` (so preparation errors get their own status), then answers with
one JSON object or a stream of chunks. A chat request in the Morph / Relace apply shape (model
`morph-v3-fast`, one `<code>...</code><update>...</update>` message) goes to the apply flow
instead (compat.py).

This module knows the request flow and the response shapes' builders; no decoding logic.
"""

from __future__ import annotations

import time
import uuid
from typing import Any, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fastapply.serve import compat, jobs
from fastapply.serve import generation as gen
from fastapply.serve.responses import chat_chunk, chat_completion, completion_chunk, text_completion
from fastapply.serve.scheduler import Job
from fastapply.serve.schemas import ChatCompletionRequest, CompletionRequest, RequestError
from fastapply.serve.server import Server
from fastapply.serve.streams import event_stream, sse_response


async def _finish(server: Server, request: Request, job: Job, items: AsyncIterator[Any], prepared: jobs.Prepared):
    """A non-streamed generation's end: its Finished item, its logprobs (or None), its usage."""
    collected = await server.collect(request, job, items)
    done = next(x for x in collected if isinstance(x, gen.Finished))
    scored = next((x for x in collected if isinstance(x, gen.TokenLogprobs)), None)
    server.metrics.observe_decode(done.stats, job.queue_s)
    return done, scored, gen.usage_dict(done.stats, queue_s=job.queue_s, drafted=prepared.drafted)


def _include_usage(body) -> bool:
    return bool(body.stream_options and body.stream_options.include_usage)


async def chat(server: Server, request: Request) -> Response:
    body = await server.parse(request, ChatCompletionRequest)
    body.check()
    if compat.is_apply_model(body.model) and body.model not in server.accepted_names:
        return await compat.morph_chat(server, request, body)
    server.check_model(body.model)
    messages = body.message_dicts()  # refuses non-text parts before anything is queued
    sampling = server.sampling(body)
    cap = server.limits.max_scored_tokens
    job = server.scheduler.submit(lambda: jobs.chat_job(server.holder, body, messages, sampling, cap))
    prepared, items = await server.first_item(request, job)
    cid, created, model = f"chatcmpl-{uuid.uuid4().hex}", int(time.time()), server.model_name
    if body.stream:
        usage_field = _include_usage(body)

        def render(item):
            if isinstance(item, str):
                yield chat_chunk(cid, created, model, {"content": item}, None, usage_field=usage_field)
            elif isinstance(item, gen.Finished):
                server.metrics.observe_decode(item.stats, job.queue_s)
                yield chat_chunk(cid, created, model, {}, item.finish_reason, usage_field=usage_field)
                if usage_field:
                    yield {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                           "system_fingerprint": None, "choices": [],
                           "usage": gen.usage_dict(item.stats, queue_s=job.queue_s, drafted=prepared.drafted)}

        head = [chat_chunk(cid, created, model, {"role": "assistant", "content": ""}, None, usage_field=usage_field)]
        return sse_response(event_stream(items, render, head=head, on_close=lambda: server.close_job(job), label=cid))
    done, scored, usage = await _finish(server, request, job, items, prepared)
    return JSONResponse(chat_completion(cid, created, model, done.text, done.finish_reason, usage,
                                        gen.chat_logprobs(scored) if scored is not None else None))


async def completions(server: Server, request: Request) -> Response:
    body = await server.parse(request, CompletionRequest)
    body.check()
    server.check_model(body.model)
    if body.stream and body.logprobs is not None:
        raise RequestError("logprobs are not supported with stream; ask without streaming", "logprobs")
    sampling = server.sampling(body)
    cap = server.limits.max_scored_tokens
    job = server.scheduler.submit(lambda: jobs.completion_job(server.holder, body, sampling, cap))
    prepared, items = await server.first_item(request, job)
    cid, created, model = f"cmpl-{uuid.uuid4().hex}", int(time.time()), server.model_name
    if body.stream:
        usage_field = _include_usage(body)

        def render(item):
            if isinstance(item, str):
                yield completion_chunk(cid, created, model, item, None, usage_field=usage_field)
            elif isinstance(item, gen.Finished):
                server.metrics.observe_decode(item.stats, job.queue_s)
                yield completion_chunk(cid, created, model, "", item.finish_reason, usage_field=usage_field)
                if usage_field:
                    yield {"id": cid, "object": "text_completion", "created": created, "model": model, "choices": [],
                           "usage": gen.usage_dict(item.stats, queue_s=job.queue_s, drafted=prepared.drafted)}

        head = [completion_chunk(cid, created, model, prepared.echo_text, None, usage_field=usage_field)] \
            if prepared.echo_text else []
        return sse_response(event_stream(items, render, head=head, on_close=lambda: server.close_job(job), label=cid))
    done, scored, usage = await _finish(server, request, job, items, prepared)
    return JSONResponse(text_completion(cid, created, model, prepared.echo_text + done.text, done.finish_reason,
                                        usage, scored.as_dict() if scored is not None else None))
