"""apply_edit / stream_edit: (original, snippet, instruction) -> the updated file, with statistics.

The strategy ladder: "auto" tries the instant merge (merge.py, milliseconds, refuses rather than
guesses) and, when it refuses, the model path, handing the refused merge's best candidate to the
model as its first draft (where the candidate is right, the model verifies it at prefill speed).

The model path: render the prompt (prompts.py), build the draft (the original as the model would
write it, answer_text(original), tokenised), and run the speculative engine with the aligner and
prompt lookup side by side (whichever matches the output's end over more tokens proposes). The answer's file body is streamed as tokens are accepted,
converted back to the original's line endings and final-newline convention.

`stream_edit` returns an `EditStream`: iterate it for text deltas; afterwards `.result` holds the
`ApplyResult`. `apply_edit` consumes one. Models are loaded once per process (models.py).

This module wires the text layer to the token layer; it holds no decoding logic of its own.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from fastapply import models
from fastapply.rewrite import prompts
from fastapply.merge.instant import MergeResult, instant_merge
from fastapply.rewrite.streaming import TextAssembler
from fastapply.decoding.engine import ChunkPolicy, SpeculativeDecoder
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.drafts.base import DraftSource, LongestMatchDraft, NoDraft
from fastapply.drafts.lookup import PromptLookupDraft
from fastapply.drafts.original import OriginalDraft
from fastapply.errors import ContextLengthError, InputError
from fastapply.merge import guards, syntax

DRAFT_MODES = ("speculative", "lookup", "none")
STRATEGIES = ("auto", "instant", "model")


@dataclass
class ApplyResult:
    text: str  # the updated file, in the original's conventions ("" when the instant path refused alone)
    path: str  # "instant" | "model"
    complete: bool  # a trustworthy whole file: merged, or a closed model answer that passed every guard
    stats: DecodeStats | None = None
    model: str | None = None
    refused_reason: str | None = None  # why the instant path did not merge, when it was tried
    method: str | None = None  # instant path: "lazy" | "search_replace" | "diff" | "definition"
    rung: str | None = None  # instant path: the ladder rung that matched
    draft: str | None = None  # model path: "original", or "candidate+original" when the refused merge was the first draft
    guard: str | None = None  # model path: the guard that refused the answer (merge/guards.py), or "closed"
    guard_reason: str | None = None  # why, in words a user can act on

    @property
    def guarded(self) -> bool:
        """The model answered but its answer failed a guard: `text` is a candidate, not a result."""
        return self.guard is not None

    def summary_line(self) -> str:
        if self.path == "instant":
            if not self.complete:
                return f"path=instant refused: {self.refused_reason}"
            took = self.stats.total_s * 1000 if self.stats else 0.0
            return f"path=instant ({self.method}, {self.rung}) in {took:.1f} ms"
        why = f" (instant path refused: {self.refused_reason})" if self.refused_reason else ""
        if self.guard and self.guard != "closed":
            why += f"; answer refused by the {self.guard} guard: {self.guard_reason}"
        return f"path=model model={self.model} draft={self.draft}{why}: {self.stats.summary_line() if self.stats else ''}"


@dataclass
class PreparedEdit:
    """Everything the engine needs for one edit, in tokens."""

    prompt_ids: list[int]
    drafts: list[tuple[list[int], list[int]]]  # (token ids, weights) per draft text, first preferred
    prefix_tokens: int  # tokens of the answer prefix the drafts continue
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


def prepare(
    loaded,
    original: str,
    snippet: str,
    instruction: str | None = None,
    max_tokens: int | None = None,
    candidate: str | None = None,
) -> PreparedEdit:
    """Tokenise the prompt and the drafts (the candidate merge, if any, then the original); check
    they fit the model's context."""
    check_inputs(original, snippet)
    tok = loaded.tokenizer
    prompt_text = prompts.render_prompt(tok, original, snippet, instruction)
    prompt_ids = tok.encode(prompt_text, add_special_tokens=False)
    stops = stop_token_ids(tok)
    weight_cache = loaded.extra.setdefault("token_weights", {})
    drafts = []
    for text in ([candidate] if candidate is not None and candidate != original else []) + [original]:
        ids = tok.encode(prompts.answer_text(text), add_special_tokens=False) + stops[-1:]
        drafts.append((ids, token_weights(tok, ids, weight_cache)))
    draft_ids = drafts[-1][0]
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
        drafts=drafts,
        prefix_tokens=len(tok.encode(prompts.ANSWER_PREFIX, add_special_tokens=False)),
        stop_ids=stops,
        max_tokens=max(1, min(wanted, context - len(prompt_ids))),
        conventions=prompts.conventions(original),
    )


