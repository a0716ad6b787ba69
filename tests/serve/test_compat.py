"""Tools written for Morph or Relace work by changing the base URL: their request shapes, answered by
the apply flow (instant merge, else the model), through the official `openai` client."""

from __future__ import annotations

import httpx
import openai
import pytest

from fastapply.serve.app import create_app
from fastapply.serve.compat import parse_apply_message
from tests.fakes import FakeLoaded
from tests.serve.support import running

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
INSTANT = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"  # the instant merge takes it
REFUSED = "# ... existing code ...\n    return 10\n# ... existing code ...\n"  # it refuses; the model's answer is right
UNGUARDED = "# ... existing code ...\ndef f():\n    return 10\n\n\ndef k():\n# ... existing code ...\n"  # answer lacks k


def morph_message(code, update, instruction="Return 10 from f"):
    return [{"role": "user", "content": f"<instruction>{instruction}</instruction>\n<code>{code}</code>\n<update>{update}</update>"}]


@pytest.fixture(scope="module")
def url():
    with running(create_app(FakeLoaded(EXPECTED))) as base:
        yield base


@pytest.fixture(scope="module")
def client(url):
    return openai.OpenAI(base_url=url + "/v1", api_key="unused", max_retries=0, timeout=30)


@pytest.mark.parametrize("model", ["morph-v3-fast", "morph-v3-large", "auto"])
def test_morph_request_gets_the_merged_file_as_content(client, model):
    out = client.chat.completions.create(model=model, messages=morph_message(ORIGINAL, INSTANT))
    assert out.choices[0].message.content == EXPECTED and out.choices[0].finish_reason == "stop"
    assert out.model == model and out.usage.model_extra["fastapply"]["draft"] == "none"  # instant: no model


def test_morph_request_the_merge_refuses_goes_to_the_model(client):
    # the fake model always writes EXPECTED; the instant merge could not have produced it from REFUSED
    out = client.chat.completions.create(model="morph-v3-fast", messages=morph_message(ORIGINAL, REFUSED))
    assert out.choices[0].message.content == EXPECTED
    assert out.usage.completion_tokens > 0 and out.usage.completion_tokens_details.accepted_prediction_tokens > 0


@pytest.mark.parametrize("update", [INSTANT, REFUSED])
def test_morph_streaming(client, update):
    chunks = list(client.chat.completions.create(model="morph-v3-fast", messages=morph_message(ORIGINAL, update),
                                                 stream=True, stream_options={"include_usage": True}))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == EXPECTED
    assert [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason] == ["stop"]
    assert chunks[-1].usage is not None and chunks[-1].choices == []


def test_relace_openai_style_base_url(url):
    relace = openai.OpenAI(base_url=url + "/v1/apply", api_key="unused", max_retries=0, timeout=30)
    content = f"\n<code>{ORIGINAL}</code>\n<update>{INSTANT}</update>\n"  # <instruction> is optional
    out = relace.chat.completions.create(model="auto", messages=[{"role": "user", "content": content}])
    assert out.choices[0].message.content == EXPECTED


def test_relace_rest_endpoint(url):
    r = httpx.post(url + "/v1/code/apply", json={"initialCode": ORIGINAL, "editSnippet": REFUSED, "stream": False})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mergedCode"] == EXPECTED
    assert body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"] > 0
    r = httpx.post(url + "/v1/code/apply", json={"initialCode": ORIGINAL, "editSnippet": INSTANT, "stream": True})
    assert r.status_code == 400 and r.json()["error"]["param"] == "stream"
    r = httpx.post(url + "/v1/code/apply", json={"initialCode": ORIGINAL})
    assert r.status_code == 400 and r.json()["error"]["param"] == "editSnippet"


def test_a_morph_model_with_another_message_shape_is_a_clear_400(client):
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model="morph-v3-fast", messages=[{"role": "user", "content": "hello"}])
    assert info.value.body["param"] == "messages" and "<update>" in info.value.body["message"]


def test_the_served_model_name_still_chats():
    # the apply shape is recognised for the apply services' model names only; ours stays a chat model
    from tests.serve.support import FakeChat, echo_reply

    message = morph_message(ORIGINAL, INSTANT)
    with running(create_app(FakeChat())) as url:
        r = httpx.post(url + "/v1/chat/completions", json={"model": "fake-chat", "messages": message})
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == echo_reply(message[0]["content"])


def test_a_model_answer_that_fails_a_guard_is_an_error_never_content(client, url):
    with pytest.raises(openai.UnprocessableEntityError) as info:
        client.chat.completions.create(model="morph-v3-fast", messages=morph_message(ORIGINAL, UNGUARDED))
    assert info.value.code == "apply_failed" and "snippet_lines" in info.value.message
    r = httpx.post(url + "/v1/code/apply", json={"initialCode": ORIGINAL, "editSnippet": UNGUARDED})
    assert r.status_code == 422 and r.json()["error"]["code"] == "apply_failed"


def test_an_unfinished_model_answer_is_an_error_never_content():
    with running(create_app(FakeLoaded(EXPECTED, close=False))) as url:
        client = openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0, timeout=30)
        with pytest.raises(openai.UnprocessableEntityError) as info:
            client.chat.completions.create(model="morph-v3-fast", messages=morph_message(ORIGINAL, REFUSED),
                                           max_tokens=40)
        assert info.value.code == "apply_failed"
        with pytest.raises(openai.APIError):  # streamed: the last event is the error, not a "stop"
            list(client.chat.completions.create(model="morph-v3-fast", messages=morph_message(ORIGINAL, REFUSED),
                                                max_tokens=40, stream=True))


@pytest.mark.parametrize("messages, expected", [
    (morph_message("a\n", "b\n", "do it"), ("do it", "a\n", "b\n")),
    ([{"role": "user", "content": "<code>x</code><update>y</update>"}], (None, "x", "y")),
    ([{"role": "system", "content": "be good"}, {"role": "user", "content": "<code>x</code>\n<update>y</update>\n"}],
     (None, "x", "y")),
    # HTML code containing the tag names keeps its own tags
    (morph_message("<p><code>a</code></p>\n", "<p><code>b</code></p>\n", ""),
     (None, "<p><code>a</code></p>\n", "<p><code>b</code></p>\n")),
])
def test_parse_apply_message(messages, expected):
    parsed = parse_apply_message(messages)
    assert (parsed.instruction, parsed.code, parsed.update) == expected


@pytest.mark.parametrize("messages", [
    [{"role": "user", "content": "<code>x</code>"}],  # no update
    [{"role": "user", "content": "please <code>x</code><update>y</update>"}],  # text outside the tags
    [{"role": "user", "content": "<code>x</code><update>y</update>"}, {"role": "assistant", "content": "z"}],
    [{"role": "user", "content": "<code>x</code><update>y</update>"}] * 2,
])
def test_parse_apply_message_refuses_other_shapes(messages):
    assert parse_apply_message(messages) is None
