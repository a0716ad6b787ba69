"""Score a loaded model on held-out dev edits through the real apply path (speculative draft).

`run_dev_eval(loaded, rows)` calls `apply_edit(..., loaded=loaded)` on each row and returns one
record per edit (exact match, whitespace-insensitive match, accepted fraction, chars/s) plus a
summary. `sample_dev(path, max_lines, n, seed)` picks a deterministic sample, balanced by repository.

This is the training-side check used for the model card; the project's full evaluation harness is
`fastapply eval`. It knows nothing about training.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

DEV_PATH = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev-edits.jsonl"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def sample_dev(path: str | Path = DEV_PATH, max_lines: int = 200, n: int = 24, seed: int = 0) -> list[dict]:
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    rows = [r for r in rows if r["original_lines"] < max_lines]
    by_repo: dict[str, list[dict]] = {}
    for r in sorted(rows, key=lambda r: r["id"]):
        by_repo.setdefault(r["repo"], []).append(r)
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
    from fastapply.pipeline import apply_edit

    records = []
    for i, r in enumerate(rows):
        t0 = time.perf_counter()
        # the model path only: the instant merge would answer most dev edits without the model
        res = apply_edit(r["original"], r["snippet"], r.get("instruction"), loaded=loaded, strategy="model")
        st = res.stats
        rec = {
            "id": r["id"],
            "lines": r["original_lines"],
            "exact": res.text == r["expected"],
            "ws_match": _squash(res.text) == _squash(r["expected"]),
            "complete": res.complete,
            "completion_tokens": st.completion_tokens,
            "accepted": st.accepted_prediction_tokens,
            "accepted_fraction": st.accepted_fraction,
            "chars_per_s": st.chars_per_s,
            "tokens_per_s": st.tokens_per_s,
            "seconds": time.perf_counter() - t0,
        }
        records.append(rec)
        if log:
            log(f"[{i + 1}/{len(rows)}] {rec['id']} lines={rec['lines']} exact={rec['exact']} "
                f"ws={rec['ws_match']} acc={rec['accepted_fraction']:.2f} {rec['chars_per_s']:.0f} chars/s")
    n = len(records) or 1
    tok = sum(r["completion_tokens"] for r in records) or 1
    summary = {
        "model": loaded.name,
        "n": len(records),
        "exact_match": sum(r["exact"] for r in records) / n,
        "ws_match": sum(r["ws_match"] for r in records) / n,
        "complete": sum(r["complete"] for r in records) / n,
        "accepted_fraction": sum(r["accepted"] for r in records) / tok,  # token-weighted
        "accepted_fraction_mean": sum(r["accepted_fraction"] for r in records) / n,
        "chars_per_s_mean": sum(r["chars_per_s"] for r in records) / n,
        "tokens_per_s_mean": sum(r["tokens_per_s"] for r in records) / n,
    }
    return {"summary": summary, "records": records}


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
