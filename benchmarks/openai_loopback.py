"""`--model openai:` against `fastapply serve` on loopback, beside the same model in-process.

    PYTHONPATH=. python benchmarks/openai_loopback.py --data ../shared/data/planner-dev2.jsonl \
        --max-lines 150 --limit 4 [--model fastapply-135m-v2] [--json out.json]

Starts `fastapply serve -m MODEL` on 127.0.0.1 (a subprocess, as a user would), loads the same model
here, takes the first `--limit` examples the instant merge refuses (those the model path gets),
plus examples/store.py with cart.snippet.py, and runs each through the pipeline (`auto`) three
ways: the local model (speculative edits in-process), `openai:` with the window's text as
`prediction` (the server's speculative decoding verifies it), and `openai:` with `--draft none` (no
prediction: the server decodes plainly). Per example and way: right / wrong / refused (exact text
against the expected file), completion tokens, accepted prediction tokens, total seconds,
chars/s. A warm-up edit runs first, untimed, each way. The server and this process share the
machine's cores; one torch thread each.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from remote_loopback import free_port, start_server, stop, wait_ready  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def outcome(result, expected: str) -> str:
    if not result.complete:
        return f"refused ({result.guard or 'instant'})"
    return "right" if result.text == expected else "wrong"


def run_one(example: dict, loaded, draft: str) -> dict:
    from fastapply.errors import FastApplyError
    from fastapply.pipeline import apply_edit

    try:
        r = apply_edit(example["original"], example["snippet"], example.get("instruction"), strategy="auto",
                       loaded=loaded, draft=draft, path=example.get("path"), language=example.get("language"))
    except FastApplyError as exc:
        return {"outcome": f"error: {exc}"}
    s = r.stats
    return {"outcome": outcome(r, example["expected"]), "window": r.window, "completion_tokens": s.completion_tokens,
            "accepted": s.accepted_prediction_tokens, "rejected": s.rejected_prediction_tokens,
            "total_s": round(s.total_s, 3), "chars_per_s": round(s.chars_per_s, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--limit", type=int, default=4)
    ap.add_argument("--max-lines", type=int, default=150)
    ap.add_argument("--model", default="fastapply-135m-v2")
    ap.add_argument("--json")
    args = ap.parse_args(argv)

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import torch

    torch.set_num_threads(1)
    from fastapply import models
    from fastapply.backends.openai_chat import load_openai
    from fastapply.evaluation.examples import load_examples
    from fastapply.merge.instant import instant_merge

    store = (ROOT / "examples/store.py").read_text()
    examples = [{"id": "examples/cart", "original": store, "snippet": (ROOT / "examples/cart.snippet.py").read_text(),
                 "instruction": "Say in the Cart docstring that items are keyed by name", "path": "store.py",
                 "expected": store.replace('"""What a customer is about to buy."""',
                                           '"""What a customer is about to buy, keyed by item name."""')}]
    for ex in load_examples(args.data, None, args.max_lines):
        if len(examples) > args.limit:
            break
        if not instant_merge(ex["original"], ex["snippet"], language=ex.get("language"), path=ex.get("path")).merged:
            examples.append(ex)

    port = free_port()
    proc = start_server(args.model, port, cache=True)
    try:
        wait_ready(proc, port)
        local = models.load(args.model)
        chat = load_openai(f"openai:http://127.0.0.1:{port}/v1#{args.model}")
        for loaded, draft in ((local, "speculative"), (chat, "speculative"), (chat, "none")):
            run_one(examples[0], loaded, draft)  # warm-up, untimed: first calls pay for lazy set-up
        rows = []
        for ex in examples:
            row = {"id": ex.get("id"), "lines": ex["original"].count("\n")}
            row["local"] = run_one(ex, local, "speculative")
            row["openai"] = run_one(ex, chat, "speculative")
            row["openai_no_prediction"] = run_one(ex, chat, "none")
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        stop(proc)
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    print(f"# {args.model} on {machine}")
    print("| example | lines | way | outcome | tokens | accepted | total s | chars/s |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        for way in ("local", "openai", "openai_no_prediction"):
            r = row[way]
            print(f"| {row['id']} | {row['lines']} | {way} | {r['outcome']} | {r.get('completion_tokens', '')} | "
                  f"{r.get('accepted', '')} | {r.get('total_s', '')} | {r.get('chars_per_s', '')} |")
    if args.json:
        Path(args.json).write_text(json.dumps({"model": args.model, "machine": machine, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
