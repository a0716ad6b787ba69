"""Request bodies of the HTTP API as pydantic models, and the checks that turn them into plain values.

The models follow OpenAI's request shapes closely enough that the official clients (and editors that
speak them) work unchanged. Unknown fields are allowed (`extra="allow"`): clients send many that do
not change what we generate (`user`, `metadata`, `store`, ...). Fields that *would* change the answer
and that we cannot honour (tools, `n` > 1, logit bias, a JSON response format, penalties, images) are
refused with a clear message naming the field, rather than silently ignored.

Numbers are checked here, never deeper: NaN and Infinity (which Python's JSON parser accepts) are
refused, and a `seed` of -1 means "random", as in llama.cpp (the CLI's rule, fastapply/options.py);
any other negative seed, or one beyond 64 bits, is refused.

A refusal raises `RequestError(message, param)`; the app turns it into OpenAI's error shape with
status 400. This module knows request shapes only: no model, no tokens, no HTTP.
"""

from __future__ import annotations

from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fastapply.options import MAX_SEED, RANDOM_SEED, resolve_seed

MAX_STOP_STRINGS = 4  # as OpenAI


class RequestError(Exception):
    """A request we understand but refuse; `param` names the offending field (OpenAI's `param`)."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None, status: int = 400,
                 extra: dict | None = None):
        super().__init__(message)
        self.extra = extra  # more fields for the error object (an apply refusal as data)
        self.message = message
        self.param = param
        self.code = code
        self.status = status


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", allow_inf_nan=False)


class _Seeded(_Lenient):
    seed: int | None = Field(default=None, ge=RANDOM_SEED, le=MAX_SEED)

    def random_seed(self) -> int | None:
        """The seed for the sampler: -1 becomes a fresh random one, as for `fastapply apply --seed -1`."""
        return resolve_seed(self.seed)


class TextPart(_Lenient):
    type: Literal["text"]
    text: str


class Prediction(BaseModel):
    """OpenAI's Predicted Outputs: `{"type": "content", "content": "..." | [{"type": "text", ...}]}`."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["content"]
    content: Union[str, list[TextPart]]

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return "".join(part.text for part in self.content)


class StreamOptions(_Lenient):
    include_usage: bool = False


class ChatMessage(_Lenient):
    role: Literal["system", "developer", "user", "assistant"]
    # content parts may be images or audio in OpenAI's API; we take text parts only (checked below)
    content: Union[str, list[dict[str, Any]], None] = None
    name: str | None = None

    def text(self, index: int) -> str:
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        texts = []
        for j, part in enumerate(self.content):
            if part.get("type") != "text" or not isinstance(part.get("text"), str):
                raise RequestError(
                    f"only text content parts are supported, got type {part.get('type')!r}",
                    f"messages[{index}].content[{j}]",
                )
            texts.append(part["text"])
        return "".join(texts)


class _SamplingFields(_Seeded):
    model: str | None = None
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    top_p: float | None = Field(default=None, gt=0.0, le=1.0)
    stop: Union[str, list[str], None] = None
    stream: bool = False
    stream_options: StreamOptions | None = None
    n: int | None = Field(default=None, ge=1)
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    logit_bias: dict[str, float] | None = None
    prediction: Prediction | None = None

    @field_validator("stop")
    @classmethod
    def _stop_list(cls, v):
        if isinstance(v, list) and len(v) > MAX_STOP_STRINGS:
            raise ValueError(f"at most {MAX_STOP_STRINGS} stop sequences are allowed")
        return v

    def stop_strings(self) -> list[str]:
        if self.stop is None:
            return []
        return [self.stop] if isinstance(self.stop, str) else list(self.stop)

    def check_common(self) -> None:
        """Refuse what would change the answer and that we cannot honour."""
        if self.n is not None and self.n > 1:
            raise RequestError("n > 1 is not supported: one choice per request (as with predicted outputs)", "n")
        if self.stream_options is not None and not self.stream:
            raise RequestError("stream_options is only allowed when stream is true", "stream_options")
        for name in ("presence_penalty", "frequency_penalty"):
            if getattr(self, name):
                raise RequestError(f"{name} is not supported (only 0)", name)
        if self.logit_bias:
            raise RequestError("logit_bias is not supported", "logit_bias")


