"""Choosing between a refusal's two complete readings by ranking them with the model.

Some refusals of the instant merge are a choice between exactly two complete files
(`MergeResult.alternatives`): the joint and the greedy readings of a lazy snippet giving different
files ("can be placed in two ways", "a short final block one reading keeps"), or a doubt at a
section's edge (a new line next to a merely similar one: inserted, or that line changed). Each
reading that passes every guard of a model answer (`guards.check_answer`) is scored by
`rank.rank_candidates` in the frame the model would rewrite (the undecided window when
`choose_window` gives one and both readings keep the text around it, else the whole file), and
the best is taken when it leads by `MARGIN` nats or more; else the model generates as before
(the ranking costs one prefill of the prompt and the shared answer prefix, then one pass per
reading over the lines where they differ). Off by default: see `RANKED_CHOICES`.

Measured with fastapply-135m-v2 (the coming default), each refusal with two readings that both pass
the guards, scored in the frame above with the row's instruction, over planner-dev, gen, ps2 and
three planner sets of our own (seeds 303, 304, 305): 60 rankings (37 between the joint and greedy
readings, 23 doubts; benchmarks/rank_readings.py). On files up to 300 lines (48 rankings) a
margin of 20 took 8, all right, and wrong picks stopped at 15.9 nats; adding the files of 300-400
lines brought a wrong pick at 38.8 (seed 305: two readings of a Go test file, neither right, the
model sure of the one that drops 40 lines the snippet does not show) and one at 16.4 (a doubt).
At 20 nats: 10 taken, 9 right, 1 wrong. Below it the model is often confidently wrong (12.6:
the reading that deletes a block the snippet keeps). So the bar, zero wrong, is not met and
`RANKED_CHOICES` is empty: `auto` does not rank.

This module knows readings, windows and a ranking; it does not merge, decode or write files.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from fastapply.merge.gate import guards
from fastapply.rewrite import prompts
from fastapply.rewrite.rank import rank_candidates
from fastapply.rewrite.window import choose_window, split_around

MARGIN = 20.0  # nats the best reading must lead the other by to be written without generating (measured above)
# The kinds of choice (MergeResult.choice) `auto` ranks: none (see the measurement above; also, two
# broken readings, e.g. `def k():` left without a body where no parse guard runs, still get a
# winner). A condition to try before enabling ("readings", "doubt"): the taken reading must also be
# the model's own greedy choice over the differing span.
RANKED_CHOICES: tuple[str, ...] = ()


@dataclass(frozen=True)
class RankedReading:
    """The outcome of ranking a refusal's readings: `text` is the chosen file (the original's
    conventions) when the margin was clear, else None (generate)."""

    text: str | None
    margin: float
    best: int  # index in the alternatives
    seconds: float
    window: tuple[int, int] | None  # the original lines [start, end) scored, None = the whole file
    prompt_tokens: int
    scored_tokens: int


def framed(original: str, alternatives: Sequence[str], regions) -> tuple[str, list[str], tuple[int, int] | None]:
    """(the original, the readings, window) as the model sees them: the undecided window's text
    and each reading's text there when every reading keeps the text around the window (which
    then scores alike for all), else the whole (LF-normalised) texts."""
    lf = prompts.normalise(original)
    texts = [prompts.normalise(a) for a in alternatives]
    window = choose_window(lf.split("\n")[:-1], regions)
    if window is not None:
        head, middle, tail = split_around(lf, window)
        if all(t.startswith(head) and t.endswith(tail) and len(t) >= len(head) + len(tail) for t in texts):
            inner = [t[len(head) : len(t) - len(tail)] for t in texts]
            if len(set(inner)) == len(inner):
                return middle, inner, (window.start, window.end)
    return lf, texts, None


def guarded_readings(original: str, snippet: str, alternatives: Sequence[str], language: str | None) -> list[int]:
    """Indices of the readings that pass every guard a model answer must pass."""
    orig, snip = prompts.without_bom(original), prompts.without_bom(snippet)
    return [i for i, a in enumerate(alternatives)
            if guards.check_answer(orig, snip, prompts.without_bom(a), language=language) is None]


def rank_readings(loaded, original: str, snippet: str, instruction: str | None, alternatives: Sequence[str],
                  regions=(), language: str | None = None, margin: float | None = None) -> RankedReading | None:
    """Rank a refusal's readings; None when fewer than two pass the guards (nothing to choose:
    a lone survivor is no evidence, the guards are no oracle)."""
    kept = guarded_readings(original, snippet, alternatives, language)
    if len(kept) < 2:
        return None
    t0 = time.perf_counter()
    frame, texts, window = framed(original, [alternatives[i] for i in kept], regions)
    ranking = rank_candidates(loaded, frame, snippet, instruction, texts)
    best = kept[ranking.best]
    chosen = alternatives[best] if ranking.margin >= (MARGIN if margin is None else margin) else None
    return RankedReading(chosen, ranking.margin, best, time.perf_counter() - t0, window,
                         ranking.prompt_tokens, ranking.scored_tokens)
