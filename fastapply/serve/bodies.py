"""A request body read as JSON: every way it can be unreadable is a 400 naming why, never a 500.

Python's JSON parser accepts more than we can use, and fails in ways its `JSONDecodeError` does
not cover (issue 18, item 7):

- an integer of more than 4,300 digits raises a plain `ValueError` (CPython's limit on
  int-from-string conversion, against quadratic-time parsing);
- nesting deeper than the interpreter's recursion limit raises `RecursionError`;
- a `\\ud800` escape with no partner decodes to a lone surrogate, which is no Unicode character:
  it cannot be encoded as UTF-8, so the tokenizer (or any writer) fails on it later.

`read_json(raw)` returns the object or raises `RequestError` (400, `invalid_json`). The surrogate
walk runs only when the raw body has a surrogate escape, iteratively (any depth), and names the
field (`prediction.content`, `messages[0].content`).

This module knows JSON text and the request error; nothing about routes or models.
"""

from __future__ import annotations

import json
import re
from typing import Any

from fastapply.serve.schemas import RequestError

_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def read_json(raw: bytes) -> Any:
    """The JSON value of a request body; RequestError (400) for anything we cannot read."""
    if not raw.strip():
        raise RequestError("the request body is empty; expected a JSON object")
    try:
        obj = json.loads(raw)
    except UnicodeDecodeError:
        raise RequestError("the request body is not UTF-8 JSON", code="invalid_json") from None
    except RecursionError:
        raise RequestError("the request body is nested too deeply to read", code="invalid_json") from None
    except json.JSONDecodeError:
        raise  # the app's handler names the line and column
    except ValueError as exc:  # CPython's integer digit limit: "Exceeds the limit (4300 digits) ..."
        raise RequestError(f"the request body has a number we cannot read ({exc})", code="invalid_json") from None
    if _SURROGATE_ESCAPE.search(raw):
        where = lone_surrogate(obj)
        if where is not None:
            raise RequestError("a string in the request body has a lone surrogate escape (\\ud800-\\udfff without "
                               "its pair), which is not a Unicode character", where or None, code="invalid_json")
    return obj


def lone_surrogate(obj: Any) -> str | None:
    """The path of the first string (or key) holding a lone surrogate ('' for the body itself), or None."""
    stack: list[tuple[Any, str]] = [(obj, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if _SURROGATE.search(key):
                    return path
                stack.append((item, f"{path}.{key}" if path else key))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return None
