"""The speculative decoding loop: prefill, then propose -> verify -> accept -> roll back.

The first pass is the prefill, fused with a first verification: it runs over the prompt plus the
draft's first `chunk.first` tokens and keeps the logits of the positions that verify them.

Worked example (greedy). Prompt P is in the cache except its last token; the output so far is
[..., t]. The draft source proposes d = [d0, d1, d2, d3] (k = 4). One forward pass over
[t, d0, d1, d2, d3] returns 5 rows; row i is the target's next-token choice after position i:

    choices = [d0, d1, x, ., .]          # x != d2
    accepted = [d0, d1], bonus = x       # the target's own token after the accepted run
    output  += [d0, d1, x]               # three tokens from one pass
    cache:  keep P + [.., t, d0, d1]; drop [d2, d3] (truncate), x is fed at the next pass.

Because every kept token equals the target's own greedy choice given exactly the tokens before it,
the output is token-identical to plain greedy decoding of the same model, whatever the draft
(right, wrong, empty, too long). With sampling, row i draws x_i from the target's distribution with
the same random stream plain sampling would use; d_i is kept only when d_i == x_i, so the output is
exactly plain sampling's (see sampling.py).

The chunk length k adapts: it doubles while whole drafts are accepted (an unchanged file is verified
in a handful of passes) and drops after a rejection, so a wrong draft costs little more than a plain
decoding step.

This module knows token ids, a `Backend` and a `DraftSource`; it knows nothing about text, prompts or
how drafts are made. Stop strings are the caller's business (it can stop iterating at any time).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from fastapply.backends.base import Backend, Logits
from fastapply.decoding.sampling import SamplingParams, TokenPicker
from fastapply.decoding.stats import DecodeStats
from fastapply.drafts.base import DraftSource, NoDraft


@dataclass(frozen=True)
class ChunkPolicy:
    """How many draft tokens to verify per pass."""

    initial: int = 16
    minimum: int = 4
    maximum: int = 256
    first: int = 64  # drafted tokens verified inside the prefill pass (0: prefill alone)

    def __post_init__(self):
        if not (1 <= self.minimum <= self.initial <= self.maximum) or self.first < 0:
            raise ValueError(f"need 1 <= minimum <= initial <= maximum and first >= 0, got {self}")

    def next(self, k: int, proposed: int, accepted: int) -> int:
        if proposed == 0:
            return k  # a plain step says nothing about the draft
        if accepted == proposed:
            return min(self.maximum, 2 * k)
        # after a rejection the draft source is usually re-synchronising: probe cheaply, but keep
        # some length when most of the chunk was right
        return max(self.minimum, min(self.initial, 2 * accepted))


class SpeculativeDecoder:
    """One generation. Iterate it for runs of new tokens; `stats` and `tokens` fill in as it goes."""

    def __init__(
        self,
        backend: Backend,
        prompt_ids: Sequence[int],
        draft: DraftSource | None = None,
        *,
        max_tokens: int,
        sampling: SamplingParams = SamplingParams(),
        stop_token_ids: Iterable[int] = (),
        chunk: ChunkPolicy = ChunkPolicy(),
        clock: Callable[[], float] = time.perf_counter,
    ):
        if not prompt_ids:
            raise ValueError("the prompt must contain at least one token")
        if max_tokens < 1:
            raise ValueError(f"max_tokens must be >= 1, got {max_tokens}")
        if len(prompt_ids) >= backend.context_length:
            raise ValueError(
                f"prompt of {len(prompt_ids)} tokens does not fit the context of {backend.context_length}"
            )
        self.backend = backend
        self.prompt_ids = list(prompt_ids)
        self.draft = draft if draft is not None else NoDraft()
        self.max_tokens = max_tokens
        self.sampling = sampling
        self.stop_token_ids = frozenset(int(t) for t in stop_token_ids)
        self.chunk = chunk
        self.clock = clock
        self.tokens: list[int] = []
        self.stats = DecodeStats(prompt_tokens=len(self.prompt_ids))
        self._picker = TokenPicker(sampling)
        self._t0 = 0.0

    # -- the loop ---------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[list[int]]:
        self._t0 = self.clock()
        try:
            yield from self._run()
        finally:
            self.stats.total_s = self.clock() - self._t0
            self.stats.completion_tokens = len(self.tokens)

    def _run(self) -> Iterator[list[int]]:
        backend, stats = self.backend, self.stats
        backend.truncate(0)
        self.draft.begin(self.prompt_ids)
        context = list(self.prompt_ids)  # prompt + output; all but the last token are in the cache

        # the prefill pass also verifies the draft's first tokens: the answer usually starts where
        # the draft does, and verifying them here costs a small fraction of the prefill
        room = min(self.max_tokens - 1, backend.context_length - len(context) - 1)
        proposal = self._propose(context, min(self.chunk.first, room))
        logits = backend.forward(context + proposal, rows=len(proposal) + 1)
        stats.forward_passes += 1
        accepted, bonus = self._verify(logits, proposal)
        self._account(proposal, accepted, keep=len(context) + accepted)
        stats.time_to_first_token_s = self.clock() - self._t0
        emitted, done = self._emit(proposal[:accepted] + [bonus], context)
        yield emitted
        if done:
            return

        k = self.chunk.initial if not proposal else self.chunk.next(self.chunk.first, len(proposal), accepted)
        while True:
            room = min(
                self.max_tokens - len(self.tokens) - 1,  # the bonus token always comes on top
                backend.context_length - len(context) - 1,
            )
            if room < 0:
                stats.finish_reason = "length"
                return
            proposal = self._propose(context, min(k, room))
            logits = backend.forward([context[-1]] + proposal)
            stats.forward_passes += 1
            accepted, bonus = self._verify(logits, proposal)
            # keep [last token + accepted drafts] in the cache; the bonus is fed at the next pass
            self._account(proposal, accepted, keep=len(context) + accepted)
            k = self.chunk.next(k, len(proposal), accepted)

            emitted, done = self._emit(proposal[:accepted] + [bonus], context)
            yield emitted
            if done:
                return

    # -- helpers ----------------------------------------------------------------------------------

    def _propose(self, context: list[int], k: int) -> list[int]:
        return list(self.draft.propose(context, k))[:k] if k > 0 else []

    def _account(self, proposal: list[int], accepted: int, keep: int) -> None:
        """Count the verification, roll the cache back to `keep` tokens, tell the draft source."""
        stats = self.stats
        stats.drafted_tokens += len(proposal)
        stats.accepted_prediction_tokens += accepted
        stats.rejected_prediction_tokens += len(proposal) - accepted
        self.backend.truncate(keep)
        self.draft.observe(accepted)

    def _verify(self, logits: Logits, proposal: list[int]) -> tuple[int, int]:
        """Longest prefix of the proposal equal to the target's choices, and the bonus token."""
        if self.sampling.greedy:
            choices = logits.argmax()
            accepted = 0
            while accepted < len(proposal) and int(choices[accepted]) == proposal[accepted]:
                accepted += 1
            return accepted, int(choices[accepted])
        accepted = 0
        while True:  # one draw per position, in order, as plain sampling would make them
            x = self._picker.sample(logits.row(accepted))
            if accepted < len(proposal) and x == proposal[accepted]:
                accepted += 1
                continue
            return accepted, x

    def _emit(self, new: list[int], context: list[int]) -> tuple[list[int], bool]:
        """Append new tokens, cut after a stop token or at max_tokens; return (appended, finished)."""
        for i, tok in enumerate(new):
            self.tokens.append(tok)
            context.append(tok)
            if tok in self.stop_token_ids or len(self.tokens) >= self.max_tokens:
                self.stats.finish_reason = "stop" if tok in self.stop_token_ids else "length"
                return new[: i + 1], True
        return new, False


def generate(backend: Backend, prompt_ids: Sequence[int], draft: DraftSource | None = None, **kwargs) -> tuple[list[int], DecodeStats]:
    """Run a whole generation; return (output token ids, stats)."""
    decoder = SpeculativeDecoder(backend, prompt_ids, draft, **kwargs)
    for _ in decoder:
        pass
    return decoder.tokens, decoder.stats
