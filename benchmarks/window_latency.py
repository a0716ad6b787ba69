"""Latency of one model-rescued edit in a 100-line and a 2,500-line file (issue 10's target: the
large file within 2x of the small one), with the windowed rewrite.

The edit is ambiguous for the instant merge on purpose: two neighbouring functions have the same
body and the snippet shows only the body, so the merge refuses and reports both places; `auto`
then asks the model to rewrite the window around them. Run from the repository root:

    .venv/bin/python benchmarks/window_latency.py [--model fastapply-135m] [--repeat 2]

It prints one row per file size: lines, the window, prompt tokens, seconds, the outcome.
"""

from __future__ import annotations

import argparse
import statistics
import time


def make_file(n_lines: int) -> tuple[str, str]:
    """A Python file of about n_lines with a twin pair in the middle, and the snippet editing one."""
    funcs = []
    i = 0
    while sum(f.count("\n") + 2 for f in funcs) < n_lines:
        funcs.append(f"def compute_{i}(value):\n    result = value * {i % 7 + 2}\n    return result + {i}\n")
        i += 1
    mid = len(funcs) // 2
    twin = "    cleaned = value.strip()\n    return cleaned.lower()\n"
    funcs[mid] = "def normalize_name(value):\n" + twin
    funcs[mid + 1] = "def normalize_key(value):\n" + twin
    snippet = "# ... existing code ...\n    cleaned = value.strip()\n    cleaned = cleaned.replace(' ', '_')\n    return cleaned.lower()\n# ... existing code ...\n"
    return "\n\n".join(funcs), snippet


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="fastapply-135m")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    from fastapply import apply_edit, models

    loaded = models.load(args.model)
    instruction = "In normalize_key, replace spaces with underscores before lowering."
    print(f"model {loaded.name}; {args.repeat} runs each, median seconds")
    print(f"{'lines':>6} {'window':>12} {'prompt':>7} {'seconds':>8}  outcome")
    for n in (100, 2500):
        original, snippet = make_file(n)
        times, r = [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = apply_edit(original, snippet, instruction, strategy="auto", loaded=loaded, path="names.py")
            times.append(time.perf_counter() - t0)
        outcome = "written" if r.complete else f"refused ({r.guard}: {r.guard_reason or r.refused_reason})"[:80]
        window = f"{r.window[0] + 1}-{r.window[1]}" if r.window else "whole file"
        prompt = r.stats.prompt_tokens if r.stats else 0
        print(f"{original.count(chr(10)) + 1:>6} {window:>12} {prompt:>7} {statistics.median(times):>8.2f}  {r.path}: {outcome}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
