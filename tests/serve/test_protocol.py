"""The header read timeout (protocol.py), with raw sockets: connections that never finish a
request's headers are closed, so they cannot hold --max-connections (issue 18, item 5)."""

from __future__ import annotations

import socket
import time

import httpx

from fastapply.serve.app import create_app
from fastapply.serve.protocol import with_header_timeout
from tests.serve.support import FakeChat, running


def connect(url: str, sent: bytes = b"") -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    if sent:
        sock.sendall(sent)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closes `sock` (what it sent is discarded), None if it stays open."""
    t0 = time.perf_counter()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except socket.timeout:
        return None
    except ConnectionResetError:
        pass
    return time.perf_counter() - t0


PARTIAL = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # the headers never end


def test_connections_that_never_finish_their_headers_are_closed_and_free_the_limit():
    # issue 18 item 5: --max-connections of them made every request, /health included, a 503
    with running(create_app(FakeChat()), limit_concurrency=4, http=with_header_timeout(0.5)) as url:
        held = [connect(url), connect(url, PARTIAL), connect(url, b"GE"), connect(url, PARTIAL)]
        time.sleep(0.2)
        during = httpx.get(url + "/health")  # over the limit while they are held
        closed = [closed_within(sock, 5.0) for sock in held]
        t0 = time.perf_counter()
        after = httpx.get(url + "/health")
        took = time.perf_counter() - t0
        for sock in held:
            sock.close()
    assert during.status_code == 503
    assert all(c is not None and c < 2.0 for c in closed), closed
    assert after.status_code == 200 and took < 1.0


def test_a_slow_but_complete_request_and_keep_alive_requests_are_not_cut():
    with running(create_app(FakeChat()), http=with_header_timeout(0.6)) as url:
        sock = connect(url)
        for piece in (b"GET /health HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"\r\n"):
            time.sleep(0.15)  # 0.45 s in all: within the timeout
            sock.sendall(piece)
        first = sock.recv(65536)
        time.sleep(0.4)  # idle between requests: the keep-alive timeout's business (5 s), not ours
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        second = sock.recv(65536)
        time.sleep(0.4)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # a second request's headers stall
        cut = closed_within(sock, 5.0)
        sock.close()
    assert first.startswith(b"HTTP/1.1 200") and second.startswith(b"HTTP/1.1 200")
    assert cut is not None and cut < 2.0


def test_a_request_whose_app_takes_long_is_not_cut():
    # the timer covers the headers only: a generation that outlasts it is answered
    with running(create_app(FakeChat(delay_s=0.1)), http=with_header_timeout(0.3)) as url:
        r = httpx.post(url + "/v1/chat/completions", timeout=30,
                       json={"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8})
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"]
