"""The scoring prefix cache gives exactly what scoring from scratch gives, and reuses the shared prefix."""

from __future__ import annotations

import random

import pytest

from fastapply.serve.generation import score
from fastapply.serve.scoring import PrefixScorer
from tests.fakes import FakeLoaded, VOCAB


def as_ids(ids):
    return f"token_id:{ids[0]}"


class CountingLoaded(FakeLoaded):
    def __init__(self):
        super().__init__("def f():\n    return 1\n")
        self.fed = 0

    def new_backend(self):
        backend = super().new_backend()
        forward = backend.forward

        def counted(ids, **kwargs):
            self.fed += len(ids)
            return forward(ids, **kwargs)

        backend.forward = counted
        return backend


def test_random_sequences_score_as_from_scratch():
    fake, rng = FakeLoaded("x = 1\n"), random.Random(0)
    scorer = PrefixScorer(enabled=True)
    base = [rng.randrange(VOCAB) for _ in range(40)]
    checked = 0
    for _ in range(300):
        ids = base[: rng.randrange(0, 41)] + [rng.randrange(VOCAB) for _ in range(rng.randrange(0, 10))]
        if rng.random() < 0.3:  # the next sequences share a different prefix
            base = ids + [rng.randrange(VOCAB) for _ in range(5)]
        if not ids:
            continue
        top = rng.randrange(0, 6)
        chunk = rng.choice([3, 16, 128])
        assert scorer.score(fake, None, ids, top, as_ids, chunk=chunk) == score(fake.new_backend(), ids, top, as_ids)
        checked += 1
    assert checked > 250


def test_a_growing_sequence_feeds_only_its_new_tokens():
    fake = CountingLoaded()
    scorer = PrefixScorer(enabled=True)
    seq = list(range(50, 150))
    scorer.score(fake, None, seq, 1, as_ids, chunk=16)
    assert fake.fed == 99  # the last token predicts nothing that is scored: it waits for the next call
    scorer.score(fake, None, seq + [7, 8, 9], 1, as_ids, chunk=16)  # a chunk appended
    assert fake.fed == 99 + 3 and scorer.reused == 99
    scorer.score(fake, None, seq[:90] + [1, 2], 1, as_ids, chunk=16)  # rolled back past a mismatch
    assert fake.fed == 102 + 2 and scorer.reused == 89
    scorer.score(fake, None, seq[:90] + [1, 2], 1, as_ids, chunk=16)  # the same again: nothing to compute
    assert fake.fed == 104 and scorer.reused == 91
    off = PrefixScorer(enabled=False)
    off.score(fake, fake.new_backend(), seq, 1, as_ids)
    off.score(fake, fake.new_backend(), seq + [7], 1, as_ids)
    assert fake.fed == 104 + 99 + 100  # without the cache, everything every time


def test_cancelled_between_passes_and_consistent_afterwards():
    from fastapply.serve.scheduler import Cancelled

    fake, scorer, calls = FakeLoaded("x = 1\n"), PrefixScorer(enabled=True), []
    ids = list(range(40, 100))

    def stop_on_second_poll():
        calls.append(1)
        return len(calls) > 1

    with pytest.raises(Cancelled):
        scorer.score(fake, None, ids, 2, as_ids, chunk=8, should_stop=stop_on_second_poll)
    assert len(calls) == 2  # one pass ran, the second poll stopped it
    assert scorer.score(fake, None, ids, 2, as_ids, chunk=8) == score(fake.new_backend(), ids, 2, as_ids)


def test_scoring_after_the_prompt_still_uses_the_shared_backend():
    fake = CountingLoaded()
    scorer, shared = PrefixScorer(enabled=True), fake.new_backend()
    ids = list(range(60, 90))
    assert scorer.score(fake, shared, ids, 2, as_ids, start=10) == score(fake.new_backend(), ids, 2, as_ids, start=10)
    assert scorer.backend is None  # the cache was not touched
