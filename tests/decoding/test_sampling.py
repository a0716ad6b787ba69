"""Sampling: the nucleus distribution against an independent oracle (plain Python, no numpy), and
hand-worked cases."""

import math

import numpy as np
import pytest

from fastapply.decoding.sampling import probabilities


def oracle(logits, temperature, top_p):
    """Softmax at a temperature, then the smallest set of most likely tokens whose mass reaches
    top_p (ties broken by index), renormalised: written from the definition, loop by loop."""
    scaled = [x / temperature for x in logits]
    top = max(scaled)
    weights = [math.exp(x - top) for x in scaled]
    total = sum(weights)
    p = [w / total for w in weights]
    ranked = sorted(range(len(p)), key=lambda i: (-p[i], i))
    kept, mass = [], 0.0
    for i in ranked:
        if mass >= top_p:
            break
        kept.append(i)
        mass += p[i]
    return [p[i] / mass if i in kept else 0.0 for i in range(len(p))]


def test_hand_worked_nucleus():
    # softmax of log([0.5, 0.3, 0.2]) is [0.5, 0.3, 0.2]; top_p 0.6 keeps the first two
    row = np.log(np.array([0.5, 0.3, 0.2]))
    assert probabilities(row, 1.0, 0.6) == pytest.approx([0.5 / 0.8, 0.3 / 0.8, 0.0])
    assert probabilities(row, 1.0, 0.5) == pytest.approx([1.0, 0.0, 0.0])  # the top token alone reaches it
    assert probabilities(row, 1.0, 1.0) == pytest.approx([0.5, 0.3, 0.2])


@pytest.mark.parametrize("seed", range(40))
def test_matches_the_oracle_on_random_rows(seed):
    rng = np.random.default_rng(seed)
    row = rng.normal(0, 3, size=int(rng.integers(2, 12)))
    temperature = float(rng.uniform(0.2, 2.0))
    top_p = float(rng.choice([1.0, 0.95, 0.7, 0.3, 0.05]))
    assert probabilities(row, temperature, top_p) == pytest.approx(oracle(list(row), temperature, top_p), abs=1e-12)
