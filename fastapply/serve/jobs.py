"""The model work behind each endpoint, as generators the scheduler's worker thread runs.

Every job first yields a `Prepared` (the request is tokenised and fits: the handler may answer 200
now), then the generation's items (`str` deltas, a `gen.Finished`), then, when asked for, the
scoring pass's `gen.TokenLogprobs`. Anything raised before `Prepared` becomes the request's status.

Nothing is tokenised that provably cannot fit: each job first bounds its texts' tokens from their
UTF-8 size and the vocabulary's longest token (limits.tokens_over, as the CLI does for edits) and
refuses a prompt beyond the context, a prediction longer than any answer can be, or an echo that
would score more than `max_scored_tokens`, in microseconds rather than the seconds of tokenising
megabytes (a 3.6 MB message took 8.3 s to tokenise before its 400).

Scoring (`logprobs`) is bounded: at most `max_scored_tokens` positions per request, refused up
front with a 400 naming the field when a request would exceed it, and it stops between passes when
its job is cancelled. With chat `logprobs` and no `max_tokens`, the completion budget defaults to
that bound (rather than the rest of the context) so the answer can always be scored.

This module knows tokens, the generation layer and the pipeline; nothing about HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from fastapply import limits
from fastapply.decoding.stats import DecodeStats
from fastapply.errors import ContextLengthError
from fastapply.pipeline import EditStream
from fastapply.serve import generation as gen
from fastapply.serve import scheduler, tokens
from fastapply.serve.schemas import ApplyRequest, ChatCompletionRequest, CompletionRequest, RequestError


@dataclass
class Prepared:
    """First item of every job: the request is tokenised, fits, and decoding starts."""

    prompt_tokens: int
    drafted: bool = False
    echo_text: str = ""  # completions with echo: the prompt as text, sent before the answer


def _vocab_size(tokenizer) -> int | None:
    try:
        return len(tokenizer)
    except TypeError:  # a tokenizer without __len__ (the test fakes): ids are checked by the model
        return None


def _scored_too_many(n: int, cap: int, param: str, what: str) -> RequestError:
    return RequestError(
        f"log probabilities are computed for at most {cap} tokens per request (the server's "
        f"--max-scored-tokens); this request would score {n} ({what})", param,
    )


def _check_prompt(loaded, texts, completion: int, what: str) -> None:
    """Refuse, before tokenising, a prompt that cannot leave `completion` tokens of the context."""
    room = loaded.context_length - max(completion, 1)
    fewest = limits.tokens_over(loaded, texts, room)
    if fewest is not None:
        raise ContextLengthError(
            f"{what} need at least {fewest} tokens, and {max(completion, 1)} more for the answer: beyond the "
            f"model's context of {loaded.context_length} tokens; nothing was tokenised")


def _check_prediction(loaded, predicted: str) -> None:
    """A prediction longer than the whole context is longer than any answer: refused untokenised."""
    fewest = limits.tokens_over(loaded, [predicted], loaded.context_length)
    if fewest is not None:
        raise RequestError(f"the prediction needs at least {fewest} tokens, longer than any answer can be (the "
                           f"model's context is {loaded.context_length} tokens); nothing was tokenised", "prediction")


def _decoder(tok):
    return lambda ids: tok.decode(ids, skip_special_tokens=False)


def _generate(loaded, backend, request: gen.GenerationRequest, output: list[int]) -> Iterator[Any]:
    """Run a generation, yielding its items; `output` receives the answer's ids (no stop token)
    for the scoring pass that may follow."""
    for item in gen.generate(loaded, backend, request):
        if isinstance(item, gen.Finished):
            output[:] = gen.without_stop_tokens(item.token_ids, request.stop_ids)
        yield item


def chat_job(holder, body: ChatCompletionRequest, messages: list[dict[str, str]], sampling,
             max_scored: int) -> Iterator[Any]:
    loaded = holder.get()
    tok = loaded.tokenizer
    requested = body.token_budget()
    _check_prompt(loaded, [m["content"] for m in messages], requested or 1, "the messages")
    predicted = body.prediction.text() if body.prediction is not None else ""
    _check_prediction(loaded, predicted)
    try:
        prompt = gen.chat_prompt_ids(tok, messages)
    except RequestError:
        raise
    except Exception as exc:  # a template that refuses these messages (roles, order)
        raise RequestError(f"the chat template could not render these messages: {exc}", "messages") from None
    if body.logprobs:
        if requested is not None and requested > max_scored:
            raise _scored_too_many(requested, max_scored, "max_tokens", "max_tokens with logprobs")
        if requested is None:  # the rest of the context, but no more than can be scored
            requested = min(max_scored, max(1, loaded.context_length - len(prompt)))
    budget = gen.token_budget(len(prompt), requested, loaded.context_length)
    stops = gen.stop_token_ids(tok)
    draft = gen.prediction_ids(tok, predicted, stops) if predicted else None
    yield Prepared(len(prompt), drafted=draft is not None)
    backend = holder.backend()
    output: list[int] = []
    yield from _generate(loaded, backend, gen.GenerationRequest(
        prompt_ids=prompt, max_tokens=budget, sampling=sampling, prediction_ids=draft,
        stop_strings=body.stop_strings(), stop_ids=stops,
    ), output)
    if body.logprobs:
        # one scoring pass after generation; the first answer token is scored given the whole
        # prompt, so start=len(prompt) never hits the no-context case
        yield gen.score(backend, prompt + output, body.top_logprobs or 0, _decoder(tok), start=len(prompt),
                        should_stop=scheduler.cancelled)


def completion_job(holder, body: CompletionRequest, sampling, max_scored: int) -> Iterator[Any]:
    loaded = holder.get()
    tok = loaded.tokenizer
    text = body.prompt if isinstance(body.prompt, str) else \
        body.prompt[0] if body.prompt and isinstance(body.prompt[0], str) else None
    if text is not None:  # token ids are counted as they are
        _check_prompt(loaded, [text], body.max_tokens or 0, "the prompt")
        if body.logprobs is not None and body.echo:
            fewest = limits.tokens_over(loaded, [text], max_scored - (body.max_tokens or 0))
            if fewest is not None:
                raise _scored_too_many(fewest + (body.max_tokens or 0), max_scored, "logprobs",
                                       f"at least {fewest} prompt tokens echoed + max_tokens {body.max_tokens}; "
                                       "nothing was tokenised")
    predicted = body.prediction.text() if body.prediction is not None else ""
    _check_prediction(loaded, predicted)
    prompt = gen.text_prompt_ids(tok, body.prompt)
    if not prompt:
        raise RequestError("the prompt is empty", "prompt")
    gen.check_ids(prompt, _vocab_size(tok))
    if body.logprobs is not None:
        scored = (len(prompt) if body.echo else 0) + (body.max_tokens or 0)
        if scored > max_scored:
            what = f"{len(prompt)} prompt tokens echoed + max_tokens {body.max_tokens}" if body.echo \
                else f"max_tokens {body.max_tokens}"
            raise _scored_too_many(scored, max_scored, "logprobs", what)
    stops = gen.stop_token_ids(tok)
    draft = gen.prediction_ids(tok, predicted, stops) if predicted else None
    echo_text = tok.decode(prompt, skip_special_tokens=False) if body.echo else ""
    backend = holder.backend()
    output: list[int] = []
    if body.max_tokens == 0:  # echo only (checked in the schema): score the prompt, generate nothing
        gen.token_budget(len(prompt), None, loaded.context_length)
        yield Prepared(len(prompt), drafted=False, echo_text=echo_text)
        yield gen.Finished("", "length", DecodeStats(prompt_tokens=len(prompt), finish_reason="length"), [])
    else:
        budget = gen.token_budget(len(prompt), body.max_tokens, loaded.context_length)
        yield Prepared(len(prompt), drafted=draft is not None, echo_text=echo_text)
        yield from _generate(loaded, backend, gen.GenerationRequest(
            prompt_ids=prompt, max_tokens=budget, sampling=sampling, prediction_ids=draft,
            stop_strings=body.stop_strings(), stop_ids=stops,
        ), output)
    if body.logprobs is not None:
        # one scoring pass over prompt + answer after generation: exact log probabilities of the
        # tokens as sent, whatever the draft did (with echo: the prompt's own tokens too)
        # echo scoring reuses the previous request's prefix (a remote client's passes share theirs)
        namer = tokens.token_namer(tok, tokens.wants_ids(body))  # text, or vLLM's token_id:N
        yield holder.scorer.score(loaded, backend, prompt + output, body.logprobs, namer,
                                  start=0 if body.echo else len(prompt), should_stop=scheduler.cancelled)


def apply_model_job(holder, body: ApplyRequest, merge=None, merge_s: float = 0.0) -> Iterator[Any]:
    """The model path of an edit; `merge` is the instant merge's refusal, already computed off
    this thread (its candidate becomes the first draft), or None for strategy "model"."""
    stream = EditStream(
        body.original, body.snippet, body.instruction, strategy=body.strategy, language=body.language,
        path=body.path, temperature=body.temperature, top_p=body.top_p, seed=body.random_seed(),
        max_tokens=body.max_tokens, loader=holder.get, merge=merge, merge_s=merge_s,
    )
    prompt_tokens = len(stream.prepared.prompt_ids) if stream.prepared is not None else 0
    yield Prepared(prompt_tokens, drafted=stream.prepared is not None)
    yield from stream
    yield stream.result
