"""Prompt scoring with a prefix cache: consecutive echo + logprobs requests that share a prefix
recompute only what follows it.

A remote client verifying speculative edits (`--model remote:...`) sends, pass after pass, the same
prompt and output so far with a different chunk at the end, and asks for every position's
log-probabilities. Scoring each from scratch (`generation.score`) costs a full forward pass over
the whole context per pass. `PrefixScorer` keeps, from the previous request, its own KV cache (a
backend of its own, so generations never disturb it) and each position's top-20 alternatives and
the log-probability of the token that followed. For a new sequence sharing P tokens with the last
one, rows 0..P-2 are reused as they are (same context, same next token), the cache is cut back to
P-1 tokens, and one forward pass over the rest gives the new rows.

The answer is the same `TokenLogprobs` that `generation.score` gives (top alternatives in the same
order, ties to the lowest id). On CPU in float32 an incremental pass and a full pass agree to
float rounding; elsewhere, as for speculative decoding itself, a batched and an incremental pass
may round differently in the last bits.

Like `generation.score`, the new rows are computed `chunk` positions per pass (bounded memory) and
`should_stop()` is polled between passes. Only echo requests (scoring from position 0) use the
cache; others go to `generation.score`. `FASTAPPLY_SCORE_CACHE=0` turns the cache off (every
request from scratch), for measuring.

This module knows a backend, token ids and log-softmax; nothing about HTTP.
"""

from __future__ import annotations

import os
from typing import Callable, Sequence

import numpy as np

from fastapply.serve.generation import SCORE_CHUNK, TokenLogprobs, log_softmax, score, top_ids

MAX_TOP = 20  # the most alternatives a request may ask for (schemas.CompletionRequest.logprobs)
ENV = "FASTAPPLY_SCORE_CACHE"


class PrefixScorer:
    """Scores sequences on the worker thread, reusing the previous sequence's shared prefix."""

    def __init__(self, enabled: bool | None = None):
        self.enabled = (os.environ.get(ENV, "1") != "0") if enabled is None else enabled
        self.backend = None
        self.ids: list[int] = []  # the last scored sequence; the backend caches all but its last token
        self.top_ids: list[np.ndarray] = []  # per row r (the distribution after ids[: r + 1])
        self.top_lps: list[np.ndarray] = []
        self.next_lp: list[float] = []  # per row r < len(ids) - 1: log p(ids[r + 1])
        self.reused = 0  # rows reused by the last call (for tests and metrics)

    def score(self, loaded, shared_backend, ids: Sequence[int], top: int, decode: Callable[[list[int]], str],
              *, start: int = 0, should_stop: Callable[[], bool] | None = None, chunk: int = SCORE_CHUNK) -> TokenLogprobs:
        if start > 0 or not self.enabled or top > MAX_TOP:
            return score(shared_backend, ids, top, decode, start=start, should_stop=should_stop, chunk=chunk)
        ids = [int(t) for t in ids]
        try:
            self._extend(loaded, ids, should_stop, chunk)
        except BaseException:
            self._reset()
            raise
        tokens, lps, tops, offsets = [], [], [], []
        offset = 0
        for i, tid in enumerate(ids):
            piece = decode([tid])
            tokens.append(piece)
            offsets.append(offset)
            offset += len(piece)
            if i == 0:
                lps.append(None)
                tops.append(None)
                continue
            lps.append(self.next_lp[i - 1])
            tops.append({decode([int(j)]): float(v) for j, v in zip(self.top_ids[i - 1][:top], self.top_lps[i - 1][:top])}
                        if top > 0 else None)
        return TokenLogprobs(tokens, lps, tops, offsets)

    def _extend(self, loaded, ids: list[int], should_stop, chunk: int) -> None:
        """Make rows 0..len(ids)-2 (and their next-token log-probs) those of `ids`."""
        if self.backend is None:
            self.backend = loaded.new_backend()
        common = 0
        for a, b in zip(self.ids, ids):
            if a != b:
                break
            common += 1
        keep = max(0, common - 1)  # rows < keep have the same context and the same next token
        if keep == len(ids) - 1 and len(self.next_lp) >= keep:  # the very same sequence (or a prefix of it)
            self.reused = keep
            return
        self.backend.truncate(keep)
        del self.top_ids[keep:], self.top_lps[keep:], self.next_lp[keep:]
        self.ids = []  # inconsistent until the pass below succeeds
        last = len(ids) - 1  # rows keep .. last - 1 are needed; row `last` has no next token yet
        pos = keep
        while pos < last:
            if should_stop is not None and should_stop():
                from fastapply.serve.scheduler import Cancelled

                raise Cancelled("scoring stopped: the request was cancelled")
            n = min(chunk, last - pos)
            logits = self.backend.forward(ids[pos : pos + n], rows=n)  # rows pos .. pos + n - 1
            lp = log_softmax(np.stack([logits.row(j) for j in range(n)]))
            for j in range(n):
                best = top_ids(lp[j], min(MAX_TOP, lp.shape[1]))
                self.top_ids.append(best)
                self.top_lps.append(lp[j, best])
                self.next_lp.append(float(lp[j, ids[pos + j + 1]]))
            pos += n
        self.ids = ids
        self.reused = keep

    def _reset(self) -> None:
        self.ids, self.top_ids, self.top_lps, self.next_lp = [], [], [], []
        if self.backend is not None:
            self.backend.truncate(0)
