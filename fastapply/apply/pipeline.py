"""apply_edit / stream_edit: (original, snippet, instruction) -> the updated file, with statistics.

The model path: render the prompt (prompts.py), build the draft (the original as the model would
write it, answer_text(original), tokenised), and run the speculative engine with the aligner first
and prompt lookup as its fallback. The answer's file body is streamed as tokens are accepted,
converted back to the original's line endings and final-newline convention.

`stream_edit` returns an `EditStream`: iterate it for text deltas; afterwards `.result` holds the
`ApplyResult`. `apply_edit` consumes one. Models are loaded once per process (models.py).

This module wires the text layer to the token layer; it holds no decoding logic of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

from fastapply import models
from fastapply.apply import prompts
from fastapply.apply.streaming import TextAssembler
from fastapply.decoding.engine import ChunkPolicy, SpeculativeDecoder
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.drafts.base import DraftSource, LongestMatchDraft, NoDraft
from fastapply.drafts.lookup import PromptLookupDraft
from fastapply.drafts.original import OriginalDraft
from fastapply.errors import ContextLengthError, InputError

DRAFT_MODES = ("speculative", "lookup", "none")


@dataclass
class ApplyResult:
    text: str  # the updated file, in the original's line-ending conventions
    path: str  # "model" (later also "instant")
    complete: bool  # the model closed its answer; False means it was cut by max_tokens or the context
    stats: DecodeStats | None = None
    model: str | None = None
    refused_reason: str | None = None  # why the instant path did not merge, when it was tried
    token_ids: list[int] = field(default_factory=list)


@dataclass
class PreparedEdit:
    """Everything the engine needs for one edit, in tokens."""

    prompt_ids: list[int]
    draft_ids: list[int]
    draft_weights: list[int]
    stop_ids: list[int]
    max_tokens: int
    conventions: prompts.TextConventions


def check_inputs(original: str, snippet: str) -> None:
    if not isinstance(original, str) or not isinstance(snippet, str):
        raise InputError("original and snippet must be text")
    if not snippet.strip():
        raise InputError("the snippet is empty: nothing to apply")
    for label, text in (("original", original), ("snippet", snippet)):
        if "\x00" in text:
            raise InputError(f"the {label} contains NUL bytes: binary content is not supported")


_WORD = re.compile(r"[0-9A-Za-z_]")


def token_weights(tokenizer, ids: list[int], cache: dict[int, int]) -> list[int]:
    """Letters and digits per token: how much a token says about where the output is in a file."""
    out = []
    for t in ids:
        w = cache.get(t)
        if w is None:
            w = cache[t] = len(_WORD.findall(tokenizer.decode([t])))
        out.append(w)
    return out


def stop_token_ids(tokenizer) -> list[int]:
    ids = {tokenizer.eos_token_id}
    im_end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    if isinstance(im_end, int) and im_end != tokenizer.unk_token_id:
        ids.add(im_end)
    return sorted(i for i in ids if i is not None)


def prepare(loaded, original: str, snippet: str, instruction: str | None = None, max_tokens: int | None = None) -> PreparedEdit:
    """Tokenise prompt and draft; check they fit the model's context."""
    check_inputs(original, snippet)
    tok = loaded.tokenizer
    prompt_text = prompts.render_prompt(tok, original, snippet, instruction)
    prompt_ids = tok.encode(prompt_text, add_special_tokens=False)
    stops = stop_token_ids(tok)
    draft_ids = tok.encode(prompts.answer_text(original), add_special_tokens=False) + stops[-1:]
    weights = token_weights(tok, draft_ids, loaded.extra.setdefault("token_weights", {}))
    context = loaded.context_length
    # room for the file as it is plus the snippet's worth of new lines, within the context
    snippet_tokens = len(tok.encode(snippet, add_special_tokens=False))
    wanted = max_tokens if max_tokens is not None else len(draft_ids) + snippet_tokens + 64
    if len(prompt_ids) + min(wanted, len(draft_ids)) > context:
        raise ContextLengthError(
            f"the prompt is {len(prompt_ids)} tokens and the file needs about {len(draft_ids)} more, "
            f"beyond the model's context of {context} tokens"
        )
    return PreparedEdit(
        prompt_ids=prompt_ids,
        draft_ids=draft_ids,
        draft_weights=weights,
        stop_ids=stops,
        max_tokens=max(1, min(wanted, context - len(prompt_ids))),
        conventions=prompts.conventions(original),
    )


