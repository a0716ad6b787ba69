"""Median instant-merge latency per set, for one or more checkouts side by side in one run.

    python benchmarks/instant_latency.py --data ../shared/data/dev-edits.jsonl ../shared/data/planner-dev.jsonl
    python benchmarks/instant_latency.py --tree /tmp/base --tree . --rounds 2 --data SET...

Each (tree, round) runs in its own process (`PYTHONPATH=TREE`, `PYTHONHASHSEED=0`), the trees
alternating round by round so that load on the machine falls on all of them alike. Only files
under `--max-lines` (400: issue 19's target, "median instant merge <= 20 ms on files under 400
lines") are timed; the instruction is passed where the checkout's `instant_merge` takes one.
Prints, per set and tree, the median over rounds of each round's median, in milliseconds, and the
90th percentile. It times the merge only; it checks nothing about its output (`fastapply eval` does).

`--refusals` times instead the answer to each row the merge refuses, as every surface builds it: the
merge and then its options in reading order (`instant.ordered_refusal`: the tried, chained and ranked
options an agent reads), on files of any length; rows the merge writes are not timed.

    python benchmarks/instant_latency.py --refusals --tree /tmp/base --tree . --data SET...
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_ONE_ROUND = r"""
import inspect, json, statistics, sys, time
from fastapply.merge.instant import instant_merge
takes = "instruction" in inspect.signature(instant_merge).parameters
instant_merge("a = 1\n", "# ... existing code ...\na = 2\n", path="warm.py")  # parsers loaded before timing
out = {}
limit, refusals = int(sys.argv[1]), sys.argv[2] == "refusals"
if refusals:
    from fastapply.merge.instant import ordered_refusal
for path in sys.argv[3:]:
    ms = []
    for line in open(path, encoding="utf-8"):
        r = json.loads(line)
        if not refusals and r["original"].count("\n") >= limit:
            continue
        extra = {"instruction": r.get("instruction")} if takes else {}
        t = time.perf_counter()
        got = instant_merge(r["original"], r["snippet"], path=r.get("path"), language=r.get("language"), **extra)
        if refusals:
            if got.merged:
                continue
            if got.refusal is not None and got.refusal.options:
                ordered_refusal(r["original"], r["snippet"], got.refusal, path=r.get("path"),
                                language=r.get("language"), **extra)
        ms.append((time.perf_counter() - t) * 1000)
    ms.sort()
    out[path] = [statistics.median(ms), ms[int(0.9 * (len(ms) - 1))], len(ms)] if ms else None
import fastapply
print(json.dumps({"module": fastapply.__file__, "sets": out}))
"""


def run_round(tree: str, sets: list[str], max_lines: int, refusals: bool = False) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), PYTHONHASHSEED="0")
    # run from inside the tree: `python -c` puts the working directory first on the path
    what = "refusals" if refusals else "merges"
    done = subprocess.run([sys.executable, "-c", _ONE_ROUND, str(max_lines), what, *map(os.path.abspath, sets)],
                          env=env, cwd=os.path.abspath(tree), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"error: the merge failed in {tree}: {done.stderr.strip().splitlines()[-1:]}")
    got = json.loads(done.stdout)
    if not got["module"].startswith(os.path.abspath(tree)):
        raise SystemExit(f"error: {tree} imported fastapply from {got['module']}")
    return got["sets"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", nargs="+", action="extend", required=True, help="eval-shaped JSONL sets")
    parser.add_argument("--tree", action="append", help="a checkout to time (repeatable; default: this one)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--max-lines", type=int, default=400)
    parser.add_argument("--refusals", action="store_true",
                        help="time the answer to each refused row (the merge and its options in reading order)")
    args = parser.parse_args(argv)
    missing = [p for p in args.data if not os.path.isfile(p)]
    if missing:
        print(f"error: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    args.data = [os.path.abspath(p) for p in args.data]  # the rounds report each set by its absolute path
    trees = args.tree or [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    rounds: dict[str, list[dict]] = {t: [] for t in trees}
    for _ in range(max(1, args.rounds)):
        for tree in trees:
            rounds[tree].append(run_round(tree, args.data, args.max_lines, args.refusals))
    print(f"{'set':28s} {'tree':30s} {'refused' if args.refusals else 'files':>7s} {'median ms':>9s} {'p90 ms':>7s}")
    for path in args.data:
        for tree in trees:
            got = [r[path] for r in rounds[tree] if r.get(path)]
            if not got:
                continue
            med = statistics.median(g[0] for g in got)
            p90 = statistics.median(g[1] for g in got)
            print(f"{os.path.basename(path):28s} {tree[-30:]:30s} {got[0][2]:7d} {med:9.1f} {p90:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
