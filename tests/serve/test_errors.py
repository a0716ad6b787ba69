"""Bad input gets OpenAI's error shape with the right status, never a traceback; the API key guard."""

from __future__ import annotations

import httpx
import openai
import pytest

from fastapply.serve.app import create_app
from tests.serve.support import FakeChat, running

CHAT = "/v1/chat/completions"
JSON = {"Content-Type": "application/json"}
OK_MESSAGES = [{"role": "user", "content": "hi"}]


def assert_openai_error(response: httpx.Response, status: int, *, param=None, code=None, says=None):
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    err = body["error"]
    assert set(err) == {"message", "type", "param", "code"}
    assert err["message"] and "Traceback" not in err["message"]
    assert err["param"] == param
    if code is not None:
        assert err["code"] == code
    if says is not None:
        assert says in err["message"]
    return err


@pytest.fixture(scope="module")
def http(base_url):
    with httpx.Client(base_url=base_url, timeout=30) as c:
        yield c


@pytest.mark.parametrize("body, param, says", [
    ({"messages": OK_MESSAGES, "prediction": "just a string"}, "prediction", "valid dictionary"),
    ({"messages": OK_MESSAGES, "prediction": {"type": "text", "content": "x"}}, "prediction.type", "'content'"),
    ({"messages": OK_MESSAGES, "prediction": {"type": "content", "content": 42}}, "prediction.content", None),
    ({"messages": OK_MESSAGES, "prediction": {"type": "content", "content": [{"type": "image_url"}]}},
     "prediction.content[0].type", None),
    ({"messages": OK_MESSAGES, "prediction": {"type": "content"}}, "prediction.content", "missing"),
    ({"messages": OK_MESSAGES, "n": 2}, "n", "n > 1"),
    ({"messages": OK_MESSAGES, "tools": [{"type": "function", "function": {"name": "f"}}]}, "tools", "tools"),
    ({"messages": OK_MESSAGES, "logprobs": True, "stream": True}, "logprobs", "stream"),
    ({"messages": OK_MESSAGES, "top_logprobs": 2}, "top_logprobs", None),
    ({"messages": OK_MESSAGES, "logprobs": True, "top_logprobs": 21}, "top_logprobs", None),
    ({"messages": OK_MESSAGES, "response_format": {"type": "json_object"}}, "response_format", None),
    ({"messages": OK_MESSAGES, "frequency_penalty": 0.5}, "frequency_penalty", None),
    ({"messages": OK_MESSAGES, "temperature": 3}, "temperature", None),
    ({"messages": OK_MESSAGES, "top_p": 0}, "top_p", None),
    ({"messages": OK_MESSAGES, "max_tokens": 0}, "max_tokens", None),
    ({"messages": OK_MESSAGES, "stop": ["a", "b", "c", "d", "e"]}, "stop", "at most 4"),
    ({"messages": OK_MESSAGES, "stream_options": {"include_usage": True}}, "stream_options", "stream"),
    ({"messages": []}, "messages", None),
    ({}, "messages", "missing"),
    ({"messages": [{"role": "wizard", "content": "x"}]}, "messages[0].role", None),
    ({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
     "messages[0].content[0]", "text content"),
])
def test_bad_chat_requests_are_400_with_the_param_named(http, body, param, says):
    assert_openai_error(http.post(CHAT, json=body), 400, param=param, says=says)


def test_unknown_fields_that_do_not_matter_are_accepted(http):
    r = http.post(CHAT, json={"messages": OK_MESSAGES, "user": "u1", "metadata": {"a": "b"}, "store": False,
                              "n": 1, "frequency_penalty": 0, "max_tokens": 3})
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "You"


@pytest.mark.parametrize("raw, says", [
    (b"{not json", "could not parse the JSON"),
    (b"", "empty"),
    (b"[1, 2]", "JSON object"),
    (b"\xff\xfe", "could not parse"),
])
def test_malformed_bodies(http, raw, says):
    assert_openai_error(http.post(CHAT, content=raw, headers=JSON), 400, says=says)


def test_wrong_model_name_is_404(http):
    err = assert_openai_error(http.post(CHAT, json={"model": "gpt-4o", "messages": OK_MESSAGES}), 404,
                              param="model", code="model_not_found")
    assert "fake-chat" in err["message"]  # says what is served
    assert_openai_error(http.get("/v1/models/gpt-4o"), 404, param="model")


def test_body_over_the_limit_is_413(http):
    big = {"messages": [{"role": "user", "content": "x" * (65 * 1024)}]}
    assert_openai_error(http.post(CHAT, json=big), 413, code="request_too_large")

    def chunked():  # no Content-Length: the limit must hold while reading, too
        for _ in range(70):
            yield b" " * 1024
    assert_openai_error(http.post(CHAT, content=chunked(), headers=JSON), 413, code="request_too_large")


def test_unknown_route_and_method(http):
    assert_openai_error(http.post("/v1/embeddings", json={}), 404, code="not_found")
    assert_openai_error(http.get(CHAT), 405)


def test_completions_errors(http):
    url = "/v1/completions"
    assert_openai_error(http.post(url, json={"prompt": ["a", "b"]}), 400, param="prompt")
    assert_openai_error(http.post(url, json={"prompt": "a", "best_of": 3}), 400, param="best_of")
    assert_openai_error(http.post(url, json={"prompt": "a", "suffix": "z"}), 400, param="suffix")
    assert_openai_error(http.post(url, json={"prompt": "a", "max_tokens": 0}), 400, param="max_tokens")
    assert_openai_error(http.post(url, json={"prompt": "a", "stream": True, "logprobs": 1}), 400, param="logprobs")
    assert_openai_error(http.post(url, json={"prompt": "a", "prediction": ["x"]}), 400, param="prediction")
    assert_openai_error(http.post(url, json={"prompt": [1, -5]}), 400, says="token ids")
    assert_openai_error(http.post(url, json={"prompt": ""}), 400, param="prompt")


def test_apply_errors(http):
    assert_openai_error(http.post("/v1/apply", json={"original": "x = 1\n"}), 400, param="snippet")
    assert_openai_error(http.post("/v1/apply", json={"original": "x", "snippet": "  "}), 400, says="snippet is empty")
    assert_openai_error(http.post("/v1/apply", json={"original": "x", "snippet": "y", "strategy": "magic"}), 400,
                        param="strategy")


def test_prompt_beyond_the_context_window():
    with running(create_app(FakeChat(context_length=64))) as url, httpx.Client(base_url=url) as http:
        long = [{"role": "user", "content": "word " * 40}]
        err = assert_openai_error(http.post(CHAT, json={"messages": long}), 400, param="messages",
                                  code="context_length_exceeded")
        assert "64" in err["message"]
        # fits alone, but not with the completion budget asked for
        assert_openai_error(http.post(CHAT, json={"messages": OK_MESSAGES, "max_tokens": 60}), 400,
                            param="messages", code="context_length_exceeded")
        assert_openai_error(http.post(CHAT, json={"messages": long, "stream": True}), 400, param="messages",
                            code="context_length_exceeded")  # refused before the stream starts
        assert http.post(CHAT, json={"messages": OK_MESSAGES, "max_tokens": 5}).status_code == 200


def test_api_key(monkeypatch):
    with running(create_app(FakeChat(), api_key="s3cret")) as url, httpx.Client(base_url=url) as http:
        assert http.get("/health").status_code == 200  # open: load balancers probe it
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"},
                        {"Authorization": "Bearer s3cret-and-more"}):
            assert_openai_error(http.get("/v1/models", headers=headers), 401, code="invalid_api_key")
            assert_openai_error(http.post(CHAT, json={"messages": OK_MESSAGES}, headers=headers), 401)
            assert_openai_error(http.get("/metrics", headers=headers), 401)
        ok = {"Authorization": "Bearer s3cret"}
        assert http.get("/metrics", headers=ok).status_code == 200
        client = openai.OpenAI(base_url=url + "/v1", api_key="s3cret", max_retries=0)
        out = client.chat.completions.create(model="fake-chat", messages=OK_MESSAGES, max_tokens=3)
        assert out.choices[0].message.content == "You"
        with pytest.raises(openai.AuthenticationError):
            openai.OpenAI(base_url=url + "/v1", api_key="nope", max_retries=0).models.list()


