"""The `Backend` protocol: a target model with a KV cache, seen as token ids in, logits out.

A backend knows tokens and tensors, nothing about code, prompts or drafts. The engine drives it with
two verbs: `forward(ids)` appends `ids` to the cache and returns one logits row per appended
position (or for the last `rows` of them: a prefill needs one, a prefill fused with a verify a few); `truncate(n_keep)` rolls the cache back to its first `n_keep` tokens (the only rollback).

Logits are returned behind the small `Logits` protocol so the engine never imports torch: a GPU
backend can keep the rows on the device and move only what the engine asks for (argmaxes, or one
row when sampling).
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np


@runtime_checkable
class Logits(Protocol):
    """Next-token logits for a run of positions: row i scores the token after ids[i]."""

    def __len__(self) -> int: ...

    def argmax(self) -> np.ndarray:
        """Greedy choice for every row, as int64 [n_rows]. Ties break to the lowest id."""
        ...

    def row(self, i: int) -> np.ndarray:
        """Row i as float32 [vocab] on the host (for sampling)."""
        ...


@runtime_checkable
class Backend(Protocol):
    n_cached: int  # tokens now in the KV cache
    context_length: int  # the most tokens the model can attend to

    def forward(self, ids: Sequence[int], *, rows: int | None = None) -> Logits:
        """Append ids to the cache; return a row for each of the last `rows` positions (all if None)."""
        ...

    def truncate(self, n_keep: int) -> None:
        """Drop cached tokens beyond the first n_keep."""
        ...


class ArrayLogits:
    """`Logits` over a host numpy array [n_rows, vocab]."""

    def __init__(self, rows: np.ndarray):
        self._rows = np.asarray(rows, dtype=np.float32)

    def __len__(self) -> int:
        return self._rows.shape[0]

    def argmax(self) -> np.ndarray:
        return self._rows.argmax(axis=-1).astype(np.int64)

    def row(self, i: int) -> np.ndarray:
        return self._rows[i]
