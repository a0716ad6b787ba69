"""`Merged`: what every merger (lazy, greedy, blocks, definitions) returns; `MergeResult`: what instant_merge returns.

`Merged` holds the merged lines or a refusal, plus the rung, a best untrusted candidate, where
the sections landed, how many lines the snippet showed and the undecided regions; `MergeResult`
is the public outcome built from it, in file text. This module holds the two dataclasses, and the
one refusal sentence both lazy mergers return before placing anything (`NO_CODE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapply.merge.refuse.refusal import Refusal

# a lazy snippet of markers and blank lines only: nothing to place (cause; fix)
NO_CODE = ("the snippet has markers but no code to apply; put the code you change between the markers "
           "(a marker stands only for unchanged code)")


@dataclass(frozen=True)
class Merged:
    lines: list[str] | None  # the merged file's lines, None when refused
    refused_reason: str | None  # why not, in words a user can act on
    rung: str | None = None  # the ladder rung that matched: "exact" | "whitespace" | "fuzzy" (| "ambiguous")
    candidate: list[str] | None = None  # a best untrusted merge when refused
    spans: tuple[Any, ...] = ()  # lazy mergers: where each section landed in the original
    shown_lines: int = 0  # non-blank, non-marker snippet lines
    regions: tuple[tuple[int, int], ...] = ()  # undecided original line ranges [start, end) when refused
    doubted: bool = False  # refused for a doubt about `candidate` itself, not a choice between places
    alternative: list[str] | None = None  # a doubt's rival reading of the whole file (edges._alternative)


@dataclass(frozen=True)
class MergeResult:
    """The outcome of the instant path."""

    text: str | None  # the merged file when trusted, else None
    refused_reason: str | None  # None when merged; a one-sentence reason a user can act on otherwise
    method: str | None  # "lazy" | "search_replace" | "diff" | "definition" | None
    rung: str | None  # which ladder rung matched: "exact", "whitespace", "fuzzy"
    candidate: str | None  # best untrusted merge when refused (for the model path's draft), else None
    regions: tuple[tuple[int, int], ...] = ()  # undecided original line ranges [start, end) when refused
    alternatives: tuple[str, ...] = ()  # refused between two complete readings: both, `candidate` first
    choice: str | None = None  # what they differ by: "doubt" (a new line or a changed one) | "readings" (joint, greedy)
    refusal: Refusal | None = None  # when refused: the kind, the lines, the fix and its options (refusal.py)
    # a written lazy merge that only the joint reading placed (greedy refused): "joint"; that both readings
    # placed apart, one chosen by a rule: "both"
    placed_by: str | None = None

    @property
    def merged(self) -> bool:
        return self.text is not None
