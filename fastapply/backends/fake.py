"""A torch-free fake target model for tests and examples: logits are a pure function of the context.

`FakeBackend(rule, vocab_size)` keeps its "KV cache" as a plain list of token ids, so a wrong rollback
or a token fed twice changes every later row, exactly as it would on a real model. The rule maps the
whole context (a tuple of ids) to a logits vector; two rules are provided:

- `ScriptedRule(prompt_len, script)`: a target that wants to write `script`. While the output so far
  equals a prefix of the script, it peaks on the next script token; after any deviation it peaks on
  a token hashed from the context, so an engine that feeds the wrong context gets a visibly
  different answer. Used for greedy equivalence with hand-written or shuffled drafts.
- `HashRule(seed, temperature)`: smooth random logits hashed from the last few tokens: a "model"
  with a real distribution, for sampling tests.

It knows nothing about text, prompts or drafts.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Sequence

import numpy as np

from fastapply.backends.base import ArrayLogits

Rule = Callable[[tuple[int, ...]], np.ndarray]


def _hash_int(*parts: object) -> int:
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class ScriptedRule:
    """Peaks on script[i] after a context that follows the script; elsewhere on a hashed token."""

    def __init__(self, prompt_len: int, script: Sequence[int], vocab_size: int, margin: float = 8.0):
        self.prompt_len = prompt_len
        self.script = list(script)
        self.vocab_size = vocab_size
        self.margin = margin

    def __call__(self, context: tuple[int, ...]) -> np.ndarray:
        out = context[self.prompt_len :]
        n = len(out)
        if n < len(self.script) and list(out) == self.script[:n]:
            peak = self.script[n]
        else:
            peak = _hash_int("off-script", context) % self.vocab_size
        rng = np.random.default_rng(_hash_int("noise", context) % 2**32)
        row = rng.normal(0.0, 1.0, self.vocab_size).astype(np.float32)
        row[peak] = row.max() + self.margin
        return row


class HashRule:
    """Random but fixed logits from the last `order` tokens: a tiny n-gram language model."""

    def __init__(self, vocab_size: int, seed: int = 0, order: int = 2, scale: float = 2.0):
        self.vocab_size = vocab_size
        self.seed = seed
        self.order = order
        self.scale = scale

    def __call__(self, context: tuple[int, ...]) -> np.ndarray:
        key = context[-self.order :]
        rng = np.random.default_rng(_hash_int("hash-rule", self.seed, key) % 2**32)
        return (rng.normal(0.0, self.scale, self.vocab_size)).astype(np.float32)


class FakeBackend:
    """A `Backend` whose cache is a list of ids and whose logits come from `rule(context)`."""

    def __init__(self, rule: Rule, vocab_size: int, context_length: int = 1 << 20):
        self.rule = rule
        self.vocab_size = vocab_size
        self.context_length = context_length
        self.tokens: list[int] = []
        self.forward_calls = 0

    @property
    def n_cached(self) -> int:
        return len(self.tokens)

    def forward(self, ids: Sequence[int], *, rows: int | None = None) -> ArrayLogits:
        if not ids:
            raise ValueError("forward() needs at least one token")
        self.forward_calls += 1
        n = len(ids) if rows is None else max(1, min(rows, len(ids)))
        base = tuple(self.tokens)
        out = [self.rule(base + tuple(ids[: i + 1])) for i in range(len(ids) - n, len(ids))]
        self.tokens.extend(int(t) for t in ids)
        return ArrayLogits(np.stack(out))

    def truncate(self, n_keep: int) -> None:
        if n_keep < 0 or n_keep > len(self.tokens):
            raise ValueError(f"cannot keep {n_keep} of {len(self.tokens)} cached tokens")
        del self.tokens[n_keep:]
