"""Decode statistics in the field's words (OpenAI's usage vocabulary plus speculative-decoding terms).

`accepted_prediction_tokens` counts drafted tokens the target kept; `rejected_prediction_tokens`
counts drafted tokens it verified and discarded (so a region re-proposed after a divergence can be
counted twice: this measures verification work, not the size of the prediction). `chars_per_s` is
Cursor's metric: output characters over total latency, time to first token included.
This module knows no model and no text; the text layer fills in `output_chars`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class DecodeStats:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    drafted_tokens: int = 0
    accepted_prediction_tokens: int = 0
    rejected_prediction_tokens: int = 0
    forward_passes: int = 0
    time_to_first_token_s: float = 0.0
    total_s: float = 0.0
    output_chars: int = 0
    finish_reason: str = ""  # "stop" (end token or stop string) | "length" (max_tokens or context)

    @property
    def tokens_per_s(self) -> float:
        return self.completion_tokens / self.total_s if self.total_s > 0 else 0.0

    @property
    def chars_per_s(self) -> float:
        return self.output_chars / self.total_s if self.total_s > 0 else 0.0

    @property
    def accepted_fraction(self) -> float:
        """Share of output tokens that came from the draft (the rest are bonus or plain tokens)."""
        return self.accepted_prediction_tokens / self.completion_tokens if self.completion_tokens else 0.0

    def as_dict(self) -> dict:
        d = asdict(self)
        d["tokens_per_s"] = round(self.tokens_per_s, 2)
        d["chars_per_s"] = round(self.chars_per_s, 2)
        d["accepted_fraction"] = round(self.accepted_fraction, 4)
        return d

    def summary_line(self) -> str:
        return (
            f"{self.completion_tokens} tokens ({self.accepted_prediction_tokens} accepted, "
            f"{self.rejected_prediction_tokens} rejected draft tokens) in {self.forward_passes} passes; "
            f"ttft {self.time_to_first_token_s:.2f}s, total {self.total_s:.2f}s, "
            f"{self.tokens_per_s:.1f} tok/s, {self.chars_per_s:.0f} chars/s"
        )
