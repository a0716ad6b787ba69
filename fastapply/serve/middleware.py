"""ASGI middleware in front of the app: the API key, the body size limit, and per-request metrics.

Plain ASGI rather than Starlette middleware so a body can be refused (413) before it is read whole,
an unauthenticated request (401) before its body is read at all, and the timing covers a stream to
its last byte. The body, once read within the limit, is replayed to the app unchanged; after it,
the app's `receive` reaches the server directly, so disconnects are still seen.

This module knows ASGI messages, the error shape and the metrics; nothing about routes' contents.
"""

from __future__ import annotations

import hmac
import time

from starlette.responses import Response

from fastapply.serve.errors import error_response
from fastapply.serve.metrics import Metrics

ENDPOINTS = ("/v1/chat/completions", "/v1/completions", "/v1/apply", "/v1/models", "/health", "/metrics")
OPEN_PATHS = ("/health",)  # probes must work without the key


class Guard:
    """Checks the API key (every path but /health), bounds the body, and times each request."""

    def __init__(self, app, *, api_key: str | None, max_body_bytes: int, metrics: Metrics):
        self.app = app
        self.server = None  # set by create_app, for tests and embedding
        self.key = api_key.encode() if api_key else None
        self.max_body = max_body_bytes
        self.metrics = metrics

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
            refusal = self._check_key(scope, path)
            if refusal is None:
                receive, refusal = await self._bounded_body(scope, receive)
            if refusal is not None:
                await refusal(scope, receive, send_observed)
            else:
                await self.app(scope, receive, send_observed)
        finally:
            if endpoint != "/metrics":
                self.metrics.observe_request(endpoint, status_box[0], time.perf_counter() - t0)

    def _check_key(self, scope, path: str):
        if self.key is None or path in OPEN_PATHS:
            return None
        header = dict(scope.get("headers") or ()).get(b"authorization", b"")
        scheme, _, given = header.partition(b" ")
        # compare_digest takes time independent of where the strings differ: no timing oracle
        if scheme.lower() == b"bearer" and hmac.compare_digest(given.strip(), self.key):
            return None
        return error_response(401, "missing or incorrect API key: send 'Authorization: Bearer <key>'",
                              code="invalid_api_key", headers={"WWW-Authenticate": "Bearer"})

    async def _bounded_body(self, scope, receive):
        """Read the body up front, refusing it (413) past the limit; replay it to the app."""
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            return receive, None
        too_big = error_response(413, f"the request body is larger than the server's limit of {self.max_body} bytes",
                                 code="request_too_large")
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            return receive, too_big
        chunks, size = [], 0
        while True:
            message = await receive()
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
