"""The `openai:URL#MODEL` chat backend against a scripted OpenAI-compatible server on loopback:
the window it is sent, the prediction, the guards on its answer (a wrong file is refused, exit 8,
nothing written), a server that refuses `prediction`, and every failure as a one-line exit 9."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fastapply import cli, models
from fastapply.backends import openai_client
from fastapply.backends.openai_chat import ChatModel, load_openai, parse_spec
from fastapply.errors import RemoteError, UnknownModelError
from fastapply.merge.instant import instant_merge
from fastapply.pipeline import apply_edit
from fastapply.rewrite import prompts
from tests.backends.chat_fakes import ScriptedChat, sent_code, tagged
from tests.merge.test_alternatives import FINAL_ORIGINAL, FINAL_SNIPPET
from tests.serve.support import running

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STORE = (EXAMPLES / "store.py").read_text()
CART_SNIPPET = (EXAMPLES / "cart.snippet.py").read_text()  # the instant merge doubts it: a window, class Cart
STORE_SNIPPET = (EXAMPLES / "store.snippet.py").read_text()  # remove() is in two classes: the whole file
OLD_DOC, NEW_DOC = '"""What a customer is about to buy."""', '"""What a customer is about to buy, keyed by item name."""'
CART_EXPECTED = STORE.replace(OLD_DOC, NEW_DOC)
CART_REMOVE = "    def remove(self, name):\n        del self.items[name]\n\n    def total(self):"
STORE_EXPECTED = STORE.replace(CART_REMOVE, STORE_SNIPPET.split("# ...")[0] + "\n    def total(self):")
SECRET = "sk-test-0123456789abcdef"


@pytest.fixture(autouse=True)
def _clean(monkeypatch):
    for name in (*openai_client.API_KEY_ENVS, "FASTAPPLY_MODEL", openai_client.TIMEOUT_ENV):
        monkeypatch.delenv(name, raising=False)
    openai_client._NO_PREDICTION.clear()
    models._LOADED.clear()
    yield
    openai_client._NO_PREDICTION.clear()
    models._LOADED.clear()


def edited_window(body: dict) -> str:
    """A right answer for cart.snippet: the code it was sent, with the docstring changed."""
    return tagged(sent_code(body).replace(OLD_DOC, NEW_DOC))


def apply_cli(capsys, url, original: Path, snippet: Path, *extra) -> tuple[int, str, str]:
    code = cli.main(["apply", str(original), str(snippet), "--model", f"openai:{url}/v1#scripted", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def files(tmp_path, original: str, snippet: str) -> tuple[Path, Path]:
    a, b = tmp_path / "store.py", tmp_path / "edit.py"
    a.write_text(original)
    b.write_text(snippet)
    return a, b


# -- the spec --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,url,model", [
    ("openai:http://127.0.0.1:8000/v1#fastapply-135m", "http://127.0.0.1:8000/v1", "fastapply-135m"),
    ("openai:http://127.0.0.1:11434#qwen2.5-coder:7b", "http://127.0.0.1:11434/v1", "qwen2.5-coder:7b"),
    ("openai:https://api.fireworks.ai/inference/v1/#accounts/fireworks/models/x", "https://api.fireworks.ai/inference/v1",
     "accounts/fireworks/models/x"),
])
def test_a_spec_names_the_base_url_and_the_served_model(text, url, model):
    spec = parse_spec(text)
    assert (spec.url, spec.model) == (url, model)
    assert models.resolve(text).kind == "openai"


@pytest.mark.parametrize("text", ["openai:http://h:1/v1", "openai:#m", "openai:ftp://h/v1#m", "openai:h:8000/v1#m",
                                  "openai:http://h/v1?x=1#m"])
def test_a_malformed_spec_is_an_unknown_model(text):
    with pytest.raises(UnknownModelError):
        models.resolve(text)


def test_a_malformed_spec_exits_3_before_reading_anything(tmp_path, capsys):
    code = cli.main(["apply", str(tmp_path / "missing.py"), "-", "--model", "openai:http://h/v1"])
    err = capsys.readouterr().err
    assert code == 3 and "openai:URL#MODEL" in err and "Traceback" not in err


# -- the edit: window, prediction, guards -----------------------------------------------------------

def test_the_undecided_window_is_sent_with_its_text_as_the_prediction_and_the_answer_spliced(tmp_path, capsys,
                                                                                                 monkeypatch):
    monkeypatch.setenv("FASTAPPLY_API_KEY", SECRET)
    chat = ScriptedChat(edited_window, usage={"completion_tokens_details": {
        "accepted_prediction_tokens": 70, "rejected_prediction_tokens": 2}})
    original, snippet = files(tmp_path, STORE, CART_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place")
    assert code == 0, err
    assert original.read_text() == CART_EXPECTED
    (body,) = chat.requests
    window = sent_code(body)
    assert window.startswith("class Cart:\n") and "class Inventory" not in window  # the window, not the file
    assert body["prediction"] == {"type": "content", "content": tagged(window)}
    assert body["messages"] == prompts.build_messages(window, CART_SNIPPET)
    assert body["temperature"] == 0 and "max_tokens" not in body
    assert chat.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert "window=lines 29-42" in err and "prediction: 70 accepted, 2 rejected tokens" in err and SECRET not in err


def test_a_wrong_file_is_refused_by_the_guards_exit_8_nothing_written(tmp_path, capsys):
    # remove() is in two classes: the whole file goes to the model, which answers the edit made
    # but Inventory.remove deleted, a function the snippet keeps
    wrong = STORE_EXPECTED.replace("    def remove(self, name):\n        del self.items[name]\n\n", "", 1)
    assert wrong != STORE_EXPECTED and wrong.count("def remove") == 1
    chat = ScriptedChat(tagged(wrong))
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    before = original.read_bytes()
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place")
    assert code == 8 and original.read_bytes() == before and out == ""
    assert "guard" in err.splitlines()[-1] and "nothing was written" in err and "Traceback" not in err
    assert sent_code(chat.requests[0]) == STORE  # no window: the whole file


def test_the_same_answer_right_is_written(tmp_path, capsys):
    # the control for the test above: the scripted answer, without the deletion, passes
    chat = ScriptedChat(tagged(STORE_EXPECTED))
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "-o", str(tmp_path / "new.py"))
    assert code == 0, err
    assert (tmp_path / "new.py").read_text() == STORE_EXPECTED and original.read_text() == STORE


def test_a_window_answer_that_drops_code_a_marker_keeps_is_refused(tmp_path, capsys):
    def drops_total(body):
        window = sent_code(body).replace(OLD_DOC, NEW_DOC)
        return tagged(window.split("\n    def total")[0] + "\n")

    chat = ScriptedChat(drops_total)
    original, snippet = files(tmp_path, STORE, CART_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place")
    assert code == 8 and original.read_text() == STORE and "Traceback" not in err


def test_an_answer_that_merely_picks_one_of_two_readings_is_refused_not_ranked():
    # the joint and greedy readings differ ("readings"): our own model would rank both; a chat
    # model cannot, so the answer that is one of them is refused (as for remote:)
    twin = instant_merge(FINAL_ORIGINAL, FINAL_SNIPPET, language="python")
    assert twin.choice == "readings"
    chat = ScriptedChat(tagged(twin.alternatives[1]))
    with running(chat.app) as url:
        r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=load_openai(f"openai:{url}#m"))
    assert not r.complete and r.guard == "undecided" and "cannot rank" in r.guard_reason
    assert r.text == twin.alternatives[1]  # the candidate stays available (--force)


@pytest.mark.parametrize("content,finish", [
    ("```python\n" + STORE_EXPECTED + "```\n", "stop"),  # no tags, a fence: tolerated
    ("Here is the updated file:\n" + tagged(STORE_EXPECTED) + "\nDone.", "stop"),  # text around the tags
    (STORE_EXPECTED.replace("\n", "\r\n"), "stop"),  # CRLF from the server
])
def test_answer_shapes_other_than_ours_are_read(content, finish):
    chat = ScriptedChat(content, finish_reason=finish)
    with running(chat.app) as url:
        r = apply_edit(STORE, STORE_SNIPPET, loaded=load_openai(f"openai:{url}#m"))
    assert r.complete and r.text == STORE_EXPECTED, r.guard_reason


@pytest.mark.parametrize("content,finish", [
    (prompts.ANSWER_PREFIX + STORE_EXPECTED, "stop"),  # opened, never closed
    (STORE_EXPECTED[:200], "length"),  # cut off by max_tokens
])
def test_an_unfinished_answer_exits_6(tmp_path, capsys, content, finish):
    chat = ScriptedChat(content, finish_reason=finish)
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place", "--max-tokens", "64")
    assert code == 6 and original.read_text() == STORE and "did not finish" in err
    assert chat.requests[0]["max_tokens"] == 64


# -- prediction refused -----------------------------------------------------------------------------

def test_a_server_that_refuses_prediction_gets_the_request_again_without_it_and_never_again():
    chat = ScriptedChat(tagged(STORE_EXPECTED), refuse_prediction=True)
    with running(chat.app) as url:
        loaded = load_openai(f"openai:{url}#m")
        first = apply_edit(STORE, STORE_SNIPPET, loaded=loaded)
        second = apply_edit(STORE, STORE_SNIPPET, loaded=load_openai(f"openai:{url}#m"))  # a new client, same process
    assert first.complete and second.complete and first.text == second.text == STORE_EXPECTED
    assert ["prediction" in body for body in chat.requests] == [True, False, False]
    assert first.stats.requests == 2 and first.stats.prediction == "refused" and "refused" in first.summary_line()
    assert second.stats.requests == 1 and second.stats.prediction == "off"


def test_draft_none_sends_no_prediction():
    chat = ScriptedChat(tagged(STORE_EXPECTED))
    with running(chat.app) as url:
        r = apply_edit(STORE, STORE_SNIPPET, loaded=load_openai(f"openai:{url}#m"), draft="none")
    assert r.complete and "prediction" not in chat.requests[0] and r.draft == "none"


def test_other_400s_are_not_retried(tmp_path, capsys):
    chat = ScriptedChat("", status=400, error="messages: too long for this model's context")
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet)
    assert code == 9 and len(chat.requests) == 1 and "HTTP 400: messages: too long" in err


# -- failures: one line, exit 9, never the key -------------------------------------------------------

def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.startswith("fastapply: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_connection_refused_is_exit_9(tmp_path, capsys):
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    code, out, err = apply_cli(capsys, f"http://127.0.0.1:{_closed_port()}", original, snippet, "--in-place")
    assert code == 9 and original.read_text() == STORE
    assert "cannot connect to http://127.0.0.1:" in _one_error_line(err)


@pytest.mark.parametrize("status,expected", [(401, "HTTP 401"), (500, "HTTP 500"), (404, "HTTP 404")])
def test_http_failures_are_exit_9_and_never_print_the_key(tmp_path, capsys, monkeypatch, status, expected):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)  # the fallback when $FASTAPPLY_API_KEY is unset
    # a server careless enough to echo the key in its error message
    chat = ScriptedChat("", status=status, error=f"Incorrect API key provided: {SECRET}")
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place")
    line = _one_error_line(err)
    assert code == 9 and expected in line and SECRET not in err + out and original.read_text() == STORE
    assert chat.headers[0]["authorization"] == f"Bearer {SECRET}"
    if status == 401:
        assert "$FASTAPPLY_API_KEY or $OPENAI_API_KEY" in line


def test_a_timeout_is_exit_9(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(openai_client.TIMEOUT_ENV, "0.3")
    chat = ScriptedChat(tagged(STORE_EXPECTED), delay_s=1.0)
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    with running(chat.app) as url:
        code, out, err = apply_cli(capsys, url, original, snippet, "--in-place")
    assert code == 9 and "did not answer within 0.3 s" in _one_error_line(err) and original.read_text() == STORE


def test_a_body_that_is_not_a_chat_completion_is_exit_9():
    chat = ScriptedChat("x")
    chat.app.router.routes.clear()
    chat.app.post("/v1/chat/completions")(lambda: {"result": "not a completion"})
    with running(chat.app) as url:
        with pytest.raises(RemoteError, match="without choices"):
            apply_edit(STORE, STORE_SNIPPET, loaded=load_openai(f"openai:{url}#m"))


# -- what needs tokens is refused -------------------------------------------------------------------

def test_a_chat_model_has_no_tokenizer_backends_or_weights():
    loaded = load_openai("openai:http://127.0.0.1:9/v1#m")
    assert isinstance(loaded, ChatModel)
    for what in (lambda: loaded.tokenizer, lambda: loaded.model, loaded.new_backend):
        with pytest.raises(RemoteError, match="is a chat model"):
            what()


def test_serve_refuses_a_chat_model(capsys):
    code = cli.main(["serve", "--model", "openai:http://127.0.0.1:9/v1#m"])
    assert code == 2 and "cannot be served" in capsys.readouterr().err


def test_without_the_openai_package_the_error_says_what_to_install(monkeypatch, tmp_path, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "openai", None)  # import openai raises ImportError
    original, snippet = files(tmp_path, STORE, STORE_SNIPPET)
    code, out, err = apply_cli(capsys, "http://127.0.0.1:9", original, snippet)
    assert code == 5 and "pip install openai" in _one_error_line(err)


def test_the_mcp_tool_refuses_a_wrong_chat_answer_and_writes_a_right_one(tmp_path):
    # coding agents get the same guards: the edit_file tool with an openai: model
    from fastapply.mcp.tool import EditFailed, FileEditor

    wrong = STORE_EXPECTED.replace("    def remove(self, name):\n        del self.items[name]\n\n", "", 1)
    target = tmp_path / "store.py"
    target.write_text(STORE)
    for answer, ok in ((wrong, False), (STORE_EXPECTED, True)):
        chat = ScriptedChat(tagged(answer))
        with running(chat.app) as url:
            editor = FileEditor([str(tmp_path)], model=f"openai:{url}/v1#m")
            if ok:
                assert editor.edit("store.py", "", STORE_SNIPPET).by_model
            else:
                with pytest.raises(EditFailed, match="guard"):
                    editor.edit("store.py", "", STORE_SNIPPET)
        assert target.read_text() == (STORE_EXPECTED if ok else STORE)
