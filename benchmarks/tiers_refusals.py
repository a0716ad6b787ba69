"""The model path alone on the instant merge's refusals, one row per model, from `fastapply eval --json`.

    fastapply eval --data ../shared/data/planner-dev.jsonl --strategy auto -m fastapply-135m --json A.json
    fastapply eval --data ../shared/data/planner-dev.jsonl --strategy auto -m runs/train-v2/adapter --json B.json
    python benchmarks/tiers_refusals.py A.json B.json ...

Only the rows the model path ran (`path == "model"`, i.e. the instant merge refused) are counted:
right / wrong (a file written that is not the commit's) / guarded (an answer refused by a guard) /
other refusals (beyond the context, not closed), the median latency of those rows, and the median
of the model's own chars/s (characters it wrote per second of decoding, Cursor's measure).
"""

from __future__ import annotations

import json
import statistics
import sys


def row(path: str) -> str:
    data = json.load(open(path))
    runs = [r for r in data["examples"] if r.get("path") == "model"]
    right = sum(r["outcome"] == "right" for r in runs)
    wrong = sum(r["outcome"] == "wrong" for r in runs)
    guarded = sum(r["outcome"] == "refused" and bool(r.get("guard")) and r["guard"] != "closed" for r in runs)
    other = len(runs) - right - wrong - guarded
    windows = sum(bool(r.get("window")) for r in runs)
    latency = statistics.median(r["latency_s"] for r in runs) if runs else float("nan")
    speeds = [r["decode"]["chars_per_s"] for r in runs if r.get("decode") and r["decode"].get("chars_per_s")]
    speed = statistics.median(speeds) if speeds else float("nan")
    s = data["summary"]
    return (f"| {data.get('model')} | {len(runs)} | {right} | {wrong} | {guarded} | {other} | {windows} | "
            f"{latency:.1f} s | {speed:.0f} | {s['right']}/{s['wrong']}/{s['refused']} |")


def main(paths: list[str]) -> None:
    print("| model | model runs | right | wrong | guarded | other refusals | windowed | median latency | median chars/s | auto overall r/w/ref |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        print(row(p))


if __name__ == "__main__":
    main(sys.argv[1:])
