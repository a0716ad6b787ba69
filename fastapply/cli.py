"""The `fastapply` command line: parse, pick components by name, report. No logic of its own.

    fastapply apply ORIGINAL SNIPPET [--instruction TEXT] [-o OUT | --in-place] [--diff] [--model M] ...
    fastapply bench --data FILE.jsonl [--limit N] [--copy] [--json OUT]
    fastapply models

Errors a user can cause (`FastApplyError`) print `fastapply: error: <message>` and exit nonzero
with the error's code; the input file is never touched unless a complete result is written.
Heavy imports (torch, transformers) happen inside commands, so `fastapply --help` is instant.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys

from fastapply import __version__
from fastapply.errors import FastApplyError, GuardError, IncompleteOutputError, InputError, RefusedError

PROG = "fastapply"


def positive_int(text: str) -> int:
    """An argparse type: an integer >= 1 (shared with the serve subcommand)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _number_in(name: str, low: float, high: float, low_open: bool = False):
    """An argparse type for a float in [low, high] (or (low, high] with low_open)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not ((low < value) if low_open else (low <= value)) or not value <= high:
            bracket = "(" if low_open else "["
            raise argparse.ArgumentTypeError(f"{name} must be in {bracket}{low:g}, {high:g}], got {value}")
        return value

    return parse


_temperature = _number_in("temperature", 0.0, 2.0)
_top_p = _number_in("top-p", 0.0, 1.0, low_open=True)


def _add_model_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-m", "--model", help="bundled name, .gguf file, model directory or Hub id (default: $FASTAPPLY_MODEL or smollm2-135m-instruct)")
    p.add_argument("--device", help="cpu or cuda (default: cuda when available)")
    p.add_argument("--dtype", choices=["float32", "bfloat16", "float16"], help="default: float32 on CPU, bfloat16 on CUDA")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description="Apply code edits to whole files, fast: speculative edits over a fast-apply model.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("apply", help="apply an edit snippet to a file")
    p.add_argument("original", help="the file to edit")
    p.add_argument("snippet", help="the edit snippet file, or - for standard input")
    p.add_argument("-i", "--instruction", help="what the edit is meant to do (optional)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", help="write the updated file here instead of standard output")
    out.add_argument("--in-place", action="store_true", help="replace ORIGINAL atomically")
    p.add_argument("--diff", action="store_true", help="print a unified diff instead of the file")
    _add_model_arguments(p)
    p.add_argument("-t", "--temperature", type=_temperature, default=0.0, help="0 = greedy (default)")
    p.add_argument("--top-p", type=_top_p, default=1.0)
    p.add_argument("--seed", type=int, help="random seed for sampling")
    p.add_argument("--max-tokens", type=positive_int, help="output token budget (default: file + snippet + 64)")
    p.add_argument("-s", "--strategy", choices=["auto", "instant", "model"], default="auto",
                   help="auto: instant merge, else the model (default); instant: never load a model; model: always the model")
    p.add_argument("--draft", choices=["speculative", "lookup", "none"], default="speculative",
                   help="speculative edits (default), prompt lookup only, or plain decoding")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument("--force", action="store_true",
                   help="write a closed model answer even when it fails a guard (exit 8 otherwise)")
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("bench", help="time speculative edits against plain decoding and prompt lookup")
    p.add_argument("--data", required=True, help="JSONL edit examples (id, original, snippet, instruction)")
    p.add_argument("--limit", type=positive_int, help="use the first N examples")
    p.add_argument("--max-lines", type=positive_int, help="skip originals longer than this many lines")
    p.add_argument("--copy", action="store_true", help="replace each snippet with a no-op snippet (the output is the original): the ceiling case")
    p.add_argument("--max-tokens", type=positive_int, help="cap every method's output tokens")
    p.add_argument("--json", dest="json_out", help="write per-example results and the summary here")
    _add_model_arguments(p)
    p.set_defaults(func=cmd_bench)

    from fastapply.evaluate import add_eval_arguments

    p = sub.add_parser("eval", help="measure exact match and speed of a strategy on edit examples")
    add_eval_arguments(p)
    p.add_argument("--device", help="cpu or cuda (default: cuda when available)")
    p.add_argument("--dtype", choices=["float32", "bfloat16", "float16"])
    p.set_defaults(func=cmd_eval)

    from fastapply.data import cli as data_cli
    from fastapply.train import cli as train_cli

    from fastapply.serve.cli import add_arguments as add_serve_arguments

    data_cli.add_arguments(sub)
    train_cli.add_arguments(sub)
    add_serve_arguments(sub)

    p = sub.add_parser("models", help="list the bundled model names")
    p.set_defaults(func=cmd_models)
    return parser


# -- commands -------------------------------------------------------------------------------------


class Progress:
    """One status line on stderr, redrawn in place on a terminal, silent otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self._shown = False

    def __call__(self, stats) -> None:
        if self.enabled:
            sys.stderr.write(
                f"\r{PROG}: {stats.completion_tokens or 0} tokens, {stats.accepted_prediction_tokens} from the draft, "
                f"{stats.forward_passes} passes"
            )
            sys.stderr.flush()
            self._shown = True

    def done(self) -> None:
        if self._shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _say(args, message: str) -> None:
    if not getattr(args, "quiet", False):
        print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def _load(args):
    from fastapply import models

    _say(args, f"loading model {models.resolve(args.model).name} ...")
    return models.load(args.model, device=args.device, dtype=args.dtype)


