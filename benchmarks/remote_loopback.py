"""Local backend vs the remote backend over loopback, on the same model: what verification over HTTP costs.

    PYTHONPATH=. python benchmarks/remote_loopback.py --data ../shared/data/dev-edits.jsonl \
        --max-lines 200 --limit 4 [--copy] [--model fastapply-135m] [--json out.json]

Starts two `fastapply serve` processes for the model on 127.0.0.1, one with its scoring prefix
cache (serve/scoring.py) and one without (`FASTAPPLY_SCORE_CACHE=0`), loads the same model here,
and runs each edit's speculative decoding three times, one after another: on the local backend (one
KV cache, each pass feeds only the new ids), and on the remote backend against each server (each
pass is one /v1/completions request that resends the whole context and gets every position's top
token back). It checks all three give the same tokens, and reports per example the passes and the
seconds per pass of each. A warm-up edit runs first, untimed, on all three.

Times are split into the first pass (the prefill, fused with the first verification; `_first_ms`)
and the mean of the later passes (`_later_ms`):

- The first remote pass scores every prompt position (an echo request returns them all): logits
  for every position instead of the last few, and a log-softmax per position. It costs more than
  the local prefill whatever the server caches.
- `wire_ms_per_later_pass` = `cached_later - local_later` is what the wire adds to a pass once the
  server reuses its prefix: HTTP on loopback, the request and the response JSON (one entry per
  context position), the server's queue hop, and scoring the few new rows.
- `uncached_later_ms` is a pass without a prefix cache: a forward over the whole context with every
  position's logits, then a log-softmax per position. That is what every pass costs on a server
  that recomputes prompts it has seen (vLLM skips its prefix cache for requests that ask for prompt
  log-probabilities; docs/gpu.md).
- `rtt` is the round trip of an empty request (GET /health), `kb/pass` the mean response size.

Runs on this machine's CPU and names it, with the load average (the machine is shared). One torch
thread per process by default (`--threads`): on a busy 2-core machine two threads made the same
forward pass take anywhere from 0.8 s to 7 s, one thread 1.3 s every time.
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


def start_server(model: str, port: int, cache: bool) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "fastapply.cli", "serve", "--port", str(port), "-m", model, "--log-level", "warning"]
    env = {**os.environ, "FASTAPPLY_SCORE_CACHE": "1" if cache else "0"}
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)


def wait_ready(proc: subprocess.Popen, port: int) -> None:
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {proc.stderr.read()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).json().get("status") == "ok":
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(1)
    raise SystemExit("the server did not become ready in time")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--limit", type=int, default=4)
    ap.add_argument("--max-lines", type=int, default=200)
    ap.add_argument("--copy", action="store_true", help="no-op snippets (the output is the original)")
    ap.add_argument("--model", default="fastapply-135m")
    ap.add_argument("--max-tokens", type=int, default=None)
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads in every process (default 1: on a shared machine, more threads make "
                         "timings swing by several times)")
    args = ap.parse_args(argv)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # before torch is imported; the servers inherit it

    from fastapply import models
    from fastapply.backends.remote import load_remote
    from fastapply.decoding.engine import generate
    from fastapply.evaluation.bench import copy_snippet, device_description
    from fastapply.evaluation.examples import load_examples
    from fastapply.rewrite.edit import edit_draft, prepare

    examples = load_examples(args.data, args.limit, args.max_lines)
    ports = {"cached": free_port(), "uncached": free_port()}
    servers = {name: start_server(args.model, port, name == "cached") for name, port in ports.items()}
    rows = []
    try:
        loaded = models.load(args.model)
        for name, port in ports.items():
            wait_ready(servers[name], port)
        remotes = {name: load_remote(f"remote:http://127.0.0.1:{port}/v1#{args.model}") for name, port in ports.items()}
        http = httpx.Client()

        def run_all(ex):
            snippet = copy_snippet(ex) if args.copy else ex["snippet"]
            prep = prepare(loaded, ex["original"], snippet, None if args.copy else ex.get("instruction"), args.max_tokens)
            kw = dict(max_tokens=prep.max_tokens, stop_token_ids=prep.stop_ids)
            out = {"local": generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep), **kw) + (None,)}
            for name, rm in remotes.items():
                rm.client.requests = rm.client.bytes_received = 0
                backend = rm.new_backend()
                out[name] = generate(backend, prep.prompt_ids, edit_draft(loaded, prep), **kw) + (backend,)
            return prep, out

        # warm-up, untimed: first passes in each process are slow (allocations, thread pools). Not on a
        # benchmarked example: the cached server would then hold that example's whole sequence
        run_all({"id": "warm-up", "original": "def f(x):\n    return x + 1\n" * 8,
                 "snippet": "def f(x):\n    return x + 2\n# ... existing code ...\n", "instruction": None})
        for ex in examples:
            prep, out = run_all(ex)
            (ids, local, _), (c_ids, cached, c_back), (u_ids, uncached, u_back) = out["local"], out["cached"], out["uncached"]
            rtts = []
            for _ in range(20):
                t0 = time.perf_counter()
                http.get(f"http://127.0.0.1:{ports['cached']}/health")
                rtts.append(time.perf_counter() - t0)
            first = lambda st: round(1000 * st.time_to_first_token_s, 1)  # noqa: E731 - the prefill pass
            later = lambda st: round(1000 * (st.total_s - st.time_to_first_token_s) / max(1, st.forward_passes - 1), 1)  # noqa: E731
            rm = remotes["cached"]
            rows.append({
                "id": str(ex["id"]), "prompt_tokens": len(prep.prompt_ids), "output_tokens": len(ids),
                "identical": ids == c_ids == u_ids, "passes": local.forward_passes,
                "same_passes": local.forward_passes == cached.forward_passes == uncached.forward_passes,
                "local_s": round(local.total_s, 3), "cached_s": round(cached.total_s, 3), "uncached_s": round(uncached.total_s, 3),
                "local_first_ms": first(local), "cached_first_ms": first(cached), "uncached_first_ms": first(uncached),
                "local_later_ms": later(local), "cached_later_ms": later(cached), "uncached_later_ms": later(uncached),
                "wire_ms_per_later_pass": round(later(cached) - later(local), 1),
                "mean_context_tokens": round(c_back.stats.tokens_sent / max(1, c_back.stats.requests)),
                "kb_per_pass": round(rm.client.bytes_received / 1024 / max(1, rm.client.requests), 1),
                "rtt_ms": round(1000 * statistics.median(rtts), 2),
            })
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    finally:
        for proc in servers.values():
            stop(proc)

    cols = ["id", "prompt_tokens", "output_tokens", "identical", "passes", "local_s", "cached_s", "uncached_s",
            "local_first_ms", "cached_first_ms", "uncached_first_ms", "local_later_ms", "cached_later_ms",
            "uncached_later_ms", "wire_ms_per_later_pass", "mean_context_tokens", "kb_per_pass", "rtt_ms"]
    print(f"model {args.model}{' --copy' if args.copy else ''}: local backend vs remote over loopback "
          f"(fastapply serve with / without its scoring prefix cache); {device_description(loaded)}; "
          f"load average at the end {os.getloadavg()[0]:.1f}")
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    med = {c: statistics.median(r[c] for r in rows) for c in cols[4:]}
    print(f"| median | | | {sum(r['identical'] for r in rows)}/{len(rows)} | " + " | ".join(f"{med[c]:g}" for c in cols[4:]) + " |")
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump({"model": args.model, "device": device_description(loaded), "copy": args.copy,
                       "examples": rows, "median": med}, fh, indent=2)
    return 0 if all(r["identical"] and r["same_passes"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
