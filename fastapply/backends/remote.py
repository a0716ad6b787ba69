"""The remote backend: speculative edits verified by a model behind an OpenAI-compatible server.

    --model remote:URL#MODEL[,tokenizer=SPEC]
    e.g.    remote:http://gpu-box:8000/v1#Qwen/Qwen2.5-Coder-7B-Instruct
            remote:http://127.0.0.1:8000#fastapply-135m

The draft, the aligner and the engine stay on this machine; only verification crosses the wire.
Each `forward` is one stateless `/v1/completions` request whose prompt is the token ids of prompt +
output so far + proposed chunk (plus one placeholder id, see below), with `echo=true`, `logprobs=1`,
`max_tokens=0` and `return_tokens_as_token_ids=true`. The server answers every prompt position's
most likely next token; the engine accepts draft tokens while they equal it and takes the top-1 at
the first mismatch as the bonus, exactly as with a local model. Row i of a prompt's log-probs scores
token i given the tokens before it, so the choice *after* the last real token needs one more
position: a placeholder token (any valid id) is appended and its own score ignored.

How the `Backend` protocol maps onto stateless HTTP, with no change to the engine: the "KV cache"
is the list of ids this client has committed (`n_cached` is its length, `truncate` cuts it); every
`forward` resends the whole list plus the new ids. Keeping the repeated prefix cheap is the server's
job (its prefix cache); without one every pass is a full prefill of the context (docs/gpu.md: vLLM
skips prefix-cache reads for requests that ask for prompt log-probabilities).

Tokenisation is the client's (a local tokenizer of the served model, named by MODEL or by
`tokenizer=`), so at load the client checks that the server tokenises a probe prompt (our chat
format, code, non-ASCII text) to the same ids, via `/tokenize` (vLLM, fastapply serve) or an echo,
and refuses with `RemoteError` when they differ.

Greedy only: a server returns at most ~20 log-probabilities per position, not the full distribution
that exact sampling needs (sampling.py draws from the whole row), so temperature > 0 is refused.

This module knows the Backend protocol, the remote client and how to find a tokenizer; nothing
about prompts beyond the probe, nor about drafts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from fastapply.backends.remote_client import RemoteClient
from fastapply.errors import RemoteError, UnknownModelError

PREFIX = "remote:"
_FALLBACK_CONTEXT = 4096


@dataclass(frozen=True)
class RemoteSpec:
    url: str
    model: str  # the name the server serves (sent as `model`)
    tokenizer: str  # a local model name whose tokenizer is the server's (default: `model`)


def parse_spec(text: str) -> RemoteSpec:
    """`remote:URL#MODEL[,tokenizer=SPEC]` -> RemoteSpec, or UnknownModelError saying what is wrong."""
    body = text[len(PREFIX) :] if text.startswith(PREFIX) else text
    url, sep, rest = body.partition("#")
    model, _, option = rest.partition(",")
    tokenizer = model
    if option:
        key, eq, value = option.partition("=")
        if key.strip() != "tokenizer" or not eq or not value.strip():
            raise UnknownModelError(f"unknown option {option!r} in {text!r}; the only option is tokenizer=SPEC")
        tokenizer = value.strip()
    if not sep or not url.strip() or not model.strip():
        raise UnknownModelError(
            f"a remote model is written remote:URL#MODEL (e.g. remote:http://127.0.0.1:8000/v1#fastapply-135m), got {text!r}"
        )
    if not url.strip().startswith(("http://", "https://")):
        raise UnknownModelError(f"the remote URL must start with http:// or https://, got {url.strip()!r}")
    return RemoteSpec(url.strip(), model.strip(), tokenizer)


class Top1Logits:
    """`Logits` that know only each row's greedy choice (all a remote server tells us)."""

    def __init__(self, choices: Sequence[int]):
        self._choices = np.asarray(choices, dtype=np.int64)

    def __len__(self) -> int:
        return int(self._choices.shape[0])

    def argmax(self) -> np.ndarray:
        return self._choices

    def row(self, i: int) -> np.ndarray:
        raise RemoteError(
            "a remote model decodes greedily only (temperature 0): the server returns the top few "
            "log-probabilities per position, not the whole distribution that exact sampling needs"
        )


