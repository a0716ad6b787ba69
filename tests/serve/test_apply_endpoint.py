"""POST /v1/apply: the editor plug-in's endpoint, on the pipeline's fake apply model."""

from __future__ import annotations

import json

import httpx
import pytest

from fastapply.serve.app import create_app
from tests.fakes import FakeLoaded
from tests.serve.support import running

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
SNIPPET = "def f():\n    return 10\n# ... existing code ...\n"


@pytest.fixture(scope="module")
def http():
    with running(create_app(FakeLoaded(EXPECTED))) as url, httpx.Client(base_url=url, timeout=30) as c:
        yield c


def test_model_path_returns_the_file_and_statistics(http):
    r = http.post("/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET, "strategy": "model"})
    assert r.status_code == 200
    body = r.json()
    assert body["text"] == EXPECTED and body["path"] == "model" and body["complete"] is True
    assert body["model"] == "fake-apply-model" and body["draft"] == "original"
    stats = body["stats"]
    assert stats["accepted_prediction_tokens"] > 0.8 * stats["completion_tokens"]
    assert stats["forward_passes"] < stats["completion_tokens"] / 4


def test_auto_takes_the_instant_path_when_the_merge_is_sure(http):
    snippet = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"
    body = http.post("/v1/apply", json={"original": ORIGINAL, "snippet": snippet}).json()
    assert body["path"] == "instant" and body["text"] == EXPECTED and body["method"] == "lazy"


def test_instant_refusal_is_reported_not_guessed(http):
    body = http.post("/v1/apply", json={"original": "a\nb\na\nb\n", "strategy": "instant",
                                         "snippet": "# ... existing code ...\na\nB\n# ... existing code ...\n"}).json()
    assert body["path"] == "instant" and body["complete"] is False and body["refused_reason"]


def test_streaming_apply_sends_deltas_then_the_result(http):
    events = []
    with http.stream("POST", "/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET, "strategy": "model",
                                                "stream": True}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith("data: "):
                events.append(line[len("data: "):])
    assert events[-1] == "[DONE]"
    payloads = [json.loads(e) for e in events[:-1]]
    deltas = [p["delta"] for p in payloads if p["object"] == "fastapply.apply.delta"]
    assert len(deltas) > 1 and "".join(deltas) == EXPECTED
    assert payloads[-1]["object"] == "fastapply.apply" and payloads[-1]["text"] == EXPECTED


def test_a_file_beyond_the_context_is_a_400():
    with running(create_app(FakeLoaded(EXPECTED, context_length=120))) as url:
        r = httpx.post(url + "/v1/apply", json={"original": ORIGINAL * 5, "snippet": SNIPPET, "strategy": "model"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "context_length_exceeded"
