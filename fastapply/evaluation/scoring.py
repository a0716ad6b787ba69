"""Scoring one apply outcome against the expected file, and summarising many.

Every example ends in exactly one of three outcomes, the words the project reports in:

    right    a file was written (the result was complete) and it equals `expected`
    wrong    a file was written and it is not `expected`: the user's file silently corrupted
    refused  nothing was written: the instant merge refused, a guard refused the model's answer,
             the answer was not closed, or the apply raised an error

`exact` is kept beside it (the text equals `expected` whether or not it was written: a guard that
refuses a right answer shows up as refused + exact). Model-path rows carry the decode statistics
(`decode`: accepted and rejected draft tokens, forward passes, time to first token, tokens/s,
chars/s). A wrong row carries its `wrong_shape` (shapes.py). Summaries give counts and rates overall
and grouped by language, snippet style and number of edited regions.

This module knows nothing about how an outcome was produced.
"""

from __future__ import annotations

import difflib
import re
import statistics
from collections import Counter
from typing import Any, Sequence

from fastapply.evaluation.shapes import wrong_shape
from fastapply.merge.text.spans import readable

OUTCOMES = ("right", "wrong", "refused")


def _normalize_ws(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def whitespace_match(output: str, expected: str) -> bool:
    """Equal after dropping trailing whitespace on every line and blank lines at the end."""
    return _normalize_ws(output) == _normalize_ws(expected)


def count_regions(example: dict) -> int:
    """Edited regions: the example's `n_hunks`, else diff hunks more than 6 lines apart."""
    if isinstance(example.get("n_hunks"), int):
        return example["n_hunks"]
    a = example["original"].splitlines()
    b = example["expected"].splitlines()
    return len(list(difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3))) or 0


def snippet_style(example: dict) -> str:
    """The example's `snippet_style`, else the form the snippet has."""
    if example.get("snippet_style"):
        return str(example["snippet_style"])
    from fastapply.merge.snippet import blocks
    from fastapply.merge.align import lazy

    lines = example["snippet"].split("\n")
    if blocks.looks_like_search_replace(lines):
        return "search_replace"
    if blocks.looks_like_diff(lines):
        return "diff"
    if lazy.has_markers(lines, example["original"].split("\n")):
        return "lazy"
    return "plain"


def example_language(example: dict) -> str | None:
    from fastapply.merge.text import syntax

    return syntax.normalize_language(example.get("language")) or syntax.detect_language(
        example.get("path"), example["original"]
    )


def _regions_bucket(n: int) -> str:
    return "1" if n <= 1 else "2" if n == 2 else "3-4" if n <= 4 else "5+"


def decode_stats(stats: Any) -> dict | None:
    """The decode statistics of a model-path outcome, in the field's words (None otherwise)."""
    if stats is None or not getattr(stats, "completion_tokens", 0):
        return None
    return {
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "accepted_prediction_tokens": stats.accepted_prediction_tokens,
        "rejected_prediction_tokens": stats.rejected_prediction_tokens,
        "forward_passes": stats.forward_passes,
        "time_to_first_token_s": round(stats.time_to_first_token_s, 4),
        "decode_s": round(stats.total_s, 4),
        "tokens_per_s": round(stats.tokens_per_s, 2),
        "chars_per_s": round(stats.chars_per_s, 2),
    }


