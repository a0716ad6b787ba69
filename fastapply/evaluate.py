"""Evaluation: run an apply strategy over edit examples and score it against the expected files.

    examples = load_examples("../shared/data/dev-edits.jsonl", limit=50)
    result = run_eval(examples, "instant", instant_apply_fn, model_name=None)
    result["summary"]["exact_rate"], result["summary"]["instant_wrong_rate"]

An example is a JSON object with `original`, `snippet`, `expected` (and optionally `id`,
`instruction`, `language`, `path`, `snippet_style`, `n_hunks`). A strategy is run through an
`apply_fn(original, snippet, instruction, strategy)` that returns an object with `.text`,
`.path` ("instant" | "model") and `.refused_reason`; this module measures the latency around the
call, so it does not depend on how the strategy works. (An apply_fn that also accepts `language`
or `path` keywords gets them from the example.)

Per example: exact match with `expected`; match ignoring trailing whitespace; whether the output
parses (tree-sitter, None without a grammar); for the instant path merged / refused / wrong
(merged but not equal to `expected`); latency and chars/s (output characters per second of total
latency). Overall: the same as rates, plus breakdowns by language, snippet style and number of
edited regions. `write_report` writes a markdown report and a PNG chart of accuracy against
speed (up and to the right is better).

This module knows nothing about models or decoding; the CLI wiring lives in `cmd_eval`.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import inspect
import json
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from fastapply.errors import FastApplyError, InputError

STRATEGIES = ("auto", "instant", "model")
REQUIRED_FIELDS = ("original", "snippet", "expected")


@dataclass(frozen=True)
class ApplyOutcome:
    """What an apply_fn returns: the output file, which path made it, and why it refused."""

    text: str
    path: str  # "instant" | "model"
    refused_reason: str | None = None
    method: str | None = None
    rung: str | None = None


ApplyFn = Callable[..., Any]


# --------------------------------------------------------------------------- data


def load_examples(path: str, limit: int | None = None, max_lines: int | None = None) -> list[dict]:
    """Read edit examples from a JSONL (or .jsonl.gz) file; raise InputError on bad data.

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


# --------------------------------------------------------------------------- strategies


def instant_apply_fn(original: str, snippet: str, instruction: str | None = None, strategy: str = "instant",
                     *, language: str | None = None, path: str | None = None) -> ApplyOutcome:
    """The instant strategy alone: `instant_merge`, and an empty output when it refuses."""
    from fastapply.merge.instant import instant_merge

    result = instant_merge(original, snippet, language=language, path=path)
    if result.merged:
        return ApplyOutcome(result.text, "instant", None, result.method, result.rung)
    return ApplyOutcome("", "instant", result.refused_reason, result.method, result.rung)


def default_apply_fn_factory(strategy: str, model_name: str | None) -> ApplyFn:
    """`instant` runs here; `auto` and `model` go through the pipeline (imported lazily)."""
    if strategy == "instant":
        return instant_apply_fn

    def via_pipeline(original, snippet, instruction=None, strategy=strategy, **kwargs):
        from fastapply import pipeline

        return pipeline.apply_edit(original, snippet, instruction, strategy=strategy, model=model_name, **kwargs)

    return via_pipeline


def _extra_kwargs(apply_fn: ApplyFn, example: dict) -> dict:
    try:
        params = inspect.signature(apply_fn).parameters
    except (TypeError, ValueError):
        return {}
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    extra = {}
    for name in ("language", "path"):
        if (takes_any or name in params) and example.get(name):
            extra[name] = example[name]
    return extra


# --------------------------------------------------------------------------- scoring


def _normalize_ws(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def whitespace_match(output: str, expected: str) -> bool:
    """Equal after dropping trailing whitespace on every line and blank lines at the end."""
    return _normalize_ws(output) == _normalize_ws(expected)


def count_regions(example: dict) -> int:
    """Edited regions: the example's `n_hunks`, else diff hunks more than 6 lines apart."""
    if isinstance(example.get("n_hunks"), int):
        return example["n_hunks"]
    a = example["original"].splitlines()
    b = example["expected"].splitlines()
    return len(list(difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3))) or 0


