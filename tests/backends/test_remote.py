"""The remote backend over loopback: `fastapply serve` as the remote, the same output as the local backend.

The fake apply model of tests/fakes.py is served by the real app under uvicorn (tests/serve/support.py);
the client verifies with it over HTTP and must produce the very tokens the local backend produces.
A faulty proxy in front of the app (it passes the first N completions through, then fails one way)
shows every failure mid-generation as a one-line RemoteError, and through the CLI as exit code 9
with the target file untouched. The bundled real model has one test, marked `model`.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from fastapply import cli, models
from fastapply.backends import remote
from fastapply.backends.remote import RemoteBackend, RemoteModel, load_remote, parse_spec
from fastapply.backends.remote_client import RemoteClient, server_root
from fastapply.errors import RemoteError, UnknownModelError
from fastapply.pipeline import EditStream
from fastapply.rewrite import prompts
from fastapply.rewrite.edit import prepare, start_edit
from fastapply.serve.app import create_app
from tests.fakes import FakeLoaded, ByteTokenizer
from tests.serve.support import running

ORIGINAL = "".join(f"def f{i}(x):\n    return x + {i}  # é {i}\n\n\n" for i in range(12))
EXPECTED = ORIGINAL.replace("x + 5", "x * 5").replace("def f9(x):\n", "def f9(x):\n    x = abs(x)\n")
SNIPPET = ("# ... existing code ...\ndef f5(x):\n    return x * 5  # é 5\n# ... existing code ...\n"
           "def f9(x):\n    x = abs(x)\n# ... existing code ...\n")
MODEL = "fake-apply-model"


def edit_tokens(loaded, draft="speculative", original=ORIGINAL, snippet=SNIPPET):
    """The model path's answer: (text, token ids, stats, whether it closed its answer)."""
    finished = list(start_edit(loaded, prepare(loaded, original, snippet), draft=draft))[-1]
    return finished.text, finished.token_ids, finished.stats, finished.stop_string == prompts.ANSWER_SUFFIX


@pytest.fixture(scope="module")
def fake():
    return FakeLoaded(EXPECTED)


@pytest.fixture(scope="module")
def url(fake):
    with running(create_app(fake)) as base:
        yield base


# -- the spec ----------------------------------------------------------------------------------------


def test_spec_forms_and_refusals():
    assert parse_spec("remote:http://h:8000/v1#org/model") == remote.RemoteSpec("http://h:8000/v1", "org/model", "org/model")
    assert parse_spec("remote:https://h#served,tokenizer=fastapply-135m").tokenizer == "fastapply-135m"
    assert server_root("http://h:8000/v1/") == "http://h:8000" and server_root("http://h:8000") == "http://h:8000"
    for bad in ("remote:http://h:8000", "remote:#m", "remote:h:8000#m", "remote:http://h#m,tok=x", "remote:http://h#"):
        with pytest.raises(UnknownModelError):
            parse_spec(bad)
    assert models.resolve("remote:http://h:8000#m").kind == "remote"
    with pytest.raises(UnknownModelError, match="remote:URL#MODEL"):
        models.resolve("remote:http://h:8000")


# -- equivalence with the local backend --------------------------------------------------------------


SMALL = "def f(x):\n    return x + 1\n"
SMALL_SNIPPET = "def f(x):\n    return x + 2\n"


@pytest.mark.parametrize("draft", ["speculative", "lookup", "none"])
def test_remote_output_is_token_identical_to_local(url, draft):
    # plain decoding is one request per token, each rescoring the whole context on the fake
    # server (quadratic in Python): a one-line file keeps those cases quick
    original, snippet, expected = (ORIGINAL, SNIPPET, EXPECTED) if draft == "speculative" else (
        SMALL, SMALL_SNIPPET, SMALL.replace("1", "2"))
    fake = FakeLoaded(expected)
    app = create_app(fake)
    with running(app) as base:
        rm = load_remote(f"remote:{base}/v1#{MODEL}", tokenizer=fake.tokenizer)
        local_text, local_ids, local_stats, _ = edit_tokens(fake, draft, original, snippet)
        text, ids, stats, closed = edit_tokens(rm, draft, original, snippet)
    assert local_text == expected and closed
    assert app.server.holder.scorer.reused > len(ids) // 2  # the server rescored only what followed the shared prefix
    assert (text, ids) == (local_text, local_ids)
    # the same passes: each verification is exactly one request
    assert stats.forward_passes == local_stats.forward_passes == rm.backends[-1].stats.requests
    assert stats.accepted_prediction_tokens == local_stats.accepted_prediction_tokens
    if draft == "speculative":
        assert stats.forward_passes < len(ids) / 4  # the draft really was verified in chunks


