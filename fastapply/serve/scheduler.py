"""One worker thread runs all model work, one job at a time, from a bounded first-come-first-served queue.

Why one thread: there is one model in memory and, on a CPU, two generations at once would only share
the same cores and both finish later; one at a time gives the first caller its answer soonest and
keeps KV caches from competing for memory. Why a bounded queue: a client that waits minutes is worse
served by a prompt "busy, retry" (HTTP 503) than by a timeout.

A job is a function returning an iterator (a generation yields text deltas, then a final summary).
The worker pulls items from it and hands each to the submitting event loop through an asyncio queue,
so the loop never blocks on the model. Cancelling a job (the client went away) removes it from the
queue if it has not started, or closes its iterator before its next item, which stops the decoder
after the forward pass in flight: a disconnected client costs at most one more pass.

Worked example (max_waiting=2): A runs; B and C wait; D is refused with `QueueFull`. B's client
disconnects: B leaves the queue at once, so E is accepted behind C.

This module knows threads and asyncio; nothing about models, HTTP or text.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Iterator


class QueueFull(Exception):
    """The waiting line is at its bound; the caller should answer 503 and let the client retry."""


class SchedulerClosed(Exception):
    """The server is shutting down."""


class Cancelled(Exception):
    """Raised by long model work (scoring) that saw its job cancelled; nobody reads its result."""


_current = threading.local()  # the job the worker thread is running, for `cancelled()`


def cancelled() -> bool:
    """True when the job running on this (worker) thread has been cancelled.

    Work that runs long between two items (a scoring pass over thousands of tokens) polls this and
    raises `Cancelled`; elsewhere it is always False.
    """
    job = getattr(_current, "job", None)
    return job is not None and job.cancelled.is_set()


_ITEM, _ERROR, _END = "item", "error", "end"


@dataclass(eq=False)
class Job:
    """One unit of model work and the channel its items travel back on."""

    work: Callable[[], Iterator[Any]]
    loop: asyncio.AbstractEventLoop
    channel: asyncio.Queue
    submitted_at: float = field(default_factory=time.perf_counter)
    started_at: float | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)

    @property
    def queue_s(self) -> float:
        """Seconds spent waiting for the worker (so far, if not started)."""
        end = self.started_at if self.started_at is not None else time.perf_counter()
        return end - self.submitted_at

    def _send(self, kind: str, value: Any = None) -> None:
        # called on the worker thread; the asyncio queue is only safe to touch from its own loop
        try:
            self.loop.call_soon_threadsafe(self.channel.put_nowait, (kind, value))
        except RuntimeError:  # the loop is closed: nobody is listening any more
            self.cancelled.set()


class Scheduler:
    """A single worker thread over a bounded FIFO of jobs."""

    def __init__(
        self,
        max_waiting: int = 16,
        *,
        on_change: Callable[[int, int], None] | None = None,
        on_cancel: Callable[[], None] | None = None,
    ):
        if max_waiting < 0:
            raise ValueError("max_waiting must be >= 0")
        self.max_waiting = max_waiting
        self.on_change = on_change  # (waiting, running) after every change, for metrics
        self.on_cancel = on_cancel  # a job was dropped from the queue or stopped mid-way
        self._waiting: deque[Job] = deque()
        self._running: Job | None = None
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="fastapply-model-worker", daemon=True)
        self._thread.start()

    # -- the event loop's side ------------------------------------------------------------------

    def submit(self, work: Callable[[], Iterator[Any]]) -> Job:
        """Queue `work` behind the jobs already waiting; raise QueueFull at the bound."""
        job = Job(work, asyncio.get_running_loop(), asyncio.Queue())
        with self._cond:
            if self._closed:
                raise SchedulerClosed("the server is shutting down")
            if len(self._waiting) >= self.max_waiting and self._running is not None:
                raise QueueFull(f"{len(self._waiting)} requests are already waiting for the model")
            self._waiting.append(job)
            self._cond.notify()
            self._changed()
        return job

    def cancel(self, job: Job) -> None:
        """Stop a job: drop it from the queue, or stop it after the current item."""
        job.cancelled.set()
        with self._cond:
            try:
                self._waiting.remove(job)
            except ValueError:
                return  # running or finished: the worker sees the flag
            self._changed()
        if self.on_cancel is not None:
            self.on_cancel()

    async def items(self, job: Job) -> AsyncIterator[Any]:
        """The job's items as they come; re-raises the job's exception; cancels it if abandoned."""
        try:
            while True:
                kind, value = await job.channel.get()
                if kind == _ITEM:
                    yield value
                elif kind == _ERROR:
                    raise value
                else:
                    return
        finally:
            # normal end: a no-op; a consumer that stopped early (client disconnect): stop the work
            self.cancel(job)

    @property
    def depth(self) -> tuple[int, int]:
        """(waiting, running)."""
        with self._cond:
            return len(self._waiting), int(self._running is not None)

    def close(self, timeout: float = 5.0) -> None:
        with self._cond:
            self._closed = True
            for job in self._waiting:
                job.cancelled.set()
                job._send(_ERROR, SchedulerClosed("the server is shutting down"))
            self._waiting.clear()
            if self._running is not None:
                self._running.cancelled.set()
            self._cond.notify_all()
        self._thread.join(timeout)

    # -- the worker's side ----------------------------------------------------------------------

    def _changed(self) -> None:  # with self._cond held
        if self.on_change is not None:
            self.on_change(len(self._waiting), int(self._running is not None))

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                job = self._running = self._waiting.popleft()
                job.started_at = time.perf_counter()
                self._changed()
            try:
                self._run(job)
            finally:
                with self._cond:
                    self._running = None
                    self._changed()

    def _run(self, job: Job) -> None:
        iterator = None
        _current.job = job
        try:
            iterator = iter(job.work())
            for item in iterator:
                if job.cancelled.is_set():
                    if self.on_cancel is not None:
                        self.on_cancel()
                    break
                job._send(_ITEM, item)
        except BaseException as exc:  # noqa: BLE001 - every failure goes back to the caller
            if isinstance(exc, Cancelled) and self.on_cancel is not None:
                self.on_cancel()
            job._send(_ERROR, exc)
            return
        finally:
            _current.job = None
            close = getattr(iterator, "close", None)
            if close is not None:
                close()  # finalises a generator (the decoder's stats) whether it ended or was cancelled
        job._send(_END)
