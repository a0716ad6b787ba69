"""`fastapply eval` and `fastapply bench`: options and commands over the evaluation package.

This module parses and reports; the measuring is in run.py, scoring.py and bench.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable

from fastapply import extras, options
from fastapply.errors import InputError
from fastapply.evaluation.examples import load_examples
from fastapply.evaluation.report import breakdown_table, summary_table, write_report
from fastapply.evaluation.run import ApplyFn, instant_apply_fn, model_apply_fn, parse_strategies, run_eval
from fastapply.evaluation.shapes import shape_words


def add_arguments(sub) -> None:
    """Register `eval` and `bench` on the top-level subparsers."""
    p = sub.add_parser("eval", help="measure right / wrong / refused and speed of a strategy on edit examples")
    p.add_argument("--data", required=True, metavar="FILE.jsonl", help="edit examples (JSONL, optionally .gz)")
    p.add_argument("--strategy", default="auto",
                   help="auto | instant | model, or several separated by commas (default: auto)")
    p.add_argument("--limit", type=options.positive_int, default=None, metavar="N", help="only the first N examples")
    p.add_argument("--max-lines", type=options.positive_int, default=None, metavar="N",
                   help="skip originals longer than N lines")
    p.add_argument("--json", default=None, metavar="OUT", help="write per-example rows and the summary")
    p.add_argument("--report", default=None, metavar="DIR", help="write report.md and a PNG chart here")
    p.add_argument("--retry", action="store_true",
                   help="play the planner once: answer each instant refusal with its own option (the one that "
                        "agrees with `expected`) and report the first and second try")
    options.add_model_arguments(p, model_help_text=f"model for the auto/model strategies ({options.model_help()})")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("bench", help="time speculative edits against plain decoding and prompt lookup")
    p.add_argument("--data", required=True, help="JSONL edit examples (id, original, snippet, instruction)")
    p.add_argument("--limit", type=options.positive_int, help="use the first N examples")
    p.add_argument("--max-lines", type=options.positive_int, help="skip originals longer than this many lines")
    p.add_argument("--copy", action="store_true",
                   help="replace each snippet with a no-op snippet (the output is the original): the ceiling case")
    p.add_argument("--max-tokens", type=options.positive_int, help="cap every method's output tokens")
    p.add_argument("--json", dest="json_out", help="write per-example results and the summary here")
    options.add_model_arguments(p)
    p.set_defaults(func=cmd_bench)


def _load(args):
    return options.load_model(args, say=lambda message: print(f"fastapply: {message}", file=sys.stderr, flush=True))


def _json_path(base: str, strategy: str, several: bool, first: bool) -> str:
    if not several or first:
        return base
    stem, ext = os.path.splitext(base)
    return f"{stem}.{strategy}{ext or '.json'}"


def apply_fn_for(args) -> Callable[[str], ApplyFn]:
    """The apply_fn of each strategy; the model is loaded once, with --device/--dtype, when a
    strategy first needs it (before its timing starts)."""
    loaded = []

    def factory(strategy: str) -> ApplyFn:
        if strategy == "instant":
            return instant_apply_fn
        if not loaded:
            loaded.append(_load(args))
        return model_apply_fn(strategy, loaded[0])

    return factory


def cmd_eval(args: argparse.Namespace, apply_fn_factory: Callable[[str], ApplyFn] | None = None) -> int:
    """Run `fastapply eval`: progress on stderr, the summary and breakdowns on stdout, optional JSON
    and report. With several strategies, `--json OUT` holds the first and `OUT.<strategy>.json` the
    others."""
    strategies = parse_strategies(args.strategy)
    if getattr(args, "retry", False):
        if strategies != ["instant"]:
            raise InputError("--retry answers the instant merge's refusals: use it with --strategy instant")
        if args.report:
            raise InputError("--retry writes no report: use --json OUT for its rows and summary")
    if args.report:
        extras.require("train", "fastapply eval --report", "its chart is drawn with matplotlib")
    examples = load_examples(args.data, args.limit, getattr(args, "max_lines", None))
    if getattr(args, "retry", False):
        return _eval_retry(args, examples)
    factory = apply_fn_factory or apply_fn_for(args)
    model = getattr(args, "model", None)
    if model is None:  # the name the apply path will load, recorded in the JSON (not None)
        from fastapply import models

        model = os.environ.get(models.ENV_VAR) or models.DEFAULT_MODEL
    results = []
    for strategy in strategies:
        apply_fn = factory(strategy)
        print(f"eval: {len(examples)} examples, strategy {strategy}", file=sys.stderr)
        results.append(run_eval(examples, strategy, apply_fn, model if strategy != "instant" else None,
                                progress=lambda msg: print(msg, file=sys.stderr)))
    print(summary_table(results))
    for res in results:
        if res.get("wrong_shapes"):
            print(f"{res['strategy']} wrong files by shape: " + shape_words(res["wrong_shapes"]))
    for res in results:
        print(f"\n{res['strategy']} by snippet style:\n{breakdown_table(res, 'snippet_style')}")
        print(f"\n{res['strategy']} by language:\n{breakdown_table(res, 'language')}")
        for reason, n in res["refusals"][:5]:
            print(f"  {res['strategy']} refused: {n} x {reason}")
    if args.json:
        for i, res in enumerate(results):
            target = _json_path(args.json, res["strategy"], len(results) > 1, i == 0)
            os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
            with open(target, "w", encoding="utf-8") as handle:
                json.dump(res, handle, indent=1)
            print(f"wrote {target}", file=sys.stderr)
    if args.report:
        print(f"wrote {write_report(results, args.report, args.data)}", file=sys.stderr)
    return 0


def _eval_retry(args: argparse.Namespace, examples: list[dict]) -> int:
    from fastapply.evaluation.retry import format_summary, run_retry

    print(f"eval --retry: {len(examples)} examples, strategy instant", file=sys.stderr)
    done = run_retry(examples, progress=lambda msg: print(msg, file=sys.stderr))
    print(format_summary(done["summary"]))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(done, handle, indent=1)
        print(f"wrote {args.json}", file=sys.stderr)
    return 0


def cmd_bench(args) -> int:
    from fastapply.evaluation.bench import BenchRow, format_table, run_bench

    examples = load_examples(args.data, args.limit, args.max_lines)
    loaded = _load(args)
    print(f"benchmarking {len(examples)} examples{' (--copy)' if args.copy else ''} on {loaded.name} ...", file=sys.stderr)
    report = run_bench(loaded, examples, copy=args.copy, max_tokens=args.max_tokens)
    rows = [BenchRow(**r) for r in report["examples"]]
    print(f"model {report['model']} on {report['device']}")
    print(format_table(rows, report["summary"]))
    if args.json_out:
        try:
            with open(args.json_out, "w", encoding="utf-8") as fh:
                json.dump(report, fh, indent=2)
        except OSError as exc:
            raise InputError(f"cannot write {args.json_out}: {exc.strerror or exc}") from None
    return 0
