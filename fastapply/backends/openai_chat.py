"""The chat backend: any apply model behind an OpenAI-compatible chat endpoint, behind our guards.

    --model openai:URL#MODEL
    e.g.    openai:http://127.0.0.1:8000/v1#Qwen/Qwen2.5-Coder-7B-Instruct      (vLLM, SGLang)
            openai:http://127.0.0.1:11434/v1#qwen2.5-coder:7b                     (Ollama)
            openai:https://api.openai.com/v1#gpt-4.1-mini                         (Predicted Outputs)

Where `remote:` (backends/remote.py) verifies *our* speculative edits token by token, this backend
sends one request per edit and lets the server's own speculation (vLLM's n-gram drafts, OpenAI's
Predicted Outputs) do the speed: our apply prompt (`prompts.build_messages`) for the text the
pipeline gives it (the window the instant merge could not settle, else the whole file), with that
text as the `prediction` in our answer format, as a chat completion (openai_client.py). The
reply's file body (`prompts.chat_answer_body`: between `<updated-code>` tags, or the whole reply,
a ``` fence dropped) goes back to the pipeline as a `Finished`, where the same splice and the same
guards as for a local model decide what is written (pipeline.py): nothing here writes or judges.

No tokens: the client has no tokenizer and sees no log-probabilities, so what needs them is
refused rather than guessed: ranking a refusal's two readings (`rewrite/readings.py`; the
pipeline's `_undecided` then refuses an answer that merely picked one, as for `remote:`), the
context check before sending (the server answers a too-long prompt with a 400: exit 9), serving
it (`fastapply serve`) and bench's transformers baselines. URL without a path gets `/v1`.

This module knows the spec, the prompt and answer formats' entry points, and the stats; the SDK
is openai_client.py's.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterator
from urllib.parse import urlsplit

from fastapply.backends.openai_client import ChatClient
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.errors import RemoteError, UnknownModelError
from fastapply.rewrite import prompts
from fastapply.rewrite.decode import Finished

PREFIX = "openai:"


@dataclass(frozen=True)
class ChatSpec:
    url: str  # the SDK's base URL (ends in /v1 for most servers)
    model: str  # the name the server serves (sent as `model`)


def parse_spec(text: str) -> ChatSpec:
    """`openai:URL#MODEL` -> ChatSpec, or UnknownModelError saying what is wrong."""
    body = text[len(PREFIX) :] if text.startswith(PREFIX) else text
    url, sep, model = body.partition("#")
    url, model = url.strip(), model.strip()
    if not sep or not url or not model:
        raise UnknownModelError(
            f"a chat model is written openai:URL#MODEL (e.g. openai:http://127.0.0.1:8000/v1#my-model), got {text!r}"
        )
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UnknownModelError(f"the chat model's URL must start with http:// or https://, got {url!r}")
    if parts.query or parts.fragment:
        raise UnknownModelError(f"the chat model's URL takes no query, got {url!r}")
    if parts.path in ("", "/"):
        url = url.rstrip("/") + "/v1"  # every server above serves /v1/chat/completions
    return ChatSpec(url.rstrip("/"), model)


@dataclass
class ChatStats(DecodeStats):
    """DecodeStats of one edit's chat request(s): tokens as the server counts them (0 where it
    sends none), no forward passes of ours; non-streaming, so time to first token is the total."""

    requests: int = 0
    prediction: str = "off"  # "sent" | "refused" (the server refused it: sent again without) | "off"
    prediction_reported: bool = False  # the server reported accepted/rejected prediction tokens

    def summary_line(self) -> str:
        if self.prediction == "sent" and self.prediction_reported:
            pred = (f"prediction: {self.accepted_prediction_tokens} accepted, "
                    f"{self.rejected_prediction_tokens} rejected tokens")
        elif self.prediction == "sent":
            pred = "prediction sent (the server reports no accepted tokens)"
        elif self.prediction == "refused":
            pred = "prediction refused by the server (sent again without)"
        else:
            pred = "no prediction"
        return (f"{self.completion_tokens} tokens ({self.prompt_tokens} prompt; {pred}) in {self.requests} "
                f"request{'s' if self.requests != 1 else ''}; total {self.total_s:.2f}s, "
                f"{self.tokens_per_s:.1f} tok/s, {self.chars_per_s:.0f} chars/s")


@dataclass
class ChatModel:
    """Shaped like `backends.hf.HFModel` where the pipeline needs it (name, device, extra); its
    edits are `start_chat_edit`. No tokenizer and no backends: asking for them is a RemoteError."""

    name: str
    client: ChatClient
    device: str = "remote"
    dtype: str = "server"
    load_s: float = 0.0
    extra: dict = field(default_factory=dict)

    def _no_tokens(self, what: str) -> RemoteError:
        return RemoteError(f"{self.name} is a chat model: it answers text, with no tokenizer or log-probabilities "
                           f"here, so it cannot {what}")

    @property
    def tokenizer(self):
        raise self._no_tokens("score or rank text")

    @property
    def model(self):
        raise self._no_tokens("run transformers' generate (fastapply bench's baselines)")

    def new_backend(self):
        raise self._no_tokens("verify speculative edits token by token (use remote:URL#MODEL for that)")

    def start_chat_edit(self, original: str, snippet: str, instruction: str | None = None, *,
                        predict: bool = True, sampling: SamplingParams = SamplingParams(),
                        max_tokens: int | None = None,
                        on_progress: Callable[[DecodeStats], None] | None = None) -> Iterator[str | Finished]:
        """Like rewrite/edit.py's `start_edit`: the answer's file body, then a `Finished` whose
        `stop_string` is the closing tag when the reply finished its file. Nothing is sent until
        the iterator is first advanced."""
        messages = prompts.build_messages(original, snippet, instruction)
        # what the model writes when the edit changes nothing: the best guess of the reply
        prediction = prompts.ANSWER_PREFIX + prompts.answer_text(original) if predict else None
        answer = self.client.complete(messages, prediction=prediction, temperature=sampling.temperature,
                                      top_p=sampling.top_p, seed=sampling.seed, max_tokens=max_tokens)
        body, closed = prompts.chat_answer_body(answer.content, original)
        if closed is None:  # no tags: the server's finish reason says whether the reply is whole
            closed = answer.finish_reason == "stop"
        reported = answer.accepted_prediction_tokens is not None or answer.rejected_prediction_tokens is not None
        accepted, rejected = answer.accepted_prediction_tokens or 0, answer.rejected_prediction_tokens or 0
        finish = "stop" if closed else (answer.finish_reason if answer.finish_reason not in (None, "stop") else "length")
        stats = ChatStats(
            prompt_tokens=answer.prompt_tokens or 0, completion_tokens=answer.completion_tokens or 0,
            drafted_tokens=accepted + rejected, accepted_prediction_tokens=accepted,
            rejected_prediction_tokens=rejected, time_to_first_token_s=answer.seconds, total_s=answer.seconds,
            output_chars=len(body), finish_reason=finish, requests=answer.requests, prediction=answer.prediction,
            prediction_reported=reported,
        )
        if on_progress is not None:
            on_progress(stats)
        if body:
            yield body
        yield Finished(body, finish, stats, [], prompts.ANSWER_SUFFIX if closed else None)


def load_openai(text: str, *, name: str | None = None, client: ChatClient | None = None) -> ChatModel:
    """An `openai:URL#MODEL` chat model; nothing is sent until its first edit (a wrong URL, key or
    model name is reported then, exit 9). `client` is for tests and embedding."""
    t0 = time.perf_counter()
    spec = parse_spec(text)
    client = client if client is not None else ChatClient(spec.url, spec.model)
    return ChatModel(name=name or text, client=client, load_s=time.perf_counter() - t0)
