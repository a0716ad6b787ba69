"""OpenAI's error shape, `{"error": {"message", "type", "param", "code"}}`, and which status each failure gets.

Every failure a client can cause maps to a 4xx with a one-line message naming the field at fault;
server-side conditions (busy, model failed to load, shutting down) map to 503; anything else is a bug
and still answers in the same shape with 500, never a traceback. This module knows exception types
and JSON shapes; nothing about routes or models.
"""

from __future__ import annotations

import json

from pydantic import ValidationError
from starlette.responses import JSONResponse

from fastapply.errors import (
    ContextLengthError,
    FastApplyError,
    InputError,
    MissingDependencyError,
    UnknownModelError,
)
from fastapply.serve.scheduler import QueueFull, SchedulerClosed
from fastapply.serve.schemas import RequestError

_TYPES = {401: "invalid_request_error", 404: "invalid_request_error", 429: "rate_limit_error"}


def error_body(message: str, *, status: int = 400, param: str | None = None, code: str | None = None,
               extra: dict | None = None) -> dict:
    """OpenAI's error object; `extra` adds fields to it (`refusal`: an apply refusal as data)."""
    kind = _TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {"error": {"message": message, "type": kind, "param": param, "code": code, **(extra or {})}}


def error_response(status: int, message: str, *, param: str | None = None, code: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(message, status=status, param=param, code=code), status_code=status, headers=headers)


def validation_message(exc: ValidationError) -> tuple[str, str | None]:
    """The first pydantic error as (message, param), param in OpenAI's dotted style (`messages[0].role`)."""
    # a union (str | list of parts) reports one error per member; the deepest is the most specific
    errors = exc.errors(include_url=False)
    first = max(errors, key=lambda e: len(e.get("loc", ())))
    param = ""
    for part in first.get("loc", ()):
        if isinstance(part, int):
            param += f"[{part}]"
        elif not (isinstance(part, str) and (part.startswith("function-") or part in {"str", "list[TextPart]", "list[str]", "list[int]", "list[dict[str,any]]"})):
            # pydantic names union members in the location; they mean nothing to a client
            param += ("." if param else "") + str(part)
    param = param or None
    msg = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        return f"missing required parameter: {param!r}", param
    if first.get("type") == "extra_forbidden":
        return f"unrecognized parameter: {param!r}", param
    return f"invalid value for {param!r}: {msg}" if param else f"invalid request body: {msg}", param


def from_exception(exc: BaseException) -> tuple[int, dict, dict[str, str]]:
    """(status, body, headers) for any exception raised while serving a request."""
    if isinstance(exc, RequestError):
        return exc.status, error_body(exc.message, status=exc.status, param=exc.param, code=exc.code,
                                      extra=getattr(exc, "extra", None)), {}
    if isinstance(exc, ValidationError):
        message, param = validation_message(exc)
        return 400, error_body(message, param=param), {}
    if isinstance(exc, json.JSONDecodeError):
        return 400, error_body(
            f"we could not parse the JSON body of your request ({exc.msg} at line {exc.lineno} column {exc.colno})",
            code="invalid_json",
        ), {}
    if isinstance(exc, QueueFull):
        msg = f"the server is busy: {exc}; retry shortly"
        return 503, error_body(msg, status=503, code="queue_full"), {"Retry-After": "1"}
    if isinstance(exc, SchedulerClosed):
        return 503, error_body(str(exc), status=503, code="shutting_down"), {}
    if isinstance(exc, ContextLengthError):
        return 400, error_body(str(exc), param="messages", code="context_length_exceeded"), {}
    if isinstance(exc, (UnknownModelError, MissingDependencyError)):
        # the served model failed to load: the server cannot answer, whatever the request
        return 503, error_body(f"the model is unavailable: {exc}", status=503, code="model_unavailable"), {}
    if isinstance(exc, (InputError, FastApplyError)):
        return 400, error_body(str(exc)), {}
    return 500, error_body(f"internal error ({type(exc).__name__}); see the server log", status=500), {}


def exception_response(exc: BaseException) -> JSONResponse:
    status, body, headers = from_exception(exc)
    return JSONResponse(body, status_code=status, headers=headers)