class _Breaks(FakeChat):
    """A model whose backend fails on its third forward pass (a bug, an out-of-memory, ...)."""

    def new_backend(self):
        backend = super().new_backend()
        forward = backend.forward

        def failing(ids, **kwargs):
            if backend.forward_calls >= 2 and self.armed:
                raise RuntimeError("device fell over")
            return forward(ids, **kwargs)

        backend.forward = failing
        return backend


def test_a_failure_mid_stream_ends_the_stream_with_an_error_event_and_the_server_survives():
    model = _Breaks()
    model.armed = True
    with running(create_app(model)) as url, httpx.Client(base_url=url, timeout=10) as http:
        with http.stream("POST", CHAT, json={"messages": OK_MESSAGES, "stream": True}) as r:
            assert r.status_code == 200
            events = [line[6:] for line in r.iter_lines() if line.startswith("data: ")]
        assert '"content": "Y"' in events[1]  # the stream had started
        assert events[-1] != "[DONE]" and '"error"' in events[-1] and "server_error" in events[-1]
        client = openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0)
        with pytest.raises(openai.APIError):
            list(client.chat.completions.create(model="fake-chat", messages=OK_MESSAGES, stream=True))
        # not streaming: a 500 in OpenAI's shape, never a traceback
        assert_openai_error(http.post(CHAT, json={"messages": OK_MESSAGES}), 500)
        model.armed = False
        ok = http.post(CHAT, json={"messages": OK_MESSAGES, "max_tokens": 3})
        assert ok.status_code == 200 and ok.json()["choices"][0]["message"]["content"] == "You"


