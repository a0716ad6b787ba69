"""`--model openai:` end to end against `fastapply serve` on loopback: the official `openai` client
sends our apply prompt with the window's text as `prediction`, the server's speculative decoding
verifies it (usage reports accepted prediction tokens), and the answer passes our guards.

The served model is tests/serve/support.py's torch-free FakeChat, scripted to answer the edit as a
perfect apply model would; the bundled real model is run the same way in the `model`-marked test."""

from __future__ import annotations

import re

import pytest

from fastapply import cli, models
from fastapply.backends import openai_client
from fastapply.backends.openai_chat import load_openai
from fastapply.pipeline import apply_edit
from fastapply.serve.app import create_app
from tests.backends.chat_fakes import tagged
from tests.backends.test_openai_chat import CART_EXPECTED, CART_SNIPPET, NEW_DOC, OLD_DOC, STORE, files
from tests.serve.support import FakeChat, running

_CODE = re.compile(r"<code>\n(?P<code>.*)</code>\n<update>", re.S)


def perfect_apply(user: str) -> str:
    """The scripted model's reply to our apply prompt for cart.snippet: the code it was sent,
    docstring changed, in our answer format (anything else: an echo)."""
    found = _CODE.search(user)
    return tagged(found["code"].replace(OLD_DOC, NEW_DOC)) if found else f"You said: {user}"


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    for name in (*openai_client.API_KEY_ENVS, "FASTAPPLY_MODEL"):
        monkeypatch.delenv(name, raising=False)
    openai_client._NO_PREDICTION.clear()
    models._LOADED.clear()
    yield
    models._LOADED.clear()


@pytest.fixture(scope="module")
def served():
    fake = FakeChat(perfect_apply)
    with running(create_app(fake)) as url:
        yield url, fake


def test_the_prediction_is_accepted_by_fastapply_serve(served):
    url, fake = served
    r = apply_edit(STORE, CART_SNIPPET, loaded=load_openai(f"openai:{url}/v1#fake-chat"))
    assert r.complete and r.text == CART_EXPECTED, r.guard_reason
    s = r.stats
    assert s.prediction == "sent" and s.prediction_reported and s.requests == 1
    # the window is copied but for one line: nearly every token comes from the prediction
    assert s.accepted_prediction_tokens > 0.8 * s.completion_tokens and s.completion_tokens > 200
    assert 0 < s.rejected_prediction_tokens < s.completion_tokens  # the changed line (verification work: serve/generation.py)
    assert s.prompt_tokens > s.completion_tokens  # the prompt holds the window and the snippet


def test_without_a_prediction_the_same_answer_comes_plainly(served):
    url, _ = served
    r = apply_edit(STORE, CART_SNIPPET, loaded=load_openai(f"openai:{url}/v1#fake-chat"), draft="none")
    assert r.complete and r.text == CART_EXPECTED
    assert r.stats.accepted_prediction_tokens == 0 and r.stats.prediction == "off"


def test_the_cli_writes_the_guarded_answer(served, tmp_path, capsys, monkeypatch):
    url, _ = served
    original, snippet = files(tmp_path, STORE, CART_SNIPPET)
    code = cli.main(["apply", str(original), str(snippet), "--in-place", "--model", f"openai:{url}/v1#fake-chat"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert original.read_text() == CART_EXPECTED
    assert "path=model model=openai:" in err and "draft=prediction" in err and "window=lines 29-42" in err
    accepted = int(re.search(r"prediction: (\d+) accepted", err)[1])
    assert accepted > 200


def test_a_served_model_that_answers_wrong_is_refused(tmp_path, capsys):
    # the same server and client, a model that answers the edit without Cart.total: exit 8
    def drops_total(user):
        found = _CODE.search(user)
        return tagged(found["code"].replace(OLD_DOC, NEW_DOC).split("\n    def total")[0] + "\n")

    original, snippet = files(tmp_path, STORE, CART_SNIPPET)
    with running(create_app(FakeChat(drops_total))) as url:
        code = cli.main(["apply", str(original), str(snippet), "--in-place", "--model", f"openai:{url}/v1#fake-chat"])
    assert code == 8 and original.read_text() == STORE


@pytest.mark.model
def test_the_bundled_model_served_on_loopback(tmp_path):
    """The bundled fastapply-135m-v2 behind `fastapply serve`'s chat endpoint, through the openai
    client: the reply is read, guarded and (for this edit) right, and the prediction is accepted."""
    loaded = models.load("fastapply-135m-v2")
    with running(create_app(loaded, model_name="fastapply-135m-v2")) as url:
        r = apply_edit(STORE, CART_SNIPPET, "Say in the Cart docstring that items are keyed by name",
                       loaded=load_openai(f"openai:{url}/v1#fastapply-135m-v2"))
    assert r.stats.prediction == "sent" and r.stats.accepted_prediction_tokens > 0.5 * r.stats.completion_tokens
    assert r.complete and r.text == CART_EXPECTED, (r.guard, r.guard_reason, r.text)
