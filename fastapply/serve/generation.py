"""Predicted Outputs on top of the speculative engine: prompt ids + optional prediction -> text deltas.

The client's `prediction` is exactly what speculative edits need: a guess of the whole answer. It is
tokenised, closed with the end-of-turn token (so an unchanged answer is verified to its very end),
and given to the aligner (`OriginalDraft`), with prompt lookup as the fallback for new text. Without
a prediction the engine decodes plainly (`NoDraft`), one token per pass. Either way the output is
the target's own: token-identical to plain greedy decoding at temperature 0, and distributed exactly
as plain sampling above it. The prediction changes only how fast the answer comes.

`generate(...)` is the job the scheduler runs: the one running decode of rewrite/decode.py, which
yields `str` deltas (stop strings already cut) and finally one `Finished` with the text, the finish
reason and the decode statistics. `score(...)`
gives the per-token log probabilities of a sequence (completions' `echo` + `logprobs`).

Usage is mapped to OpenAI's vocabulary in `usage_dict`. One difference worth knowing: OpenAI's
`rejected_prediction_tokens` counts prediction tokens that did not appear in the answer; ours counts
drafted tokens the target verified and discarded, i.e. the verification work wasted (a region
re-proposed after a divergence can count twice). Both are zero for a perfect prediction.

This module knows token ids, a tokenizer and the engine; nothing about HTTP or JSON shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

import numpy as np

from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.errors import ContextLengthError, InputError
from fastapply.rewrite.decode import Finished, decode_text, make_draft, stop_token_ids, weight_cache


@dataclass
class GenerationRequest:
    """Everything one generation needs, already in tokens."""

    prompt_ids: list[int]
    max_tokens: int
    sampling: SamplingParams = SamplingParams()
    prediction_ids: list[int] | None = None  # the draft; None = plain decoding
    stop_strings: list[str] = field(default_factory=list)
    stop_ids: list[int] = field(default_factory=list)


def chat_prompt_ids(tokenizer, messages: list[dict[str, str]]) -> list[int]:
    """The chat template with the assistant's turn opened, as token ids."""
    text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return list(tokenizer.encode(text, add_special_tokens=False))


def text_prompt_ids(tokenizer, prompt: str | list) -> list[int]:
    """A completions prompt: text, a one-element list of text, or token ids as given."""
    if isinstance(prompt, list) and prompt and isinstance(prompt[0], int):
        return [int(t) for t in prompt]
    text = prompt[0] if isinstance(prompt, list) else prompt
    return list(tokenizer.encode(text, add_special_tokens=False))


def prediction_ids(tokenizer, prediction: str, end_ids: Sequence[int]) -> list[int]:
    """The draft for a predicted answer: its tokens, then the end-of-turn token the model would write."""
    return list(tokenizer.encode(prediction, add_special_tokens=False)) + list(end_ids[-1:])


def check_ids(ids: Sequence[int], vocab_size: int | None) -> None:
    """Token ids given by the client must exist (an out-of-range id would crash the embedding)."""
    upper = vocab_size if vocab_size is not None else float("inf")
    if any(not (0 <= t < upper) for t in ids):
        raise InputError(f"prompt token ids must be in [0, {vocab_size if vocab_size is not None else 'vocab'})")


def token_budget(prompt_tokens: int, requested: int | None, context_length: int) -> int:
    """max_tokens for the decoder: the request's, or the rest of the context; refuse what cannot fit.

    As OpenAI does, a request whose prompt plus max_tokens exceeds the context is an error rather
    than a silently shorter answer.
    """
    if prompt_tokens >= context_length:
        raise ContextLengthError(
            f"the prompt is {prompt_tokens} tokens, beyond the model's context of {context_length} tokens"
        )
    room = context_length - prompt_tokens
    if requested is None:
        return room
    if requested > room:
        raise ContextLengthError(
            f"the prompt is {prompt_tokens} tokens and max_tokens is {requested}: together beyond the "
            f"model's context of {context_length} tokens (at most {room} completion tokens fit)"
        )
    return requested


def generate(loaded, backend, request: GenerationRequest) -> Iterator[str | Finished]:
    """Run one generation (rewrite/decode.py's decode): text deltas as they become certain, then a
    `Finished`. The prediction, closed with the end-of-turn token, is the aligner's draft and beats
    prompt lookup at the start (it is the client's own statement of the answer)."""
    drafts = [request.prediction_ids] if request.prediction_ids else []
    draft = make_draft(loaded.tokenizer, drafts, weights=weight_cache(loaded))
    return decode_text(
        loaded, backend, request.prompt_ids, draft, max_tokens=request.max_tokens, stop_ids=request.stop_ids,
        stop_strings=request.stop_strings, sampling=request.sampling,
    )


@dataclass
class TokenLogprobs:
    """OpenAI's completions `logprobs` object, for a run of tokens."""

    tokens: list[str]
    token_logprobs: list[float | None]
    top_logprobs: list[dict[str, float] | None]
    text_offset: list[int]

    def as_dict(self) -> dict:
        return {
            "tokens": self.tokens,
            "token_logprobs": self.token_logprobs,
            "top_logprobs": self.top_logprobs,
            "text_offset": self.text_offset,
        }


SCORE_CHUNK = 128  # positions per scoring pass: bounds the logits held at once (rows x vocab floats)