def snippet_style(example: dict) -> str:
    if example.get("snippet_style"):
        return str(example["snippet_style"])
    from fastapply.merge import blocks, lazy

    lines = example["snippet"].split("\n")
    if blocks.looks_like_search_replace(lines):
        return "search_replace"
    if blocks.looks_like_diff(lines):
        return "diff"
    if lazy.has_markers(lines, example["original"].split("\n")):
        return "lazy"
    return "plain"


def _language(example: dict) -> str | None:
    from fastapply.merge import syntax

    return syntax.normalize_language(example.get("language")) or syntax.detect_language(
        example.get("path"), example["original"]
    )


def _regions_bucket(n: int) -> str:
    return "1" if n <= 1 else "2" if n == 2 else "3-4" if n <= 4 else "5+"


def score_example(example: dict, outcome: Any, latency_s: float, error: str | None = None) -> dict:
    """One row of the report for one example."""
    from fastapply.merge import syntax

    text = getattr(outcome, "text", None) or ""
    path = getattr(outcome, "path", None) or "model"
    refused = getattr(outcome, "refused_reason", None)
    if error:
        refused = f"error: {error}"
    language = _language(example)
    exact = text == example["expected"]
    merged = path == "instant" and refused is None and not error
    parses = syntax.parses(text, language) if text and language else None
    return {
        "id": example["id"],
        "exact": exact,
        "whitespace_match": whitespace_match(text, example["expected"]) if text else False,
        "parses": parses,
        "path": path if path in ("instant", "model") else "model",
        "refused_reason": refused,
        "latency_s": latency_s,
        "outcome": ("wrong" if merged and not exact else "merged" if merged else
                    "refused" if path == "instant" else "model"),
        "chars": len(text),
        "chars_per_s": (len(text) / latency_s) if latency_s > 0 else None,
        "language": language or "unknown",
        "snippet_style": snippet_style(example),
        "regions": count_regions(example),
        "method": getattr(outcome, "method", None),
        "rung": getattr(outcome, "rung", None),
    }


def summarize(rows: Sequence[dict]) -> dict:
    """Rates over rows; the keys the issue fixes come first."""
    n = len(rows)
    if n == 0:
        return {"n": 0, "exact_rate": 0.0, "whitespace_match_rate": 0.0, "instant_merged_rate": 0.0,
                "instant_wrong_rate": 0.0, "median_latency_s": 0.0}
    latencies = [r["latency_s"] for r in rows]
    parsed = [r["parses"] for r in rows if r["parses"] is not None]
    total_latency = sum(latencies)
    return {
        "n": n,
        "exact_rate": sum(r["exact"] for r in rows) / n,
        "whitespace_match_rate": sum(r["whitespace_match"] for r in rows) / n,
        "instant_merged_rate": sum(r["outcome"] in ("merged", "wrong") for r in rows) / n,
        "instant_wrong_rate": sum(r["outcome"] == "wrong" for r in rows) / n,
        "median_latency_s": statistics.median(latencies),
        "instant_refused_rate": sum(r["outcome"] == "refused" for r in rows) / n,
        "model_rate": sum(r["path"] == "model" for r in rows) / n,
        "parse_rate": (sum(parsed) / len(parsed)) if parsed else None,
        "mean_latency_s": total_latency / n,
        "p90_latency_s": sorted(latencies)[min(n - 1, int(0.9 * n))],
        "chars_per_s": (sum(r["chars"] for r in rows) / total_latency) if total_latency > 0 else None,
        "errors": sum(1 for r in rows if (r["refused_reason"] or "").startswith("error:")),
    }


def breakdowns(rows: Sequence[dict]) -> dict:
    """Summaries grouped by language, snippet style and number of edited regions."""
    out: dict[str, dict[str, dict]] = {}
    for name, key in (("language", lambda r: r["language"]), ("snippet_style", lambda r: r["snippet_style"]),
                      ("regions", lambda r: _regions_bucket(r["regions"]))):
        groups: dict[str, list[dict]] = {}
        for row in rows:
            groups.setdefault(key(row), []).append(row)
        out[name] = {k: summarize(v) for k, v in sorted(groups.items())}
    return out


