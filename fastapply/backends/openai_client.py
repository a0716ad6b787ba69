"""One chat completion over an OpenAI-compatible server, through the official `openai` SDK.

`ChatClient(url, model)` speaks to OpenAI, Fireworks, Morph, vLLM, SGLang, Ollama, llama.cpp's
server or `fastapply serve`: `complete(messages, prediction=...)` sends one non-streaming
`chat.completions.create` request and returns the reply's text, finish reason and usage
(`ChatAnswer`). The prediction goes as Predicted Outputs' `{"type": "content", "content": ...}`;
a server that answers that it does not support it (HTTP 400 or 422 naming `prediction`, as
OpenAI does for models without Predicted Outputs) gets the same request once more without it, and
this process stops sending it to that server and model (`_NO_PREDICTION`). Servers that do not
know the field (vLLM, Ollama, llama.cpp) ignore it and answer normally.

The key comes from `$FASTAPPLY_API_KEY`, else `$OPENAI_API_KEY` (a placeholder is sent when
neither is set: local servers take any). Every failure (no connection, a timeout, 401, 5xx, a
body that is not a chat completion) becomes a `RemoteError` with one line naming the server and
never the key. The SDK retries once (`max_retries=1`) on what it deems retryable (connection
errors, 408, 409, 429, 5xx).

This module knows the SDK and the chat completion's shape; nothing about prompts, files or guards.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

from fastapply.backends.remote_client import TIMEOUT_ENV, env_timeout_s, first_line
from fastapply.errors import MissingDependencyError, RemoteError

API_KEY_ENVS = ("FASTAPPLY_API_KEY", "OPENAI_API_KEY")
NO_KEY = "no-key"  # sent when no key is set: the SDK insists on one; local servers ignore it
MAX_RETRIES = 1

# (base URL, model) pairs whose server refused `prediction` in this process: not sent again
_NO_PREDICTION: set[tuple[str, str]] = set()


def api_key() -> str | None:
    """The key from the environment, first of API_KEY_ENVS that is set and not empty."""
    for name in API_KEY_ENVS:
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def timeout_s() -> float:
    value = env_timeout_s()
    if not value > 0:
        raw = os.environ.get(TIMEOUT_ENV)
        raise RemoteError(f"${TIMEOUT_ENV} must be a positive number of seconds, got {raw!r}")
    return value


@dataclass
class ChatAnswer:
    """A chat completion, as far as an edit needs it. Token counts are None where the server sends none."""

    content: str
    finish_reason: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    accepted_prediction_tokens: int | None
    rejected_prediction_tokens: int | None
    seconds: float  # wall time of the requests, retries included
    requests: int  # 2 when the server refused the prediction and the request was sent again
    prediction: str  # "sent" | "refused" (the server refused it: sent again without) | "off"


class ChatClient:
    """One server, one model; one request at a time."""

    def __init__(self, url: str, model: str, *, key: str | None = None, timeout: float | None = None,
                 max_retries: int = MAX_RETRIES):
        try:
            import openai
        except ImportError as exc:
            raise MissingDependencyError(f"an openai: model needs the openai package ({exc}): pip install openai") from None
        self.url = url
        self.model = model
        self._key = key if key is not None else api_key()
        self.timeout_s = timeout if timeout is not None else timeout_s()
        self._sdk = openai.OpenAI(base_url=url, api_key=self._key or NO_KEY, timeout=self.timeout_s,
                                  max_retries=max_retries)
        self._openai = openai

    def close(self) -> None:
        self._sdk.close()

    @property
    def predicts(self) -> bool:
        """Whether a prediction is still sent to this server and model (it has not refused one)."""
        return (self.url, self.model) not in _NO_PREDICTION

    def complete(self, messages: list[dict], *, prediction: str | None = None, temperature: float = 0.0,
                 top_p: float = 1.0, seed: int | None = None, max_tokens: int | None = None) -> ChatAnswer:
        """The server's reply to `messages`; `prediction` is the expected reply (dropped where refused)."""
        body: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": temperature}
        if top_p != 1.0:
            body["top_p"] = top_p
        if seed is not None:
            body["seed"] = seed
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        send = prediction is not None and self.predicts
        t0 = time.perf_counter()
        requests = 1
        try:
            reply = self._create(body, prediction if send else None)
            state = "sent" if send else "off"
        except RemoteError as exc:
            if not (send and _refuses_prediction(exc.__cause__)):
                raise
            _NO_PREDICTION.add((self.url, self.model))
            requests, state = 2, "refused"
            reply = self._create(body, None)
        return _answer(reply, self.url, time.perf_counter() - t0, requests, state)

    def _create(self, body: dict, prediction: str | None):
        kwargs = dict(body)
        if prediction is not None:
            kwargs["prediction"] = {"type": "content", "content": prediction}
        try:
            return self._sdk.chat.completions.create(**kwargs)
        except self._openai.OpenAIError as exc:
            raise RemoteError(self._redact(self._describe(exc))) from exc

    def _describe(self, exc: BaseException) -> str:
        o = self._openai
        where = f"the server at {self.url}"
        if isinstance(exc, o.APITimeoutError):
            return f"{where} did not answer within {self.timeout_s:g} s (raise ${TIMEOUT_ENV} for a slow server)"
        if isinstance(exc, o.APIConnectionError):
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            return f"cannot connect to {self.url}: {first_line(cause, 300)}"
        if isinstance(exc, o.AuthenticationError):
            hint = "check" if self._key else "no key was set: set"
            return (f"{where} refused the request (HTTP 401: {_status_text(exc)}); {hint} "
                    f"${API_KEY_ENVS[0]} or ${API_KEY_ENVS[1]}")
        if isinstance(exc, o.APIStatusError):
            return f"{where} answered HTTP {exc.status_code}: {_status_text(exc)}"
        return f"the request to {where} failed: {first_line(exc, 300)}"

    def _redact(self, text: str) -> str:
        """Never print the key, even where a server echoes it back."""
        return text.replace(self._key, "***") if self._key else text


