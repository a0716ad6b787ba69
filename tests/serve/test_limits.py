"""Bounded work: a half-sent body is dropped after the read timeout, connections are capped, log
probabilities are computed for a bounded number of tokens, and an abandoned scoring request stops
within one scoring pass instead of holding the model worker."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, echo_reply, running

HEAD = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"


def half_sent(url: str, path: str = "/v1/chat/completions") -> socket.socket:
    """A connection that declares a 1000-byte body and sends 10 bytes of it."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 "Content-Length: 1000\r\n\r\n{\"messages".encode())
    return sock


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    while True:
        data = sock.recv(65536)
        if not data:
            return b"".join(chunks)
        chunks.append(data)


def test_a_half_sent_body_is_dropped_after_the_timeout():
    with running(create_app(FakeChat(), body_timeout_s=0.5)) as url:
        t0 = time.perf_counter()
        sock = half_sent(url)
        answer = read_all(sock)  # returns when the server closes the connection
        took = time.perf_counter() - t0
        sock.close()
        ok = httpx.post(url + "/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}],
                                                              "max_tokens": 3})
    assert answer.startswith(b"HTTP/1.1 408") and b'"request_timeout"' in answer
    assert 0.4 < took < 3.0, took
    assert ok.status_code == 200


def test_connections_are_capped_and_freed_by_the_body_timeout():
    # uvicorn's limit_concurrency counts open connections, the new one included
    with running(create_app(FakeChat(), body_timeout_s=1.0), limit_concurrency=3) as url:
        held = []
        for _ in range(2):
            held.append(half_sent(url))
            time.sleep(0.1)  # accepted, and its request is being read
        refused = httpx.get(url + "/v1/models")
        answers = []
        for sock in held:
            answers.append(read_all(sock))
            sock.close()
        after = httpx.get(url + "/v1/models")
    assert refused.status_code == 503
    assert all(a.startswith(b"HTTP/1.1 408") for a in answers)  # the held ones were read, then timed out
    assert after.status_code == 200


def test_scored_tokens_are_capped_with_a_clear_400():
    with running(create_app(FakeChat(), max_scored_tokens=50)) as url, httpx.Client(base_url=url, timeout=30) as http:
        long_prompt = HEAD + "x" * 60
        r = http.post("/v1/completions", json={"prompt": long_prompt, "echo": True, "max_tokens": 0, "logprobs": 1})
        assert r.status_code == 400 and r.json()["error"]["param"] == "logprobs"
        assert "at most 50 tokens" in r.json()["error"]["message"]
        assert http.post("/v1/completions", json={"prompt": HEAD, "echo": True, "max_tokens": 0,
                                                  "logprobs": 1}).status_code == 200
        r = http.post("/v1/completions", json={"prompt": HEAD, "max_tokens": 51, "logprobs": 1})
        assert r.status_code == 400 and r.json()["error"]["param"] == "logprobs"
        chat = {"messages": [{"role": "user", "content": "a long question " * 4}], "logprobs": True}
        r = http.post("/v1/chat/completions", json={**chat, "max_tokens": 51})
        assert r.status_code == 400 and r.json()["error"]["param"] == "max_tokens"
        # without max_tokens, a logprobs answer stops at the cap instead of running to the context
        r = http.post("/v1/chat/completions", json=chat)
        assert r.status_code == 200 and len(echo_reply("a long question " * 4)) > 50
        choice = r.json()["choices"][0]
        assert choice["finish_reason"] == "length" and r.json()["usage"]["completion_tokens"] == 50
        assert len(choice["logprobs"]["content"]) == 50


def test_an_abandoned_scoring_request_does_not_hold_the_worker():
    model = FakeChat(token_delay_s=0.001)  # a forward pass costs 1 ms per token in it
    prompt = HEAD + "y" * 2500  # scoring it: 2.5 s of forward passes
    with running(create_app(model)) as url, httpx.Client(base_url=url, timeout=30) as http:
        body = {"prompt": prompt, "echo": True, "max_tokens": 0, "logprobs": 2}
        t0 = time.perf_counter()
        full = http.post("/v1/completions", json=body)
        whole = time.perf_counter() - t0
        assert full.status_code == 200 and len(full.json()["choices"][0]["logprobs"]["tokens"]) > 2500
        with pytest.raises(httpx.ReadTimeout):  # the client gives up a moment after sending
            # another prompt: the same one again would come from the scoring prefix cache at once
            http.post("/v1/completions", json={**body, "prompt": HEAD + "z" * 2500}, timeout=0.4)
        t0 = time.perf_counter()
        nxt = http.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}], "max_tokens": 2})
        waited = time.perf_counter() - t0
        metrics = http.get("/metrics").text
    print(f"\nscoring {len(prompt)} tokens took {whole:.2f}s; after abandoning it the next request took {waited:.2f}s")
    assert nxt.status_code == 200
    assert whole > 2.0, whole  # the scoring really is long
    assert waited < 0.6, f"the next request waited {waited:.2f}s behind an abandoned {whole:.2f}s scoring pass"
    assert "fastapply_cancelled_generations_total 1.0" in metrics
