"""One running decode: prompt ids + drafts -> text deltas as tokens are accepted -> `Finished`.

This is the single loop every surface uses (the pipeline's model path, the server's chat and
text completions, bench): the speculative engine proposes and verifies, `TextAssembler` turns the
accepted token runs into text that is certain (no half characters, no half stop strings), and
the last item is a `Finished` with the text, the token ids and the decode statistics.

Drafts are token sequences the answer is expected to follow (the original file as the model would
write it, a refused merge's candidate, a client's `prediction`). `make_draft` puts an aligner over
each (the first preferred) beside prompt lookup; `LongestMatchDraft` lets whichever matches the
output's end over more tokens propose. With no drafts the decode is plain, one token per pass.

This module knows token ids, a tokenizer's decode, the engine and the draft sources; nothing about
files, prompts' wording or HTTP.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from fastapply.decoding.engine import ChunkPolicy, SpeculativeDecoder
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.drafts.base import DraftSource, LongestMatchDraft, NoDraft
from fastapply.drafts.lookup import PromptLookupDraft
from fastapply.drafts.original import OriginalDraft
from fastapply.rewrite.streaming import TextAssembler

DRAFT_MODES = ("speculative", "lookup", "none")

_WORD = re.compile(r"[0-9A-Za-z_]")


def token_weights(tokenizer, ids: Sequence[int], cache: dict[int, int]) -> list[int]:
    """Letters and digits per token: how much a token says about where the output is in a file."""
    out = []
    for t in ids:
        w = cache.get(t)
        if w is None:
            w = cache[t] = len(_WORD.findall(tokenizer.decode([t])))
        out.append(w)
    return out


def stop_token_ids(tokenizer) -> list[int]:
    """The end-of-sequence token and ChatML's `<|im_end|>` where the vocabulary has it."""
    ids = {tokenizer.eos_token_id}
    im_end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    if isinstance(im_end, int) and im_end != tokenizer.unk_token_id:
        ids.add(im_end)
    return sorted(i for i in ids if i is not None)


def weight_cache(loaded) -> dict[int, int]:
    """The per-model cache of `token_weights` (kept on the loaded model's `extra`)."""
    extra = getattr(loaded, "extra", None)
    return extra.setdefault("token_weights", {}) if isinstance(extra, dict) else {}


def make_draft(
    tokenizer,
    drafts: Sequence[Sequence[int]],
    *,
    weights: dict[int, int],
    mode: str = "speculative",
    initial_match: int | None = None,
) -> DraftSource:
    """The draft source for a decode.

    "speculative": an aligner over each draft (the first preferred on ties) and prompt lookup;
    with no drafts, plain decoding. "lookup": prompt lookup alone. "none": plain decoding.
    `initial_match` is how many tokens each aligner counts as matched at the start (the answer
    prefix it continues); None lets a draft beat any prompt-lookup match at first, as a client's
    own prediction should.
    """
    if mode not in DRAFT_MODES:
        raise ValueError(f"unknown draft mode {mode!r}; expected one of {DRAFT_MODES}")
    lookup = PromptLookupDraft()
    if mode == "none" or (mode == "speculative" and not drafts):
        return NoDraft()
    if mode == "lookup":
        return lookup
    start = lookup.max_measure if initial_match is None else initial_match
    aligners = [OriginalDraft(list(ids), weights=token_weights(tokenizer, ids, weights), initial_match=start) for ids in drafts]
    return LongestMatchDraft(*aligners, lookup)


@dataclass
class Finished:
    """The last item of a decode."""

    text: str  # the answer's text, cut before a stop string
    finish_reason: str  # "stop" | "length"
    stats: DecodeStats
    token_ids: list[int]
    stop_string: str | None = None  # the stop string that ended it, if one did


def decode_text(
    loaded,
    backend,
    prompt_ids: Sequence[int],
    draft: DraftSource,
    *,
    max_tokens: int,
    stop_ids: Sequence[int],
    stop_strings: Sequence[str] = (),
    sampling: SamplingParams = SamplingParams(),
    chunk: ChunkPolicy = ChunkPolicy(),
    on_progress: Callable[[DecodeStats], None] | None = None,
) -> Iterator[str | Finished]:
    """Run one decode: text deltas as they become certain, then a `Finished`.

    Closing the iterator early (a client went away) stops the decode and its clock.
    """
    tok = loaded.tokenizer
    decoder = SpeculativeDecoder(
        backend, list(prompt_ids), draft, max_tokens=max_tokens, sampling=sampling,
        stop_token_ids=list(stop_ids), chunk=chunk,
    )
    text = TextAssembler(lambda ids: tok.decode(ids, skip_special_tokens=True), stop_strings)
    runs = iter(decoder)
    try:
        for run in runs:
            delta = text.feed(run)
            if on_progress:
                on_progress(decoder.stats)
            if delta:
                yield delta
            if text.stopped:
                break
    finally:
        runs.close()  # stops the clock and fills in the token counts, also when cancelled
    tail = text.finish()
    if tail:
        yield tail
    stats = decoder.stats
    stats.output_chars = len(text.text)
    finish = "stop" if text.stopped else (stats.finish_reason or "length")
    stats.finish_reason = finish
    yield Finished(text.text, finish, stats, list(decoder.tokens), text.stop_string if text.stopped else None)
