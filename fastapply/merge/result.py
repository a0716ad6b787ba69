"""`Merged`: what every merger (lazy, greedy, blocks, definitions) returns to instant.py.

One shape for all of them: the merged lines, or a refusal with its reason, plus what the entry
point and the model path may use (the rung that matched, a best untrusted candidate, where the
sections landed, how many lines the snippet showed, the undecided regions). `MergeResult`
(instant.py) is the public outcome built from it, in file text rather than lines.

This module holds a dataclass and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
