"""Nothing is tokenised that cannot fit (issue 18, item 4): every endpoint bounds a text's tokens
from its bytes and the vocabulary's longest token before the model worker tokenises it."""

from __future__ import annotations

import httpx
import pytest

from fastapply.serve.app import create_app
from tests.fakes import SPECIALS, ByteTokenizer
from tests.serve.support import FakeChat, running


class CountingTokenizer(ByteTokenizer):
    """The byte tokenizer with a vocabulary to bound by (its longest entry: `<|im_start|>`, 12
    bytes) and a count of the characters it was asked to encode."""

    def __init__(self):
        self.encoded = 0

    def get_vocab(self):
        return {**{chr(i): i for i in range(256)}, **SPECIALS}

    def encode(self, text, add_special_tokens=False):
        self.encoded += len(text)
        return super().encode(text, add_special_tokens)


@pytest.fixture(scope="module")
def served():
    model = FakeChat(context_length=4096)
    model.tokenizer = model.rule.tok = CountingTokenizer()
    with running(create_app(model, max_scored_tokens=100)) as url, httpx.Client(base_url=url, timeout=30) as http:
        yield http, model.tokenizer


HUGE = "x" * 60_000  # at least 5,000 tokens at 12 bytes a token: beyond 4,096 whatever the tokenisation


def _refused_untokenised(served, path, body, code=None, param=None):
    http, tok = served
    before = tok.encoded
    r = http.post(path, json=body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert "nothing was tokenised" in error["message"]
    if code:
        assert error["code"] == code
    if param:
        assert error["param"] == param
    assert tok.encoded - before < 1000  # the huge text was never encoded
    return error


def test_a_chat_message_beyond_the_context_is_refused_before_tokenising(served):
    _refused_untokenised(served, "/v1/chat/completions", {"messages": [{"role": "user", "content": HUGE}]},
                         code="context_length_exceeded")


def test_a_prompt_and_max_tokens_beyond_the_context_are_refused_before_tokenising(served):
    # 3,000 bytes are at least 250 tokens; with 4,000 for the answer they cannot fit 4,096
    _refused_untokenised(served, "/v1/chat/completions",
                         {"messages": [{"role": "user", "content": "y" * 3000}], "max_tokens": 4000})
    _refused_untokenised(served, "/v1/completions", {"prompt": HUGE}, code="context_length_exceeded")


def test_a_prediction_longer_than_any_answer_is_refused_before_tokenising(served):
    for path, body in (("/v1/chat/completions", {"messages": [{"role": "user", "content": "hi"}]}),
                       ("/v1/completions", {"prompt": "hi"})):
        _refused_untokenised(served, path, {**body, "prediction": {"type": "content", "content": HUGE}},
                             param="prediction")


def test_an_echo_that_would_score_too_many_tokens_is_refused_before_tokenising(served):
    # 2,400 bytes are at least 200 tokens: over --max-scored-tokens 100 (and well within the context)
    error = _refused_untokenised(served, "/v1/completions",
                                 {"prompt": "z" * 2400, "echo": True, "logprobs": 1, "max_tokens": 0})
    assert error["param"] == "logprobs" and "at most 100 tokens" in error["message"]


def test_tokenize_refuses_a_prompt_beyond_the_context_before_tokenising(served):
    _refused_untokenised(served, "/tokenize", {"prompt": HUGE}, code="context_length_exceeded")


def test_texts_that_may_fit_are_still_tokenised_and_answered(served):
    http, tok = served
    r = http.post("/tokenize", json={"prompt": "a" * 5000})  # 5,000 bytes may be 417 tokens: tokenised
    assert r.status_code == 200 and r.json()["count"] == 5000
    r = http.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "hello"}],
                                                "prediction": {"type": "content", "content": "You said: hello"}})
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"].startswith("You said: hello")
