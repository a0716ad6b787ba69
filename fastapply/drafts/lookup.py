"""Prompt lookup: propose what followed the longest earlier occurrence of the context's last tokens.

This is prompt lookup decoding (Saxena 2023; transformers' `PromptLookupCandidateGenerator`) with
two differences that make it a better fallback for edits: it tries long n-grams first
(`max_ngram` down to `min_ngram`) so a match inside the snippet beats a stray bigram, and among
equally long matches it takes the most recent one that has k tokens after it (the snippet comes
after the original in our prompt, and the output after both), else the earliest. The whole context (prompt and output so far) is searched, so it
can draft the snippet's new lines, which the original-file aligner cannot.

Worked example (one token per letter, max_ngram=3):

    context = p q r s | ... | q r s t u | ... | x q r s       (| only to read)
    suffix "q r s" occurs twice earlier; the later one is followed by "t u ..." -> propose "t u ..."

It knows token ids only.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


class PromptLookupDraft:
    def __init__(self, max_ngram: int = 8, min_ngram: int = 1, max_measure: int = 64):
        if not (1 <= min_ngram <= max_ngram):
            raise ValueError("need 1 <= min_ngram <= max_ngram")
        self.max_ngram = max_ngram
        self.min_ngram = min_ngram
        self.max_measure = max(max_measure, max_ngram)
        self.match_length = 0  # how far back the chosen match agrees with the context's end

    def begin(self, prompt_ids: Sequence[int]) -> None:
        pass

    def observe(self, n_accepted: int) -> None:
        pass

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        self.match_length = 0
        if k <= 0 or len(context) < 2:
            return []
        arr = np.asarray(context, dtype=np.int64)
        total = arr.shape[0]
        for n in range(min(self.max_ngram, total - 1), self.min_ngram - 1, -1):
            suffix = arr[total - n :]
            # windows starting at i cover arr[i : i+n]; only i with a continuation, i + n < total
            windows = sliding_window_view(arr[: total - 1], n)
            hits = np.flatnonzero((windows == suffix).all(axis=1))
            if hits.size:
                # the most recent match that still has k tokens after it; in repetitive output the
                # most recent match is one period back and could offer only a period's worth, so
                # then the earliest (longest continuation) is taken, as transformers' lookup does
                full = hits[hits + n + k <= total]
                start = int(full[-1] if full.size else hits[0]) + n
                # measure the chosen match beyond n, so a combinator can compare sources
                length = n
                while length < min(self.max_measure, start) and arr[start - length - 1] == arr[total - length - 1]:
                    length += 1
                self.match_length = length
                return arr[start : start + k].tolist()
        return []