def make_draft(prepared: PreparedEdit, mode: str = "speculative") -> DraftSource:
    """The draft source for a mode: the original aligner and prompt lookup, lookup alone, or none."""
    if mode == "speculative":
        return LongestMatchDraft(
            OriginalDraft(prepared.draft_ids, weights=prepared.draft_weights), PromptLookupDraft()
        )
    if mode == "lookup":
        return PromptLookupDraft()
    if mode == "none":
        return NoDraft()
    raise ValueError(f"unknown draft mode {mode!r}; expected one of {DRAFT_MODES}")


class EditStream:
    """Iterate for the updated file's text as it is accepted; `.result` is set at the end."""

    def __init__(
        self,
        original: str,
        snippet: str,
        instruction: str | None = None,
        *,
        model: str | None = None,
        temperature: float = 0.0,
        top_p: float = 1.0,
        seed: int | None = None,
        max_tokens: int | None = None,
        draft: str = "speculative",
        chunk: ChunkPolicy = ChunkPolicy(),
        on_progress: Callable[[DecodeStats], None] | None = None,
        loaded=None,
    ):
        self.loaded = loaded if loaded is not None else models.load(model)
        self.prepared = prepare(self.loaded, original, snippet, instruction, max_tokens)
        self.decoder = SpeculativeDecoder(
            self.loaded.new_backend(),
            self.prepared.prompt_ids,
            make_draft(self.prepared, draft),
            max_tokens=self.prepared.max_tokens,
            sampling=SamplingParams(temperature=temperature, top_p=top_p, seed=seed),
            stop_token_ids=self.prepared.stop_ids,
            chunk=chunk,
        )
        self.on_progress = on_progress
        self.result: ApplyResult | None = None

    def __iter__(self) -> Iterator[str]:
        tok = self.loaded.tokenizer
        text = TextAssembler(lambda ids: tok.decode(ids, skip_special_tokens=True), [prompts.ANSWER_SUFFIX])
        conv = self.prepared.conventions
        sent = ""  # restored text already yielded
        body = ""
        runs = iter(self.decoder)
        try:
            for run in runs:
                body += text.feed(run)
                if self.on_progress:
                    self.on_progress(self.decoder.stats)
                # hold back a final newline until we know whether the file ends here
                ready = prompts.restore(body if conv.final_newline else body.rstrip("\n"), conv)
                if len(ready) > len(sent) and ready.startswith(sent):
                    yield ready[len(sent) :]
                    sent = ready
                if text.stopped:
                    break
        finally:
            runs.close()  # stops the clock and fills in the token counts
        body += text.finish()
        final = prompts.restore(body, conv)
        if final.startswith(sent) and len(final) > len(sent):
            yield final[len(sent) :]
        stats = self.decoder.stats
        stats.output_chars = len(final)
        if text.stopped:
            stats.finish_reason = "stop"
        self.result = ApplyResult(
            text=final,
            path="model",
            complete=text.stopped,
            stats=stats,
            model=self.loaded.name,
            token_ids=list(self.decoder.tokens),
        )


def stream_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> EditStream:
    return EditStream(original, snippet, instruction, **kwargs)


def apply_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> ApplyResult:
    stream = EditStream(original, snippet, instruction, **kwargs)
    for _ in stream:
        pass
    assert stream.result is not None
    return stream.result
