"""vLLM's tokenizer endpoints, `/tokenize` and `/detokenize`, and token ids as token names in logprobs.

    POST /tokenize    {"prompt": str, "add_special_tokens": bool = true, "model"?}
                      -> {"count", "max_model_len", "tokens": [ids], "token_strs": null}
    POST /detokenize  {"tokens": [ids], "model"?} -> {"prompt": str}

Same shapes as vLLM's, so a remote client (fastapply's `remote:` backend) checks that its local
tokenizer agrees with the server's the same way against either. The work runs on the model worker
thread (the tokenizer is the model's), behind any generation in flight; a prompt that cannot fit
the context whatever its tokenisation (limits.tokens_over) is refused before it is tokenised.

`token_namer(tokenizer, as_ids)` names tokens in completions' logprobs: decoded text, or
`token_id:N` when the request sets vLLM's `return_tokens_as_token_ids` (text cannot tell apart two
tokens that decode alike, or a token that is half a UTF-8 character; an id can).

This module knows request shapes and a tokenizer; nothing about decoding.
"""

from __future__ import annotations

from typing import Callable

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from fastapply import limits
from fastapply.errors import ContextLengthError
from fastapply.serve.errors import exception_response
from fastapply.serve.schemas import RequestError


class TokenizeRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    prompt: str
    model: str | None = None
    add_special_tokens: bool = True  # vLLM's default


class DetokenizeRequest(BaseModel):
    model_config = ConfigDict(extra="allow")
    tokens: list[int] = Field(min_length=0)
    model: str | None = None


def token_namer(tokenizer, as_ids: bool) -> Callable[[list[int]], str]:
    """How a one-token list is named in logprobs: `token_id:N`, or its text."""
    if as_ids:
        return lambda ids: "token_id:" + ",".join(str(int(t)) for t in ids)
    return lambda ids: tokenizer.decode(ids, skip_special_tokens=False)


def wants_ids(body) -> bool:
    """Whether a completions request asked for vLLM's `return_tokens_as_token_ids`."""
    return bool((getattr(body, "model_extra", None) or {}).get("return_tokens_as_token_ids"))


def register(app, server) -> None:
    """Add /tokenize and /detokenize to a `create_app` app (`server` is its `Server`)."""

    async def on_worker(request: Request, schema, work) -> Response:
        try:
            body = await server.parse(request, schema)
            server.check_model(body.model)
            job = server.scheduler.submit(lambda: iter([work(body, server.holder.get())]))
            answer = None
            async for item in server.scheduler.items(job):
                answer = item
            return JSONResponse(answer)
        except Exception as exc:  # noqa: BLE001 - every failure answers in OpenAI's error shape
            return exception_response(exc)

    def tokenize(body: TokenizeRequest, loaded) -> dict:
        fewest = limits.tokens_over(loaded, [body.prompt], loaded.context_length)
        if fewest is not None:  # megabytes would hold the model worker for seconds
            raise ContextLengthError(f"the prompt needs at least {fewest} tokens, beyond the model's context of "
                                     f"{loaded.context_length} tokens; nothing was tokenised")
        ids = [int(t) for t in loaded.tokenizer.encode(body.prompt, add_special_tokens=body.add_special_tokens)]
        return {"count": len(ids), "max_model_len": int(loaded.context_length), "tokens": ids, "token_strs": None}

    def detokenize(body: DetokenizeRequest, loaded) -> dict:
        size = _vocab_size(loaded.tokenizer)
        if size is not None and any(not 0 <= t < size for t in body.tokens):
            raise RequestError(f"token ids must be in [0, {size})", "tokens")
        return {"prompt": loaded.tokenizer.decode(body.tokens, skip_special_tokens=False)}

    @app.post("/tokenize")
    async def tokenize_route(request: Request):
        return await on_worker(request, TokenizeRequest, tokenize)

    @app.post("/detokenize")
    async def detokenize_route(request: Request):
        return await on_worker(request, DetokenizeRequest, detokenize)


def _vocab_size(tokenizer) -> int | None:
    try:
        return len(tokenizer)
    except TypeError:
        return None