def score_example(example: dict, outcome: Any, latency_s: float, error: str | None = None) -> dict:
    """One row of the report for one example. `outcome` has `.text`, `.path`, `.complete` (a file
    would be written), and optionally `.refused_reason`, `.guard`, `.method`, `.rung`, `.stats`."""
    from fastapply.merge.text import syntax

    text = getattr(outcome, "text", None) or ""
    path = getattr(outcome, "path", None)
    written = bool(getattr(outcome, "complete", False)) and not error
    refused = f"error: {error}" if error else getattr(outcome, "refused_reason", None)
    guard = getattr(outcome, "guard", None)
    language = example_language(example)
    exact = text == example["expected"]
    return {
        "id": example["id"],
        "outcome": ("right" if exact else "wrong") if written else "refused",
        # what a wrong file got wrong (shapes.py), so that sets read only in aggregate still say it
        "wrong_shape": wrong_shape(example["original"], example["expected"], text) if written and not exact else None,
        "exact": exact,
        "whitespace_match": whitespace_match(text, example["expected"]) if text else False,
        "parses": syntax.parses(text, language) if text and language else None,
        "path": path if path in ("instant", "model") else ("model" if error else "instant"),
        "method": getattr(outcome, "method", None),
        "rung": getattr(outcome, "rung", None),
        "refused_reason": refused,
        "guard": guard,
        "guard_reason": getattr(outcome, "guard_reason", None),
        "latency_s": latency_s,
        "chars": len(text) if written else 0,
        "chars_per_s": (len(text) / latency_s) if written and latency_s > 0 else None,
        "language": language or "unknown",
        "snippet_style": snippet_style(example),
        "regions": count_regions(example),
        "decode": decode_stats(getattr(outcome, "stats", None)) if path == "model" else None,
        "window": getattr(outcome, "window", None),  # model path: the original lines it rewrote, None = all
    }


def summarize(rows: Sequence[dict]) -> dict:
    """Counts and rates over rows: right / wrong / refused first."""
    n = len(rows)
    counts = Counter(r["outcome"] for r in rows)
    summary: dict[str, Any] = {"n": n, **{k: counts.get(k, 0) for k in OUTCOMES}}
    if n == 0:
        return summary
    latencies = [r["latency_s"] for r in rows]
    parsed = [r["parses"] for r in rows if r["parses"] is not None]
    written_latency = sum(r["latency_s"] for r in rows if r["outcome"] != "refused")
    model_rows = [r for r in rows if r["path"] == "model"]
    decoded = [r["decode"] for r in model_rows if r["decode"]]
    out_tokens = sum(d["completion_tokens"] for d in decoded)
    summary.update({
        "right_rate": counts.get("right", 0) / n,
        "wrong_rate": counts.get("wrong", 0) / n,
        "refused_rate": counts.get("refused", 0) / n,
        "exact_rate": sum(r["exact"] for r in rows) / n,
        "whitespace_match_rate": sum(r["whitespace_match"] for r in rows) / n,
        "parse_rate": (sum(parsed) / len(parsed)) if parsed else None,
        "instant_written": sum(r["path"] == "instant" and r["outcome"] != "refused" for r in rows),
        "model_runs": len(model_rows),
        "model_right": sum(r["outcome"] == "right" for r in model_rows),
        "model_wrong": sum(r["outcome"] == "wrong" for r in model_rows),
        "model_guarded": sum(bool(r["guard"]) for r in model_rows),
        "model_windowed": sum(r.get("window") is not None for r in model_rows),
        "median_latency_s": statistics.median(latencies),
        "p90_latency_s": sorted(latencies)[min(n - 1, int(0.9 * n))],
        "chars_per_s": (sum(r["chars"] for r in rows) / written_latency) if written_latency > 0 else None,
        "accepted_fraction": (sum(d["accepted_prediction_tokens"] for d in decoded) / out_tokens) if out_tokens else None,
        "errors": sum(1 for r in rows if (r["refused_reason"] or "").startswith("error:")),
    })
    return summary


def breakdowns(rows: Sequence[dict]) -> dict:
    """Summaries grouped by language, snippet style and number of edited regions."""
    out: dict[str, dict[str, dict]] = {}
    for name, key in (("language", lambda r: r["language"]), ("snippet_style", lambda r: r["snippet_style"]),
                      ("regions", lambda r: _regions_bucket(r["regions"]))):
        groups: dict[str, list[dict]] = {}
        for row in rows:
            groups.setdefault(key(row), []).append(row)
        out[name] = {k: summarize(v) for k, v in sorted(groups.items())}
    return out


def refusal_counts(rows: Sequence[dict]) -> list[tuple[str, int]]:
    """Why nothing was written (an instant refusal, else the guard's reason), specifics such as
    line numbers and names cut, most common first."""
    reasons = [r["guard_reason"] or r["refused_reason"] for r in rows if r["outcome"] == "refused"]
    return Counter(_reason_kind(x) for x in reasons if x).most_common()


def _reason_kind(reason: str) -> str:
    kind = re.sub(r"`[^`]*`", "`…`", readable(reason))
    kind = re.sub(r"\d+", "N", kind)
    return kind[:110]