def test_a_model_that_goes_its_own_way_matches_too(url, fake):
    # the served model writes something unrelated to the draft: every chunk is rejected, and
    # re-synchronisation, rollback and the bonus token must still agree token for token
    rm = load_remote(f"remote:{url}#{MODEL}", tokenizer=fake.tokenizer)
    other = ORIGINAL.replace("return", "yield")
    local = edit_tokens(fake, original=other)
    over_http = edit_tokens(rm, original=other)
    assert local[1] == over_http[1] and local[2].rejected_prediction_tokens > 0


def test_backend_cache_is_the_clients_id_list(url, fake):
    rm = load_remote(f"remote:{url}#{MODEL}", tokenizer=fake.tokenizer)
    backend, local = rm.new_backend(), fake.new_backend()
    ids = fake.tokenizer.encode("<|im_start|>user\nhello<|im_end|>\n")
    for b in (backend, local):
        b.forward(ids, rows=3)
        b.truncate(5)
    assert backend.n_cached == local.n_cached == 5
    assert list(backend.forward([65, 66]).argmax()) == list(local.forward([65, 66]).argmax())
    assert backend.stats.tokens_sent == len(ids) + 1 + 5 + 2 + 1  # whole context + placeholder, each time
    with pytest.raises(RemoteError, match="greedily"):
        backend.forward([67]).row(0)


def test_sampling_is_refused_before_any_output(url, fake):
    rm = load_remote(f"remote:{url}#{MODEL}", tokenizer=fake.tokenizer)
    stream = EditStream(ORIGINAL, SNIPPET, strategy="model", loaded=rm, temperature=0.7, seed=1)
    with pytest.raises(RemoteError, match="temperature 0"):
        next(iter(stream))


# -- the handshake -----------------------------------------------------------------------------------


class ShiftedTokenizer(ByteTokenizer):
    """Disagrees with the server on one byte: 'é''s first byte."""

    def encode(self, text, add_special_tokens=False):
        return [0xC4 if t == 0xC3 else t for t in super().encode(text, add_special_tokens)]


def test_a_different_tokenizer_is_refused(url):
    with pytest.raises(RemoteError, match=r"tokenises differently .*first difference at token \d+: server 195, local 196"):
        load_remote(f"remote:{url}#{MODEL}", tokenizer=ShiftedTokenizer())


def test_a_model_the_server_does_not_serve_is_refused(url, fake):
    with pytest.raises(RemoteError, match=r"does not serve 'other-model' \(it serves: fake-apply-model\)"):
        load_remote(f"remote:{url}#other-model", tokenizer=fake.tokenizer)


def test_tokenize_and_detokenize_endpoints(url):
    with httpx.Client(base_url=url) as http:
        got = http.post("/tokenize", json={"prompt": "é<|im_end|>", "model": MODEL}).json()
        assert got == {"count": 3, "max_model_len": 1 << 16, "tokens": [0xC3, 0xA9, 257], "token_strs": None}
        assert http.post("/detokenize", json={"tokens": [0xC3, 0xA9, 257]}).json() == {"prompt": "é<|im_end|>"}
        bad = http.post("/tokenize", json={"prompt": 3})
        assert bad.status_code == 400 and "prompt" in bad.json()["error"]["message"]
        assert http.post("/tokenize", json={"prompt": "x", "model": "nope"}).status_code == 404


def test_servers_without_tokenize_are_checked_by_echo(fake, url, monkeypatch):
    monkeypatch.setattr(RemoteClient, "tokenize", lambda self, text: None)
    rm = load_remote(f"remote:{url}#{MODEL}", tokenizer=fake.tokenizer)
    assert edit_tokens(rm)[0] == EXPECTED
    with pytest.raises(RemoteError, match="tokenises differently"):
        load_remote(f"remote:{url}#{MODEL}", tokenizer=ShiftedTokenizer())


# -- failures mid-generation -------------------------------------------------------------------------


class Faulty:
    """ASGI proxy: /v1/completions passes `healthy` requests to the app, then fails as `mode` says."""

    def __init__(self, app, mode: str, healthy: int = 2):
        self.app, self.mode, self.healthy = app, mode, healthy
        self.seen = 0

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] != "/v1/completions" or self.mode == "none":
            return await self.app(scope, receive, send)
        self.seen += 1
        if self.seen <= self.healthy:
            return await self.app(scope, receive, send)
        if self.mode == "slow":
            await asyncio.sleep(8)
        if self.mode == "drop":  # promise a body, send part of it, then close the connection
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"1000")]})
            await send({"type": "http.response.body", "body": b'{"choices": [', "more_body": True})
            raise ConnectionResetError("dropped on purpose")
        status, body, kind = {
            "500": (500, b'{"error": {"message": "CUDA out of memory", "type": "server_error"}}', b"application/json"),
            "502": (502, b"<html>Bad Gateway</html>", b"text/html"),
            "garbage": (200, b"<html>not json</html>", b"text/html"),
            "shape": (200, b'{"choices": [{"text": "hi"}]}', b"application/json"),
            "slow": (200, b"{}", b"application/json"),
        }[self.mode]
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": body})


