"""Local backend vs the remote backend over loopback, on the same model: what verification over HTTP costs.

    PYTHONPATH=. python benchmarks/remote_loopback.py --data ../shared/data/dev-edits.jsonl \
        --max-lines 200 --limit 4 [--copy] [--model fastapply-135m] [--json out.json]

Starts `fastapply serve` for the model in a separate process on 127.0.0.1, loads the same model
here, and runs each edit's speculative decoding twice: on the local backend (one KV cache, each
pass feeds only the new ids) and on the remote backend (each pass is one /v1/completions request
that resends the whole context and has every position scored). It checks the two outputs are the
same tokens and reports, per example: passes, local and remote seconds, seconds per pass, and the
remote pass split into what the server spends and what the wire adds. Two reference times per
example explain the gap: `prefill/pass` is one local forward over the example's mean remote
context from an empty cache (what a server without a prefix cache must compute per pass), and
`rtt` is the round trip of an empty request (GET /health) over loopback. `server_score/pass` is
the server's whole job for one request, timed here (`serve.generation.score` over the mean context:
the forward pass with every position's logits, then a log-softmax per position), and
`wire_json/pass` the rest of the remote pass (HTTP, JSON both ways, the server's queue hop).

`fastapply serve` has no prefix cache for scoring: every request recomputes the whole context and
scores every position (log-softmax over the vocabulary, row by row), so the remote column here is
the cost *without* server-side prefix caching. Runs on this machine's CPU; names the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(model: str, port: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "fastapply.cli", "serve", "--port", str(port), "-m", model, "--log-level", "warning"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {proc.stderr.read()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).json().get("status") == "ok":
                return proc
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(1)
    proc.kill()
    raise SystemExit("the server did not become ready within 600 s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--limit", type=int, default=4)
    ap.add_argument("--max-lines", type=int, default=200)
    ap.add_argument("--copy", action="store_true", help="no-op snippets (the output is the original)")
    ap.add_argument("--model", default="fastapply-135m")
    ap.add_argument("--max-tokens", type=int, default=None)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args(argv)

    from fastapply import models
    from fastapply.backends.remote import load_remote
    from fastapply.bench import copy_snippet, device_description
    from fastapply.decoding.engine import generate
    from fastapply.evaluate import load_examples
    from fastapply.pipeline import make_draft, prepare
    from fastapply.serve.generation import score

    examples = load_examples(args.data, args.limit, args.max_lines)
    port = free_port()
    server = start_server(args.model, port)
    try:
        loaded = models.load(args.model)
        rm = load_remote(f"remote:http://127.0.0.1:{port}/v1#{args.model}")
        http = httpx.Client()
        rows = []
        for ex in examples:
            snippet = copy_snippet(ex) if args.copy else ex["snippet"]
            prep = prepare(loaded, ex["original"], snippet, None if args.copy else ex.get("instruction"), args.max_tokens)
            run = dict(max_tokens=prep.max_tokens, stop_token_ids=prep.stop_ids)
            local_ids, local = generate(loaded.new_backend(), prep.prompt_ids, make_draft(prep), **run)
            backend = rm.new_backend()
            rm.client.requests = rm.client.bytes_received = 0
            remote_ids, remote = generate(backend, prep.prompt_ids, make_draft(prep), **run)
            mean_ctx = backend.stats.tokens_sent / max(1, backend.stats.requests)
            ctx_ids = (prep.prompt_ids + local_ids)[: int(mean_ctx)]
            t0 = time.perf_counter()
            loaded.new_backend().forward(ctx_ids, rows=1)
            prefill = time.perf_counter() - t0
            t0 = time.perf_counter()  # the server's whole job per pass: full forward + every position scored
            score(loaded.new_backend(), ctx_ids + ctx_ids[-1:], 1, lambda ids: f"token_id:{ids[0]}")
            scoring = time.perf_counter() - t0
            rtts = []
            for _ in range(20):
                t0 = time.perf_counter()
                http.get(f"http://127.0.0.1:{port}/health")
                rtts.append(time.perf_counter() - t0)
            passes = remote.forward_passes
            rows.append({
                "id": str(ex["id"]), "prompt_tokens": len(prep.prompt_ids), "output_tokens": len(remote_ids),
                "identical": remote_ids == local_ids, "passes": passes, "local_passes": local.forward_passes,
                "local_s": round(local.total_s, 3), "remote_s": round(remote.total_s, 3),
                "local_per_pass_ms": round(1000 * local.total_s / local.forward_passes, 1),
                "remote_per_pass_ms": round(1000 * remote.total_s / passes, 1),
                "http_per_pass_ms": round(1000 * backend.stats.http_s / passes, 1),
                "mean_context_tokens": round(mean_ctx),
                "prefill_per_pass_ms": round(1000 * prefill, 1),
                "server_score_per_pass_ms": round(1000 * scoring, 1),
                "wire_json_per_pass_ms": round(1000 * (backend.stats.http_s / passes - scoring), 1),
                "kb_per_pass": round(rm.client.bytes_received / 1024 / max(1, rm.client.requests), 1),
                "rtt_ms": round(1000 * statistics.median(rtts), 2),
                "remote_over_local": round(remote.total_s / local.total_s, 2),
            })
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    finally:
        server.terminate()
        server.wait(30)

    cols = ["id", "prompt_tokens", "output_tokens", "identical", "passes", "local_s", "remote_s", "remote_over_local",
            "local_per_pass_ms", "remote_per_pass_ms", "mean_context_tokens", "prefill_per_pass_ms",
            "server_score_per_pass_ms", "wire_json_per_pass_ms", "kb_per_pass", "rtt_ms"]
    print(f"model {args.model}; local backend vs remote over loopback (fastapply serve, no prefix cache); "
          f"{device_description(loaded)}; load average at the end {os.getloadavg()[0]:.1f}")
    print(" | ".join(cols))
    for r in rows:
        print(" | ".join(str(r[c]) for c in cols))
    med = {c: statistics.median(r[c] for r in rows) for c in cols[4:]}
    print("median | | | " + f"{sum(r['identical'] for r in rows)}/{len(rows)} | " + " | ".join(f"{med[c]:g}" for c in cols[4:]))
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump({"model": args.model, "device": device_description(loaded), "copy": args.copy,
                       "examples": rows, "median": med}, fh, indent=2)
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
