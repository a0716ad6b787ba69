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


def response(sock: socket.socket) -> bytes:
    """One whole HTTP response (headers and a Content-Length body) from `sock`."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


PARTIAL = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # the headers never end


def test_connections_that_never_finish_their_headers_neither_count_nor_stay():
    # issue 18 item 5: --max-connections of them made every request, /health included, a 503
    with running(create_app(FakeChat()), limit_concurrency=4, http=with_header_timeout(1.0)) as url:
        held = [connect(url), connect(url, PARTIAL), connect(url, b"GE"), connect(url, PARTIAL), connect(url, PARTIAL)]
        time.sleep(0.2)
        t0 = time.perf_counter()
        during = httpx.get(url + "/health")  # five held on a limit of four: not counted
        took = time.perf_counter() - t0
        closed = [closed_within(sock, 5.0) for sock in held]
        for sock in held:
            sock.close()
    assert during.status_code == 200 and took < 1.0
    assert all(c is not None and c < 2.0 for c in closed), closed  # and closed after the timeout


def test_connections_with_a_request_under_way_still_count():
    # the limit holds for connections whose headers are in (their bodies are awaited)
    head = b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" \
           b"Content-Length: 100\r\n\r\n{"
    with running(create_app(FakeChat(), body_timeout_s=5.0), limit_concurrency=3,
                 http=with_header_timeout(5.0)) as url:
        held = [connect(url, head) for _ in range(3)]
        time.sleep(0.3)
        refused = httpx.get(url + "/health")
        for sock in held:
            sock.close()
    assert refused.status_code == 503


def test_a_slow_but_complete_request_and_keep_alive_requests_are_not_cut():
    with running(create_app(FakeChat()), http=with_header_timeout(0.6)) as url:
        sock = connect(url)
        for piece in (b"GET /health HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", b"\r\n"):
            time.sleep(0.15)  # 0.45 s in all: within the timeout
            sock.sendall(piece)
        first = response(sock)
        time.sleep(0.4)  # idle between requests: the keep-alive timeout's business (5 s), not ours
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        second = response(sock)
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
