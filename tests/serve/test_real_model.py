"""The bundled real model through the server and the openai client: a prediction changes speed, never output."""

from __future__ import annotations

import openai
import pytest

from fastapply.serve.app import create_app
from tests.serve.support import running

MESSAGES = [{"role": "user", "content": "Write a Python function that returns the square of a number."}]


@pytest.mark.model
def test_prediction_does_not_change_greedy_output_of_the_real_model():
    from fastapply import models

    loaded = models.load("smollm2-135m-instruct")
    with running(create_app(loaded)) as url:
        client = openai.OpenAI(base_url=url + "/v1", api_key="x", max_retries=0, timeout=120)

        def ask(pred=None, **kwargs):
            if pred is not None:
                kwargs["prediction"] = {"type": "content", "content": pred}
            return client.chat.completions.create(model="smollm2-135m-instruct", messages=MESSAGES,
                                                  temperature=0, max_tokens=12, **kwargs)

        plain = ask()
        text = plain.choices[0].message.content
        right = ask(text, logprobs=True, top_logprobs=1)  # the answer itself as the prediction
        half = len(text) // 2
        wrong = ask(text[:half] + " WRONG turn " + text[half:])  # an edit inside it
    assert text and right.choices[0].message.content == text and wrong.choices[0].message.content == text
    assert right.usage.completion_tokens == plain.usage.completion_tokens
    assert right.usage.completion_tokens_details.accepted_prediction_tokens >= right.usage.completion_tokens - 2
    assert right.usage.model_extra["fastapply"]["forward_passes"] < plain.usage.model_extra["fastapply"]["forward_passes"]
    assert wrong.usage.completion_tokens_details.rejected_prediction_tokens > 0
    # scored afterwards in one pass, each greedy token is the model's top choice (up to float noise)
    scored = right.choices[0].logprobs.content
    assert "".join(t.token for t in scored) == text
    assert all(t.logprob >= t.top_logprobs[0].logprob - 1e-3 for t in scored)
