"""Tokens/s and chars/s per method from `fastapply bench --json` files (plain greedy, prompt lookup,
speculative edits, the one-pass limit), summed over the examples, plus the per-example medians.

usage: python3 benchsum.py BENCH.json...
"""

from __future__ import annotations

import json
import statistics
import sys


def summary_lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        d = json.load(handle)
    rows = d["examples"]
    if not rows:
        return [f"{path}: no examples"]
    tokens = sum(r["output_tokens"] for r in rows)
    chars = sum(r["chars_per_s"] * r["spec_s"] for r in rows)  # bench records chars/s of the spec run
    out = [f"{path}: {d['model']} on {d['device']}{' --copy' if d.get('copy') else ''}: {len(rows)} examples, "
           f"{tokens} output tokens, identical {sum(r['identical'] for r in rows)}/{len(rows)}"]
    for method in ("plain", "lookup", "spec", "limit"):
        t = sum(r[f"{method}_s"] for r in rows)
        med = statistics.median(r["output_tokens"] / r[f"{method}_s"] for r in rows if r[f"{method}_s"] > 0)
        out.append(f"  {method:<6} {t:8.2f}s  {tokens / t:8.1f} tok/s  {chars / t:9.0f} chars/s  (median per example {med:.1f} tok/s)")
    s = d["summary"]
    plain = sum(r["plain_s"] for r in rows)
    spec = sum(r["spec_s"] for r in rows)
    lookup = sum(r["lookup_s"] for r in rows)
    out.append(f"  speedup spec vs plain {plain / spec:.2f}x overall, median {s['median_speedup_vs_plain']}x; vs lookup "
               f"{lookup / spec:.2f}x overall, median {s['median_speedup_vs_lookup']}x; accepted {s['accepted_fraction']:.1%}")
    return out


def main() -> int:
    for path in sys.argv[1:]:
        try:
            print("\n".join(summary_lines(path)))
        except (OSError, ValueError, KeyError, ZeroDivisionError) as exc:
            print(f"{path}: unreadable ({exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
