"""`fastapply serve`: an OpenAI-compatible HTTP server with Predicted Outputs over speculative edits.

    app.py         routes and the request flow (parse, queue, answer or stream)
    middleware.py  API key, body size limit, per-request metrics (plain ASGI)
    schemas.py     request bodies (pydantic) and the fields we refuse
    responses.py   OpenAI's response and stream-chunk shapes, SSE framing, /v1/apply's shape
    generation.py  prompt + prediction -> speculative decoding -> text deltas; usage; prompt scoring
    scoring.py     prompt scoring with a prefix cache (echo + logprobs: remote verification passes)
    tokens.py      /tokenize and /detokenize (vLLM's shapes); logprobs tokens as token_id:N
    scheduler.py   one model worker thread, bounded FIFO queue, cancellation
    metrics.py     Prometheus metrics in the app's own registry
    errors.py      OpenAI's error shape and the status for each failure
    cli.py         the `serve` subcommand

Importing this package imports nothing heavy; `create_app` needs fastapi (and a model, torch).
"""

DEFAULT_MAX_QUEUE = 32  # requests waiting behind the running one; more get 503
DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024  # a large source file plus its prediction, with room to spare


def create_app(*args, **kwargs):
    """See `fastapply.serve.app.create_app` (imported lazily: fastapi is only needed to serve)."""
    from fastapply.serve.app import create_app as _create_app

    return _create_app(*args, **kwargs)