def cmd_apply(args) -> int:
    from fastapply.textio import atomic_write, read_text

    original = read_text(args.original)
    snippet = read_text(args.snippet, "snippet" if args.snippet == "-" else None)
    if not snippet.strip():
        raise InputError("the snippet is empty: nothing to apply")

    from fastapply.pipeline import EditStream

    progress = Progress(not args.quiet)
    stream = EditStream(
        original, snippet, args.instruction, strategy=args.strategy, path=args.original, loader=lambda: _load(args),
        temperature=args.temperature, top_p=args.top_p, seed=args.seed, max_tokens=args.max_tokens,
        draft=args.draft, on_progress=progress,
    )
    if stream.prepared is not None:
        _say(args, f"applying the edit with the model ({len(stream.prepared.prompt_ids)} prompt tokens) ...")
    for _ in stream:
        pass
    progress.done()
    result = stream.result
    forced = args.force and result.guarded and result.guard != "closed"
    if not result.complete and not forced:
        _say(args, result.summary_line())
        if result.path == "instant":
            raise RefusedError(f"the instant merge refused: {result.refused_reason}; nothing was written (try --strategy auto)")
        stats = result.stats
        if result.guard == "closed":
            raise IncompleteOutputError(
                f"the model did not finish the file (stopped after {stats.completion_tokens} tokens: "
                f"{stats.finish_reason or 'no end'}); nothing was written"
            )
        if not args.quiet:
            sys.stderr.write("".join(_diff(original, result.text, args.original)))
        raise GuardError(
            f"the model's answer failed the {result.guard} guard: {result.guard_reason}; nothing was written "
            "(its diff is above; --force writes it anyway)"
        )
    target = args.original if args.in_place else args.output
    if target:
        atomic_write(target, result.text)
    if args.diff:
        sys.stdout.write("".join(_diff(original, result.text, args.original)))
    elif not target:
        sys.stdout.write(result.text)
    sys.stdout.flush()
    _say(args, result.summary_line())
    return 0


def _diff(before: str, after: str, name: str):
    return difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{name}", tofile=f"b/{name}"
    )


def cmd_bench(args) -> int:
    from fastapply.bench import BenchRow, format_table, run_bench
    from fastapply.evaluate import load_examples

    examples = load_examples(args.data, args.limit, args.max_lines)
    loaded = _load(args)
    _say(args, f"benchmarking {len(examples)} examples{' (--copy)' if args.copy else ''} on {loaded.name} ...")
    report = run_bench(loaded, examples, copy=args.copy, max_tokens=args.max_tokens)
    rows = [BenchRow(**r) for r in report["examples"]]
    print(f"model {report['model']} on {report['device']}")
    print(format_table(rows, report["summary"]))
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2)
    return 0


def cmd_eval(args) -> int:
    from fastapply.evaluate import cmd_eval as run_eval_command, default_apply_fn_factory

    def factory(strategy, model_name):
        if strategy != "instant":
            _load(args)  # load once, with --device/--dtype, before timing starts
        return default_apply_fn_factory(strategy, model_name)

    return run_eval_command(args, factory)


def cmd_models(args) -> int:
    from fastapply import models

    for name, description in models.BUNDLED.items():
        default = " (default)" if name == models.DEFAULT_MODEL else ""
        print(f"{name}{default}: {description}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except FastApplyError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; nothing was written", file=sys.stderr)
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
