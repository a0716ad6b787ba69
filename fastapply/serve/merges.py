"""Instant merges in worker processes the server can kill: a bounded pool, a time budget, cancellation.

    pool = MergePool(size=2, timeout_s=60.0)
    pool.warm()                                      # start the workers in the background
    result, seconds = await pool.merge(original, snippet, language, path)   # cancel the task to stop it

Why processes rather than threads: a merge is plain Python. On a thread it cannot be stopped, so a
merge whose client has left (or one that runs long) keeps running, and while it runs it takes its
share of the GIL from the event loop and the model worker (issue 18: four abandoned 1 MB merges
took a chat answer from 0.9 s to 221 s). A deadline checked inside the merge's loops would have to
reach some forty modules of merge/ and every loop a new rule adds; a process is stopped from
outside whatever it is doing, and runs beside the server's GIL, not under it.

Each of `size` slots owns one worker process (`python -c ... worker_main()`, importing the merge
once, about 0.5 s, and saying when it is ready), started in the background by `warm()` and again
after each kill, and reused
for merge after merge. A merge takes a free slot (or waits for one: at most `size` merges run,
whatever the clients do), writes its inputs to the worker's stdin and reads the answer from its
stdout, all with asyncio streams: no thread waits on a worker. When the waiting task is cancelled
(the client left: `Server.or_gone`) or the merge outlives `timeout_s`, the worker is killed at once
and its slot starts a fresh one. A timeout, or a worker that dies, is a refusal (a `MergeResult`
with the reason) the caller treats like any other.

Why not multiprocessing's forkserver (a start in milliseconds rather than an import): its children
import the parent's main script as `__mp_main__`, so a script that embeds `create_app` without an
`if __name__ == "__main__":` guard would start its server again in every worker, and the merges
would hang until their time budget. A plain `python -c` child imports only the merge. Its start
costs about 0.5 s of CPU, once per slot and again only after a kill, whose merge had cost more.

Frames are an 8-byte big-endian length and a pickle, both ways; only this server's own child
processes are ever unpickled. The worker's own stdout is moved to stderr, so a stray print in a
merge cannot break a frame.

This module knows processes, pipes and asyncio; not HTTP, and not the merge's insides.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import struct
import sys
import time

from fastapply.merge.instant import MergeResult

_HEADER = struct.Struct("!Q")
_WARM_UP = ("def f():\n    return 1\n\n\ndef g():\n    return 2\n",
            "# ... existing code ...\ndef g():\n    return 3\n")


def refusal(reason: str) -> MergeResult:
    return MergeResult(None, reason, None, None, None)


class _Slot:
    """One worker process (None until started) and the start under way, if any."""

    def __init__(self) -> None:
        self.proc: asyncio.subprocess.Process | None = None
        self.starting: asyncio.Future | None = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None


class MergePool:
    """`size` killable merge workers; `timeout_s` bounds each merge (None: no bound)."""

    def __init__(self, size: int, timeout_s: float | None):
        if size < 1:
            raise ValueError("a merge pool needs at least one worker")
        self.size = size
        self.timeout_s = timeout_s
        self._free = [_Slot() for _ in range(size)]
        self._all = list(self._free)
        self._turns = asyncio.Semaphore(size)
        self._closed = False
        self._reaping: set[asyncio.Future] = set()  # killed workers being waited for
        self.killed = 0  # workers stopped mid-merge (client gone, over time, broken): for tests

    # -- workers ----------------------------------------------------------------------------------

    @staticmethod
    async def _spawn() -> asyncio.subprocess.Process:
        code = ("import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
                "from fastapply.serve.merges import worker_main; worker_main()")
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", code, json.dumps(sys.path),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        try:
            await proc.stdout.readexactly(_HEADER.size)  # an empty frame: imported and warmed up
        except BaseException:
            proc.kill()
            raise
        return proc

    def _start(self, slot: _Slot) -> asyncio.Future:
        """Start slot's worker in the background (once); the future gives the process."""
        if slot.starting is None:
            slot.starting = asyncio.ensure_future(self._spawn())

            def started(task: asyncio.Future, slot=slot) -> None:
                slot.starting = None
                if not task.cancelled() and task.exception() is None:
                    slot.proc = task.result()
                    if self._closed:
                        self._kill(slot)

            slot.starting.add_done_callback(started)
        return slot.starting

    def warm(self) -> None:
        """Start every slot's worker now, in the background (the event loop must be running)."""
        for slot in self._all:
            if not slot.alive():
                self._start(slot)

    async def _worker(self, slot: _Slot) -> asyncio.subprocess.Process:
        if not slot.alive():
            # shielded: a merge cancelled while its worker starts leaves the start to the next one
            slot.proc = await asyncio.shield(self._start(slot))
        return slot.proc

    def _kill(self, slot: _Slot) -> None:
        proc, slot.proc = slot.proc, None
        if proc is not None:
            proc.stdin.close()
            if proc.returncode is None:
                proc.kill()
            reap = asyncio.ensure_future(proc.wait())
            self._reaping.add(reap)
            reap.add_done_callback(self._reaping.discard)

    # -- merging ----------------------------------------------------------------------------------

    async def merge(self, original: str, snippet: str, language: str | None = None,
                    path: str | None = None, instruction: str | None = None) -> tuple[MergeResult, float]:
        """The instant merge in a worker: (result, seconds). Cancelling the calling task kills it."""
        async with self._turns:
            slot = self._free.pop()
            t0 = time.perf_counter()
            done = False
            try:
                proc = await self._worker(slot)
                result, seconds = await asyncio.wait_for(
                    _round_trip(proc, (original, snippet, language, path, instruction)), self.timeout_s)
                done = True
                return result, seconds
            except asyncio.TimeoutError:
                return refusal(f"the instant merge did not finish within {self.timeout_s:g} s (the server's "
                               "--merge-timeout); send a smaller snippet"), time.perf_counter() - t0
            except (OSError, EOFError, asyncio.IncompleteReadError, pickle.UnpicklingError) as exc:
                return refusal(f"the instant merge failed unexpectedly (its worker stopped: {type(exc).__name__}); "
                               "use the model path"), time.perf_counter() - t0
            finally:
                if not done:  # cancelled, over time or broken: stop it now, start its successor
                    self.killed += 1
                    self._kill(slot)
                    if not self._closed:
                        self._start(slot)
                self._free.append(slot)

    @property
    def processes(self) -> int:
        """Worker processes alive now (at most `size`)."""
        return sum(slot.alive() for slot in self._all)

    def pids(self) -> list[int]:
        return [slot.proc.pid for slot in self._all if slot.alive()]

    async def close(self) -> None:
        """Kill every worker and wait for them (their pipes must close while the loop runs)."""
        self._closed = True
        for slot in self._all:
            if slot.starting is not None:
                await asyncio.wait([slot.starting])  # its callback kills what it started
            self._kill(slot)
        if self._reaping:
            await asyncio.wait(list(self._reaping))


