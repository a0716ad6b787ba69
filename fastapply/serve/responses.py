"""OpenAI's response shapes (chat and text completion objects and stream chunks) and /v1/apply's.

Pure functions from values to JSON-ready dicts, and the Server-Sent Events framing. This module
knows JSON shapes only.
"""

from __future__ import annotations

import json
from typing import Any


def chat_completion(cid: str, created: int, model: str, text: str, finish: str, usage: dict,
                    logprobs: dict | None = None) -> dict:
    return {
        "id": cid, "object": "chat.completion", "created": created, "model": model, "system_fingerprint": None,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text, "refusal": None},
                     "logprobs": logprobs, "finish_reason": finish}],
        "usage": usage,
    }


def text_completion(cid: str, created: int, model: str, text: str, finish: str, usage: dict,
                    logprobs: dict | None = None) -> dict:
    return {
        "id": cid, "object": "text_completion", "created": created, "model": model, "system_fingerprint": None,
        "choices": [{"index": 0, "text": text, "logprobs": logprobs, "finish_reason": finish}],
        "usage": usage,
    }


def chat_chunk(cid: str, created: int, model: str, delta: dict, finish: str | None, *, usage_field: bool) -> dict:
    chunk = {
        "id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
        "system_fingerprint": None,
        "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
    }
    if usage_field:
        chunk["usage"] = None  # as OpenAI: null on every chunk but the last when include_usage is set
    return chunk


def completion_chunk(cid: str, created: int, model: str, text: str, finish: str | None, *, usage_field: bool) -> dict:
    chunk = {
        "id": cid, "object": "text_completion", "created": created, "model": model,
        "choices": [{"index": 0, "text": text, "logprobs": None, "finish_reason": finish}],
    }
    if usage_field:
        chunk["usage"] = None
    return chunk


def sse(obj: Any) -> bytes:
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n"


SSE_DONE = b"data: [DONE]\n\n"
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def apply_body(result) -> dict:
    stats = result.stats
    return {
        "object": "fastapply.apply",
        "text": result.text,
        "path": result.path,
        "complete": result.complete,
        "method": result.method,
        "rung": result.rung,
        "refused_reason": result.refused_reason,
        "refusal": result.refusal.to_dict() if getattr(result, "refusal", None) is not None else None,
        "guard": result.guard,
        "guard_reason": result.guard_reason,
        "draft": result.draft,
        "model": result.model,
        "stats": stats.as_dict() if stats is not None else None,
    }