# fields a chat client may send that change the answer in ways we cannot reproduce
_CHAT_UNSUPPORTED = {
    "tools": "tools (function calling) are not supported",
    "functions": "functions (function calling) are not supported",
    "audio": "audio output is not supported",
    "web_search_options": "web search is not supported",
}


class ChatCompletionRequest(_SamplingFields):
    messages: list[ChatMessage] = Field(min_length=1)
    max_tokens: int | None = Field(default=None, ge=1)
    max_completion_tokens: int | None = Field(default=None, ge=1)
    logprobs: bool | None = None
    top_logprobs: int | None = Field(default=None, ge=0, le=20)
    response_format: dict[str, Any] | None = None
    tool_choice: Any = None
    function_call: Any = None
    modalities: list[str] | None = None

    def check(self) -> None:
        self.check_common()
        extra = self.model_extra or {}
        for name, why in _CHAT_UNSUPPORTED.items():
            if extra.get(name):
                raise RequestError(why, name)
        if self.tool_choice not in (None, "none"):
            raise RequestError("tool_choice is not supported (no tools)", "tool_choice")
        if self.function_call not in (None, "none"):
            raise RequestError("function_call is not supported (no functions)", "function_call")
        if self.logprobs and self.stream:
            raise RequestError("logprobs are not supported with stream; ask without streaming", "logprobs")
        if self.top_logprobs and not self.logprobs:
            raise RequestError("top_logprobs needs logprobs: true", "top_logprobs")
        if self.response_format and self.response_format.get("type", "text") != "text":
            raise RequestError("only the text response format is supported", "response_format")
        if self.modalities and set(self.modalities) - {"text"}:
            raise RequestError("only the text modality is supported", "modalities")

    def token_budget(self) -> int | None:
        # max_completion_tokens is the newer name; it wins when both are given, as in OpenAI's API
        return self.max_completion_tokens if self.max_completion_tokens is not None else self.max_tokens

    def message_dicts(self) -> list[dict[str, str]]:
        """Messages as the chat template wants them: role and flat text (developer -> system)."""
        out = []
        for i, m in enumerate(self.messages):
            role = "system" if m.role == "developer" else m.role
            out.append({"role": role, "content": m.text(i)})
        return out


class CompletionRequest(_SamplingFields):
    prompt: Union[str, list[str], list[int]]
    max_tokens: int | None = Field(default=16, ge=0)  # OpenAI's default for completions is 16
    echo: bool = False
    logprobs: int | None = Field(default=None, ge=0, le=20)
    best_of: int | None = Field(default=None, ge=1)
    suffix: str | None = None

    def check(self) -> None:
        self.check_common()
        if self.best_of is not None and self.best_of > 1:
            raise RequestError("best_of > 1 is not supported", "best_of")
        if self.suffix:
            raise RequestError("suffix (insertion) is not supported", "suffix")
        if isinstance(self.prompt, list) and self.prompt and isinstance(self.prompt[0], str) and len(self.prompt) != 1:
            raise RequestError("one prompt per request: a list of prompts is not supported", "prompt")
        if isinstance(self.prompt, list) and not self.prompt:
            raise RequestError("the prompt is empty", "prompt")
        if self.max_tokens == 0 and not self.echo:
            raise RequestError("max_tokens must be at least 1 (0 is allowed only with echo)", "max_tokens")


class ApplyRequest(_Seeded):
    """fastapply's own endpoint: (original, snippet, instruction) -> the merged file."""

    original: str
    snippet: str
    instruction: str | None = None
    strategy: Literal["auto", "instant", "model"] = "auto"
    model: str | None = None
    language: str | None = None
    path: str | None = None  # the file's path, used to pick a language for the instant merge
    stream: bool = False
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    max_tokens: int | None = Field(default=None, ge=1)


class RelaceApplyRequest(_Lenient):
    """Relace's `POST /v1/code/apply` body (their public API reference): camelCase fields."""

    initialCode: str
    editSnippet: str
    instruction: str | None = None
    model: str | None = None  # their model name; we serve our own
    stream: bool = False
