"""The server's state and the request plumbing every endpoint shares.

`Server` owns the model (`ModelHolder`, loaded on the worker thread), the scheduler, the metrics and
the limits. Its helpers parse a JSON body into a request schema, check the `model` name, and wait
for a job's items while watching for the client leaving (cancelling the job if it does).

Request flow: the body is read and size-checked (middleware), parsed and validated on the event
loop (cheap), then the model work is queued on the scheduler's single worker thread. The handler
waits for the job's first item before answering, so a request that fails in preparation (prompt
too long, bad template) still gets a proper status, not a 200 followed by an error event.

This module knows asyncio, Starlette requests and the scheduler; no routes, no response shapes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator

from starlette.requests import Request

from fastapply.decoding.sampling import SamplingParams
from fastapply.serve import DEFAULT_MAX_QUEUE, DEFAULT_MAX_SCORED_TOKENS, DEFAULT_MERGE_TIMEOUT_S, DEFAULT_MERGE_WORKERS
from fastapply.serve.bodies import read_json
from fastapply.serve.merges import MergePool
from fastapply.serve.metrics import Metrics
from fastapply.serve.scheduler import Job, Scheduler
from fastapply.serve.scoring import PrefixScorer
from fastapply.serve.schemas import RequestError

log = logging.getLogger("fastapply.serve")


class ClientGone(Exception):
    """The client disconnected while we waited; nobody will read an answer."""


@dataclass(frozen=True)
class Limits:
    """Bounds on the work one request may cause."""

    max_queue: int = DEFAULT_MAX_QUEUE  # requests waiting behind the running one; more get 503
    max_scored_tokens: int = DEFAULT_MAX_SCORED_TOKENS  # tokens one logprobs request may score
    merge_workers: int = DEFAULT_MERGE_WORKERS  # instant merges running at once, in worker processes
    merge_timeout_s: float | None = DEFAULT_MERGE_TIMEOUT_S  # an instant merge running longer is refused


class ModelHolder:
    """The one loaded model and the one backend (KV cache) all generations reuse, one at a time."""

    def __init__(self, loaded_or_loader: Any):
        if hasattr(loaded_or_loader, "tokenizer"):
            self.loaded, self._loader = loaded_or_loader, None
        elif callable(loaded_or_loader):
            self.loaded, self._loader = None, loaded_or_loader
        else:
            raise TypeError("create_app needs a loaded model or a zero-argument loader")
        self.error: BaseException | None = None
        self._backend = None
        self.scorer = PrefixScorer()  # echo + logprobs scoring with its own KV cache (scoring.py)

    @property
    def status(self) -> str:
        return "error" if self.error else ("ok" if self.loaded is not None else "loading")

    def get(self):
        """The loaded model (loading it on first use). Worker thread only."""
        if self.error is not None:
            raise self.error
        if self.loaded is None:
            try:
                self.loaded = self._loader()
            except BaseException as exc:
                self.error = exc
                raise
        return self.loaded

    def backend(self):
        """The shared backend; the engine resets its cache at the start of every generation."""
        if self._backend is None:
            self._backend = self.get().new_backend()
        return self._backend


class Server:
    """The app's state and shared helpers (one per app, so tests can run several side by side)."""

    def __init__(self, loaded_or_loader, *, model_name: str | None, aliases: tuple[str, ...], limits: Limits):
        self.holder = ModelHolder(loaded_or_loader)
        if model_name is None:
            if self.holder.loaded is None:
                raise ValueError("model_name is required when create_app is given a loader")
            model_name = self.holder.loaded.name
        self.model_name = model_name
        self.accepted_names = {model_name, *aliases}
        self.limits = limits
        self.metrics = Metrics()
        self.scheduler: Scheduler | None = None
        self.merges: MergePool | None = None  # the instant merges' worker processes, made in start()
        self.created = int(time.time())

    # -- lifecycle --

    async def start(self) -> None:
        self.merges = MergePool(self.limits.merge_workers, self.limits.merge_timeout_s)
        self.merges.warm()
        self.scheduler = Scheduler(self.limits.max_queue, on_change=self.metrics.set_depth,
                                   on_cancel=self.metrics.cancelled.inc)
        if self.holder.loaded is None:
            job = self.scheduler.submit(lambda: iter([self.holder.get()]))
            asyncio.get_running_loop().create_task(self._log_load(job))

    async def _log_load(self, job: Job) -> None:
        try:
            async for _ in self.scheduler.items(job):
                pass
            log.info("model %s loaded", self.model_name)
        except BaseException as exc:  # noqa: BLE001 - reported by /health and every request
            log.error("model %s failed to load: %s", self.model_name, exc)

    async def stop(self) -> None:
        if self.merges is not None:
            await self.merges.close()
        if self.scheduler is not None:
            self.scheduler.close()

    # -- requests --

    def check_model(self, name: str | None) -> None:
        if name is not None and name not in self.accepted_names:
            raise RequestError(f"the model {name!r} does not exist; this server serves {self.model_name!r}",
                               "model", code="model_not_found", status=404)

    @staticmethod
    async def parse(request: Request, schema):
        obj = read_json(await request.body())
        if not isinstance(obj, dict):
            raise RequestError("the request body must be a JSON object")
        return schema.model_validate(obj)

    @staticmethod
    def sampling(body) -> SamplingParams:
        return SamplingParams(
            temperature=body.temperature if body.temperature is not None else 0.0,
            top_p=body.top_p if body.top_p is not None else 1.0,
            seed=body.random_seed(),
        )

    # -- waiting for jobs --

    async def first_item(self, request: Request, job: Job) -> tuple[Any, AsyncIterator[Any]]:
        """Wait for the job's first item, cancelling it if the client leaves meanwhile."""
        items = self.scheduler.items(job)
        first = await self.or_gone(request, items.__anext__(), job)
        return first, items

    async def collect(self, request: Request, job: Job | None, items: AsyncIterator[Any]) -> list[Any]:
        async def drain():
            return [x async for x in items]

        return await self.or_gone(request, drain(), job)

    async def or_gone(self, request: Request, awaitable, job: Job | None = None):
        """Await `awaitable` unless the client disconnects first: then cancel it (and the job)."""
        work = asyncio.ensure_future(awaitable)
        gone = asyncio.ensure_future(disconnected(request))
        try:
            done, _ = await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()  # the response itself will listen for disconnects from here on
        if work in done:
            return work.result()
        work.cancel()
        if job is not None:
            self.scheduler.cancel(job)
        raise ClientGone()

    def close_job(self, job: Job | None) -> None:
        """A no-op after a normal end; stops the model if the client left mid-stream."""
        if job is not None:
            self.scheduler.cancel(job)

    # -- info endpoints --

    def models(self) -> dict:
        return {"object": "list", "data": [
            {"id": self.model_name, "object": "model", "created": self.created, "owned_by": "fastapply"}
        ]}

    def health(self) -> tuple[dict, int]:
        waiting, running = self.scheduler.depth if self.scheduler else (0, 0)
        status = self.holder.status
        body = {"status": status, "model": self.model_name, "waiting": waiting, "running": running}
        if self.holder.error is not None:
            body["error"] = str(self.holder.error)
        return body, 200 if status == "ok" else 503


async def disconnected(request: Request) -> None:
    """Return when the client disconnects (the body has been read: only that message remains)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
