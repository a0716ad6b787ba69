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


INSTANT = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"  # the instant merge takes it


def test_an_instant_merge_answers_while_the_worker_is_busy_and_the_queue_is_full():
    # issue 8 bug 3: the merge used to wait behind any running generation, and got 503 when full
    import asyncio
    import time

    from tests.serve.support import FakeChat

    with running(create_app(FakeChat(delay_s=0.05), max_queue=1)) as url:
        async def main():
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                async def depth():
                    return (await http.get("/health")).json()

                async def until(**want):
                    for _ in range(200):
                        h = await depth()
                        if all(h[k] == v for k, v in want.items()):
                            return
                        await asyncio.sleep(0.01)
                    raise AssertionError(f"never reached {want}")

                slow = {"messages": [{"role": "user", "content": "hold the worker"}], "max_tokens": 40}
                running_one = asyncio.create_task(http.post("/v1/chat/completions", json=slow))
                await until(running=1)
                waiting_one = asyncio.create_task(http.post("/v1/chat/completions", json=slow))
                await until(waiting=1)
                refused = await http.post("/v1/chat/completions", json=slow)  # the queue is full
                t0 = time.perf_counter()
                merged = await http.post("/v1/apply", json={"original": ORIGINAL, "snippet": INSTANT})
                took = time.perf_counter() - t0
                ahead = not running_one.done()  # the generation holding the worker (about 2 s) has not finished
                needs_model = await http.post("/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET,
                                                                 "strategy": "model"})
                still = (await depth())["running"]
                await asyncio.gather(running_one, waiting_one)
                return refused, merged, took, ahead, needs_model, still

        refused, merged, took, ahead, needs_model, still = asyncio.run(main())
    assert refused.status_code == 503
    assert merged.status_code == 200 and merged.json()["text"] == EXPECTED and merged.json()["path"] == "instant"
    # it answered before the running generation ended (not a timing bound: a loaded machine slows the merge, and a
    # merge that waited for the worker would come back only after that generation's 40 tokens of 0.05 s each)
    assert ahead, f"the instant merge took {took:.2f}s: it waited for the model"
    assert still == 1  # it answered while the generation was still running
    assert needs_model.status_code == 503  # an edit that needs the model still queues (and is refused)


def test_a_streamed_instant_merge_needs_no_worker(http):
    with http.stream("POST", "/v1/apply", json={"original": ORIGINAL, "snippet": INSTANT, "stream": True}) as r:
        events = [line[6:] for line in r.iter_lines() if line.startswith("data: ")]
    payloads = [json.loads(e) for e in events[:-1]]
    assert events[-1] == "[DONE]" and payloads[0]["delta"] == EXPECTED and payloads[-1]["path"] == "instant"


def test_auto_falls_back_to_the_model_with_the_refusal_reported(http):
    refused = "# ... existing code ...\n    return 10\n# ... existing code ...\n"
    body = http.post("/v1/apply", json={"original": ORIGINAL, "snippet": refused}).json()
    assert body["path"] == "model" and body["text"] == EXPECTED and body["refused_reason"]
    assert body["complete"] is True and body["guard"] is None and body["guard_reason"] is None
    assert body["draft"] in ("original", "candidate+original")


@pytest.mark.parametrize("stream", [False, True])
def test_a_model_answer_failing_a_guard_is_reported_incomplete(http, stream):
    # the fake model writes EXPECTED, which lacks the snippet's new `def k():`: the guard catches it
    refused = "# ... existing code ...\ndef f():\n    return 10\n\n\ndef k():\n# ... existing code ...\n"
    request = {"original": ORIGINAL, "snippet": refused, "stream": stream}
    if stream:
        with http.stream("POST", "/v1/apply", json=request) as r:
            events = [line[6:] for line in r.iter_lines() if line.startswith("data: ")]
        body = json.loads(events[-2])
    else:
        body = http.post("/v1/apply", json=request).json()
    assert body["path"] == "model" and body["complete"] is False
    assert body["guard"] == "snippet_lines" and "def k():" in body["guard_reason"]


@pytest.mark.parametrize("seed", [-1, 0, 7, 2**64 - 1])
def test_seeds_including_minus_one_for_random(http, seed):
    r = http.post("/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET, "strategy": "model",
                                     "temperature": 0.5, "seed": seed})
    assert r.status_code == 200 and r.json()["complete"] in (True, False)


@pytest.mark.parametrize("seed", [-2, 2**64, 1.5, "x"])
def test_bad_seeds_are_400(http, seed):
    r = http.post("/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET, "seed": seed})
    assert r.status_code == 400 and r.json()["error"]["param"] == "seed"


def test_an_oversized_snippet_is_refused_before_any_merge():
    import time

    with running(create_app(FakeLoaded(EXPECTED))) as url:
        t0 = time.perf_counter()
        r = httpx.post(url + "/v1/apply", json={"original": ORIGINAL, "snippet": "x = 1\n" * 200_000}, timeout=30)
        took = time.perf_counter() - t0
    assert r.status_code == 400 and "the snippet is 1200000 bytes" in r.json()["error"]["message"]
    assert took < 2.0