def _status_text(exc) -> str:
    """The error's message: OpenAI's `{"message"}` (the SDK unwraps `{"error": ...}`), FastAPI's
    `{"detail"}`, a plain string, else the SDK's own message."""
    body = getattr(exc, "body", None)
    text = None
    if isinstance(body, dict):
        text = body.get("message") or body.get("detail") or body.get("error")
    elif isinstance(body, str):
        text = body
    text = str(text).strip() if text else first_line(exc, 300)
    return text.splitlines()[0][:300] if text else "(empty body)"


def _refuses_prediction(exc: BaseException | None) -> bool:
    """A 400 (or 422) whose error names `prediction`: the server does not take Predicted Outputs."""
    status = getattr(exc, "status_code", None)
    if status not in (400, 422):
        return False
    body = getattr(exc, "body", None)
    return "prediction" in f"{body} {getattr(exc, 'message', '')}".lower()


def _answer(reply: Any, url: str, seconds: float, requests: int, state: str) -> ChatAnswer:
    """The parts of an SDK ChatCompletion an edit uses; RemoteError when it is not one."""
    choices = _get(reply, "choices")
    if not isinstance(choices, list) or not choices:
        raise RemoteError(f"the server at {url} answered /chat/completions without choices "
                          f"(is {url} an OpenAI-compatible /v1 base URL?)")
    choice = choices[0]
    content = _get(_get(choice, "message"), "content")
    if content is not None and not isinstance(content, str):
        raise RemoteError(f"the server at {url} answered a message whose content is not text")
    usage = _get(reply, "usage")
    details = _get(usage, "completion_tokens_details")
    return ChatAnswer(
        content=content or "",
        finish_reason=_get(choice, "finish_reason"),
        prompt_tokens=_count(_get(usage, "prompt_tokens")),
        completion_tokens=_count(_get(usage, "completion_tokens")),
        accepted_prediction_tokens=_count(_get(details, "accepted_prediction_tokens")),
        rejected_prediction_tokens=_count(_get(details, "rejected_prediction_tokens")),
        seconds=seconds,
        requests=requests,
        prediction=state,
    )


def _get(obj: Any, key: str) -> Any:
    """A field of an SDK object, or of a dict where the SDK kept a shape it did not know as one."""
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
