"""Reading edit examples: one JSON object per line (`.jsonl`, or `.jsonl.gz`).

An example has `original`, `snippet` and `expected` (text), and optionally `id`, `instruction`,
`language`, `path`, `snippet_style`, `n_hunks`, `repo`. Every harness (eval, bench, the training
dev check) reads examples here. This module knows nothing about merging or models.
"""

from __future__ import annotations

import gzip
import json
import os

from fastapply.errors import InputError

REQUIRED_FIELDS = ("original", "snippet", "expected")


def load_examples(path: str, limit: int | None = None, max_lines: int | None = None) -> list[dict]:
    """Read edit examples; raise InputError on bad data.

    `max_lines` skips examples whose original is longer; `limit` counts the examples kept."""
    if not os.path.isfile(path):
        raise InputError(f"data file not found: {path}")
    opener = gzip.open if path.endswith(".gz") else open
    examples: list[dict] = []
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            for lineno, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
                if not isinstance(row, dict):
                    raise InputError(f"{path}:{lineno}: expected a JSON object per line")
                for name in REQUIRED_FIELDS:
                    if not isinstance(row.get(name), str):
                        raise InputError(f"{path}:{lineno}: missing or non-text field '{name}'")
                row.setdefault("id", f"line-{lineno}")
                row["id"] = str(row["id"])
                if max_lines is not None and len(row["original"].splitlines()) > max_lines:
                    continue
                examples.append(row)
                if limit is not None and len(examples) >= limit:
                    break
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    except (OSError, EOFError) as exc:
        raise InputError(f"{path}: cannot read ({exc})") from None
    if not examples:
        raise InputError(f"{path}: no examples")
    return examples
