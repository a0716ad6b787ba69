"""Drop-in shapes of other apply APIs, answered by fastapply's apply flow (edits.py).

Morph (and Relace's OpenAI-compatible endpoint): `POST /v1/chat/completions` (Relace's base URL
makes it `/v1/apply/chat/completions`, served too) with model `morph-v3-fast`, `morph-v3-large`,
`auto` or `relace-apply-3` and one user message

    <instruction>optional intent</instruction>
    <code>the original file</code>
    <update>the edit snippet</update>

The answer is a chat completion (or its stream of chunks) whose content is the merged file: the
instant merge when it is sure, else the model. Tools written for those services work against
`fastapply serve` by changing the base URL.

Relace's REST endpoint: `POST /v1/code/apply` with `{"initialCode", "editSnippet", "instruction"?}`
answers `{"mergedCode", "usage"}`, as their public API reference documents it. Their streaming
format is not documented, so `stream: true` is refused there (use /v1/apply's stream).

An edit that produced no trustworthy file (the model ran out of tokens, or a guard rejected its
answer) is an error (422, code `apply_failed`), never content a tool would write over a file.

This module knows the two request and response shapes; the flow itself is edits.py's.
"""

from __future__ import annotations

import re
import time
import uuid
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fastapply.pipeline import ApplyResult
from fastapply.serve import edits
from fastapply.serve import generation as gen
from fastapply.serve.responses import chat_chunk, chat_completion
from fastapply.serve.schemas import ApplyRequest, ChatCompletionRequest, RelaceApplyRequest, RequestError
from fastapply.serve.server import Server
from fastapply.serve.streams import event_stream, sse_response

APPLY_MODELS = frozenset({"morph-v3-fast", "morph-v3-large", "auto", "relace-apply-3"})

# greedy <code>: the code ends at the last "</code>" followed by "<update>", so code that itself
# contains "</code>" (HTML, Markdown) is kept whole
_MESSAGE = re.compile(
    r"\A\s*(?:<instruction>(?P<instruction>.*?)</instruction>\s*)?"
    r"<code>(?P<code>.*)</code>\s*<update>(?P<update>.*)</update>\s*\Z",
    re.S,
)
_SHAPE_HINT = "'<instruction>...</instruction>\\n<code>...</code>\\n<update>...</update>'"


def is_apply_model(name: str | None) -> bool:
    return name in APPLY_MODELS


@dataclass(frozen=True)
class ApplyMessage:
    instruction: str | None
    code: str
    update: str


def parse_apply_message(messages: list[dict[str, str]]) -> ApplyMessage | None:
    """The edit in a Morph-style conversation: system messages, then one user message in the shape."""
    users = [m for m in messages if m["role"] == "user"]
    if len(users) != 1 or any(m["role"] not in ("user", "system") for m in messages):
        return None
    match = _MESSAGE.match(users[0]["content"])
    if match is None:
        return None
    return ApplyMessage(match["instruction"] or None, match["code"], match["update"])


class ApplyFailed(RequestError):
    def __init__(self, result: ApplyResult):
        if result.path == "instant":
            why = result.refused_reason
        elif result.guard is not None:
            why = f"the model's answer failed the {result.guard} guard: {result.guard_reason}"
        else:
            why = "the model's answer is not a complete file"
        refusal = result.refusal.to_dict() if result.refusal is not None and result.path == "instant" else None
        super().__init__(f"the edit could not be applied: {why}", None, code="apply_failed", status=422,
                         extra={"refusal": refusal} if refusal else None)


def _usage(result: ApplyResult, queue_s: float) -> dict:
    return gen.usage_dict(result.stats, queue_s=queue_s, drafted=result.path == "model")


async def morph_chat(server: Server, request: Request, body: ChatCompletionRequest) -> Response:
    parsed = parse_apply_message(body.message_dicts())
    if parsed is None:
        raise RequestError(f"the model {body.model!r} applies edits: send one user message {_SHAPE_HINT}",
                           "messages")
    if body.logprobs:
        raise RequestError("logprobs are not available from the apply model", "logprobs")
    fields = {"temperature": body.temperature, "top_p": body.top_p, "seed": body.seed,
              "max_tokens": body.token_budget()}
    apply_request = ApplyRequest(original=parsed.code, snippet=parsed.update, instruction=parsed.instruction,
                                 **{k: v for k, v in fields.items() if v is not None})
    run = await edits.start(server, request, apply_request)
    cid, created, model = f"chatcmpl-{uuid.uuid4().hex}", int(time.time()), body.model
    queue_s = lambda: run.job.queue_s if run.job is not None else 0.0  # noqa: E731
    if body.stream:
        usage_field = bool(body.stream_options and body.stream_options.include_usage)

        def render(item):
            if isinstance(item, str):
                yield chat_chunk(cid, created, model, {"content": item}, None, usage_field=usage_field)
                return
            edits.observe(server, item, run.job)
            if not item.complete:
                raise ApplyFailed(item)
            yield chat_chunk(cid, created, model, {}, "stop", usage_field=usage_field)
            if usage_field:
                yield {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                       "system_fingerprint": None, "choices": [], "usage": _usage(item, queue_s())}

        head = [chat_chunk(cid, created, model, {"role": "assistant", "content": ""}, None, usage_field=usage_field)]
        return sse_response(event_stream(run.items, render, head=head, on_close=lambda: server.close_job(run.job),
                                         label=cid))
    result = await edits.finish(server, request, run)
    if not result.complete:
        raise ApplyFailed(result)
    return JSONResponse(chat_completion(cid, created, model, result.text, "stop", _usage(result, queue_s())))


async def relace_apply(server: Server, request: Request) -> Response:
    body = await server.parse(request, RelaceApplyRequest)
    if body.stream:
        raise RequestError("stream is not supported on /v1/code/apply; /v1/apply streams", "stream")
    run = await edits.start(server, request, ApplyRequest(original=body.initialCode, snippet=body.editSnippet,
                                                          instruction=body.instruction or None))
    result = await edits.finish(server, request, run)
    if not result.complete:
        raise ApplyFailed(result)
    stats = result.stats
    usage = {"prompt_tokens": stats.prompt_tokens, "completion_tokens": stats.completion_tokens,
             "total_tokens": stats.prompt_tokens + stats.completion_tokens}
    return JSONResponse({"mergedCode": result.text, "usage": usage})
