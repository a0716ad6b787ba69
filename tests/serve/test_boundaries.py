"""Every request parameter of every endpoint, fed its boundary values (negative, zero, huge, NaN,
infinities, wrong types, empty): the answer is a success or a 4xx in OpenAI's error shape, never
a 500, never an error event in a 200 stream, never an error in the server log."""

from __future__ import annotations

import json
import logging
import math

import httpx
import pytest

from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, running

VALUES = [-1, 0, 1, -(2**63), 2**64, 10**30, 0.5, -1e308, math.nan, math.inf, -math.inf, True, None, "", "x",
          "\x00", [], [1], [[]], {}, {"a": 1}]

USER = [{"role": "user", "content": "hi"}]
SAMPLING = ["model", "temperature", "top_p", "seed", "stop", "stream", "stream_options", "n", "presence_penalty",
            "frequency_penalty", "logit_bias", "prediction", ("prediction", "content"), ("prediction", "type"),
            ("stream_options", "include_usage")]
ENDPOINTS = {
    "/v1/chat/completions": (
        {"messages": USER, "max_tokens": 3, "prediction": {"type": "content", "content": "You"},
         "stream_options": {"include_usage": True}, "stream": True},
        SAMPLING + ["messages", ("messages", 0), ("messages", 0, "role"), ("messages", 0, "content"),
                    ("messages", 0, "name"), "max_tokens", "max_completion_tokens", "logprobs", "top_logprobs",
                    "response_format", "tool_choice", "function_call", "modalities", "tools", "functions"],
    ),
    "/v1/completions": (
        {"prompt": "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", "max_tokens": 3},
        SAMPLING + ["prompt", ("prompt", 0), "max_tokens", "echo", "logprobs", "best_of", "suffix"],
    ),
    "/v1/apply": (
        {"original": "def f():\n    return 1\n", "snippet": "def f():\n    return 2\n", "max_tokens": 5},
        ["original", "snippet", "instruction", "strategy", "model", "language", "path", "stream", "temperature",
         "top_p", "seed", "max_tokens"],
    ),
    "/v1/code/apply": (
        {"initialCode": "def f():\n    return 1\n", "editSnippet": "def f():\n    return 2\n"},
        ["initialCode", "editSnippet", "instruction", "model", "stream"],
    ),
}
MORPH = {"model": "morph-v3-fast", "max_tokens": 5, "messages": [
    {"role": "user", "content": "<code>def f():\n    return 1\n</code>\n<update>x = 1\n# ... existing code ...\n</update>"}]}
MORPH_PARAMS = ["temperature", "top_p", "seed", "max_tokens", "stream", "logprobs", "prediction", ("messages", 0, "content")]


def with_value(base: dict, param, value) -> dict:
    body = json.loads(json.dumps(base))
    path = param if isinstance(param, tuple) else (param,)
    target = body
    for key in path[:-1]:
        if isinstance(key, int):
            if not isinstance(target, list) or len(target) <= key:
                return body | {"__skip__": True}
        elif not isinstance(target.get(key), (dict, list)):
            target[key] = {}
        target = target[key]
    target[path[-1]] = value
    return body


def cases():
    for endpoint, (base, params) in ENDPOINTS.items():
        for param in params:
            yield endpoint, base, param
    for param in MORPH_PARAMS:
        yield "/v1/chat/completions", MORPH, param


@pytest.fixture(scope="module")
def http():
    with running(create_app(FakeChat(context_length=512), max_scored_tokens=256)) as url, \
            httpx.Client(base_url=url, timeout=60) as client:
        yield client


@pytest.mark.parametrize("endpoint, base, param", list(cases()),
                         ids=lambda x: x if isinstance(x, str) else ("-".join(map(str, x)) if isinstance(x, tuple) else ""))
def test_boundary_values_never_give_a_500(http, caplog, endpoint, base, param):
    caplog.set_level(logging.ERROR, logger="fastapply.serve")
    seen = set()
    for value in VALUES:
        body = with_value(base, param, value)
        if body.pop("__skip__", False):
            continue
        raw = json.dumps(body, allow_nan=True).encode()  # NaN and Infinity as Python's JSON writes them
        with http.stream("POST", endpoint, content=raw, headers={"Content-Type": "application/json"}) as r:
            text = r.read().decode()
        where = f"{endpoint} {param}={value!r}"
        assert r.status_code < 500, f"{where}: {r.status_code} {text[:300]}"
        seen.add(r.status_code)
        if r.status_code >= 400:
            err = json.loads(text)["error"]
            assert set(err) == {"message", "type", "param", "code"} and err["message"], where
        elif r.headers["content-type"].startswith("text/event-stream"):
            events = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
            assert events and events[-1] == "[DONE]", f"{where}: {events[-1:]}"
            assert not any('"error"' in e for e in events), where
    assert not [rec for rec in caplog.records if rec.levelno >= logging.ERROR], caplog.text
    assert seen  # something was sent
