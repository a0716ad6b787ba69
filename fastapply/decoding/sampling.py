"""Choosing the target's token from a logits row: greedy argmax, or exact sampling with a seed.

Sampling draws exactly one uniform number per output token from a seeded numpy generator and inverts
the (temperature-scaled, top-p-truncated) CDF with it. Plain decoding and speculative decoding call
`pick` once per output token, in order, so with the same seed and the same logits they produce the
same tokens; with a deterministic draft, accepting a drafted token only when it equals the sampled
token keeps the output distribution exactly that of plain sampling.

It knows nothing about drafts or models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SamplingParams:
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int | None = None

    def __post_init__(self):
        if not (self.temperature >= 0.0) or self.temperature != self.temperature:
            raise ValueError(f"temperature must be >= 0, got {self.temperature}")
        if not (0.0 < self.top_p <= 1.0):
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")

    @property
    def greedy(self) -> bool:
        return self.temperature == 0.0


def probabilities(row: np.ndarray, temperature: float, top_p: float) -> np.ndarray:
    """The distribution a sampler draws from: softmax(row / T), truncated to the top-p nucleus."""
    z = row.astype(np.float64) / temperature
    z -= z.max()
    p = np.exp(z)
    p /= p.sum()
    if top_p < 1.0:
        order = np.argsort(-p, kind="stable")
        sorted_p = p[order]
        # keep the smallest prefix whose mass reaches top_p (always at least one token)
        keep = np.cumsum(sorted_p) - sorted_p < top_p
        mask = np.zeros_like(p, dtype=bool)
        mask[order[keep]] = True
        p = np.where(mask, p, 0.0)
        p /= p.sum()
    return p


class TokenPicker:
    """Picks one token per row; owns the random stream when sampling."""

    def __init__(self, params: SamplingParams):
        self.params = params
        self._rng = np.random.default_rng(params.seed)

    def sample(self, row: np.ndarray) -> int:
        p = probabilities(row, self.params.temperature, self.params.top_p)
        u = self._rng.random()
        idx = int(np.searchsorted(np.cumsum(p), u, side="right"))
        # guard the float edge where u lands past the last cumulative sum
        idx = min(idx, p.shape[0] - 1)
        while p[idx] == 0.0:  # never return a token outside the nucleus
            idx -= 1
        return idx
