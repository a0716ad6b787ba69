"""Join evalshard.py's shard files into one `fastapply eval --json`-shaped file and print only
aggregates (never a row): right/wrong/refused, what the model did with the instant merge's
refusals, seconds per row.

usage: python3 merge.py DATA OUT.json LABEL SHARD.jsonl...
"""

from __future__ import annotations

import json
import statistics
import sys

from fastapply import models
from fastapply.evaluation.examples import load_examples
from fastapply.evaluation.scoring import breakdowns, refusal_counts, summarize


def main() -> int:
    data, out, label, *shards = sys.argv[1:]
    n_data = len(load_examples(data))
    rows = []
    for shard in shards:
        try:
            with open(shard, encoding="utf-8") as handle:
                rows += [json.loads(line) for line in handle if line.strip()]
        except OSError:
            pass
    rows.sort(key=lambda r: r["index"])
    done = {r["index"] for r in rows}
    for r in rows:
        del r["index"]
    if not rows:
        print(f"{label}: no rows done (of {n_data})")
        return 1
    s = summarize(rows)
    lat = [r["latency_s"] for r in rows]
    mlat = [r["latency_s"] for r in rows if r["path"] == "model"]
    extra = {
        "rows_expected": n_data,
        "rows_done": len(rows),
        "rows_missing": n_data - len(done),
        "max_latency_s": max(lat),
        "model_median_latency_s": statistics.median(mlat) if mlat else None,
        "model_max_latency_s": max(mlat) if mlat else None,
        "model_total_s": sum(mlat),
    }
    result = {"strategy": "auto", "model": models.resolve(None, locate=False).name, "examples": rows,
              "summary": s, "breakdowns": breakdowns(rows), "refusals": refusal_counts(rows), "run": extra}
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    print(f"{label}: {len(rows)}/{n_data} rows: right {s['right']} wrong {s['wrong']} refused {s['refused']}; "
          f"instant wrote {s['instant_written']}; model ran {s['model_runs']}: right {s['model_right']} "
          f"wrong {s['model_wrong']} guarded {s['model_guarded']} windowed {s['model_windowed']}; "
          f"s/row median {s['median_latency_s']:.3f} max {extra['max_latency_s']:.1f}; model rows median "
          f"{extra['model_median_latency_s'] if mlat else float('nan'):.1f}s max "
          f"{extra['model_max_latency_s'] if mlat else float('nan'):.1f}s total {extra['model_total_s']:.0f}s")
    for reason, n in result["refusals"][:5]:
        print(f"  {label} refused: {n} x {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