def log_softmax(rows: np.ndarray) -> np.ndarray:
    """Log softmax over the last axis, in float64 (one row or a matrix of rows)."""
    z = rows.astype(np.float64)
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def top_ids(lp: np.ndarray, k: int) -> np.ndarray:
    """The k best ids of one row, best first, ties to the lowest id (as a stable argsort would)."""
    k = min(k, lp.shape[0])
    threshold = np.partition(lp, lp.shape[0] - k)[lp.shape[0] - k]
    candidates = np.flatnonzero(lp >= threshold)  # k or more (ties at the threshold)
    order = np.lexsort((candidates, -lp[candidates]))
    return candidates[order[:k]]


def score(backend, ids: Sequence[int], top: int, decode: Callable[[list[int]], str], *, start: int = 0,
          should_stop: Callable[[], bool] | None = None, chunk: int = SCORE_CHUNK) -> TokenLogprobs:
    """Log probabilities of ids[start:] under the model, each given the tokens before it, with the
    `top` most likely alternatives. The very first token of a sequence has no prediction (None).

    Passes over a fresh cache, `chunk` positions at a time, so memory stays bounded whatever the
    length; `should_stop()` is polled between passes and raises `Cancelled` (the client left). This
    is how a client verifies speculation remotely: the prompt's own tokens, scored by the same
    weights that generated.
    """
    from fastapply.serve.scheduler import Cancelled

    def check() -> None:
        if should_stop is not None and should_stop():
            raise Cancelled("scoring stopped: the request was cancelled")

    pieces: dict[int, str] = {}

    def piece(t: int) -> str:
        if t not in pieces:
            pieces[t] = decode([t])
        return pieces[t]

    ids = [int(t) for t in ids]
    if start >= len(ids):
        return TokenLogprobs([], [], [], [])
    backend.truncate(0)
    tokens = [piece(t) for t in ids[start:]]
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in tokens])])[:-1].astype(int).tolist() if tokens else []
    lps: list[float | None] = []
    tops: list[dict[str, float] | None] = []
    if start == 0 and ids:
        lps.append(None)  # nothing predicts the first token
        tops.append(None)
    pos, first = 0, max(start - 1, 0)  # row p (after ids[p]) scores ids[p + 1]
    while pos < first:  # the context before the first scored token: cached, no rows kept
        check()
        n = min(chunk, first - pos)
        backend.forward(ids[pos : pos + n], rows=1)
        pos += n
    while pos < len(ids) - 1:
        check()
        n = min(chunk, len(ids) - 1 - pos)
        logits = backend.forward(ids[pos : pos + n], rows=n)
        lp = log_softmax(np.stack([logits.row(j) for j in range(n)]))
        chosen = lp[np.arange(n), ids[pos + 1 : pos + n + 1]]
        lps.extend(float(x) for x in chosen)
        for j in range(n):
            tops.append({piece(int(t)): float(lp[j, t]) for t in top_ids(lp[j], top)} if top > 0 else None)
        pos += n
    backend.truncate(0)
    return TokenLogprobs(tokens, lps, tops, offsets)


def chat_logprobs(lp: TokenLogprobs) -> dict:
    """The same numbers in chat completions' shape: one entry per token, top alternatives as a list."""
    def entry(token: str, logprob: float) -> dict:
        return {"token": token, "logprob": logprob, "bytes": list(token.encode("utf-8"))}

    content = []
    for token, logprob, top in zip(lp.tokens, lp.token_logprobs, lp.top_logprobs, strict=True):
        content.append({**entry(token, logprob), "top_logprobs": [entry(t, v) for t, v in (top or {}).items()]})
    return {"content": content, "refusal": None}


def without_stop_tokens(ids: list[int], stop_ids: Sequence[int]) -> list[int]:
    """The answer's tokens as the client sees them: a final end-of-turn token is not part of the text."""
    return ids[:-1] if ids and ids[-1] in stop_ids else ids


def usage_dict(stats: DecodeStats, *, queue_s: float = 0.0, drafted: bool) -> dict:
    """OpenAI's usage object, plus our speculative-decoding statistics under `fastapply`."""
    return {
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "total_tokens": stats.prompt_tokens + stats.completion_tokens,
        "completion_tokens_details": {
            "accepted_prediction_tokens": stats.accepted_prediction_tokens,
            "rejected_prediction_tokens": stats.rejected_prediction_tokens,
            "reasoning_tokens": 0,
        },
        "fastapply": extra_stats(stats, queue_s=queue_s, drafted=drafted),
    }


def extra_stats(stats: DecodeStats, *, queue_s: float = 0.0, drafted: bool = True) -> dict:
    return {
        "draft": "prediction" if drafted else "none",
        "drafted_tokens": stats.drafted_tokens,
        "forward_passes": stats.forward_passes,
        "time_to_first_token_s": round(stats.time_to_first_token_s, 4),
        "total_s": round(stats.total_s, 4),
        "queue_s": round(queue_s, 4),
        "tokens_per_s": round(stats.tokens_per_s, 2),
        "chars_per_s": round(stats.chars_per_s, 2),
    }


__all__ = [
    "Finished", "GenerationRequest", "TokenLogprobs", "chat_prompt_ids", "check_ids", "extra_stats",
    "chat_logprobs", "generate", "make_draft", "prediction_ids", "score", "top_ids", "stop_token_ids", "text_prompt_ids",
    "token_budget", "usage_dict", "without_stop_tokens",
]
