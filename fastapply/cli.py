"""The `fastapply` command line: parse, pick components by name, report. No logic of its own.

    fastapply apply ORIGINAL SNIPPET [--instruction TEXT] [-o OUT | --in-place] [--diff] [--model M] ...
    fastapply bench --data FILE.jsonl [--limit N] [--copy] [--json OUT]
    fastapply models

Errors a user can cause (`FastApplyError`) print `fastapply: error: <message>` and exit nonzero
with the error's code; the input file is never touched unless a complete result is written.
Options shared with other subcommands and the argparse types live in options.py; `apply` refuses
what it can (targets, model names, seeds, sizes) before reading inputs or loading a model.
Heavy imports (torch, transformers) happen inside commands, so `fastapply --help` is instant.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys

from fastapply import __version__, options
from fastapply.errors import FastApplyError, GuardError, IncompleteOutputError, InputError, RefusedError
from fastapply.options import positive_int

PROG = "fastapply"


def build_parser() -> argparse.ArgumentParser:
    parser = options.Parser(prog=PROG, description="Apply code edits to whole files, fast: speculative edits over a fast-apply model.")
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
    options.add_model_arguments(p)
    p.add_argument("-t", "--temperature", type=options.temperature, default=0.0, help="0 = greedy (default), at most 2")
    p.add_argument("--top-p", type=options.top_p, default=1.0, help="nucleus sampling, in (0, 1] (default: 1)")
    p.add_argument("--seed", type=options.seed, help="sampling seed in [0, 2**64 - 1]; -1 picks a random one and reports it")
    p.add_argument("--max-tokens", type=positive_int, help="output token budget (default: file + snippet + 64)")
    p.add_argument("-s", "--strategy", choices=["auto", "instant", "model"], default="auto",
                   help="auto: instant merge, else the model (default); instant: never load a model; model: always the model")
    p.add_argument("--draft", choices=["speculative", "lookup", "none"], default="speculative",
                   help="speculative edits (default), prompt lookup only, or plain decoding")
    options.add_size_arguments(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument("--force", action="store_true",
                   help="write a closed model answer even when it fails a guard (exit 8 otherwise)")
    p.set_defaults(func=cmd_apply)

    from fastapply.evaluation import cli as evaluation_cli

    evaluation_cli.add_arguments(sub)
    from fastapply.data import cli as data_cli
    from fastapply.serve.cli import add_arguments as add_serve_arguments
    from fastapply.train import cli as train_cli
    from fastapply.mcp import cli as mcp_cli
    from fastapply import doctor

    data_cli.add_arguments(sub)
    train_cli.add_arguments(sub)
    add_serve_arguments(sub)
    mcp_cli.add_arguments(sub)
    doctor.add_arguments(sub)

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
    return options.load_model(args, say=lambda message: _say(args, message))


def _check_apply_args(args) -> None:
    """Everything about `apply`'s arguments that can be refused before reading or loading anything."""
    from fastapply import models
    from fastapply.limits import check_size
    from fastapply.textio import check_writable

    if not args.original:
        raise InputError("ORIGINAL is an empty file name")
    if not args.snippet:
        raise InputError("SNIPPET is an empty file name (use - for standard input)")
    if args.original == "-":
        if args.in_place:
            raise InputError("--in-place needs a file: ORIGINAL is standard input (-), which cannot be replaced")
        if args.snippet == "-":
            raise InputError("ORIGINAL and SNIPPET cannot both be standard input (-)")
    if args.output is not None:
        if not args.output:
            raise InputError("-o/--output is an empty file name")
        check_writable(args.output)
    if args.in_place:
        check_writable(args.original)
    if args.strategy != "instant" and (args.model or os.environ.get(models.ENV_VAR)):
        models.resolve(args.model)  # an unknown name fails now, even when the instant merge would succeed
    elif args.strategy == "instant" and args.model:
        models.resolve(args.model)  # never loaded, but a typo is still a typo
    if args.strategy != "instant":
        options.check_device(args.device)  # before the instant merge, which would hide a wrong device
    if args.instruction:
        check_size(args.instruction, args.max_snippet_bytes, "the instruction", "--max-snippet-bytes")
    if args.seed == options.RANDOM_SEED:
        args.seed = options.resolve_seed(args.seed)
        _say(args, f"--seed -1: sampling with random seed {args.seed}")


def _read_inputs(args) -> tuple[str, str]:
    """The original (exactly, BOM included) and the snippet (without a BOM), size limits first."""
    from fastapply.rewrite.prompts import without_bom
    from fastapply.textio import read_text

    original = read_text(args.original, "standard input" if args.original == "-" else None,
                         max_bytes=args.max_file_bytes, limit_option="--max-file-bytes")
    snippet = read_text(args.snippet, "snippet" if args.snippet == "-" else None,
                        max_bytes=args.max_snippet_bytes, limit_option="--max-snippet-bytes")
    snippet = without_bom(snippet)  # an encoding mark, not part of the edit
    if not snippet.strip():
        raise InputError("the snippet is empty: nothing to apply")
    return original, snippet


def cmd_apply(args) -> int:
    from fastapply.textio import atomic_write

    _check_apply_args(args)
    original, snippet = _read_inputs(args)

    from fastapply.pipeline import EditStream

    progress = Progress(not args.quiet)
    stream = EditStream(
        original, snippet, args.instruction, strategy=args.strategy, path=args.original,
        loader=lambda: _load(args),
        temperature=args.temperature, top_p=args.top_p, seed=args.seed, max_tokens=args.max_tokens,
        draft=args.draft, on_progress=progress,
    )
    if stream.prepared is not None:
        _say(args, f"applying the edit with the model ({len(stream.prepared.prompt_ids)} prompt tokens) ...")
    elif stream.chat:
        where = f"lines {stream.window.start + 1}-{stream.window.end}" if stream.window else "the whole file"
        _say(args, f"sending the edit ({where}) to {stream.loaded.name} ...")
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
        diff = "".join(_diff(original, result.text, args.original))
        if not args.quiet:
            sys.stderr.write(diff)
        shown = "its diff is above" if diff else "the answer left the file unchanged"
        raise GuardError(
            f"the model's answer failed the {result.guard} guard: {result.guard_reason}; nothing was written "
            f"({shown}; --force writes it anyway)"
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
