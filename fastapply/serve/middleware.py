"""ASGI middleware in front of the app: access checks, the API key, the body's limits, and metrics.

In order, for every HTTP request:

1. Host and Origin (access.py): a foreign Host or an unallowed browser Origin is refused (403).
   For an allowed Origin, Starlette's CORSMiddleware answers preflights and adds CORS headers.
2. The API key (every path but /health), compared in constant time (401).
3. A POST body must be declared `application/json` (415), is refused past `max_body_bytes` (413,
   before it is read whole when its length is declared) and must arrive within `body_timeout_s`
   (408, and the connection is closed): a half-sent body cannot hold a connection for long.

Plain ASGI rather than Starlette middleware so a body can be refused before it is read, an
unauthenticated request before its body is read at all, and the timing covers a stream to its last
byte. The body, once read within the limits, is replayed to the app unchanged; after it, the app's
`receive` reaches the server directly, so disconnects are still seen.

This module knows ASGI messages, the error shape and the metrics; nothing about routes' contents.
"""

from __future__ import annotations

import asyncio
import hmac
import time

from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from fastapply.serve import DEFAULT_BODY_TIMEOUT_S
from fastapply.serve.access import AccessPolicy, content_type_refusal
from fastapply.serve.errors import error_response
from fastapply.serve.metrics import Metrics

ENDPOINTS = ("/v1/chat/completions", "/v1/completions", "/v1/apply", "/v1/apply/chat/completions",
             "/v1/code/apply", "/v1/models", "/health", "/metrics")
OPEN_PATHS = ("/health",)  # probes must work without the key


class Guard:
    """Access checks, the API key, body limits, and per-request timing, around the app."""

    def __init__(self, app, *, api_key: str | None, max_body_bytes: int, metrics: Metrics,
                 access: AccessPolicy = AccessPolicy(), body_timeout_s: float = DEFAULT_BODY_TIMEOUT_S):
        self.app = app
        self.server = None  # set by create_app, for tests and embedding
        self.key = api_key.encode() if api_key else None
        self.max_body = max_body_bytes
        self.body_timeout_s = body_timeout_s
        self.metrics = metrics
        self.access = access
        self.cors = None
        if access.allowed_origins:
            self.cors = CORSMiddleware(self._checked, allow_origins=list(access.allowed_origins),
                                       allow_methods=["GET", "POST"], allow_headers=["Authorization", "Content-Type"],
                                       max_age=600)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        t0 = time.perf_counter()
        path = scope.get("path", "")
        endpoint = path if path in ENDPOINTS else "other"
        status_box = [500]

        async def send_observed(message):
            if message["type"] == "http.response.start":
                status_box[0] = message["status"]
            await send(message)

        try:
            headers = dict(scope.get("headers") or ())
            refusal = self.access.refusal(headers)
            if refusal is not None:
                status, message, code = refusal
                await error_response(status, message, code=code)(scope, receive, send_observed)
            elif self.cors is not None and b"origin" in headers:
                await self.cors(scope, receive, send_observed)
            else:
                await self._checked(scope, receive, send_observed)
        finally:
            if endpoint != "/metrics":
                self.metrics.observe_request(endpoint, status_box[0], time.perf_counter() - t0)

    async def _checked(self, scope, receive, send):
        """The key, the content type and the body's limits; then the app."""
        headers = dict(scope.get("headers") or ())
        refusal = self._check_key(headers, scope.get("path", ""))
        if refusal is None:
            bad_type = content_type_refusal(scope.get("method", "").encode(), headers)
            if bad_type is not None:
                status, message, code = bad_type
                refusal = error_response(status, message, code=code)
        if refusal is None:
            receive, refusal = await self._bounded_body(scope, receive, headers)
        if refusal is not None:
            await refusal(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _check_key(self, headers: dict[bytes, bytes], path: str):
        if self.key is None or path in OPEN_PATHS:
            return None
        header = headers.get(b"authorization", b"")
        scheme, _, given = header.partition(b" ")
        # compare_digest takes time independent of where the strings differ: no timing oracle
        if scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self.key):
            return None
        return error_response(401, "missing or incorrect API key: send 'Authorization: Bearer <key>'",
                              code="invalid_api_key", headers={"WWW-Authenticate": "Bearer"})

    async def _bounded_body(self, scope, receive, headers: dict[bytes, bytes]):
        """Read the body up front within the size and time limits, refusing it (413, 408) past
        them; replay it to the app."""
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            return receive, None
        too_big = error_response(413, f"the request body is larger than the server's limit of {self.max_body} bytes",
                                 code="request_too_large")
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            return receive, too_big
        chunks, size = [], 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout_s
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.0))
            except asyncio.TimeoutError:
                return receive, error_response(
                    408, f"the request body did not arrive within {self.body_timeout_s:g} s", code="request_timeout",
                    headers={"Connection": "close"})
            if message["type"] == "http.disconnect":
                return receive, Response(status_code=499)  # nobody to answer
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_body:
                return receive, too_big
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()  # after the body: only the disconnect message remains

        return replay, None
