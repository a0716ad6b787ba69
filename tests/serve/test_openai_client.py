"""The server through the official `openai` client: predicted outputs, streaming, typed usage."""

from __future__ import annotations

import openai
import pytest

from tests.serve.support import echo_reply

MESSAGES = [{"role": "system", "content": "Repeat after me."}, {"role": "user", "content": "def add(a, b): return a + b"}]
EXPECTED = echo_reply("def add(a, b): return a + b")


@pytest.fixture(scope="module")
def client(base_url):
    return openai.OpenAI(base_url=base_url + "/v1", api_key="unused", max_retries=0, timeout=30)


def prediction(text):
    return {"type": "content", "content": text}


def test_chat_with_a_right_prediction_accepts_it(client):
    plain = client.chat.completions.create(model="fake-chat", messages=MESSAGES, temperature=0)
    fast = client.chat.completions.create(model="fake-chat", messages=MESSAGES, temperature=0, prediction=prediction(EXPECTED))
    assert plain.choices[0].message.content == fast.choices[0].message.content == EXPECTED
    assert fast.choices[0].finish_reason == "stop"
    details = fast.usage.completion_tokens_details
    # every token was drafted and accepted, except perhaps one the model added of its own (a bonus)
    assert details.accepted_prediction_tokens >= fast.usage.completion_tokens - 1
    assert details.rejected_prediction_tokens == 0
    assert plain.usage.completion_tokens_details.accepted_prediction_tokens == 0
    assert fast.usage.total_tokens == fast.usage.prompt_tokens + fast.usage.completion_tokens
    extra_fast, extra_plain = fast.usage.model_extra["fastapply"], plain.usage.model_extra["fastapply"]
    assert extra_fast["draft"] == "prediction" and extra_plain["draft"] == "none"
    assert extra_fast["forward_passes"] < extra_plain["forward_passes"] / 10


@pytest.mark.parametrize("predicted", [
    EXPECTED.replace("add", "sum"),  # an edit in the middle
    "something else entirely, " * 5,  # a useless prediction
    EXPECTED[:20],  # a truncated one
    [{"type": "text", "text": EXPECTED[:30]}, {"type": "text", "text": EXPECTED[30:]}],  # text parts
])
def test_output_with_a_prediction_equals_output_without_at_temperature_zero(client, predicted):
    out = client.chat.completions.create(model="fake-chat", messages=MESSAGES, temperature=0, prediction=prediction(predicted))
    assert out.choices[0].message.content == EXPECTED


def test_sampling_with_a_seed_is_the_same_with_and_without_a_prediction(client):
    runs = []
    for pred in (None, EXPECTED, EXPECTED.upper()):
        kwargs = {"prediction": prediction(pred)} if pred else {}
        out = client.chat.completions.create(model="fake-chat", messages=MESSAGES, temperature=1.0, seed=7,
                                             max_tokens=80, **kwargs)
        runs.append(out.choices[0].message.content)
    assert runs[0] == runs[1] == runs[2]
    assert runs[0] != EXPECTED  # temperature 1 on this fake drifts from the greedy answer: sampling is on


def test_streaming_chat_with_prediction_and_usage(client):
    stream = client.chat.completions.create(
        model="fake-chat", messages=MESSAGES, stream=True, stream_options={"include_usage": True},
        prediction=prediction(EXPECTED),
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == EXPECTED
    assert chunks[0].choices[0].delta.role == "assistant"
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == ["stop"]
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens_details.accepted_prediction_tokens > 0
    assert all(c.usage is None for c in chunks[:-1])


def test_streaming_without_usage_sends_none(client):
    chunks = list(client.chat.completions.create(model="fake-chat", messages=MESSAGES, stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in chunks) == EXPECTED
    assert all(c.usage is None for c in chunks)


def test_stop_strings_and_max_tokens(client):
    out = client.chat.completions.create(model="fake-chat", messages=MESSAGES, stop=["\n"], prediction=prediction(EXPECTED))
    assert out.choices[0].message.content == EXPECTED.split("\n")[0]
    assert out.choices[0].finish_reason == "stop"
    out = client.chat.completions.create(model="fake-chat", messages=MESSAGES, max_completion_tokens=5)
    assert out.choices[0].message.content == EXPECTED[:5]
    assert out.choices[0].finish_reason == "length" and out.usage.completion_tokens == 5


def test_models_list(client):
    assert [m.id for m in client.models.list()] == ["fake-chat"]
    assert client.models.retrieve("fake-chat").id == "fake-chat"


def test_completions_with_prediction(client):
    prompt = "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n"
    plain = client.completions.create(model="fake-chat", prompt=prompt, max_tokens=100)
    fast = client.completions.create(model="fake-chat", prompt=prompt, max_tokens=100,
                                     extra_body={"prediction": prediction(echo_reply("hello"))})
    assert plain.choices[0].text == fast.choices[0].text == echo_reply("hello")
    assert fast.usage.completion_tokens_details.accepted_prediction_tokens > 0
    streamed = client.completions.create(model="fake-chat", prompt=prompt, max_tokens=100, stream=True, echo=True)
    assert "".join(c.choices[0].text for c in streamed) == prompt + echo_reply("hello")


def test_completions_echo_logprobs_verify_a_prediction_remotely(client):
    # the client scores its own guess of the answer as part of the prompt: tokens the model agrees
    # with are its top choice with a high probability; a wrong one is not
    head = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    guess = echo_reply("hi").replace("said", "sand")
    out = client.completions.create(model="fake-chat", prompt=head + guess, max_tokens=0, echo=True, logprobs=1)
    lp = out.choices[0].logprobs
    assert out.choices[0].text == head + guess
    assert "".join(lp.tokens) == head + guess and lp.token_logprobs[0] is None
    assert lp.text_offset[:3] == [0, len(lp.tokens[0]), len(lp.tokens[0]) + len(lp.tokens[1])]
    answer = lp.tokens[len(lp.tokens) - len(guess):]
    scores = lp.token_logprobs[len(lp.tokens) - len(guess):]
    wrong = guess.index("sand") + 2  # the "n" of "sand", where "said" has "i"
    assert all(s > -0.1 for s in scores[:wrong])
    assert scores[wrong] < -5
    assert list(lp.top_logprobs[len(lp.tokens) - len(guess)].keys()) == [answer[0]]


def test_completions_logprobs_of_generated_tokens(client):
    prompt = "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
    out = client.completions.create(model="fake-chat", prompt=prompt, max_tokens=4, logprobs=2)
    lp = out.choices[0].logprobs
    assert "".join(lp.tokens) == out.choices[0].text == "You "
    assert len(lp.top_logprobs[0]) == 2 and all(s > -0.1 for s in lp.token_logprobs)


def test_errors_come_back_as_typed_openai_exceptions(client):
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model="fake-chat", messages=MESSAGES, n=2)
    assert info.value.body["param"] == "n"
    with pytest.raises(openai.NotFoundError) as info:
        client.chat.completions.create(model="gpt-4o", messages=MESSAGES)
    assert info.value.code == "model_not_found"


def test_chat_logprobs_score_the_answer_as_sent(client):
    out = client.chat.completions.create(model="fake-chat", messages=MESSAGES, logprobs=True, top_logprobs=3,
                                         prediction=prediction(EXPECTED))
    content = out.choices[0].logprobs.content
    assert "".join(t.token for t in content) == out.choices[0].message.content == EXPECTED  # no end token
    assert all(t.logprob > -0.1 and len(t.top_logprobs) == 3 and t.top_logprobs[0].token == t.token for t in content)
    assert content[0].bytes == list(content[0].token.encode())
