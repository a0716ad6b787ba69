"""The HTTP server: OpenAI-compatible chat and text completions with Predicted Outputs, and /v1/apply.

    POST /v1/chat/completions   messages + optional prediction -> the answer (JSON or SSE stream), logprobs
    POST /v1/completions        prompt + optional prediction, echo, logprobs (prompt scoring)
    POST /v1/apply              original + snippet (+ instruction) -> the merged file and its path
    POST /tokenize, /detokenize vLLM's tokenizer endpoints (tokens.py)
    GET  /v1/models, /health, /metrics (Prometheus text)

Request flow: the body is read and size-checked (middleware), parsed and validated on the event
loop (cheap), then the model work (tokenising, decoding, scoring) is queued on the scheduler's
single worker thread. The handler waits for the job's first item before answering, so a request
that fails in preparation (prompt too long, bad template) still gets a proper status, not a 200
followed by an error event. While waiting, the handler watches for the client leaving and cancels
the job if it does; a stream being written is cancelled by Starlette on disconnect, which closes
our generator and with it the job.

`create_app(loaded_or_loader, ...)` takes a loaded model (anything shaped like `models.load`'s
result: `.tokenizer`, `.context_length`, `.new_backend()`, `.name`) or a zero-argument loader,
called on the worker thread at startup so the event loop (and /health) answers while it loads.

This module wires HTTP to the generation and apply layers; it holds no decoding logic.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
import uuid
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from fastapply.pipeline import EditStream
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.errors import FastApplyError
from fastapply.serve import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_QUEUE
from fastapply.serve import generation as gen
from fastapply.serve.errors import error_response, exception_response, from_exception
from fastapply.serve.metrics import Metrics
from fastapply.serve.middleware import Guard
from fastapply.serve.responses import (
    SSE_DONE,
    SSE_HEADERS,
    apply_body,
    chat_chunk,
    chat_completion,
    completion_chunk,
    sse,
    text_completion,
)
from fastapply.serve.scheduler import Job, QueueFull, Scheduler, SchedulerClosed
from fastapply.serve import tokens
from fastapply.serve.scoring import PrefixScorer
from fastapply.serve.schemas import (
    ApplyRequest,
    ChatCompletionRequest,
    CompletionRequest,
    RequestError,
)

log = logging.getLogger("fastapply.serve")


# -- the model, owned by the worker thread ------------------------------------------------------


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


@dataclass
class Prepared:
    """First item of every job: the request is tokenised, fits, and decoding starts."""

    prompt_tokens: int
    drafted: bool = False
    echo_text: str = ""  # completions with echo: the prompt as text, sent before the answer


# -- the app ------------------------------------------------------------------------------------


class _ClientGone(Exception):
    pass


class Server:
    """The app's state and handlers (one per app, so tests can run several side by side)."""

    def __init__(self, loaded_or_loader, *, model_name: str | None, aliases: tuple[str, ...], max_queue: int):
        self.holder = ModelHolder(loaded_or_loader)
        if model_name is None:
            if self.holder.loaded is None:
                raise ValueError("model_name is required when create_app is given a loader")
            model_name = self.holder.loaded.name
        self.model_name = model_name
        self.accepted_names = {model_name, *aliases}
        self.max_queue = max_queue
        self.metrics = Metrics()
        self.scorer = PrefixScorer()  # echo + logprobs requests (remote verification) share their prefixes
        self.scheduler: Scheduler | None = None
        self.created = int(time.time())

    # -- lifecycle --

    async def start(self) -> None:
        self.scheduler = Scheduler(self.max_queue, on_change=self.metrics.set_depth, on_cancel=self.metrics.cancelled.inc)
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

    def stop(self) -> None:
        if self.scheduler is not None:
            self.scheduler.close()

    # -- helpers --

    def check_model(self, name: str | None) -> None:
        if name is not None and name not in self.accepted_names:
            raise RequestError(f"the model {name!r} does not exist; this server serves {self.model_name!r}",
                               "model", code="model_not_found", status=404)

    @staticmethod
    async def parse(request: Request, schema):
        raw = await request.body()
        if not raw.strip():
            raise RequestError("the request body is empty; expected a JSON object")
        try:
            obj = json.loads(raw)
        except UnicodeDecodeError:
            raise RequestError("the request body is not UTF-8 JSON") from None
        if not isinstance(obj, dict):
            raise RequestError("the request body must be a JSON object")
        return schema.model_validate(obj)

    async def first_item(self, request: Request, job: Job) -> tuple[Any, AsyncIterator[Any]]:
        """Wait for the job's first item, cancelling it if the client leaves meanwhile."""
        items = self.scheduler.items(job)
        first = await self._or_gone(request, job, items.__anext__())
        return first, items

    async def finish(self, request: Request, job: Job, items: AsyncIterator[Any], prepared):
        """A non-streamed generation's end: its Finished item, its logprobs (or None), its usage."""
        collected = await self.collect(request, job, items)
        done = next(x for x in collected if isinstance(x, gen.Finished))
        scored = next((x for x in collected if isinstance(x, gen.TokenLogprobs)), None)
        self.metrics.observe_decode(done.stats, job.queue_s)
        return done, scored, gen.usage_dict(done.stats, queue_s=job.queue_s, drafted=prepared.drafted)

    async def collect(self, request: Request, job: Job, items: AsyncIterator[Any]) -> list[Any]:
        async def drain():
            return [x async for x in items]

        return await self._or_gone(request, job, drain())

    async def _or_gone(self, request: Request, job: Job, awaitable):
        work = asyncio.ensure_future(awaitable)
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            done, _ = await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()  # the response itself will listen for disconnects from here on
        if work in done:
            return work.result()
        work.cancel()
        self.scheduler.cancel(job)
        raise _ClientGone()

    def sampling(self, body) -> SamplingParams:
        return SamplingParams(
            temperature=body.temperature if body.temperature is not None else 0.0,
            top_p=body.top_p if body.top_p is not None else 1.0,
            seed=body.seed,
        )

    # -- jobs (run on the worker thread) --

    def chat_job(self, body: ChatCompletionRequest, messages: list[dict[str, str]]) -> Iterator[Any]:
        loaded = self.holder.get()
        tok = loaded.tokenizer
        try:
            prompt = gen.chat_prompt_ids(tok, messages)
        except RequestError:
            raise
        except Exception as exc:  # a template that refuses these messages (roles, order)
            raise RequestError(f"the chat template could not render these messages: {exc}", "messages") from None
        budget = gen.token_budget(len(prompt), body.token_budget(), loaded.context_length)
        stops = gen.stop_token_ids(tok)
        predicted = body.prediction.text() if body.prediction is not None else ""
        draft = gen.prediction_ids(tok, predicted, stops) if predicted else None
        yield Prepared(len(prompt), drafted=draft is not None)
        backend = self.holder.backend()
        output: list[int] = []
        for item in gen.generate(loaded, backend, gen.GenerationRequest(
            prompt_ids=prompt, max_tokens=budget, sampling=self.sampling(body), prediction_ids=draft,
            stop_strings=body.stop_strings(), stop_ids=stops,
        )):
            if isinstance(item, gen.Finished):
                output = gen.without_stop_tokens(item.token_ids, stops)
            yield item
        if body.logprobs:
            # one scoring pass after generation (see completion_job); the first answer token is
            # scored given the whole prompt, so start=len(prompt) never hits the no-context case
            decode = lambda ids: tok.decode(ids, skip_special_tokens=False)  # noqa: E731
            yield gen.score(backend, prompt + output, body.top_logprobs or 0, decode, start=len(prompt))

    def completion_job(self, body: CompletionRequest) -> Iterator[Any]:
        loaded = self.holder.get()
        tok = loaded.tokenizer
        prompt = gen.text_prompt_ids(tok, body.prompt)
        if not prompt:
            raise RequestError("the prompt is empty", "prompt")
        gen.check_ids(prompt, _vocab_size(tok))
        stops = gen.stop_token_ids(tok)
        predicted = body.prediction.text() if body.prediction is not None else ""
        draft = gen.prediction_ids(tok, predicted, stops) if predicted else None
        echo_text = tok.decode(prompt, skip_special_tokens=False) if body.echo else ""
        backend = self.holder.backend()
        output: list[int] = []
        if body.max_tokens == 0:  # echo only (checked in the schema): score the prompt, generate nothing
            gen.token_budget(len(prompt), None, loaded.context_length)
            yield Prepared(len(prompt), drafted=False, echo_text=echo_text)
            yield gen.Finished("", "length", DecodeStats(prompt_tokens=len(prompt), finish_reason="length"), [])
        else:
            budget = gen.token_budget(len(prompt), body.max_tokens, loaded.context_length)
            yield Prepared(len(prompt), drafted=draft is not None, echo_text=echo_text)
            for item in gen.generate(loaded, backend, gen.GenerationRequest(
                prompt_ids=prompt, max_tokens=budget, sampling=self.sampling(body), prediction_ids=draft,
                stop_strings=body.stop_strings(), stop_ids=stops,
            )):
                if isinstance(item, gen.Finished):
                    output = gen.without_stop_tokens(item.token_ids, stops)
                yield item
        if body.logprobs is not None:
            # one scoring pass over prompt + answer after generation: exact log probabilities of the
            # tokens as sent, whatever the draft did (with echo: the prompt's own tokens too)
            decode = tokens.token_namer(tok, tokens.wants_ids(body))  # text, or vLLM's token_id:N names
            yield self.scorer.score(loaded, backend, prompt + output, body.logprobs, decode,
                                    start=0 if body.echo else len(prompt))  # echo: reuses the last request's prefix

    def apply_job(self, body: ApplyRequest) -> Iterator[Any]:
        stream = EditStream(
            body.original, body.snippet, body.instruction, strategy=body.strategy, language=body.language,
            path=body.path, temperature=body.temperature, top_p=body.top_p, seed=body.seed,
            max_tokens=body.max_tokens, loader=self.holder.get,
        )
        prompt_tokens = len(stream.prepared.prompt_ids) if stream.prepared is not None else 0
        yield Prepared(prompt_tokens, drafted=stream.prepared is not None)
        yield from stream
        yield stream.result

    # -- endpoints --

    async def chat(self, request: Request) -> Response:
        body = await self.parse(request, ChatCompletionRequest)
        body.check()
        self.check_model(body.model)
        messages = body.message_dicts()  # refuses non-text parts before anything is queued
        job = self.scheduler.submit(lambda: self.chat_job(body, messages))
        prepared, items = await self.first_item(request, job)
        cid, created = f"chatcmpl-{uuid.uuid4().hex}", int(time.time())
        if body.stream:
            include_usage = bool(body.stream_options and body.stream_options.include_usage)
            return StreamingResponse(self._chatsse(job, items, cid, created, prepared, include_usage),
                                     media_type="text/event-stream", headers=SSE_HEADERS)
        done, scored, usage = await self.finish(request, job, items, prepared)
        return JSONResponse(chat_completion(cid, created, self.model_name, done.text, done.finish_reason, usage,
                                            gen.chat_logprobs(scored) if scored is not None else None))

    async def _chatsse(self, job, items, cid, created, prepared: Prepared, include_usage: bool):
        model = self.model_name
        try:
            yield sse(chat_chunk(cid, created, model, {"role": "assistant", "content": ""}, None, usage_field=include_usage))
            async for item in items:
                if isinstance(item, str):
                    yield sse(chat_chunk(cid, created, model, {"content": item}, None, usage_field=include_usage))
                elif isinstance(item, gen.Finished):
                    self.metrics.observe_decode(item.stats, job.queue_s)
                    yield sse(chat_chunk(cid, created, model, {}, item.finish_reason, usage_field=include_usage))
                    if include_usage:
                        yield sse({
                            "id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                            "system_fingerprint": None, "choices": [],
                            "usage": gen.usage_dict(item.stats, queue_s=job.queue_s, drafted=prepared.drafted),
                        })
            yield SSE_DONE
        except Exception as exc:  # after the 200 went out, an error can only travel as an event
            log.exception("error while streaming %s", cid)
            yield sse(from_exception(exc)[1])
        finally:
            self.scheduler.cancel(job)  # a no-op after a normal end; stops the model if the client left

    async def completions(self, request: Request) -> Response:
        body = await self.parse(request, CompletionRequest)
        body.check()
        self.check_model(body.model)
        if body.stream and body.logprobs is not None:
            raise RequestError("logprobs are not supported with stream; ask without streaming", "logprobs")
        job = self.scheduler.submit(lambda: self.completion_job(body))
        prepared, items = await self.first_item(request, job)
        cid, created = f"cmpl-{uuid.uuid4().hex}", int(time.time())
        if body.stream:
            include_usage = bool(body.stream_options and body.stream_options.include_usage)
            return StreamingResponse(self._completionsse(job, items, cid, created, prepared, include_usage),
                                     media_type="text/event-stream", headers=SSE_HEADERS)
        done, scored, usage = await self.finish(request, job, items, prepared)
        return JSONResponse(text_completion(cid, created, self.model_name, prepared.echo_text + done.text,
                                            done.finish_reason, usage,
                                            scored.as_dict() if scored is not None else None))

    async def _completionsse(self, job, items, cid, created, prepared: Prepared, include_usage: bool):
        model = self.model_name
        try:
            if prepared.echo_text:
                yield sse(completion_chunk(cid, created, model, prepared.echo_text, None, usage_field=include_usage))
            async for item in items:
                if isinstance(item, str):
                    yield sse(completion_chunk(cid, created, model, item, None, usage_field=include_usage))
                elif isinstance(item, gen.Finished):
                    self.metrics.observe_decode(item.stats, job.queue_s)
                    yield sse(completion_chunk(cid, created, model, "", item.finish_reason, usage_field=include_usage))
                    if include_usage:
                        yield sse({
                            "id": cid, "object": "text_completion", "created": created, "model": model,
                            "choices": [], "usage": gen.usage_dict(item.stats, queue_s=job.queue_s, drafted=prepared.drafted),
                        })
            yield SSE_DONE
        except Exception as exc:
            log.exception("error while streaming %s", cid)
            yield sse(from_exception(exc)[1])
        finally:
            self.scheduler.cancel(job)

    async def apply(self, request: Request) -> Response:
        body = await self.parse(request, ApplyRequest)
        self.check_model(body.model)
        job = self.scheduler.submit(lambda: self.apply_job(body))
        prepared, items = await self.first_item(request, job)
        if body.stream:
            return StreamingResponse(self._applysse(job, items), media_type="text/event-stream", headers=SSE_HEADERS)
        *_, result = await self.collect(request, job, items)
        self._observe_apply(result, job)
        return JSONResponse(apply_body(result))

    async def _applysse(self, job, items):
        try:
            async for item in items:
                if isinstance(item, str):
                    yield sse({"object": "fastapply.apply.delta", "delta": item})
                else:
                    self._observe_apply(item, job)
                    yield sse(apply_body(item))
            yield SSE_DONE
        except Exception as exc:
            yield sse(from_exception(exc)[1])
        finally:
            self.scheduler.cancel(job)

    def _observe_apply(self, result, job: Job) -> None:
        if result.path == "model" and result.stats is not None:
            self.metrics.observe_decode(result.stats, job.queue_s)

    def models(self) -> dict:
        return {"object": "list", "data": [
            {"id": self.model_name, "object": "model", "created": self.created, "owned_by": "fastapply"}
        ]}

    def health(self) -> JSONResponse:
        waiting, running = self.scheduler.depth if self.scheduler else (0, 0)
        status = self.holder.status
        body = {"status": status, "model": self.model_name, "waiting": waiting, "running": running}
        if self.holder.error is not None:
            body["error"] = str(self.holder.error)
        return JSONResponse(body, status_code=200 if status == "ok" else 503)


