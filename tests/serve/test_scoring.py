"""The scoring prefix cache gives exactly what scoring from scratch gives, and reuses the shared prefix."""

from __future__ import annotations

import random

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
        assert scorer.score(fake, None, ids, top, as_ids) == score(fake.new_backend(), ids, top, as_ids)
        checked += 1
    assert checked > 250


def test_a_growing_sequence_feeds_only_its_new_tokens():
    fake = CountingLoaded()
    scorer = PrefixScorer(enabled=True)
    seq = list(range(50, 150))
    scorer.score(fake, None, seq, 1, as_ids)
    assert fake.fed == 100
    scorer.score(fake, None, seq + [7, 8, 9], 1, as_ids)  # a chunk appended: the last old row and the chunk
    assert fake.fed == 100 + 4 and scorer.reused == 99
    scorer.score(fake, None, seq[:90] + [1, 2], 1, as_ids)  # rolled back past a mismatch
    assert fake.fed == 104 + 3 and scorer.reused == 89
    off = PrefixScorer(enabled=False)
    off.score(fake, fake.new_backend(), seq, 1, as_ids)
    off.score(fake, fake.new_backend(), seq + [7], 1, as_ids)
    assert fake.fed == 107 + 100 + 101  # without the cache, everything every time


def test_scoring_after_the_prompt_still_uses_the_shared_backend():
    fake = CountingLoaded()
    scorer, shared = PrefixScorer(enabled=True), fake.new_backend()
    ids = list(range(60, 90))
    assert scorer.score(fake, shared, ids, 2, as_ids, start=10) == score(fake.new_backend(), ids, 2, as_ids, start=10)
    assert scorer.backend is None  # the cache was not touched