def refusal_counts(rows: Sequence[dict]) -> list[tuple[str, int]]:
    """Refusal reasons with the specifics (line numbers, names) cut, most common first."""
    counter = Counter(_reason_kind(r["refused_reason"]) for r in rows if r["refused_reason"])
    return counter.most_common()


def _reason_kind(reason: str) -> str:
    import re

    kind = re.sub(r"`[^`]*`", "`…`", reason)
    kind = re.sub(r"\d+", "N", kind)
    return kind[:110]


# --------------------------------------------------------------------------- running


def run_eval(examples: Sequence[dict], strategy: str, apply_fn: ApplyFn, model_name: str | None,
             *, progress: Callable[[str], None] | None = None) -> dict:
    """Run `apply_fn` over every example and return {"strategy", "model", "examples", "summary",
    "breakdowns", "refusals"}. Errors raised by `apply_fn` are recorded, not propagated."""
    rows: list[dict] = []
    for index, example in enumerate(examples, 1):
        error = None
        outcome = None
        extra = _extra_kwargs(apply_fn, example)
        start = time.perf_counter()
        try:
            outcome = apply_fn(example["original"], example["snippet"], example.get("instruction"), strategy, **extra)
        except FastApplyError as exc:
            error = str(exc)
        except Exception as exc:  # one broken example must not lose the whole run
            error = f"{type(exc).__name__}: {exc}"
        latency = time.perf_counter() - start
        row = score_example(example, outcome, latency, error)
        rows.append(row)
        if progress and (index % 25 == 0 or index == len(examples) or latency > 1.0):
            done = sum(r["exact"] for r in rows)
            progress(f"[{strategy}] {index}/{len(examples)}  exact {done}/{index}  last {latency * 1000:.0f} ms")
    return {
        "strategy": strategy,
        "model": model_name,
        "examples": rows,
        "summary": summarize(rows),
        "breakdowns": breakdowns(rows),
        "refusals": refusal_counts(rows),
    }


# --------------------------------------------------------------------------- presenting


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{1000 * x:.1f} ms"


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def summary_table(results: Sequence[dict]) -> str:
    """A fixed-width table, one row per strategy."""
    header = ("strategy", "n", "exact", "ws-match", "parses", "instant", "wrong", "median", "chars/s")
    lines = [header]
    for res in results:
        s = res["summary"]
        lines.append((res["strategy"], str(s["n"]), _pct(s["exact_rate"]), _pct(s["whitespace_match_rate"]),
                      _pct(s.get("parse_rate")), _pct(s["instant_merged_rate"]), _pct(s["instant_wrong_rate"]),
                      _ms(s["median_latency_s"]), _rate(s.get("chars_per_s"))))
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in lines)


