"""Candidate ranking: when the instant merge has several complete readings of a snippet, let the
model score each and take the best only when it is clearly better.

Each candidate is the answer the model would write (`answer_text(candidate)`) after the edit's
prompt; its score is the log-probability the model gives the tokens where the candidates differ
(from the first token at which any two differ to `TAIL` tokens after the last such token; the
shared prefix scores the same for all and the shared tail nearly so). The prompt and the shared
prefix go through the model once; each candidate then costs one forward pass over its own
differing span, at prefill speed, far cheaper than generating the file.

Worked example: two placements of a new `return 3` (in f() or in g()). Both answers share the
file's head up to f()'s body; the model, having read the snippet and instruction, gives the f()
placement -3.1 nats over the differing span and the g() placement -9.8: margin 6.7, take f().

This module knows prompts, tokens and a backend; it does not merge and does not guard (the
pipeline guards whatever it takes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from fastapply.rewrite import prompts

TAIL = 32  # tokens scored after the last differing token, where a wrong placement shows
MARGIN = 2.0  # nats the best must lead the next by to be taken without generating


@dataclass(frozen=True)
class Ranking:
    """Scores of the candidates (log-probabilities over their differing spans), best first."""

    order: list[int]  # candidate indices, best first
    scores: list[float]  # per candidate, in the given order
    margin: float  # best minus second best (inf with one candidate)
    prompt_tokens: int
    scored_tokens: int  # tokens scored over all candidates (the cost beyond the shared prefix)

    @property
    def best(self) -> int:
        return self.order[0]

    def clear(self, margin: float = MARGIN) -> bool:
        return self.margin >= margin


def _log_softmax_at(row: np.ndarray, token: int) -> float:
    z = row.astype(np.float64)
    top = z.max()
    return float(z[token] - top - math.log(np.exp(z - top).sum()))


def _common_prefix(seqs: Sequence[Sequence[int]]) -> int:
    n = min(len(s) for s in seqs)
    for i in range(n):
        t = seqs[0][i]
        if any(s[i] != t for s in seqs[1:]):
            return i
    return n


def _common_suffix(seqs: Sequence[Sequence[int]], floor: int) -> int:
    n = min(len(s) for s in seqs) - floor
    k = 0
    while k < n and all(s[-1 - k] == seqs[0][-1 - k] for s in seqs[1:]):
        k += 1
    return k


def rank_candidates(
    loaded, original: str, snippet: str, instruction: str | None, candidates: Sequence[str]
) -> Ranking:
    """Score each candidate file as the model's answer to the edit's prompt."""
    if not candidates:
        raise ValueError("no candidates to rank")
    tok = loaded.tokenizer
    prompt = tok.encode(prompts.render_prompt(tok, original, snippet, instruction), add_special_tokens=False)
    answers = [tok.encode(prompts.answer_text(c), add_special_tokens=False) for c in candidates]
    seqs = [prompt + a for a in answers]
    start = max(_common_prefix(seqs), len(prompt))  # the first position scored (>= 1 answer token)
    tail = _common_suffix(seqs, start)
    backend = loaded.new_backend()
    backend.truncate(0)
    head = backend.forward(seqs[0][:start], rows=1)  # the prompt and the shared prefix, once
    first_row = head.row(0)
    scores, scored = [], 0
    for seq in seqs:
        end = min(len(seq), len(seq) - tail + TAIL)
        span = seq[start:end]
        if not span:
            scores.append(0.0)
            continue
        backend.truncate(start)
        rows = backend.forward(span[:-1], rows=None) if len(span) > 1 else None
        total = _log_softmax_at(first_row, span[0])
        for i in range(1, len(span)):
            total += _log_softmax_at(rows.row(i - 1), span[i])
        scores.append(total)
        scored += len(span)
    backend.truncate(0)
    order = sorted(range(len(candidates)), key=lambda i: -scores[i])
    margin = scores[order[0]] - scores[order[1]] if len(order) > 1 else math.inf
    return Ranking(order, scores, margin, len(prompt), scored)