@dataclass
class RemoteStats:
    """What verification over HTTP cost, summed over one backend's life."""

    requests: int = 0
    http_s: float = 0.0  # wall time inside requests (server compute + transfer + JSON)
    tokens_sent: int = 0  # prompt ids sent, placeholders included
    cached_tokens: int = 0  # prefix-cache hits the server reported (vLLM with --enable-prompt-tokens-details)


class RemoteBackend:
    """A `Backend` whose cache is the client's list of committed ids; each forward is one request."""

    def __init__(self, client: RemoteClient, context_length: int):
        self.client = client
        self.context_length = context_length
        self.tokens: list[int] = []
        self.stats = RemoteStats()

    @property
    def n_cached(self) -> int:
        return len(self.tokens)

    def forward(self, ids: Sequence[int], *, rows: int | None = None) -> Top1Logits:
        if not ids:
            raise ValueError("forward() needs at least one token")
        ids = [int(t) for t in ids]
        seq = self.tokens + ids
        n = len(ids) if rows is None else max(1, min(rows, len(ids)))
        # row j is the choice after seq[: len(seq) - n + j + 1]; the placeholder makes the last one a prompt row
        prompt = seq + [seq[-1]]
        t0 = time.perf_counter()
        scored = self.client.top1(prompt, start=len(seq) - n)
        self.stats.http_s += time.perf_counter() - t0
        self.stats.requests += 1
        self.stats.tokens_sent += len(prompt)
        self.stats.cached_tokens += scored.cached_tokens or 0
        if len(scored.top1) != n:  # the client checks lengths; this guards the arithmetic above
            raise RemoteError(f"expected {n} scored positions from {self.client.root}, got {len(scored.top1)}")
        self.tokens = seq
        return Top1Logits(scored.top1)

    def truncate(self, n_keep: int) -> None:
        if n_keep < 0 or n_keep > len(self.tokens):
            raise ValueError(f"cannot keep {n_keep} of {len(self.tokens)} cached tokens")
        del self.tokens[n_keep:]


@dataclass
class RemoteModel:
    """Shaped like `backends.hf.HFModel` for the pipeline: a tokenizer and backends, no weights here."""

    name: str
    tokenizer: Any
    client: RemoteClient
    context_length: int
    device: str = "remote"
    dtype: str = "server"
    load_s: float = 0.0
    extra: dict = field(default_factory=dict)
    backends: list[RemoteBackend] = field(default_factory=list)

    def new_backend(self) -> RemoteBackend:
        backend = RemoteBackend(self.client, self.context_length)
        self.backends.append(backend)
        return backend

    @property
    def model(self):
        """There are no weights here: what needs them (`fastapply bench`'s transformers baselines) is refused."""
        raise RemoteError(
            f"{self.name} is a remote model: there are no local weights to run transformers' generate on "
            f"(fastapply bench's baselines); measure it with benchmarks/remote_loopback.py"
        )


# -- loading: a local tokenizer, checked against the server's -------------------------------------

PROBE_ORIGINAL = (
    "import os\n\n\ndef greet(name: str) -> str:\n\t\"\"\"Say hello (héllo, 你好, 👋).\"\"\"\n"
    "    return f\"Hello, {name}!\"  # 100% ≠ 99.9%\n\n\nclass Box:\n    items = [1, 2, 3]\n"
)
PROBE_SNIPPET = "// ... existing code ...\ndef greet(name: str) -> str:\n    return f\"Hi, {name}!\"\n// ... existing code ...\n"


