"""`fastapply bench`: speculative edits against plain decoding and prompt lookup, side by side.

For each edit example, on the same model and the same prompt, in one process:
1. plain greedy decoding: transformers `generate(do_sample=False)`;
2. prompt lookup decoding: transformers `generate(prompt_lookup_num_tokens=10)`, the open peer;
3. speculative edits: our engine with the original-file aligner and prompt lookup;
4. the physical limit: one forward pass over prompt + speculative output from an empty cache (the
   time if every output token were verified in a single pass).
It checks that 1, 2 and 3 produce identical tokens and reports per-example times, ratios and medians.
`--copy` replaces each snippet with a no-op snippet (an unchanged region of the original between
marker lines, as the training data's no-op examples have; the expected output is the original):
the ceiling case, where every output token can come from the draft.

Every method stops at the same end tokens and the same max_tokens, so outputs are comparable token
for token. Times are wall-clock on this process's device; the report names the machine.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path



@dataclass
class BenchRow:
    id: str
    prompt_tokens: int
    output_tokens: int
    identical: bool
    plain_s: float
    lookup_s: float
    spec_s: float
    limit_s: float
    accepted: int
    rejected: int
    forward_passes: int
    chars_per_s: float
    speedup_vs_plain: float
    speedup_vs_lookup: float
    spec_over_limit: float


def device_description(loaded) -> str:
    import torch

    if loaded.device.startswith("cuda"):
        name = torch.cuda.get_device_name(0)
    else:
        name = platform.processor() or platform.machine()
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        name = f"{name}, {os.cpu_count()} cores, {torch.get_num_threads()} threads"
    return f"{loaded.device} ({name}), torch {torch.__version__}, {loaded.dtype}"


def _hf_generate(loaded, prompt_ids, max_new_tokens, stop_ids, lookup: bool):
    import torch

    input_ids = torch.tensor([prompt_ids], device=loaded.model.device)
    kwargs = dict(
        max_new_tokens=max_new_tokens, do_sample=False, temperature=None, top_p=None, top_k=None,
        eos_token_id=list(stop_ids), pad_token_id=stop_ids[0], attention_mask=torch.ones_like(input_ids),
    )
    if lookup:
        kwargs["prompt_lookup_num_tokens"] = 10
    t0 = time.perf_counter()
    with torch.inference_mode():
        out = loaded.model.generate(input_ids, **kwargs)
    elapsed = time.perf_counter() - t0
    return out[0, len(prompt_ids) :].tolist(), elapsed


def _limit_time(loaded, ids) -> float:
    backend = loaded.new_backend()
    t0 = time.perf_counter()
    backend.forward(ids, rows=1)
    return time.perf_counter() - t0


def copy_snippet(example: dict) -> str:
    """A snippet that changes nothing: an unchanged region between markers (deterministic per id)."""
    import random
    import zlib

    from fastapply.merge.text.syntax import detect_language
    from fastapply.data.snippets import synthesise

    original = example["original"]
    language = example.get("language") or detect_language(example.get("path"), original) or "text"
    rng = random.Random(zlib.crc32(str(example.get("id", "")).encode()))
    noop = synthesise(original, original, language, "noop", rng)
    return noop.text if noop is not None else original


def bench_example(loaded, example: dict, *, copy: bool = False, max_tokens: int | None = None) -> BenchRow:
    from fastapply.rewrite.decode import Finished
    from fastapply.rewrite.edit import prepare, start_edit

    snippet = copy_snippet(example) if copy else example["snippet"]
    instruction = None if copy else example.get("instruction")
    prep = prepare(loaded, example["original"], snippet, instruction, max_tokens)
    plain, plain_s = _hf_generate(loaded, prep.prompt_ids, prep.max_tokens, prep.stop_ids, lookup=False)
    lookup, lookup_s = _hf_generate(loaded, prep.prompt_ids, prep.max_tokens, prep.stop_ids, lookup=True)
    # the same decode the model path runs; the answer's closing tag is not a stop here, so every
    # method decodes to the same end token
    done = [item for item in start_edit(loaded, prep, stop_strings=()) if isinstance(item, Finished)][0]
    spec, stats = done.token_ids, done.stats
    limit_s = _limit_time(loaded, prep.prompt_ids + spec)
    chars = len(loaded.tokenizer.decode(spec, skip_special_tokens=True))
    spec_s = stats.total_s
    return BenchRow(
        id=str(example["id"]),
        prompt_tokens=len(prep.prompt_ids),
        output_tokens=len(spec),
        identical=plain == lookup == spec,
        plain_s=round(plain_s, 4),
        lookup_s=round(lookup_s, 4),
        spec_s=round(spec_s, 4),
        limit_s=round(limit_s, 4),
        accepted=stats.accepted_prediction_tokens,
        rejected=stats.rejected_prediction_tokens,
        forward_passes=stats.forward_passes,
        chars_per_s=round(chars / spec_s, 1) if spec_s > 0 else 0.0,
        speedup_vs_plain=round(plain_s / spec_s, 3),
        speedup_vs_lookup=round(lookup_s / spec_s, 3),
        spec_over_limit=round(spec_s / limit_s, 3) if limit_s > 0 else 0.0,
    )


def summarise(rows: list[BenchRow]) -> dict:
    med = lambda xs: round(statistics.median(xs), 3)  # noqa: E731
    return {
        "n": len(rows),
        "identical_fraction": round(sum(r.identical for r in rows) / len(rows), 4),
        "median_speedup_vs_plain": med([r.speedup_vs_plain for r in rows]),
        "median_speedup_vs_lookup": med([r.speedup_vs_lookup for r in rows]),
        "median_spec_over_limit": med([r.spec_over_limit for r in rows]),
        "median_chars_per_s": med([r.chars_per_s for r in rows]),
        "accepted_fraction": round(sum(r.accepted for r in rows) / max(1, sum(r.output_tokens for r in rows)), 4),
        "spec_never_slower_than_lookup_fraction": round(sum(r.spec_s <= r.lookup_s for r in rows) / len(rows), 4),
    }


def format_table(rows: list[BenchRow], summary: dict) -> str:
    head = f"{'id':<28} {'prompt':>6} {'out':>5} {'same':>4} {'plain_s':>8} {'lookup_s':>8} {'spec_s':>7} {'limit_s':>7} {'x_plain':>7} {'x_look':>6} {'/limit':>6} {'acc':>5} {'rej':>5} {'chars/s':>7}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r.id[:28]:<28} {r.prompt_tokens:>6} {r.output_tokens:>5} {'yes' if r.identical else 'NO':>4} "
            f"{r.plain_s:>8.2f} {r.lookup_s:>8.2f} {r.spec_s:>7.2f} {r.limit_s:>7.2f} {r.speedup_vs_plain:>7.2f} "
            f"{r.speedup_vs_lookup:>6.2f} {r.spec_over_limit:>6.2f} {r.accepted:>5} {r.rejected:>5} {r.chars_per_s:>7.0f}"
        )
    s = summary
    lines.append("-" * len(head))
    lines.append(
        f"medians over {s['n']}: speedup vs plain {s['median_speedup_vs_plain']:.2f}x, vs prompt lookup "
        f"{s['median_speedup_vs_lookup']:.2f}x, spec/limit {s['median_spec_over_limit']:.2f}, "
        f"{s['median_chars_per_s']:.0f} chars/s; identical {s['identical_fraction']:.0%}; "
        f"accepted {s['accepted_fraction']:.0%} of output tokens; spec <= lookup on {s['spec_never_slower_than_lookup_fraction']:.0%}"
    )
    return "\n".join(lines)


def run_bench(loaded, examples: list[dict], *, copy: bool = False, max_tokens: int | None = None, log=sys.stderr) -> dict:
    from fastapply.rewrite.edit import prepare

    # warm-up: the first passes of a process allocate and are slower than the rest
    warm = prepare(loaded, "x = 1\n", "x = 2\n")
    _hf_generate(loaded, warm.prompt_ids, 4, warm.stop_ids, lookup=False)
    rows = []
    from fastapply import progress

    shown = progress.bar(len(examples), "bench")
    for i, ex in enumerate(examples, 1):
        row = bench_example(loaded, ex, copy=copy, max_tokens=max_tokens)
        rows.append(row)
        shown.update()
        print(
            f"[{i}/{len(examples)}] {row.id}: {row.output_tokens} tokens, plain {row.plain_s:.1f}s, lookup "
            f"{row.lookup_s:.1f}s, spec {row.spec_s:.1f}s, limit {row.limit_s:.1f}s, identical={row.identical}",
            file=log, flush=True,
        )
    shown.close()
    return {
        "model": loaded.name,
        "device": device_description(loaded),
        "copy": copy,
        "examples": [asdict(r) for r in rows],
        "summary": summarise(rows),
    }
