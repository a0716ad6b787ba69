"""`fastapply serve`: an OpenAI-compatible HTTP server with Predicted Outputs over speculative edits.

    app.py          create_app: the routes, the error handlers, the middleware stack
    server.py       the server's state (model, scheduler, limits) and the shared request plumbing
    completions.py  /v1/chat/completions and /v1/completions: parse, queue, answer or stream
    edits.py        /v1/apply: the instant merge off the model worker, the model when it refuses
    merges.py       instant merges in killable worker processes: bounded, time-limited, cancelled with the client
    compat.py       Morph-style chat (`<code>`/`<update>` messages) and Relace's /v1/code/apply
    jobs.py         the model work of each endpoint, run on the worker thread; scoring limits
    streams.py      one Server-Sent Events generator for every streamed answer
    access.py       Host, Origin and Content-Type checks (no web page may drive the server)
    middleware.py   access, API key, body size and read timeout, per-request metrics (plain ASGI)
    protocol.py     uvicorn's h11 protocol with a header read timeout (connections that never finish a request)
    bodies.py       a body read as JSON: huge integers, deep nesting, lone surrogates are 400s
    schemas.py      request bodies (pydantic) and the fields we refuse
    responses.py    OpenAI's response and stream-chunk shapes, SSE framing, /v1/apply's shape
    generation.py   prompt + prediction -> speculative decoding -> text deltas; usage; prompt scoring
    scoring.py      prompt scoring with a prefix cache (echo + logprobs: remote verification passes)
    tokens.py       /tokenize and /detokenize (vLLM's shapes); logprobs tokens as token_id:N
    scheduler.py    one model worker thread, bounded FIFO queue, cancellation
    metrics.py      Prometheus metrics in the app's own registry
    errors.py       OpenAI's error shape and the status for each failure
    cli.py          the `serve` subcommand

Importing this package imports nothing heavy; `create_app` needs fastapi (and a model, torch).
"""

DEFAULT_MAX_QUEUE = 32  # requests waiting behind the running one; more get 503
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024  # a large source file plus its prediction, with room to spare
DEFAULT_BODY_TIMEOUT_S = 10.0  # a request body must arrive whole within this; half-sent ones are dropped
DEFAULT_HEADER_TIMEOUT_S = 10.0  # a request's headers must arrive within this; else the connection is closed
DEFAULT_MAX_CONNECTIONS = 64  # concurrent connections (uvicorn's limit_concurrency); more get 503
DEFAULT_MAX_SCORED_TOKENS = 4096  # tokens one request may ask log probabilities for
DEFAULT_MERGE_WORKERS = 2  # instant merges running at once, each in a worker process beside the model worker
DEFAULT_MERGE_TIMEOUT_S = 60.0  # an instant merge running longer is stopped and refused (a 3 MB file takes 13 s)


def create_app(*args, **kwargs):
    """See `fastapply.serve.app.create_app` (imported lazily: fastapi is only needed to serve)."""
    from fastapply.serve.app import create_app as _create_app

    return _create_app(*args, **kwargs)