def probe_text(tokenizer) -> str:
    """A prompt in our format, answer included: the text whose tokenisation must agree."""
    from fastapply.rewrite import prompts

    return prompts.render_prompt(tokenizer, PROBE_ORIGINAL, PROBE_SNIPPET, "Shorten the greeting.") + prompts.answer_text(PROBE_ORIGINAL)


def local_tokenizer(name: str):
    """The tokenizer of a local model name (bundled, .gguf, directory or Hub id), without its weights."""
    from fastapply import models

    try:
        spec = models.resolve(name)
    except UnknownModelError as exc:
        raise UnknownModelError(f"no local tokenizer for the served model {name!r} ({exc}); add "
                                f",tokenizer=SPEC naming a model with the server's tokenizer") from None
    try:
        from transformers import AutoTokenizer
        from transformers.utils import logging as hf_logging
    except ImportError as exc:
        from fastapply.errors import MissingDependencyError

        raise MissingDependencyError(f"a remote model needs transformers for its tokenizer ({exc})") from None
    hf_logging.set_verbosity_error()
    kwargs: dict[str, Any] = {"local_files_only": spec.kind != "hub"}
    if spec.gguf_file:
        kwargs["gguf_file"] = spec.gguf_file
    try:
        return AutoTokenizer.from_pretrained(spec.source, **kwargs)
    except (OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UnknownModelError(f"could not load the tokenizer of {name!r}: {first}") from None


def check_tokenizer(client: RemoteClient, tokenizer, label: str) -> dict | None:
    """Refuse unless the server tokenises the probe exactly as `tokenizer` does; return /tokenize's answer."""
    text = probe_text(tokenizer)
    local = list(tokenizer.encode(text, add_special_tokens=False))
    info = client.tokenize(text)
    if info is not None:
        remote = [int(t) for t in info["tokens"]]
    else:
        remote = client.echo_ids(text)
        bos = getattr(tokenizer, "bos_token_id", None)
        if remote[:1] == [bos] and local[:1] != [bos]:  # a completions prompt may get a BOS added
            remote = remote[1:]
    if remote != local:
        i = next((k for k, (a, b) in enumerate(zip(remote, local)) if a != b), min(len(remote), len(local)))
        theirs = remote[i] if i < len(remote) else "end"
        ours = local[i] if i < len(local) else "end"
        raise RemoteError(
            f"the server at {client.root} tokenises differently from the local tokenizer of {label!r} "
            f"(first difference at token {i}: server {theirs}, local {ours}); serve the same model, or pass "
            f",tokenizer=SPEC naming the served model's tokenizer"
        )
    return info


def load_remote(text: str, *, name: str | None = None, tokenizer=None, client: RemoteClient | None = None) -> RemoteModel:
    """Connect to `remote:URL#MODEL`, check the model is served and tokenises as ours; `tokenizer`
    and `client` are for tests and embedding (default: the local tokenizer named by the spec)."""
    t0 = time.perf_counter()
    spec = parse_spec(text)
    client = client if client is not None else RemoteClient(spec.url, spec.model)
    entry = client.model_info()
    tok = tokenizer if tokenizer is not None else local_tokenizer(spec.tokenizer)
    info = check_tokenizer(client, tok, spec.tokenizer)
    context = _context_length(info, entry, tok)
    return RemoteModel(name=name or text, tokenizer=tok, client=client, context_length=context,
                       load_s=time.perf_counter() - t0)


def _context_length(tokenize_info: dict | None, model_entry: dict | None, tokenizer) -> int:
    """The server's context (vLLM reports max_model_len), else the tokenizer's, else a modest default."""
    for source in (tokenize_info, model_entry):
        value = (source or {}).get("max_model_len")
        if isinstance(value, int) and value > 0:
            return value
    value = getattr(tokenizer, "model_max_length", None)
    if isinstance(value, int) and 0 < value < 10**7:
        return value
    return _FALLBACK_CONTEXT
