"""The scheduler alone: first come first served, one at a time, bounded, cancellable."""

from __future__ import annotations

import asyncio
import threading

import pytest

from fastapply.serve.scheduler import QueueFull, Scheduler


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 10))


async def drain(s, job):
    return [x async for x in s.items(job)]


def test_jobs_run_one_at_a_time_in_arrival_order():
    order, active, peak = [], [0], [0]
    lock = threading.Lock()

    def work(i):
        def gen():
            with lock:
                active[0] += 1
                peak[0] = max(peak[0], active[0])
            order.append(i)
            yield i
            with lock:
                active[0] -= 1
        return gen

    async def main():
        s = Scheduler(max_waiting=10)
        gate = threading.Event()
        first = s.submit(lambda: iter([gate.wait(5)]))  # holds the worker while the others queue
        jobs = [s.submit(work(i)) for i in range(6)]
        gate.set()
        out = [await drain(s, j) for j in [first, *jobs]]
        s.close()
        return out

    out = run(main())
    assert out[1:] == [[i] for i in range(6)]
    assert order == list(range(6)) and peak[0] == 1


def test_bounded_queue_and_cancel_frees_a_place():
    async def main():
        s = Scheduler(max_waiting=2)
        gate = threading.Event()
        running = s.submit(lambda: iter([gate.wait(5)]))
        while s.depth != (0, 1):
            await asyncio.sleep(0.01)
        a, b = s.submit(lambda: iter(["a"])), s.submit(lambda: iter(["b"]))
        with pytest.raises(QueueFull):
            s.submit(lambda: iter(["c"]))
        s.cancel(a)  # a client left while waiting: its place is free at once
        c = s.submit(lambda: iter(["c"]))
        gate.set()
        results = [await drain(s, j) for j in (running, b, c)]
        s.close()
        return results, a.started_at

    results, a_started = run(main())
    assert results == [[True], ["b"], ["c"]]
    assert a_started is None  # the cancelled job never ran


def test_cancelling_a_running_job_closes_its_generator_and_errors_travel_back():
    closed = threading.Event()

    def endless():
        try:
            while True:
                yield "tick"
        finally:
            closed.set()

    def broken():
        yield "ok"
        raise ValueError("boom")

    async def main():
        s = Scheduler(max_waiting=2)
        job = s.submit(endless)
        items = s.items(job)
        assert await items.__anext__() == "tick"
        await items.aclose()  # the consumer stops: the job is cancelled
        got = []
        with pytest.raises(ValueError, match="boom"):
            async for x in s.items(s.submit(broken)):
                got.append(x)
        s.close()
        return got

    assert run(main()) == ["ok"]
    assert closed.wait(2)