async def _round_trip(proc: asyncio.subprocess.Process, job: tuple):
    data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
    proc.stdin.write(_HEADER.pack(len(data)) + data)
    await proc.stdin.drain()
    (size,) = _HEADER.unpack(await proc.stdout.readexactly(_HEADER.size))
    return pickle.loads(await proc.stdout.readexactly(size))


def worker_main() -> None:
    """A worker's loop: frames of (original, snippet, language, path) in, (MergeResult, seconds) out.
    Ends when its stdin closes (the server stopped)."""
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to stderr, not into a frame
    requests = sys.stdin.buffer
    from fastapply.merge.instant import instant_merge

    instant_merge(_WARM_UP[0], _WARM_UP[1], path="warm_up.py")  # load the parser before the first request
    answers.write(_HEADER.pack(0))  # ready: a merge's time budget is its own, not our start's
    answers.flush()
    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        (size,) = _HEADER.unpack(header)
        original, snippet, language, path, instruction = pickle.loads(requests.read(size))
        t0 = time.perf_counter()
        result = instant_merge(original, snippet, language=language, path=path, instruction=instruction)
        data = pickle.dumps((result, time.perf_counter() - t0), protocol=pickle.HIGHEST_PROTOCOL)
        answers.write(_HEADER.pack(len(data)) + data)
        answers.flush()
