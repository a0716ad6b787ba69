"""The `fastapply serve` subcommand: parse options, build the app, run uvicorn. No logic of its own.

    fastapply serve [--host 127.0.0.1] [--port 8000] [-m MODEL] [--api-key KEY] [--max-queue N]
                    [--max-body-bytes N] [--device cpu|cuda] [--dtype float32|bfloat16|float16]
                    [--allow-origin URL]... [--allow-host NAME]... [--body-timeout S]
                    [--max-connections N] [--max-scored-tokens N] [--header-timeout S]
                    [--merge-workers N] [--merge-timeout S]

`fastapply.cli` calls `add_arguments(subparsers)`; the registered `func(args)` returns an exit code.
The model loads on the server's worker thread after the port is open, so `/health` answers
("loading") at once. fastapi and uvicorn are imported only when the command runs; without the
[serve] or the [model] extra it exits 2 naming the extra (extras.py).
"""

from __future__ import annotations

import argparse
import os
import sys

from fastapply import options

API_KEY_ENV = "FASTAPPLY_API_KEY"


def add_arguments(subparsers) -> argparse.ArgumentParser:
    """Register `serve` on an argparse subparsers object."""
    from fastapply.serve import (  # fastapi-free, so --help stays instant
        DEFAULT_BODY_TIMEOUT_S,
        DEFAULT_HEADER_TIMEOUT_S,
        DEFAULT_MAX_BODY_BYTES,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_MAX_QUEUE,
        DEFAULT_MAX_SCORED_TOKENS,
        DEFAULT_MERGE_TIMEOUT_S,
        DEFAULT_MERGE_WORKERS,
    )

    p = subparsers.add_parser(
        "serve", help="run an OpenAI-compatible server with Predicted Outputs (speculative edits)",
        description="Serve /v1/chat/completions and /v1/completions (with the `prediction` field), "
                    "/v1/apply, /v1/models, /health and /metrics.",
    )
    p.add_argument("--host", default="127.0.0.1", type=options.non_empty("--host"),
                   help="address to bind (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=options.port, default=8000, help="default: 8000")
    options.add_model_arguments(p)
    p.add_argument("--served-model-name", type=options.non_empty("--served-model-name"),
                   help="the name clients send as `model` (default: the --model value)")
    p.add_argument("--api-key", default=None, type=options.non_empty("--api-key"),
                   help=f"require 'Authorization: Bearer KEY' on every endpoint but /health (default: ${API_KEY_ENV}; "
                        f"an empty --api-key is an error, never 'no key')")
    p.add_argument("--max-queue", type=options.positive_int, default=DEFAULT_MAX_QUEUE,
                   help=f"requests allowed to wait for the model; more get 503 (default: {DEFAULT_MAX_QUEUE})")
    p.add_argument("--max-body-bytes", type=options.positive_int, default=DEFAULT_MAX_BODY_BYTES,
                   help=f"largest request body accepted, in bytes (default: {DEFAULT_MAX_BODY_BYTES})")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   help="a web page origin (e.g. http://localhost:3000) allowed to call the server, with CORS; "
                        "repeatable (default: none, requests from web pages are refused)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a Host name accepted besides the bound address and localhost (a reverse proxy's "
                        "public name); repeatable")
    p.add_argument("--body-timeout", type=options.seconds, default=DEFAULT_BODY_TIMEOUT_S, metavar="S",
                   help=f"seconds a request body may take to arrive; slower ones get 408 (default: {DEFAULT_BODY_TIMEOUT_S:g})")
    p.add_argument("--header-timeout", type=options.seconds, default=DEFAULT_HEADER_TIMEOUT_S, metavar="S",
                   help=f"seconds a request's headers may take to arrive; slower connections are closed "
                        f"(default: {DEFAULT_HEADER_TIMEOUT_S:g})")
    p.add_argument("--merge-workers", type=options.positive_int, default=DEFAULT_MERGE_WORKERS, metavar="N",
                   help=f"instant merges run at once, each in a worker process (default: {DEFAULT_MERGE_WORKERS})")
    p.add_argument("--merge-timeout", type=options.seconds, default=DEFAULT_MERGE_TIMEOUT_S, metavar="S",
                   help=f"seconds an instant merge may run; longer ones are stopped and refused "
                        f"(default: {DEFAULT_MERGE_TIMEOUT_S:g})")
    p.add_argument("--max-connections", type=options.positive_int, default=DEFAULT_MAX_CONNECTIONS,
                   help=f"concurrent connections; more get 503 (default: {DEFAULT_MAX_CONNECTIONS})")
    p.add_argument("--max-scored-tokens", type=options.positive_int, default=DEFAULT_MAX_SCORED_TOKENS,
                   help=f"tokens one request may ask log probabilities for (default: {DEFAULT_MAX_SCORED_TOKENS})")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    from fastapply import extras, models
    from fastapply.errors import FastApplyError

    try:
        extras.require("serve", "fastapply serve")
        extras.require("model", "fastapply serve")  # its model loads after the port opens: check now
        spec = models.resolve(args.model)  # fail fast on a wrong name, before opening the port
    except FastApplyError as exc:
        print(f"fastapply: error: {exc}", file=sys.stderr)
        return exc.exit_code
    if spec.kind == "openai":  # text in, text out: no tokens to serve completions, scoring or predictions with
        print(f"fastapply: error: {spec.name} is a chat model and cannot be served (fastapply serve needs a model "
              f"it runs or verifies token by token: a bundled name, a model path, or remote:URL#MODEL)", file=sys.stderr)
        return 2
    import uvicorn

    from fastapply.serve.app import create_app
    from fastapply.serve.protocol import with_header_timeout

    api_key = args.api_key if args.api_key is not None else os.environ.get(API_KEY_ENV) or None
    name = args.served_model_name or spec.name
    app = create_app(
        lambda: models.load(args.model, device=args.device, dtype=args.dtype),
        model_name=name,
        aliases=(spec.name,),
        api_key=api_key,
        max_queue=args.max_queue,
        max_body_bytes=args.max_body_bytes,
        body_timeout_s=args.body_timeout,
        max_scored_tokens=args.max_scored_tokens,
        merge_workers=args.merge_workers,
        merge_timeout_s=args.merge_timeout,
        host=args.host,
        allow_hosts=tuple(args.allow_host),
        allow_origins=tuple(args.allow_origin),
    )
    if args.host not in ("127.0.0.1", "localhost", "::1") and not api_key:
        print(f"fastapply: warning: serving on {args.host} without an API key: anyone who can reach it can use it",
              file=sys.stderr)
    print(f"fastapply: serving {name} on http://{args.host}:{args.port}/v1 (model loading in the background)",
          file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                limit_concurrency=args.max_connections, http=with_header_timeout(args.header_timeout))
    return 0
