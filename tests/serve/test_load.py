"""Behaviour under load: many concurrent streams stay separate and complete; the queue is bounded;
a client that leaves stops its generation; /health answers throughout. Loopback only, bounded."""

from __future__ import annotations

import asyncio
import re
import time

import httpx
import openai
import pytest

from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, echo_reply, running

N_CLIENTS = 24


def message(i: int) -> str:
    # distinct per client and long enough that a mixed-up stream could not pass by accident
    return f"client {i:02d} asks: " + " ".join(f"w{i}x{j}" for j in range(i % 5 + 3))


async def wait_for(predicate, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await predicate():
            return True
        await asyncio.sleep(0.02)
    return False


def metric(text: str, name: str) -> float:
    m = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


def test_many_concurrent_streaming_clients():
    model = FakeChat(delay_s=0.002)  # every forward pass takes time, so requests overlap and queue
    with running(create_app(model, max_queue=N_CLIENTS)) as url:
        async def one(client, i):
            kwargs = {"prediction": {"type": "content", "content": echo_reply(message(i))}} if i % 2 else {}
            stream = await client.chat.completions.create(
                model="fake-chat", messages=[{"role": "user", "content": message(i)}], stream=True,
                stream_options={"include_usage": True}, **kwargs,
            )
            chunks = [c async for c in stream]
            return chunks

        async def health_probe(stop: asyncio.Event, latencies: list[float]):
            async with httpx.AsyncClient(base_url=url) as http:
                while not stop.is_set():
                    t0 = time.perf_counter()
                    r = await http.get("/health")
                    latencies.append(time.perf_counter() - t0)
                    assert r.status_code == 200
                    await asyncio.sleep(0.05)

        async def main():
            stop, latencies = asyncio.Event(), []
            probe = asyncio.create_task(health_probe(stop, latencies))
            client = openai.AsyncOpenAI(base_url=url + "/v1", api_key="x", max_retries=0, timeout=60)
            t0 = time.perf_counter()
            results = await asyncio.wait_for(asyncio.gather(*(one(client, i) for i in range(N_CLIENTS))), 60)
            elapsed = time.perf_counter() - t0
            stop.set()
            await probe
            await client.close()
            return results, latencies, elapsed

        results, latencies, elapsed = asyncio.run(main())

    ids = set()
    for i, chunks in enumerate(results):
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        assert text == echo_reply(message(i)), f"client {i} got another's text or a corrupted one"
        assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
        assert len({c.id for c in chunks}) == 1  # one response per stream, never interleaved
        ids |= {c.id for c in chunks}
        usage = chunks[-1].usage
        assert usage.completion_tokens == len(echo_reply(message(i)).encode()) + 1
        accepted = usage.completion_tokens_details.accepted_prediction_tokens
        assert (accepted > 0) == bool(i % 2)
    assert len(ids) == N_CLIENTS
    # /health answered while the streams ran: a blocked event loop would hold it for about the whole
    # run; 1 s on an idle machine, a third of the run where the machine is loaded and the run slower
    assert len(latencies) >= 3 and max(latencies) < max(1.0, elapsed / 3), (
        f"/health was slow under load: {max(latencies):.3f}s of a {elapsed:.2f}s run")
    print(f"\n{N_CLIENTS} streams in {elapsed:.2f}s; /health max {max(latencies) * 1000:.0f} ms over {len(latencies)} probes")


def test_a_full_queue_answers_503_and_the_queued_requests_still_complete():
    model = FakeChat(delay_s=0.03)
    with running(create_app(model, max_queue=1)) as url:
        async def main():
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                async def health():
                    return (await http.get("/health")).json()

                body = {"messages": [{"role": "user", "content": "slow one"}], "max_tokens": 30}
                first = asyncio.create_task(http.post("/v1/chat/completions", json=body))
                assert await wait_for(lambda: _is(health, running=1))
                second = asyncio.create_task(http.post("/v1/chat/completions", json=body))
                assert await wait_for(lambda: _is(health, waiting=1))
                refused = await http.post("/v1/chat/completions", json=body)
                done = await asyncio.gather(first, second)
                return refused, done

        refused, done = asyncio.run(main())
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    assert refused.json()["error"]["code"] == "queue_full"
    assert [r.status_code for r in done] == [200, 200]
    assert all(r.json()["choices"][0]["message"]["content"] == echo_reply("slow one")[:30] for r in done)


async def _is(health, **expected):
    h = await health()
    return all(h[k] == v for k, v in expected.items())


def test_a_client_that_disconnects_stops_its_generation():
    model = FakeChat(delay_s=0.03)
    with running(create_app(model, max_queue=4)) as url:
        async def main():
            async with httpx.AsyncClient(base_url=url, timeout=30) as http:
                async def health():
                    return (await http.get("/health")).json()

                long = {"messages": [{"role": "user", "content": "x" * 300}], "max_tokens": 300}
                # 1. a stream read for a moment, then dropped
                async with http.stream("POST", "/v1/chat/completions", json={**long, "stream": True}) as r:
                    got = 0
                    async for line in r.aiter_lines():
                        got += line.startswith("data: ")
                        if got >= 3:
                            break
                stopped_stream = await wait_for(lambda: _is(health, running=0), 3.0)
                # 2. a non-streaming request whose client gives up while it runs
                with pytest.raises(httpx.ReadTimeout):
                    await http.post("/v1/chat/completions", json=long, timeout=0.3)
                stopped_plain = await wait_for(lambda: _is(health, running=0), 3.0)
                # 3. one that gives up while still queued behind another: it leaves the queue at once
                blocker = asyncio.create_task(http.post("/v1/chat/completions", json={**long, "max_tokens": 40}))
                assert await wait_for(lambda: _is(health, running=1))
                with pytest.raises(httpx.ReadTimeout):
                    await http.post("/v1/chat/completions", json=long, timeout=0.3)
                left_queue = await wait_for(lambda: _is(health, waiting=0, running=1), 1.0)
                await blocker
                metrics = (await http.get("/metrics")).text
                return stopped_stream, stopped_plain, left_queue, metrics

        stopped_stream, stopped_plain, left_queue, metrics = asyncio.run(main())
    assert stopped_stream and stopped_plain and left_queue
    assert metric(metrics, "fastapply_cancelled_generations_total") == 3
    # 300 tokens at 30 ms a pass would be 9 s per request; the dropped ones ran a fraction of that
    calls = sum(b.forward_calls for b in model.backends)
    assert calls < 40 + 2 * 60, calls