def make_draft(prepared: PreparedEdit, mode: str = "speculative") -> DraftSource:
    """The draft source for a mode: the aligners (candidate first, if any) and prompt lookup,
    prompt lookup alone, or none."""
    if mode == "speculative":
        aligners = [OriginalDraft(ids, weights=w, initial_match=prepared.prefix_tokens) for ids, w in prepared.drafts]
        return LongestMatchDraft(*aligners, PromptLookupDraft())
    if mode == "lookup":
        return PromptLookupDraft()
    if mode == "none":
        return NoDraft()
    raise ValueError(f"unknown draft mode {mode!r}; expected one of {DRAFT_MODES}")


class EditStream:
    """Iterate for the updated file's text as it is produced; `.result` is set at the end.

    strategy "auto" tries the instant merge and falls back to the model (with the refused merge's
    candidate as the first draft); "instant" never loads a model; "model" skips the merge.
    """

    def __init__(
        self,
        original: str,
        snippet: str,
        instruction: str | None = None,
        *,
        strategy: str = "auto",
        model: str | None = None,
        language: str | None = None,
        path: str | None = None,
        temperature: float = 0.0,
        top_p: float = 1.0,
        seed: int | None = None,
        max_tokens: int | None = None,
        draft: str = "speculative",
        chunk: ChunkPolicy = ChunkPolicy(),
        on_progress: Callable[[DecodeStats], None] | None = None,
        loaded=None,
        loader: Callable[[], object] | None = None,
    ):
        """`loaded` is a model from models.load; else `loader()` or models.load(model) is called,
        only when the model path runs."""
        if strategy not in STRATEGIES:
            raise InputError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        check_inputs(original, snippet)
        self.strategy = strategy
        self.original, self.snippet = original, snippet
        self.language = syntax.normalize_language(language) or syntax.detect_language(path, original)
        self.on_progress = on_progress
        self.result: ApplyResult | None = None
        self.merge: MergeResult | None = None
        self.prepared: PreparedEdit | None = None
        self.decoder: SpeculativeDecoder | None = None
        if strategy != "model":
            t0 = time.perf_counter()
            self.merge = instant_merge(original, snippet, language=language, path=path)
            self._merge_s = time.perf_counter() - t0
            if self.merge.merged or strategy == "instant":
                return
        candidate = self.merge.candidate if self.merge is not None else None
        if loaded is None:
            loaded = loader() if loader is not None else models.load(model)
        self.loaded = loaded
        self.prepared = prepare(self.loaded, original, snippet, instruction, max_tokens, candidate)
        self.draft_label = "candidate+original" if len(self.prepared.drafts) > 1 else "original"
        self.decoder = SpeculativeDecoder(
            self.loaded.new_backend(),
            self.prepared.prompt_ids,
            make_draft(self.prepared, draft),
            max_tokens=self.prepared.max_tokens,
            sampling=SamplingParams(temperature=temperature, top_p=top_p, seed=seed),
            stop_token_ids=self.prepared.stop_ids,
            chunk=chunk,
        )
        self._conventions = self.prepared.conventions

    def __iter__(self) -> Iterator[str]:
        if self.decoder is None:
            yield from self._instant()
        else:
            yield from self._model()

    def _instant(self) -> Iterator[str]:
        m = self.merge
        stats = DecodeStats(total_s=self._merge_s, output_chars=len(m.text or ""), finish_reason="stop" if m.merged else "")
        self.result = ApplyResult(
            text=m.text or "", path="instant", complete=m.merged, stats=stats,
            refused_reason=m.refused_reason, method=m.method, rung=m.rung,
        )
        if m.merged and m.text:
            yield m.text

    def _model(self) -> Iterator[str]:
        tok = self.loaded.tokenizer
        text = TextAssembler(lambda ids: tok.decode(ids, skip_special_tokens=True), [prompts.ANSWER_SUFFIX])
        conv = self._conventions
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
            # The answer is a whole file written by a model: it passes the instant merge's guards
            # (and the answer-only ones) before anyone may write it.
            failure = guards.check_answer(self.original, self.snippet, final, language=self.language)
        else:
            failure = guards.GuardFailure("closed", "the model did not close its answer (max tokens or the context ran out)")
        self.result = ApplyResult(
            text=final,
            path="model",
            complete=failure is None,
            guard=failure.guard if failure else None,
            guard_reason=failure.reason if failure else None,
            stats=stats,
            model=self.loaded.name,
            refused_reason=self.merge.refused_reason if self.merge is not None else None,
            draft=self.draft_label,
        )


def stream_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> EditStream:
    """Start an edit; iterate the returned stream for text, then read `.result`."""
    return EditStream(original, snippet, instruction, **kwargs)


def apply_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> ApplyResult:
    """Apply an edit and return the whole result (see EditStream for the options)."""
    stream = EditStream(original, snippet, instruction, **kwargs)
    for _ in stream:
        pass
    assert stream.result is not None
    return stream.result
