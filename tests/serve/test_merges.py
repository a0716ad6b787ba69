"""Instant merges in killable worker processes (merges.py): bounded, time-limited, cancelled with
the client, and never in the way of /health (issue 18, item 3)."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from fastapply.merge.instant import instant_merge
from fastapply.serve.app import create_app
from fastapply.serve.merges import MergePool
from tests.fakes import FakeLoaded
from tests.serve.support import running

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
SNIPPET = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"


def slow_edit(functions: int = 25_000) -> tuple[str, str]:
    """An edit of one function in a file of `functions` (25,000: 1.2 MB, several seconds of merge)."""
    lines = []
    for i in range(functions):
        lines += [f"def f{i}(x):", f"    y = x * {i}", "    return y + 1", ""]
    middle = functions // 2
    snippet = f"# ... existing code ...\ndef f{middle}(x):\n    y = x * 3\n    return y + 2\n# ... existing code ...\n"
    return "\n".join(lines) + "\n", snippet


def test_the_pool_answers_what_the_instant_merge_answers():
    async def main():
        pool = MergePool(1, timeout_s=60)
        try:
            first = await pool.merge(ORIGINAL, SNIPPET, None, "a.py")
            refused = await pool.merge("a\nb\na\nb\n", "# ... existing code ...\na\nB\n# ... existing code ...\n")
            return first, refused, pool.processes, pool.killed
        finally:
            await pool.close()

    (first, seconds), (refused, _), processes, killed = asyncio.run(main())
    assert first == instant_merge(ORIGINAL, SNIPPET, path="a.py") and first.merged and seconds >= 0
    assert refused == instant_merge("a\nb\na\nb\n", "# ... existing code ...\na\nB\n# ... existing code ...\n")
    assert processes == 1 and killed == 0  # one worker, reused


def test_a_cancelled_merge_kills_its_worker_and_never_exceeds_the_pool():
    original, snippet = slow_edit()

    async def main():
        pool = MergePool(2, timeout_s=60)
        try:
            tasks = [asyncio.ensure_future(pool.merge(original, snippet)) for _ in range(4)]
            await asyncio.sleep(1.0)
            most = pool.processes
            doomed = set(pool.pids())
            for task in tasks:
                task.cancel()
            await asyncio.wait(tasks)
            t0 = time.perf_counter()
            small = await pool.merge(ORIGINAL, SNIPPET)  # a fresh worker, not one behind the abandoned merges
            return most, doomed, pool.killed, small, time.perf_counter() - t0, set(pool.pids())
        finally:
            await pool.close()

    most, doomed, killed, (small, _), took, after = asyncio.run(main())
    assert most <= 2  # four merges, two workers: two wait for a turn
    assert killed == 2  # the two running merges were stopped; the two waiting ones never started
    assert small.merged and took < 5.0, f"a merge after the cancelled ones took {took:.1f}s"
    assert not doomed & after  # the killed workers are gone


def test_a_merge_over_its_time_budget_is_refused_and_stopped():
    original, snippet = slow_edit()

    async def main():
        pool = MergePool(1, timeout_s=0.5)
        try:
            await pool.merge(ORIGINAL, SNIPPET)  # started and warm: the budget is the merge's own
            t0 = time.perf_counter()
            result, _ = await pool.merge(original, snippet)
            return result, time.perf_counter() - t0, pool.killed
        finally:
            await pool.close()

    result, took, killed = asyncio.run(main())
    assert not result.merged and "did not finish within 0.5 s" in result.refused_reason
    assert took < 2.0 and killed == 1


def test_abandoned_apply_requests_are_stopped_and_health_answers_meanwhile():
    # issue 18 item 3: four clients sent a slow edit and hung up; the merges ran on (outside the
    # pool), and a small merge (or a chat answer) waited minutes behind them
    original, snippet = slow_edit()
    app = create_app(FakeLoaded("unused"), merge_workers=2)
    with running(app) as url:
        async def main():
            async with httpx.AsyncClient(base_url=url, timeout=60) as http:
                body = {"original": original, "snippet": snippet, "strategy": "instant"}
                edits = [asyncio.ensure_future(http.post("/v1/apply", json=body)) for _ in range(4)]
                await asyncio.sleep(1.5)  # sent and merging
                health = []
                for _ in range(5):
                    t0 = time.perf_counter()
                    r = await http.get("/health")
                    health.append((r.status_code, time.perf_counter() - t0))
                for edit in edits:
                    edit.cancel()  # the clients hang up
                await asyncio.wait(edits)
                await asyncio.sleep(0.3)  # the server sees the disconnects
                t0 = time.perf_counter()
                small = await http.post("/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET})
                return health, small, time.perf_counter() - t0

        health, small, took = asyncio.run(main())
        merges = app.server.merges
        assert merges.killed >= 2 and merges.processes <= 2
    assert all(status == 200 and s < 1.0 for status, s in health), health
    assert small.status_code == 200 and small.json()["path"] == "instant"
    assert took < 5.0, f"a small merge waited {took:.1f}s behind abandoned ones"


@pytest.mark.parametrize("size", [0, -1])
def test_a_pool_needs_a_worker(size):
    with pytest.raises(ValueError):
        MergePool(size, timeout_s=1)
