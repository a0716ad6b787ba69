"""Snippets in the wrappers planners put round them, made from planner-style sets.

A chat planner sends a snippet inside a Markdown fence, often one that names the file
(```` ```python:src/app.py ````), or starts it with a comment naming the file (`// File: src/app.py`);
its text may come with CRLF line ends. This script takes the rows of planner-style sets (`fastapply
data planner-set`) whose snippet has markers, in the styles agent, chat, skeleton and inline, and
writes each once per wrapper: `as-sent` (unchanged), `fence`, `path-fence`, `file-header`, `crlf`.
Everything else is the row's own, so each wrapper should score as `as-sent` does:

    python benchmarks/snippet_wrappers.py runs/gen11.jsonl -o runs/wrapped.jsonl
    fastapply eval --strategy instant --data runs/wrapped.jsonl

Not run by the tests.
"""

from __future__ import annotations

import re
import sys

from mixed_prefixes import variants_main  # the sibling script's command line (this folder is on sys.path)

STYLES = ("gen-agent", "gen-chat", "gen-skeleton", "gen-inline")
_MARKER = re.compile(r"^\s*(?:#|//|--|/\*)\s*\.\.\.")  # `// ... existing code ...` and its kin
_HASH = ("python", "ruby", "shell")


def variants(row: dict) -> list[dict]:
    """The row in each wrapper, or none when its snippet has no marker or its style is not listed."""
    snippet = row["snippet"]
    if row.get("snippet_style") not in STYLES or not any(_MARKER.match(l) for l in snippet.split("\n")):
        return []
    lang, path = row.get("language") or "", row.get("path") or "file"
    body = snippet.rstrip("\n") + "\n"
    comment = "#" if lang in _HASH else "//"
    wrapped = {
        "as-sent": snippet,
        "fence": f"```{lang}\n{body}```\n",
        "path-fence": f"```{lang}:{path}\n{body}```\n",
        "file-header": f"{comment} File: {path}\n{snippet}",
        "crlf": snippet.replace("\n", "\r\n"),
    }
    return [dict(row, snippet=text, snippet_style=tag, id=f"{row.get('id', '')}:{tag}") for tag, text in wrapped.items()]


def main(argv: list[str] | None = None) -> int:
    return variants_main(argv, __doc__, variants, "wrapped")


if __name__ == "__main__":
    sys.exit(main())
