"""Prompt scoring (echo + logprobs): exact against a naive one-row-at-a-time oracle, bounded memory
(chunked passes), and cancellable between passes."""

from __future__ import annotations

import numpy as np
import pytest

from fastapply.backends.base import ArrayLogits
from fastapply.serve.generation import score, top_ids
from fastapply.serve.scheduler import Cancelled


class RandomRows:
    """A backend whose row for (position, token) is fixed random logits with deliberate ties."""

    def __init__(self, vocab: int):
        self.vocab, self.n, self.calls, self.max_rows = vocab, 0, 0, 0

    def row_for(self, position: int, token: int) -> np.ndarray:
        row = np.random.default_rng(position * 1_000_003 + token).standard_normal(self.vocab).astype(np.float32)
        row[token % self.vocab] += 3
        row[(token * 7) % self.vocab] = row[token % self.vocab]  # a tie at the top
        return row

    def forward(self, ids, rows=None):
        self.calls += 1
        rows = len(ids) if rows is None else rows
        self.max_rows = max(self.max_rows, rows)
        out = [self.row_for(self.n + i, ids[i]) for i in range(len(ids) - rows, len(ids))]
        self.n += len(ids)
        return ArrayLogits(np.stack(out))

    def truncate(self, n):
        self.n = n


def oracle(backend: RandomRows, ids, top, start):
    """Straight from the definition: log softmax of the row before each token, in float64; the top
    alternatives by sorting the whole row, ties to the lowest id."""
    out = []
    for i in range(start, len(ids)):
        if i == 0:
            out.append((None, None))
            continue
        z = backend.row_for(i - 1, ids[i - 1]).astype(np.float64)
        lp = z - (np.log(np.exp(z - z.max()).sum()) + z.max())
        best = sorted(range(len(lp)), key=lambda t: (-lp[t], t))[:top]
        out.append((lp[ids[i]], {f"<{t}>": lp[t] for t in best} if top else None))
    return out


def decode(ids):
    return f"<{ids[0]}>"


@pytest.mark.parametrize("length, start, top, chunk", [
    (50, 0, 3, 7), (50, 10, 5, 7), (50, 1, 0, 4), (2, 0, 2, 128), (1, 0, 2, 8), (50, 49, 20, 7), (40, 5, 1, 40),
])
def test_score_matches_the_oracle(length, start, top, chunk):
    ids = np.random.default_rng(length + start).integers(0, 200, length).tolist()
    backend = RandomRows(200)
    got = score(backend, ids, top, decode, start=start, chunk=chunk)
    want = oracle(RandomRows(200), ids, top, start)
    assert got.tokens == [decode([t]) for t in ids[start:]]
    assert got.text_offset == [sum(len(decode([t])) for t in ids[start:i]) for i in range(start, length)]
    for (lp, tops), g_lp, g_tops in zip(want, got.token_logprobs, got.top_logprobs, strict=True):
        assert (lp is None and g_lp is None) or g_lp == pytest.approx(lp, abs=1e-9)
        assert (tops is None and g_tops is None) or list(g_tops) == list(tops)
    assert backend.max_rows <= chunk  # never more than a chunk of rows at once


def test_nothing_to_score_costs_no_pass():
    backend = RandomRows(50)
    out = score(backend, [1, 2, 3], 2, decode, start=3)
    assert out.tokens == [] and backend.calls == 0


def test_scoring_stops_between_passes_when_cancelled():
    backend = RandomRows(50)
    polls = []

    def should_stop():
        polls.append(1)
        return len(polls) > 2

    with pytest.raises(Cancelled):
        score(backend, list(range(40)) * 10, 2, decode, chunk=16, should_stop=should_stop)
    assert backend.calls == 2  # 400 tokens would be 25 passes


def test_top_ids_breaks_ties_to_the_lowest_id():
    row = np.array([0.0, 5.0, 1.0, 5.0, 5.0, -1.0])
    assert top_ids(row, 2).tolist() == [1, 3]
    assert top_ids(row, 4).tolist() == [1, 3, 4, 2]
    assert top_ids(row, 10).tolist() == [1, 3, 4, 2, 0, 5]
