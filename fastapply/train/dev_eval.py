"""Score a loaded model on held-out dev edits through the real apply path (speculative draft).

`run_dev_eval(loaded, rows)` runs the model path on each row through the evaluation harness
(`fastapply.evaluation.run`, the one `fastapply eval` uses) and returns its rows and summary.
`sample_dev(path, max_lines, n, seed)` picks a deterministic sample, balanced by repository.

This is the training-side check used for the model card (a fixed sample, an adapter merged into
a base). It knows nothing about training.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

DEV_PATH = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev-edits.jsonl"


def sample_dev(path: str | Path = DEV_PATH, max_lines: int = 200, n: int = 24, seed: int = 0) -> list[dict]:
    from fastapply.evaluation.examples import load_examples

    rows = [r for r in load_examples(str(path)) if len(r["original"].splitlines()) < max_lines]
    by_repo: dict[str, list[dict]] = {}
    for r in sorted(rows, key=lambda r: r["id"]):
        by_repo.setdefault(r.get("repo", ""), []).append(r)
    rng = random.Random(seed)
    for group in by_repo.values():
        rng.shuffle(group)
    out: list[dict] = []
    while len(out) < n and any(by_repo.values()):
        for group in by_repo.values():
            if group and len(out) < n:
                out.append(group.pop())
    return out


def run_dev_eval(loaded, rows: list[dict], log=None) -> dict:
    """The model path alone (the instant merge would answer most dev edits without the model) over
    `rows`, through the project's eval harness: right / wrong / refused and decode statistics."""
    from fastapply.evaluation.run import model_apply_fn, run_eval

    return run_eval(rows, "model", model_apply_fn("model", loaded), loaded.name, progress=log)


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description="base vs tuned on dev edits")
    p.add_argument("--model", default="smollm2-135m-instruct")
    p.add_argument("--adapter", default=None, help="LoRA adapter directory to merge into --model")
    p.add_argument("--dev", default=str(DEV_PATH))
    p.add_argument("--max-lines", type=int, default=200)
    p.add_argument("-n", type=int, default=24)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--skip", type=int, default=0, help="skip the first rows of the sample")
    a = p.parse_args(argv)
    import torch

    if a.threads:
        torch.set_num_threads(a.threads)
    from fastapply import models

    loaded = models.load(a.model)
    if a.adapter:
        from fastapply.train.adapter import apply_adapter

        loaded = apply_adapter(loaded, a.adapter, name=f"{a.model}+{Path(a.adapter).name}")
    rows = sample_dev(a.dev, a.max_lines, a.n, a.seed)[a.skip:]
    result = run_dev_eval(loaded, rows, log=lambda s: print(s, flush=True))
    Path(a.out).write_text(json.dumps(result, indent=1))
    print(json.dumps(result["summary"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
