"""One shard of `fastapply eval --strategy auto` on the device: every K-th example (index % K == I)
of DATA, scored exactly as the CLI does (load_examples, the same model loading, model_apply_fn,
run_eval), one example at a time, each scored row appended to OUT.jsonl with its index as soon as
it is done (several shards may share OUT: each row is one O_APPEND write), so a shard stopped at its deadline keeps the rows it finished. merge.py joins shards.

usage: python3 evalshard.py DATA K I OUT.jsonl [--device cuda] [--dtype bfloat16]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from fastapply import models, options
from fastapply.evaluation.examples import load_examples
from fastapply.evaluation.run import model_apply_fn, run_eval


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("data")
    p.add_argument("k", type=int)
    p.add_argument("i", type=int)
    p.add_argument("out")
    p.add_argument("--device", default=None)
    p.add_argument("--dtype", default=None)
    a = p.parse_args()
    examples = load_examples(a.data)
    start = time.perf_counter()
    loaded = options.load_model(argparse.Namespace(model=None, device=a.device, dtype=a.dtype, command="eval"))
    print(f"shard {a.i}/{a.k}: model loaded in {time.perf_counter() - start:.1f}s on {loaded.device}", file=sys.stderr)
    apply_fn = model_apply_fn("auto", loaded)
    name = models.resolve(None).name
    fd = os.open(a.out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)  # shards share OUT: one write per row
    for index, example in enumerate(examples):
        if index % a.k != a.i:
            continue
        row = run_eval([example], "auto", apply_fn, name)["examples"][0]
        row["index"] = index
        os.write(fd, (json.dumps(row) + "\n").encode())
    os.close(fd)
    print(f"shard {a.i}/{a.k}: done", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
