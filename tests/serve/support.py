"""Test helpers for the server: a torch-free fake *chat* model and a real uvicorn server on loopback.

`FakeChat(reply)` extends tests/fakes.py's byte tokenizer idea to chat: after the last
"<|im_start|>assistant\\n" in the context, its target writes `reply(last user message)` then
<|im_end|>; after any deviation (or with no assistant turn open) it writes a token hashed from the
context. So a response is a pure function of its own request: two requests' outputs mixed together,
or a cache shared wrongly between them, show up as a wrong answer. `delay_s` makes each forward pass
slow, to hold the worker busy (queue and disconnect tests).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import numpy as np
import uvicorn

from fastapply.backends.fake import FakeBackend, _hash_int
from tests.fakes import IM_END, VOCAB, ByteTokenizer

ASSISTANT = ByteTokenizer().encode("<|im_start|>assistant\n")
USER = ByteTokenizer().encode("<|im_start|>user\n")


def echo_reply(user: str) -> str:
    return f"You said: {user}\nThat is {len(user)} characters."


def _find_last(seq: list[int], marker: list[int], end: int | None = None) -> int | None:
    """Index just after the last occurrence of marker in seq[:end]."""
    end = len(seq) if end is None else end
    m = len(marker)
    for i in range(end - m, -1, -1):
        if seq[i : i + m] == marker:
            return i + m
    return None


class ChatRule:
    def __init__(self, reply, tokenizer):
        self.reply = reply
        self.tok = tokenizer
        self._scripts: dict[tuple[int, ...], list[int]] = {}

    def script_for(self, prompt: list[int]) -> list[int]:
        key = tuple(prompt)
        if key not in self._scripts:
            u = _find_last(prompt, USER)
            user = ""
            if u is not None:
                end = prompt.index(IM_END, u) if IM_END in prompt[u:] else len(prompt)
                user = self.tok.decode(prompt[u:end])
            self._scripts[key] = self.tok.encode(self.reply(user)) + [IM_END]
        return self._scripts[key]

    def __call__(self, context: tuple[int, ...]) -> np.ndarray:
        ctx = list(context)
        start = _find_last(ctx, ASSISTANT)
        peak = None
        if start is not None:
            script = self.script_for(ctx[:start])
            out = ctx[start:]
            if len(out) < len(script) and out == script[: len(out)]:
                peak = script[len(out)]
        if peak is None:
            peak = _hash_int("off", context) % 256
        row = np.zeros(VOCAB, dtype=np.float32)
        row[peak] = 10.0
        return row


class SlowBackend(FakeBackend):
    """`delay_s` per forward pass, plus `token_delay_s` per token in it (a long prefill is slow)."""

    def __init__(self, *args, delay_s: float = 0.0, token_delay_s: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.delay_s = delay_s
        self.token_delay_s = token_delay_s

    def forward(self, ids, **kwargs):
        if self.delay_s or self.token_delay_s:
            time.sleep(self.delay_s + self.token_delay_s * len(ids))
        return super().forward(ids, **kwargs)


class FakeChat:
    """Shaped like models.load's result: name, tokenizer, context_length, extra, new_backend()."""

    name = "fake-chat"
    device = "cpu"
    dtype = "float32"

    def __init__(self, reply=echo_reply, *, context_length: int = 4096, delay_s: float = 0.0,
                 token_delay_s: float = 0.0):
        self.tokenizer = ByteTokenizer()
        self.rule = ChatRule(reply, self.tokenizer)
        self.context_length = context_length
        self.delay_s = delay_s
        self.token_delay_s = token_delay_s
        self.extra = {}
        self.backends: list[SlowBackend] = []

    def new_backend(self):
        backend = SlowBackend(self.rule, VOCAB, self.context_length, delay_s=self.delay_s,
                              token_delay_s=self.token_delay_s)
        self.backends.append(backend)
        return backend


@contextlib.contextmanager
def running(app, *, timeout: float = 10.0, **config):
    """Run `app` under uvicorn on a free loopback port in a thread; yield its base URL.
    `config`: more uvicorn.Config options (limit_concurrency, ...)."""
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets that say they are TCP, and
    # without it every request on a reused connection waits ~40 ms for a delayed ACK
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    from fastapply.serve.protocol import with_header_timeout

    config.setdefault("http", with_header_timeout(10.0))  # the protocol `fastapply serve` runs
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=2,
                                            **config))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
