"""The aligner: proposes the original file's tokens from a cursor, and re-synchronises after edits.

The draft is the token sequence the model would write if the edit changed nothing (the apply layer
builds it: the original file as it appears in the answer, then the closing tag and end token). While
the output follows it, the aligner proposes `draft[cursor : cursor + k]`. When the output diverges
(an edit), the cursor stays where the output left the original, and each later step looks for an
*anchor*: the longest run ending at the output's last token that also occurs in the draft. An anchor
must be at least `min_anchor_tokens` long and carry `min_anchor_weight` of weight (the caller weighs
each token, e.g. by its count of letters and digits) so that `}` or a blank line, which occur
everywhere, never re-synchronise on their own. The longest agreement wins (code repeats itself:
`assert err == ""` occurs everywhere in a test file, the lines before it do not); among equally long
anchors, those at or after the last confirmed position ("home") win, nearest first, then the
nearest before it (the model may repeat or move code).
While no anchor exists the aligner proposes nothing, so a fallback source (prompt lookup) or a plain
step runs.

Worked example (one token per letter, min_anchor_tokens=3, weight 1 per token):

    draft  = a b c d e f g h
    output = a b c X Y        -> diverged at cursor 3 (after "a b c"); no anchor ends in "X Y"
    output = a b c X Y e f g  -> "e f g" ends at draft position 7: cursor = 7, propose "h ..."

The aligner reads the output from the context on every call, so it needs no feedback and can be
skipped on steps where another source proposes. It knows token ids and weights, not text.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence


class OriginalDraft:
    def __init__(
        self,
        draft_ids: Sequence[int],
        *,
        weights: Sequence[int] | None = None,
        min_anchor_tokens: int = 3,
        min_anchor_weight: int = 4,
        max_anchor_tokens: int = 64,
        initial_match: int = 0,
    ):
        if min_anchor_tokens < 1:
            raise ValueError("min_anchor_tokens must be >= 1")
        if weights is not None and len(weights) != len(draft_ids):
            raise ValueError("weights must have one entry per draft token")
        self.draft = [int(t) for t in draft_ids]
        self.weights = list(weights) if weights is not None else [1] * len(self.draft)
        self.min_anchor_tokens = min_anchor_tokens
        self.min_anchor_weight = min_anchor_weight
        self.max_anchor_tokens = max(max_anchor_tokens, min_anchor_tokens)
        # the draft starts where the prompt ends (after the answer prefix), so at the start the
        # output already "agrees" with it over that prefix: evidence a combinator can weigh
        self.initial_match = initial_match
        # end positions (exclusive) of every n-gram of the draft, n = min_anchor_tokens
        n = min_anchor_tokens
        self._ends: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for j in range(n, len(self.draft) + 1):
            self._ends[tuple(self.draft[j - n : j])].append(j)
        self.begin(())

    # -- protocol ---------------------------------------------------------------------------------

    def begin(self, prompt_ids: Sequence[int]) -> None:
        self._prompt_len = len(prompt_ids)
        self.cursor = 0  # next draft position to propose from
        self.home = 0  # end of the last run the output confirmed
        self.synced = True  # the output so far ends at draft[cursor - 1]
        self._seen = 0  # output tokens already walked
        self._run = 0  # tokens confirmed since the last (re)synchronisation
        self.resyncs = 0
        self.match_length = self.initial_match  # tokens that agree with the draft, ending at the cursor

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        self._walk(context)
        if not self.synced:
            self._resync(context)
        if not self.synced or k <= 0:
            return []
        return self.draft[self.cursor : self.cursor + k]

    def observe(self, n_accepted: int) -> None:
        pass  # the next propose() walks the output itself

    # -- internals --------------------------------------------------------------------------------

    def _walk(self, context: Sequence[int]) -> None:
        """Advance the cursor over new output tokens while they follow the draft."""
        out_len = len(context) - self._prompt_len
        start = self._prompt_len + self._seen
        if self.synced:
            for tok in context[start:]:
                if self.cursor < len(self.draft) and self.draft[self.cursor] == tok:
                    self.cursor += 1
                    self._run += 1
                    self.match_length += 1
                    if self._run >= self.min_anchor_tokens:
                        self.home = max(self.home, self.cursor)
                else:
                    self.synced = False
                    self.match_length = 0
                    break
        self._seen = out_len

    def _resync(self, context: Sequence[int]) -> None:
        out = context[self._prompt_len :]
        n = self.min_anchor_tokens
        if len(out) < n:
            return
        ends = self._ends.get(tuple(out[-n:]))
        if not ends:
            return
        best, best_key = None, None
        for j in ends:
            length = self._match_length(out, j)
            if sum(self.weights[j - length : j]) < self.min_anchor_weight:
                continue
            # longest agreement first (repetitive code has many short anchors); then at or after
            # home, nearest first; then before home, nearest first
            key = (length, j >= self.home, -abs(j - self.home))
            if best_key is None or key > best_key:
                best, best_key = (j, length), key
        if best is None:
            return
        self.cursor, self.match_length = best
        self.synced = True
        self._run = 0
        self.resyncs += 1

    def _match_length(self, out: Sequence[int], j: int) -> int:
        """How far back output and draft agree, ending at the output's end and draft position j."""
        length = self.min_anchor_tokens
        limit = min(self.max_anchor_tokens, len(out), j)
        while length < limit and self.draft[j - length - 1] == out[-length - 1]:
            length += 1
        return length
