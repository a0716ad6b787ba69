"""The HTTP server: OpenAI-compatible chat and text completions with Predicted Outputs, and /v1/apply.

    POST /v1/chat/completions   messages + optional prediction -> the answer (JSON or SSE stream), logprobs;
                                Morph-style apply messages -> the merged file (compat.py)
    POST /v1/completions        prompt + optional prediction, echo, logprobs (prompt scoring)
    POST /v1/apply              original + snippet (+ instruction) -> the merged file and its path
    POST /v1/code/apply         Relace's apply shape; POST /v1/apply/chat/completions: their OpenAI-style one
    POST /tokenize, /detokenize vLLM's tokenizer endpoints (tokens.py)
    GET  /v1/models, /health, /metrics (Prometheus text)

`create_app(loaded_or_loader, ...)` takes a loaded model (anything shaped like `models.load`'s
result: `.tokenizer`, `.context_length`, `.new_backend()`, `.name`) or a zero-argument loader,
called on the worker thread at startup so the event loop (and /health) answers while it loads.
The handlers live in completions.py, edits.py and compat.py; the shared plumbing in server.py.

This module wires routes, error handlers and middleware; it holds no request logic.
"""

from __future__ import annotations

import json
import logging
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from fastapply.errors import FastApplyError
from fastapply.serve import (
    DEFAULT_BODY_TIMEOUT_S,
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_QUEUE,
    DEFAULT_MAX_SCORED_TOKENS,
    DEFAULT_MERGE_TIMEOUT_S,
    DEFAULT_MERGE_WORKERS,
    compat,
    completions,
    edits,
    tokens,
)
from fastapply.serve.access import AccessPolicy
from fastapply.serve.errors import error_response, exception_response
from fastapply.serve.middleware import Guard
from fastapply.serve.scheduler import QueueFull, SchedulerClosed
from fastapply.serve.schemas import RequestError
from fastapply.serve.server import ClientGone, Limits, Server

log = logging.getLogger("fastapply.serve")


def create_app(
    loaded_or_loader: Any,
    *,
    model_name: str | None = None,
    aliases: tuple[str, ...] = (),
    api_key: str | None = None,
    max_queue: int = DEFAULT_MAX_QUEUE,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S,
    max_scored_tokens: int = DEFAULT_MAX_SCORED_TOKENS,
    merge_workers: int = DEFAULT_MERGE_WORKERS,
    merge_timeout_s: float | None = DEFAULT_MERGE_TIMEOUT_S,
    host: str | None = None,
    allow_hosts: tuple[str, ...] = (),
    allow_origins: tuple[str, ...] = (),
) -> Any:
    """Build the ASGI app. `max_queue` bounds requests waiting behind the running one (more get 503);
    `host` is the address the server binds (None: loopback), for the Host check with `allow_hosts`;
    `allow_origins` are the browser origins allowed to call it (none by default)."""
    limits = Limits(max_queue=max_queue, max_scored_tokens=max_scored_tokens, merge_workers=merge_workers,
                    merge_timeout_s=merge_timeout_s)
    server = Server(loaded_or_loader, model_name=model_name, aliases=tuple(aliases), limits=limits)

    @asynccontextmanager
    async def lifespan(_app):
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(title="fastapply", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.server = server

    async def _error(request: Request, exc: Exception):
        if isinstance(exc, ClientGone):
            return Response(status_code=499)  # nginx's "client closed request": nobody reads it
        response = exception_response(exc)
        if response.status_code == 500:
            log.error("unexpected error on %s", request.url.path, exc_info=exc)
        return response

    for kind in (RequestError, ValidationError, json.JSONDecodeError, ClientGone, FastApplyError,
                 QueueFull, SchedulerClosed):
        app.add_exception_handler(kind, _error)

    def answering_errors(handler):
        # an unexpected exception must still get OpenAI's shape; left to Starlette's last-resort
        # handler it would also be re-raised into the server, which drops the connection
        async def wrapped(request: Request):  # no functools.wraps: FastAPI reads the signature
            try:
                return await handler(server, request)
            except Exception as exc:  # noqa: BLE001
                return await _error(request, exc)

        wrapped.__name__ = handler.__name__
        return wrapped

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        message = {404: f"unknown endpoint {request.method} {request.url.path}",
                   405: f"method {request.method} is not allowed on {request.url.path}"}.get(exc.status_code, str(exc.detail))
        return error_response(exc.status_code, message, code={404: "not_found"}.get(exc.status_code))

    chat = answering_errors(completions.chat)
    app.add_api_route("/v1/chat/completions", chat, methods=["POST"])
    app.add_api_route("/v1/apply/chat/completions", chat, methods=["POST"])  # Relace's OpenAI-style base URL
    app.add_api_route("/v1/completions", answering_errors(completions.completions), methods=["POST"])
    app.add_api_route("/v1/apply", answering_errors(edits.apply), methods=["POST"])
    app.add_api_route("/v1/code/apply", answering_errors(compat.relace_apply), methods=["POST"])

    @app.get("/v1/models")
    async def models():
        return server.models()

    @app.get("/v1/models/{model_id:path}")
    async def model(model_id: str):
        server.check_model(model_id)
        return server.models()["data"][0]

    tokens.register(app, server)  # /tokenize and /detokenize (vLLM's shapes)

    @app.get("/health")
    async def health():
        body, status = server.health()
        return JSONResponse(body, status_code=status)

    @app.get("/metrics")
    async def metrics():
        return Response(server.metrics.render(), media_type=server.metrics.content_type)

    access = AccessPolicy(bound_host=host, allowed_hosts=tuple(allow_hosts), allowed_origins=tuple(allow_origins))
    guarded = Guard(app, api_key=api_key, max_body_bytes=max_body_bytes, metrics=server.metrics, access=access,
                    body_timeout_s=body_timeout_s)
    guarded.server = server  # for tests and embedding
    return guarded