def _md_table(rows: Iterable[Sequence[str]], header: Sequence[str]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def write_chart(results: Sequence[dict], path: str) -> None:
    """Accuracy (exact rate) against speed (chars/s, log scale): up and to the right is better."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for res in results:
        s = res["summary"]
        speed = s.get("chars_per_s") or 0.0
        ax.scatter([max(speed, 1e-3)], [100 * s["exact_rate"]], s=60)
        ax.annotate(res["strategy"], (max(speed, 1e-3), 100 * s["exact_rate"]),
                    textcoords="offset points", xytext=(6, 4))
    ax.set_xscale("log")
    ax.set_xlabel("speed: output chars per second of latency (log)")
    ax.set_ylabel("exact match (%)")
    ax.set_ylim(0, 105)
    ax.set_title("accuracy vs speed (up and right is better)")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_report(results: Sequence[dict], out_dir: str, data_path: str | None = None) -> str:
    """Write `report.md` and `accuracy_vs_speed.png` into `out_dir`; return the report path."""
    os.makedirs(out_dir, exist_ok=True)
    chart = "accuracy_vs_speed.png"
    write_chart(results, os.path.join(out_dir, chart))
    parts = ["# fastapply eval report", ""]
    if data_path:
        parts += [f"Data: `{data_path}`", ""]
    parts += ["```", summary_table(results), "```", "", f"![accuracy vs speed]({chart})", ""]
    for res in results:
        title = res["strategy"] + (f" ({res['model']})" if res.get("model") else "")
        parts += [f"## {title}", ""]
        for name, groups in res["breakdowns"].items():
            parts += [f"### by {name.replace('_', ' ')}", ""]
            parts.append(_md_table(
                [(k, g["n"], _pct(g["exact_rate"]), _pct(g["instant_merged_rate"]), _pct(g["instant_wrong_rate"]),
                  _ms(g["median_latency_s"])) for k, g in groups.items()],
                (name, "n", "exact", "instant merged", "instant wrong", "median latency")))
            parts.append("")
        if res.get("refusals"):
            parts += ["### refusal reasons", ""]
            parts.append(_md_table([(n, reason.replace("|", "\\|")) for reason, n in res["refusals"]], ("count", "reason")))
            parts.append("")
        wrong = [r["id"] for r in res["examples"] if r["outcome"] == "wrong"]
        if wrong:
            parts += ["### wrong instant merges", ""] + [f"- `{i}`" for i in wrong] + [""]
    path = os.path.join(out_dir, "report.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts))
    return path


# --------------------------------------------------------------------------- CLI glue


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """Options for `fastapply eval`."""
    parser.add_argument("--data", required=True, metavar="FILE.jsonl", help="edit examples (JSONL, optionally .gz)")
    parser.add_argument("--strategy", default="auto",
                        help="auto | instant | model, or several separated by commas (default: auto)")
    parser.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N examples")
    parser.add_argument("--max-lines", type=int, default=None, metavar="N", help="skip originals longer than N lines")
    parser.add_argument("--json", default=None, metavar="OUT", help="write per-example results and the summary")
    parser.add_argument("--report", default=None, metavar="DIR", help="write report.md and a PNG chart here")
    from fastapply import options

    options.add_model_arguments(parser, model_help_text=f"model for the auto/model strategies ({options.model_help()})")


def parse_strategies(value: str) -> list[str]:
    names = [s.strip() for s in value.split(",") if s.strip()]
    bad = [s for s in names if s not in STRATEGIES]
    if not names or bad:
        raise InputError(f"unknown strategy {', '.join(bad) or repr(value)}; choose from {', '.join(STRATEGIES)}")
    return list(dict.fromkeys(names))


def _json_path(base: str, strategy: str, several: bool, first: bool) -> str:
    if not several or first:
        return base
    stem, ext = os.path.splitext(base)
    return f"{stem}.{strategy}{ext or '.json'}"


def cmd_eval(args: argparse.Namespace, apply_fn_factory: Callable[[str, str | None], ApplyFn] | None = None) -> int:
    """Run `fastapply eval`: progress on stderr, a summary table on stdout, optional JSON/report.

    With several strategies, `--json OUT` holds the first and `OUT.<strategy>.json` the others.
    """
    if args.limit is not None and args.limit < 1:
        raise InputError("--limit must be at least 1")
    strategies = parse_strategies(args.strategy)
    examples = load_examples(args.data, args.limit, getattr(args, "max_lines", None))
    factory = apply_fn_factory or default_apply_fn_factory
    model = getattr(args, "model", None)
    results = []
    for strategy in strategies:
        apply_fn = factory(strategy, model)
        print(f"eval: {len(examples)} examples, strategy {strategy}", file=sys.stderr)
        results.append(run_eval(examples, strategy, apply_fn, model if strategy != "instant" else None,
                                progress=lambda msg: print(msg, file=sys.stderr)))
    print(summary_table(results))
    for res in results:
        for reason, n in res["refusals"][:5]:
            print(f"  {res['strategy']}: {n} x {reason}")
    if args.json:
        for i, res in enumerate(results):
            target = _json_path(args.json, res["strategy"], len(results) > 1, i == 0)
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            with open(target, "w", encoding="utf-8") as handle:
                json.dump(res, handle, indent=1)
            print(f"wrote {target}", file=sys.stderr)
    if args.report:
        path = write_report(results, args.report, args.data)
        print(f"wrote {path}", file=sys.stderr)
    return 0