FAILURES = {
    "500": r"answered /v1/completions with HTTP 500: CUDA out of memory",
    "502": r"HTTP 502: <html>Bad Gateway</html>",
    "garbage": r"body that is not a JSON object: <html>not json</html>",
    "shape": r"returned no prompt log-probabilities",
    "slow": r"did not answer /v1/completions within 2 s",
    "drop": r"connection to http://127\.0\.0\.1:\d+ dropped during /v1/completions",
}


@pytest.fixture(scope="module")
def faulty_url(fake):
    proxy = Faulty(create_app(fake), "none")
    with running(proxy) as base:
        yield base, proxy


@pytest.mark.parametrize("mode", sorted(FAILURES))
def test_failures_mid_generation_are_one_line_remote_errors(faulty_url, fake, mode):
    base, proxy = faulty_url
    proxy.mode, proxy.seen = mode, 0
    # 2 s: the healthy passes must get through on a loaded machine (0.5 s failed there)
    rm = RemoteModel(MODEL, fake.tokenizer, RemoteClient(base, MODEL, timeout_s=2), 1 << 16)
    with pytest.raises(RemoteError, match=FAILURES[mode]) as info:
        edit_tokens(rm)
    assert "\n" not in str(info.value) and proxy.seen == 3  # two passes went through, the third failed


def test_no_server_at_all():
    client = RemoteClient("http://127.0.0.1:9", MODEL, timeout_s=2)  # the discard port: nothing listens
    with pytest.raises(RemoteError, match=r"cannot connect to http://127\.0\.0\.1:9"):
        client.model_info()


def test_cli_failure_mid_edit_leaves_the_file_untouched(faulty_url, fake, tmp_path, monkeypatch, capsys):
    base, proxy = faulty_url
    monkeypatch.setattr(remote, "local_tokenizer", lambda name: ByteTokenizer())
    monkeypatch.setattr(models, "_LOADED", {})
    target, snippet = tmp_path / "code.py", tmp_path / "edit.py"
    target.write_text(ORIGINAL)
    snippet.write_text(SNIPPET)
    spec = f"remote:{base}/v1#{MODEL}"

    proxy.mode, proxy.seen = "drop", 0
    code = cli.main(["apply", str(target), str(snippet), "--strategy", "model", "--model", spec, "--in-place"])
    err = capsys.readouterr().err
    assert code == RemoteError.exit_code == 9
    assert "error: the connection to" in err and "Traceback" not in err
    assert target.read_text() == ORIGINAL and sorted(p.name for p in tmp_path.iterdir()) == ["code.py", "edit.py"]

    proxy.mode = "none"  # the same command against a healthy server edits the file
    assert cli.main(["apply", str(target), str(snippet), "--strategy", "model", "--model", spec, "--in-place"]) == 0
    assert target.read_text() == EXPECTED


# -- the real model ----------------------------------------------------------------------------------


@pytest.mark.model
def test_real_model_over_http_is_token_identical_to_local():
    loaded = models.load("fastapply-135m")
    example = ("def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n\n\n"
               "def describe(w, h):\n    return f'{w}x{h}: area {area(w, h)}, perimeter {perimeter(w, h)}'\n")
    snippet = "# ... existing code ...\ndef perimeter(w, h):\n    return 2 * w + 2 * h\n# ... existing code ...\n"
    with running(create_app(loaded)) as base:
        # the tokenizer comes from the local model of the same name, checked against /tokenize
        rm = load_remote(f"remote:{base}/v1#fastapply-135m")
        assert rm.context_length == loaded.context_length
        local = edit_tokens(loaded, original=example, snippet=snippet)
        over_http = edit_tokens(rm, original=example, snippet=snippet)
    assert over_http[1] == local[1] and over_http[0] == local[0]
    assert over_http[2].forward_passes == local[2].forward_passes
    assert over_http[2].accepted_prediction_tokens > len(local[1]) // 2


def test_fastapply_serve_can_front_a_remote_model(url, fake):
    # a CPU front end (instant merge, /v1/apply) that verifies on another server
    rm = load_remote(f"remote:{url}#{MODEL}", tokenizer=fake.tokenizer)
    with running(create_app(rm, model_name="front")) as front:
        answer = httpx.post(f"{front}/v1/apply", json={"original": ORIGINAL, "snippet": SNIPPET, "strategy": "model"},
                            timeout=60).json()
    assert (answer["path"], answer["complete"], answer["text"]) == ("model", True, EXPECTED), answer
    assert len(rm.backends) == 1 and rm.backends[0].stats.requests == answer["stats"]["forward_passes"]


def test_bench_refuses_a_remote_model_clearly(url, fake, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(remote, "local_tokenizer", lambda name: ByteTokenizer())
    monkeypatch.setattr(models, "_LOADED", {})
    code = cli.main(["bench", "--data", "tests/fixtures/edits-small.jsonl", "--limit", "1", "--model", f"remote:{url}#{MODEL}"])
    err = capsys.readouterr().err
    assert code == 9 and "is a remote model" in err and "Traceback" not in err
