"""An edit as the model sees it: (original, snippet, instruction) -> prompt ids and drafts -> a running decode.

`prepare` renders the prompt (prompts.py), tokenises the drafts (the refused merge's candidate, if
any, then the original, each as the model would write it: `answer_text(...)` then the end token)
and checks that the prompt and the answer fit the model's context. `start_edit` turns a prepared
edit into a running decode (decode.py): the one function the pipeline and bench both call.

This module knows prompts and tokens; it does not merge, guard or restore line endings (the
pipeline does), and knows nothing about HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from fastapply.decoding.engine import ChunkPolicy
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.drafts.base import DraftSource
from fastapply.errors import ContextLengthError, InputError
from fastapply.limits import check_fits_context
from fastapply.rewrite import prompts
from fastapply.rewrite.decode import Finished, decode_text, make_draft, stop_token_ids, weight_cache


@dataclass
class PreparedEdit:
    """Everything the engine needs for one edit, in tokens."""

    prompt_ids: list[int]
    drafts: list[list[int]]  # token ids per draft text, the first preferred
    prefix_tokens: int  # tokens of the answer prefix the drafts continue
    stop_ids: list[int]
    max_tokens: int


def check_inputs(original: str, snippet: str) -> None:
    """Text, a non-empty snippet, no NUL bytes: an `InputError` otherwise."""
    if not isinstance(original, str) or not isinstance(snippet, str):
        raise InputError("original and snippet must be text")
    if not snippet.strip():
        raise InputError("the snippet is empty: nothing to apply")
    for label, text in (("original", original), ("snippet", snippet)):
        if "\x00" in text:
            raise InputError(f"the {label} contains NUL bytes: binary content is not supported")


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
    # a cheap lower bound first: a file that cannot fit is refused before it is tokenised
    check_fits_context(loaded, original, snippet + (instruction or ""), max_tokens)
    tok = loaded.tokenizer
    prompt_ids = tok.encode(prompts.render_prompt(tok, original, snippet, instruction), add_special_tokens=False)
    stops = stop_token_ids(tok)
    texts = ([candidate] if candidate is not None and candidate != original else []) + [original]
    drafts = [tok.encode(prompts.answer_text(text), add_special_tokens=False) + stops[-1:] for text in texts]
    file_tokens = len(drafts[-1])
    context = loaded.context_length
    # room for the file as it is plus the snippet's worth of new lines, within the context
    snippet_tokens = len(tok.encode(snippet, add_special_tokens=False))
    wanted = max_tokens if max_tokens is not None else file_tokens + snippet_tokens + 64
    if len(prompt_ids) + min(wanted, file_tokens) > context:
        raise ContextLengthError(
            f"the prompt is {len(prompt_ids)} tokens and the file needs about {file_tokens} more, "
            f"beyond the model's context of {context} tokens"
        )
    return PreparedEdit(
        prompt_ids=prompt_ids,
        drafts=drafts,
        prefix_tokens=len(tok.encode(prompts.ANSWER_PREFIX, add_special_tokens=False)),
        stop_ids=stops,
        max_tokens=max(1, min(wanted, context - len(prompt_ids))),
    )


def edit_draft(loaded, prepared: PreparedEdit, mode: str = "speculative") -> DraftSource:
    """The draft source for a prepared edit: aligners over its drafts and prompt lookup (or the
    `mode`'s alternative, see decode.make_draft)."""
    return make_draft(
        loaded.tokenizer, prepared.drafts, weights=weight_cache(loaded), mode=mode, initial_match=prepared.prefix_tokens
    )


def start_edit(
    loaded,
    prepared: PreparedEdit,
    *,
    draft: str = "speculative",
    sampling: SamplingParams = SamplingParams(),
    chunk: ChunkPolicy = ChunkPolicy(),
    on_progress: Callable[[DecodeStats], None] | None = None,
    stop_strings: tuple[str, ...] | None = None,
) -> Iterator[str | Finished]:
    """The model rewriting the file: the answer's text deltas (up to its closing tag), then a
    `Finished` whose `stop_string` is the closing tag when the model closed its answer.
    `stop_strings=()` decodes on to the end token (bench compares token for token with plain
    decoding, which knows no stop strings)."""
    return decode_text(
        loaded, loaded.new_backend(), prepared.prompt_ids, edit_draft(loaded, prepared, draft),
        max_tokens=prepared.max_tokens, stop_ids=prepared.stop_ids, stop_strings=[prompts.ANSWER_SUFFIX] if stop_strings is None else stop_strings,
        sampling=sampling, chunk=chunk, on_progress=on_progress,
    )
