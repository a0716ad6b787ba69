"""HTTP to an OpenAI-compatible server: prompt scoring over `/v1/completions`, `/tokenize`, `/v1/models`.

`RemoteClient(url, model)` speaks to vLLM, to `fastapply serve`, or to any server that accepts a
token-id prompt on `/v1/completions` with `echo=true`, `logprobs=1`, `max_tokens=0` and answers the
prompt's log-probabilities with tokens as ids (`return_tokens_as_token_ids`, a vLLM extension that
`fastapply serve` honours too). `top1(ids)` is one such request; it returns, for each position, the
server's most likely next token, which is all that greedy verification needs.

Every failure (no connection, a timeout, a dropped connection, a non-2xx answer, a body that is not
the expected JSON) becomes a `RemoteError` with a one-line message naming the server; nothing else
escapes. This module knows HTTP and the completions response shape; nothing about drafts or decoding.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Sequence

import httpx

from fastapply.errors import RemoteError

API_KEY_ENV = "FASTAPPLY_REMOTE_API_KEY"
TIMEOUT_ENV = "FASTAPPLY_REMOTE_TIMEOUT"
DEFAULT_TIMEOUT_S = 120.0
_ID_PREFIX = "token_id:"


def server_root(url: str) -> str:
    """`http://host:8000/v1/` -> `http://host:8000` (completions live under /v1, vLLM's /tokenize at the root)."""
    root = url.strip().rstrip("/")
    if root.endswith("/v1"):
        root = root[: -len("/v1")]
    if not root.startswith(("http://", "https://")):
        raise RemoteError(f"the server URL must start with http:// or https://, got {url!r}")
    return root


@dataclass
class ScoredPrompt:
    """The server's answer to one scoring request."""

    top1: list[int]  # top1[j]: the most likely token after the first start + j + 1 prompt tokens
    cached_tokens: int | None  # the server's prefix-cache hits, when it reports them


class RemoteClient:
    """One server, one model. Thread-compatible (one request at a time per client is the intent)."""

    def __init__(self, url: str, model: str, *, api_key: str | None = None, timeout_s: float | None = None,
                 transport: httpx.BaseTransport | None = None):
        self.root = server_root(url)
        self.model = model
        key = api_key if api_key is not None else os.environ.get(API_KEY_ENV) or None
        self.timeout_s = timeout_s if timeout_s is not None else env_timeout_s()
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._http = httpx.Client(headers=headers, timeout=timeout_s, transport=transport)
        self.requests = 0  # scoring requests sent (one per verification pass)
        self.bytes_received = 0

    def close(self) -> None:
        self._http.close()

    # -- transport --------------------------------------------------------------------------------

    def _call(self, method: str, path: str, body: dict | None = None) -> tuple[int, Any]:
        """(status, parsed JSON or None). Transport failures raise RemoteError; statuses are the caller's."""
        url = self.root + path
        try:
            response = self._http.request(method, url, json=body)
        except httpx.TimeoutException:
            raise RemoteError(f"the server at {self.root} did not answer {path} within {self.timeout_s:g} s "
                              f"(raise ${TIMEOUT_ENV} for a slow server)") from None
        except httpx.ConnectError as exc:
            raise RemoteError(f"cannot connect to {self.root}: {first_line(exc)}") from None
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise RemoteError(f"the connection to {self.root} dropped during {path}: {first_line(exc)}") from None
        except httpx.HTTPError as exc:  # anything else httpx can raise (proxy errors, too many redirects, ...)
            raise RemoteError(f"request to {url} failed: {first_line(exc)}") from None
        self.bytes_received += len(response.content)
        try:
            parsed = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            parsed = None
        return response.status_code, parsed if parsed is not None else _Raw(response.text)

    def _ok(self, method: str, path: str, body: dict | None = None) -> dict:
        status, parsed = self._call(method, path, body)
        if not 200 <= status < 300:
            raise RemoteError(f"the server at {self.root} answered {path} with HTTP {status}: {_error_text(parsed)}")
        if not isinstance(parsed, dict):
            raise RemoteError(f"the server at {self.root} answered {path} with a body that is not a JSON object: "
                              f"{_error_text(parsed)}")
        return parsed

    # -- endpoints --------------------------------------------------------------------------------

    def top1(self, ids: Sequence[int], start: int = 0) -> ScoredPrompt:
        """Score `ids` as a prompt; return the top-1 next token after each of ids[: start + 1 .. len].

        The last id is never scored itself: its row (the choice after ids[:-1]) is the last entry
        returned. Callers append a placeholder id to get the choice after their whole sequence.
        """
        ids = [int(t) for t in ids]
        body = {
            "model": self.model, "prompt": ids, "max_tokens": 0, "echo": True, "logprobs": 1,
            "temperature": 0.0, "return_tokens_as_token_ids": True,
        }
        self.requests += 1
        answer = self._ok("POST", "/v1/completions", body)
        logprobs = _choice(answer, self.root).get("logprobs")
        if not isinstance(logprobs, dict) or not isinstance(logprobs.get("top_logprobs"), list):
            raise RemoteError(f"the server at {self.root} returned no prompt log-probabilities: it must support "
                              f"echo with logprobs and max_tokens 0 on /v1/completions (vLLM and fastapply serve do)")
        tops, tokens = logprobs["top_logprobs"], logprobs.get("tokens")
        if len(tops) != len(ids) or (isinstance(tokens, list) and len(tokens) != len(ids)):
            raise RemoteError(f"the server at {self.root} scored {len(tops)} positions of a {len(ids)}-token prompt: "
                              f"it did not take the token ids as sent")
        if isinstance(tokens, list) and tokens[start + 1 :] != [f"{_ID_PREFIX}{t}" for t in ids[start + 1 :]]:
            raise RemoteError(f"the server at {self.root} echoed different tokens than were sent (or not as ids): "
                              f"it must accept a token-id prompt and return_tokens_as_token_ids")
        out = [_best(tops[i], self.root, i) for i in range(start + 1, len(ids))]
        usage = answer.get("usage") if isinstance(answer.get("usage"), dict) else {}
        details = usage.get("prompt_tokens_details") if isinstance(usage.get("prompt_tokens_details"), dict) else {}
        cached = details.get("cached_tokens")
        return ScoredPrompt(out, int(cached) if isinstance(cached, int) else None)

    def tokenize(self, text: str) -> dict | None:
        """vLLM's `/tokenize` ({tokens, count, max_model_len}), or None where the server has none."""
        status, parsed = self._call("POST", "/tokenize", {"model": self.model, "prompt": text, "add_special_tokens": False})
        if status in (404, 405):
            return None
        if not 200 <= status < 300 or not isinstance(parsed, dict) or not isinstance(parsed.get("tokens"), list):
            raise RemoteError(f"the server at {self.root} answered /tokenize with HTTP {status}: {_error_text(parsed)}")
        return parsed

    def echo_ids(self, text: str) -> list[int]:
        """The server's own tokenisation of `text`, read from an echo (for servers without /tokenize)."""
        body = {"model": self.model, "prompt": text, "max_tokens": 0, "echo": True, "logprobs": 0,
                "temperature": 0.0, "return_tokens_as_token_ids": True}
        answer = self._ok("POST", "/v1/completions", body)
        tokens = (_choice(answer, self.root).get("logprobs") or {}).get("tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, str) and t.startswith(_ID_PREFIX) for t in tokens):
            raise RemoteError(f"the server at {self.root} has no /tokenize and does not echo token ids "
                              f"(return_tokens_as_token_ids): fastapply cannot check its tokenizer")
        return [_token_id(t, self.root) for t in tokens]

    def model_info(self) -> dict | None:
        """This model's entry in /v1/models; RemoteError when the server does not serve it."""
        listing = self._ok("GET", "/v1/models")
        data = listing.get("data")
        if not isinstance(data, list):
            raise RemoteError(f"the server at {self.root} answered /v1/models without a model list")
        names = [m.get("id") for m in data if isinstance(m, dict)]
        for entry in data:
            if isinstance(entry, dict) and entry.get("id") == self.model:
                return entry
        raise RemoteError(f"the server at {self.root} does not serve {self.model!r} (it serves: "
                          f"{', '.join(map(str, names)) or 'nothing'})")


class _Raw(str):
    """A response body that was not JSON."""


def env_timeout_s() -> float:
    """Seconds a request to a remote server may take: `$FASTAPPLY_REMOTE_TIMEOUT`, else the default
    (the remote: and openai: backends alike)."""
    raw = os.environ.get(TIMEOUT_ENV)
    try:
        return float(raw) if raw else DEFAULT_TIMEOUT_S
    except ValueError:
        raise RemoteError(f"${TIMEOUT_ENV} must be a number of seconds, got {raw!r}") from None


def first_line(exc: BaseException, limit: int | None = None) -> str:
    """An exception's message, its first line only (at most `limit` characters), else its type's name."""
    text = str(exc).strip()
    return text.splitlines()[0][:limit] if text else type(exc).__name__


def _error_text(parsed: Any) -> str:
    """OpenAI's `{"error": {"message"}}`, FastAPI's `{"detail"}`, or the start of the raw body."""
    if isinstance(parsed, dict):
        err = parsed.get("error")
        if isinstance(err, dict) and err.get("message"):
            return str(err["message"]).splitlines()[0][:300]
        if isinstance(err, str):
            return err.splitlines()[0][:300]
        if "detail" in parsed:
            return str(parsed["detail"]).splitlines()[0][:300]
        return json.dumps(parsed)[:300]
    text = str(parsed).strip()
    return (text.splitlines()[0][:300] if text else "(empty body)")


def _choice(answer: dict, root: str) -> dict:
    choices = answer.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise RemoteError(f"the server at {root} answered /v1/completions without choices")
    return choices[0]


def _token_id(key: Any, root: str) -> int:
    if isinstance(key, str) and key.startswith(_ID_PREFIX):
        try:
            return int(key[len(_ID_PREFIX) :])
        except ValueError:
            pass
    raise RemoteError(f"the server at {root} returned the token {key!r} as text, not as an id: it must support "
                      f"return_tokens_as_token_ids (vLLM and fastapply serve do)")


def _best(top: Any, root: str, position: int) -> int:
    """The most likely token of one position's top_logprobs; ties go to the lowest id (as argmax)."""
    if not isinstance(top, dict) or not top:
        raise RemoteError(f"the server at {root} returned no top log-probabilities at prompt position {position}")
    best_id, best_lp = None, None
    for key, lp in top.items():
        tid = _token_id(key, root)
        if not isinstance(lp, (int, float)):
            raise RemoteError(f"the server at {root} returned a non-numeric log-probability at position {position}")
        if best_lp is None or lp > best_lp or (lp == best_lp and tid < best_id):
            best_id, best_lp = tid, lp
    return best_id
