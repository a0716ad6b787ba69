"""A server built from a loader: it answers at once, loads on the worker, and reports a failed load."""

from __future__ import annotations

import threading
import time

import httpx

from fastapply.errors import UnknownModelError
from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, running

CHAT = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 3}


def test_health_says_loading_until_the_model_is_ready_and_requests_wait_for_it():
    release = threading.Event()
    loaded_on = []

    def loader():
        loaded_on.append(threading.current_thread().name)
        release.wait(5)
        return FakeChat()

    with running(create_app(loader, model_name="fake-chat")) as url, httpx.Client(base_url=url, timeout=10) as http:
        h = http.get("/health")
        assert h.status_code == 503 and h.json()["status"] == "loading"
        threading.Timer(0.2, release.set).start()
        t0 = time.perf_counter()
        r = http.post("/v1/chat/completions", json=CHAT)  # queued behind the load
        assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "You"
        assert time.perf_counter() - t0 >= 0.15
        assert http.get("/health").json()["status"] == "ok"
    assert loaded_on == ["fastapply-model-worker"]  # off the event loop


def test_a_model_that_fails_to_load_gives_503_not_500():
    def loader():
        raise UnknownModelError("could not load model 'nope': no such file")

    with running(create_app(loader, model_name="nope")) as url, httpx.Client(base_url=url, timeout=10) as http:
        deadline = time.monotonic() + 5
        while http.get("/health").json()["status"] == "loading" and time.monotonic() < deadline:
            time.sleep(0.02)
        h = http.get("/health")
        assert h.status_code == 503 and h.json()["status"] == "error" and "no such file" in h.json()["error"]
        r = http.post("/v1/chat/completions", json=CHAT)
        assert r.status_code == 503 and r.json()["error"]["code"] == "model_unavailable"
        # the instant path needs no model, so /v1/apply still merges
        a = http.post("/v1/apply", json={"original": "def f():\n    return 1\n", "snippet": "def f():\n    return 2\n"})
        assert a.status_code == 200 and a.json()["text"] == "def f():\n    return 2\n"
