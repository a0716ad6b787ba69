"""Lazy snippets that mix diff lines with bare new code, made from planner-style sets.

A planner that writes `-` lines for what it deletes often writes the new code without its `+`
(issue 19, family 3). This script takes the `gen-diff_in_lazy` rows of planner-style sets (`fastapply
data planner-set`) that have both `+` and `-` lines and writes two variants of each: `mix-all`, every
`+` prefix dropped, and `mix-first`, the prefixes of the first run of `+` lines dropped. Everything else
(original, expected, instruction) is the row's own, so the variants measure how the instant merge
reads the mixed form:

    python benchmarks/mixed_prefixes.py runs/gen11.jsonl runs/gen23.jsonl -o runs/mixed.jsonl
    fastapply eval --strategy instant --data runs/mixed.jsonl

A dropped prefix can lose information (a `+` blank line becomes an unchanged one, a `+` line the
original also has becomes context): a few variants have no right reading. Not run by the tests.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Callable


def _is(line: str, sign: str) -> bool:
    return line.startswith(sign) and not line.startswith(sign * 3)


def variants(row: dict) -> list[dict]:
    """The row's two mixed variants, or none when it is no diff-in-lazy row or its snippet lacks
    `+` or `-` lines."""
    if row.get("snippet_style") != "gen-diff_in_lazy":
        return []
    lines = row["snippet"].split("\n")
    plus = [k for k, line in enumerate(lines) if _is(line, "+")]
    if not plus or not any(_is(line, "-") for line in lines):
        return []
    first = [plus[0]]
    while first[-1] + 1 in plus:
        first.append(first[-1] + 1)
    out = []
    for tag, bare in (("mix-all", set(plus)), ("mix-first", set(first))):
        snippet = "\n".join(line[1:] if k in bare else line for k, line in enumerate(lines))
        out.append(dict(row, snippet=snippet, snippet_style=tag, id=f"{row.get('id', '')}:{tag}"))
    return out


def write_variants(sets: list[str], out: str, variants: Callable[[dict], list[dict]]) -> int:
    """Every row of `sets` through `variants`, written to `out` (JSONL): the count written. Also the
    writer of snippet_wrappers.py."""
    n = 0
    with open(out, "w", encoding="utf-8") as fh:
        for path in sets:
            for line in Path(path).read_text(encoding="utf-8").splitlines():
                for variant in variants(json.loads(line)):
                    fh.write(json.dumps(variant) + "\n")
                    n += 1
    return n


def variants_main(argv: list[str] | None, doc: str, make, what: str) -> int:
    """The command line of a variants script (this one, snippet_wrappers.py): SET... -o OUT, each row of
    the sets written as the rows `make(row)` returns; `what` names them in the closing line."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("sets", nargs="+", help="planner-style JSONL sets")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    n = write_variants(args.sets, args.out, make)
    print(f"{n} {what} rows written to {args.out}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    return variants_main(argv, __doc__, variants, "mixed")


if __name__ == "__main__":
    sys.exit(main())
