"""uvicorn's h11 HTTP protocol with a header read timeout: a request's headers must arrive in time.

uvicorn times out an idle keep-alive connection between requests (`timeout_keep_alive`), but not
a connection that has not finished sending a request's headers: one that connects and sends
nothing, or half a request line, is held for as long as the client likes. Every held connection
counts against `--max-connections` (uvicorn's `limit_concurrency`), so 64 of them (the default)
made every request, /health included, answer 503 for as long as they were held (issue 18, item 5).
Our ASGI middleware (middleware.py) cannot help: the app is only called once the headers are in.

Two changes, both in `with_header_timeout(seconds)`'s subclass of uvicorn's `H11Protocol`:

1. A connection is counted against `--max-connections` only once its first request's headers are
   in (the end of the header block has arrived); before that it costs a socket and no work, and
   uvicorn never refused sockets beyond the limit anyway (it answers 503 once a request is read).
   So connections that have not sent a request make no one else's request a 503.
2. A header read timeout: a timer armed when a connection opens and whenever a request's first
   bytes arrive after the previous response, disarmed when the request's headers are complete;
   if it fires first, the connection is closed (as nginx's `client_header_timeout` does, with no
   response: a client that has not sent a request reads none). So a socket that never sends a
   request is held for seconds, not for ever.

The body has its own limit (middleware.py's `--body-timeout`), the idle time between requests
uvicorn's keep-alive timeout. Passed to uvicorn as `http=...` (the h11 implementation, always,
whether or not httptools is installed).

This module knows uvicorn's h11 protocol (its `cycle`, `transport` and `loop` attributes, stable
since uvicorn 0.29); nothing about routes or models.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

from fastapply.serve import DEFAULT_HEADER_TIMEOUT_S


class HeaderTimeoutProtocol(H11Protocol):
    """H11Protocol that counts a connection once its first request's headers are in, and closes
    one whose request headers take over `header_timeout_s`."""

    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S

    _header_timer: asyncio.TimerHandle | None = None
    _counted = False  # in uvicorn's connections (the concurrency limit's count) yet
    _tail = b""  # the last bytes before `data`, to find a header block's end across chunks

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.connections.discard(self)  # counted when its first request's headers are in
        self._arm()

    def data_received(self, data: bytes) -> None:
        if not self._counted:
            seen = self._tail + data
            if b"\r\n\r\n" in seen or b"\n\n" in seen:
                self._counted = True
                self.connections.add(self)  # before uvicorn reads the request and checks the limit
            self._tail = seen[-3:]
        super().data_received(data)
        if self._awaiting_headers():
            if self._header_timer is None:
                self._arm()  # the first bytes of a request after a response: its headers are due
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # between requests the keep-alive timeout applies; ours starts again with the next bytes
        self._disarm()

    def _awaiting_headers(self) -> bool:
        """No request of this connection is in progress: the next bytes are a request's headers."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if self._awaiting_headers() and not self.transport.is_closing():
            self.logger.warning("closing a connection whose request headers did not arrive within %g s",
                                self.header_timeout_s)
            self.transport.close()


def with_header_timeout(seconds: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class for uvicorn's `http=` with this header timeout."""
    return type("HeaderTimeoutProtocol", (HeaderTimeoutProtocol,), {"header_timeout_s": float(seconds)})
