"""The `DraftSource` protocol, trivial sources (none, fixed), and a combinator (longest match wins).

A draft source guesses the next tokens; the engine verifies them. It sees the whole context (prompt
plus output so far, as token ids) and must not modify it. `begin` is called once per generation with
the prompt; `observe` reports how many of the last proposal's tokens were accepted (sources may
ignore it and read the output from the context instead). An empty proposal means "no guess now":
the engine then takes a plain decoding step.
"""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable


@runtime_checkable
class DraftSource(Protocol):
    def begin(self, prompt_ids: Sequence[int]) -> None: ...

    def propose(self, context: Sequence[int], k: int) -> list[int]: ...  # [] = no guess now

    def observe(self, n_accepted: int) -> None: ...  # feedback, may no-op


class NoDraft:
    """Never guesses: the engine then decodes plainly, one token per pass."""

    def begin(self, prompt_ids: Sequence[int]) -> None:
        pass

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        return []

    def observe(self, n_accepted: int) -> None:
        pass


class FixedDraft:
    """Proposes a fixed token list by output position, right or wrong (for tests and experiments)."""

    def __init__(self, tokens: Sequence[int]):
        self.tokens = list(tokens)
        self._prompt_len = 0

    def begin(self, prompt_ids: Sequence[int]) -> None:
        self._prompt_len = len(prompt_ids)

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        n = len(context) - self._prompt_len
        return self.tokens[n : n + k]

    def observe(self, n_accepted: int) -> None:
        pass


class LongestMatchDraft:
    """Asks every source and proposes for the one whose match with the output's end is longest.

    Sources report `match_length` after `propose`: how many of the context's last tokens agree with
    the place their proposal continues. A long agreement is the best evidence that the continuation
    is right: the aligner in sync with the original has hundreds; prompt lookup copying the snippet's
    new lines has many; an anchor of three tokens has three. Ties go to the earlier source.
    """

    def __init__(self, *sources: DraftSource):
        if not sources:
            raise ValueError("LongestMatchDraft needs at least one source")
        self.sources = sources
        self.last_source: int | None = None

    def begin(self, prompt_ids: Sequence[int]) -> None:
        for s in self.sources:
            s.begin(prompt_ids)

    def propose(self, context: Sequence[int], k: int) -> list[int]:
        best, best_len, self.last_source = [], -1, None
        for i, s in enumerate(self.sources):
            proposal = s.propose(context, k)
            length = getattr(s, "match_length", 0)
            if proposal and length > best_len:
                best, best_len, self.last_source = list(proposal), length, i
        return best

    def observe(self, n_accepted: int) -> None:
        if self.last_source is not None:
            self.sources[self.last_source].observe(n_accepted)