def _vocab_size(tokenizer) -> int | None:
    try:
        return len(tokenizer)
    except TypeError:  # a tokenizer without __len__ (the test fakes): ids are checked by the model
        return None


async def _disconnected(request: Request) -> None:
    """Return when the client disconnects (the body has been read: only that message remains)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


def create_app(
    loaded_or_loader: Any,
    *,
    model_name: str | None = None,
    aliases: tuple[str, ...] = (),
    api_key: str | None = None,
    max_queue: int = DEFAULT_MAX_QUEUE,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> Any:
    """Build the ASGI app. `max_queue` bounds requests waiting behind the running one (more get 503)."""
    server = Server(loaded_or_loader, model_name=model_name, aliases=tuple(aliases), max_queue=max_queue)

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(_app):
        await server.start()
        try:
            yield
        finally:
            server.stop()

    app = FastAPI(title="fastapply", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.server = server

    async def _error(request: Request, exc: Exception):
        if isinstance(exc, _ClientGone):
            return Response(status_code=499)  # nginx's "client closed request": nobody reads it
        response = exception_response(exc)
        if response.status_code == 500:
            log.error("unexpected error on %s", request.url.path, exc_info=exc)
        return response

    for kind in (RequestError, ValidationError, json.JSONDecodeError, _ClientGone, FastApplyError,
                 QueueFull, SchedulerClosed):
        app.add_exception_handler(kind, _error)

    def answering_errors(handler):
        # an unexpected exception must still get OpenAI's shape; left to Starlette's last-resort
        # handler it would also be re-raised into the server, which drops the connection
        @functools.wraps(handler)
        async def wrapped(request: Request):
            try:
                return await handler(request)
            except Exception as exc:  # noqa: BLE001
                return await _error(request, exc)

        return wrapped

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        message = {404: f"unknown endpoint {request.method} {request.url.path}",
                   405: f"method {request.method} is not allowed on {request.url.path}"}.get(exc.status_code, str(exc.detail))
        return error_response(exc.status_code, message, code={404: "not_found"}.get(exc.status_code))

    @app.post("/v1/chat/completions")
    @answering_errors
    async def chat_completions(request: Request):
        return await server.chat(request)

    @app.post("/v1/completions")
    @answering_errors
    async def completions(request: Request):
        return await server.completions(request)

    @app.post("/v1/apply")
    @answering_errors
    async def apply(request: Request):
        return await server.apply(request)

    @app.get("/v1/models")
    async def models():
        return server.models()

    @app.get("/v1/models/{model_id:path}")
    async def model(model_id: str):
        server.check_model(model_id)
        return server.models()["data"][0]

    tokens.register(app, server)  # /tokenize and /detokenize (vLLM's shapes)

    @app.get("/health")
    async def health():
        return server.health()

    @app.get("/metrics")
    async def metrics():
        return Response(server.metrics.render(), media_type=server.metrics.content_type)

    guarded = Guard(app, api_key=api_key, max_body_bytes=max_body_bytes, metrics=server.metrics)
    guarded.server = server  # for tests and embedding
    return guarded
