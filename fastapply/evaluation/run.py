"""Running a strategy over edit examples: `run_eval(examples, strategy, apply_fn, model_name)`.

    examples = load_examples("../shared/data/planner-dev.jsonl")
    result = run_eval(examples, "instant", instant_apply_fn, None)
    result["summary"]["right"], result["summary"]["wrong"], result["summary"]["refused"]

An apply_fn is `apply_fn(original, snippet, instruction, strategy, **kw)` returning an object
with `.text`, `.path`, `.complete` (see scoring.py); this module times the call, so it does not
depend on how the strategy works (an apply_fn that accepts `language` or `path` keywords gets
them from the example). `model_apply_fn(strategy, loaded)` runs the pipeline on a model loaded
once, with the caller's device and dtype, before any timing starts.

This module knows the pipeline's entry points, not how they work.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from fastapply.errors import FastApplyError, InputError
from fastapply.evaluation.scoring import breakdowns, refusal_counts, score_example, summarize
from fastapply.evaluation.shapes import shape_counts

STRATEGIES = ("auto", "instant", "model")

ApplyFn = Callable[..., Any]


@dataclass(frozen=True)
class InstantOutcome:
    """The instant strategy's outcome: the merged file, or "" and the refusal."""

    text: str
    complete: bool
    refused_reason: str | None = None
    method: str | None = None
    rung: str | None = None
    path: str = "instant"


def instant_apply_fn(original: str, snippet: str, instruction: str | None = None, strategy: str = "instant",
                     *, language: str | None = None, path: str | None = None) -> InstantOutcome:
    """The instant strategy alone: `instant_merge`, never a model."""
    from fastapply.merge.instant import instant_merge

    result = instant_merge(original, snippet, language=language, path=path, instruction=instruction)
    return InstantOutcome(result.text or "", result.merged, result.refused_reason, result.method, result.rung)


def model_apply_fn(strategy: str, loaded) -> ApplyFn:
    """`auto` or `model` through the pipeline, on `loaded` (a model from models.load)."""

    def via_pipeline(original, snippet, instruction=None, strategy=strategy, **kwargs):
        from fastapply import pipeline

        return pipeline.apply_edit(original, snippet, instruction, strategy=strategy, loaded=loaded, **kwargs)

    return via_pipeline


def parse_strategies(value: str) -> list[str]:
    """`auto`, `instant,model`, ... -> the names, each once; InputError for an unknown one."""
    names = [s.strip() for s in value.split(",") if s.strip()]
    bad = [s for s in names if s not in STRATEGIES]
    if not names or bad:
        raise InputError(f"unknown strategy {', '.join(bad) or repr(value)}; choose from {', '.join(STRATEGIES)}")
    return list(dict.fromkeys(names))


def _extra_kwargs(apply_fn: ApplyFn, example: dict) -> dict:
    try:
        params = inspect.signature(apply_fn).parameters
    except (TypeError, ValueError):
        return {}
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return {
        name: example[name]
        for name in ("language", "path")
        if (takes_any or name in params) and example.get(name)
    }


def run_eval(examples: Sequence[dict], strategy: str, apply_fn: ApplyFn, model_name: str | None,
             *, progress: Callable[[str], None] | None = None) -> dict:
    """Run `apply_fn` over every example and return {"strategy", "model", "examples", "summary",
    "breakdowns", "refusals", "wrong_shapes"}. Errors raised by `apply_fn` are recorded as refusals, not raised."""
    from fastapply import progress as bars

    rows: list[dict] = []
    shown = bars.bar(len(examples), f"eval {strategy}")
    for index, example in enumerate(examples, 1):
        error = None
        outcome = None
        extra = _extra_kwargs(apply_fn, example)
        start = time.perf_counter()
        try:
            outcome = apply_fn(example["original"], example["snippet"], example.get("instruction"), strategy, **extra)
        except FastApplyError as exc:
            error = str(exc)
        except Exception as exc:  # one broken example must not lose the whole run
            error = f"{type(exc).__name__}: {exc}"
        latency = time.perf_counter() - start
        row = score_example(example, outcome, latency, error)
        rows.append(row)
        c = {k: sum(r["outcome"] == k for r in rows) for k in ("right", "wrong", "refused")}
        shown.update()
        shown.set_postfix_str(f"right {c['right']} wrong {c['wrong']} refused {c['refused']}")
        if progress and not bars.enabled() and (index % 25 == 0 or index == len(examples) or latency > 1.0):
            progress(f"[{strategy}] {index}/{len(examples)}  right {c['right']} wrong {c['wrong']} "
                     f"refused {c['refused']}  last {latency * 1000:.0f} ms ({row['id']})")
    shown.close()
    return {
        "strategy": strategy,
        "model": model_name,
        "examples": rows,
        "summary": summarize(rows),
        "breakdowns": breakdowns(rows),
        "refusals": refusal_counts(rows),
        "wrong_shapes": shape_counts(rows),
    }