# -- bodies Python's JSON parser reads badly or not at all (issue 18, item 7): 400, never 500

DIGITS = "9" * 5000  # past CPython's 4,300-digit limit on int-from-string
DEEP = "[" * 20_000 + "]" * 20_000  # 100,000 in the probe; 40 KB fits this server's body limit


@pytest.mark.parametrize("path, raw, param, says", [
    (CHAT, '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": %s}' % DIGITS, None, "number we cannot read"),
    (CHAT, '{"messages": [{"role": "user", "content": "hi"}], "prediction": {"type": "content", "content": "a\\ud800b"}}',
     "prediction.content", "lone surrogate"),
    (CHAT, '{"messages": [{"role": "user", "content": "\\udc00"}]}', "messages[0].content", "lone surrogate"),
    (CHAT, '{"messages": [{"role": "user", "content": "hi"}], "x": %s}' % DEEP, None, "nested too deeply"),
    ("/v1/completions", '{"prompt": "hi", "max_tokens": %s}' % DIGITS, None, "number we cannot read"),
    ("/v1/completions", '{"prompt": "\\ud83d"}', "prompt", "lone surrogate"),
    ("/v1/apply", '{"original": "a\\n", "snippet": "b\\udfff\\n"}', "snippet", "lone surrogate"),
    ("/v1/apply", DEEP, None, "nested too deeply"),
    ("/tokenize", '{"prompt": "\\ud800"}', "prompt", "lone surrogate"),
    ("/tokenize", '{"prompt": "hi", "n": %s}' % DIGITS, None, "number we cannot read"),
])
def test_unreadable_json_is_a_400_in_openai_shape(http, path, raw, param, says):
    err = assert_openai_error(http.post(path, content=raw.encode(), headers=JSON), 400, param=param, says=says)
    assert err["code"] == "invalid_json"


@pytest.mark.parametrize("field", ["max_tokens", "seed", "temperature", "top_p", "top_logprobs"])
def test_huge_numbers_the_parser_reads_are_a_400(http, field):
    raw = '{"messages": [{"role": "user", "content": "hi"}], "%s": %s}' % (field, "9" * 4000)
    r = http.post(CHAT, content=raw.encode(), headers=JSON)
    assert r.status_code == 400 and r.json()["error"]["message"], r.text


def test_a_surrogate_pair_escape_is_a_character_not_an_error(http):
    raw = '{"messages": [{"role": "user", "content": "\\ud83d\\ude00"}], "max_tokens": 3}'
    r = http.post(CHAT, content=raw.encode(), headers=JSON)
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == "You"
