"""The `fastapply` command line: parse, pick components by name, report. No logic of its own.

    fastapply apply ORIGINAL SNIPPET [--instruction TEXT] [-o OUT | --in-place] [--diff] [--model M] ...
    fastapply bench --data FILE.jsonl [--limit N] [--copy] [--json OUT]
    fastapply models

Errors a user can cause (`FastApplyError`) print `fastapply: error: <message>` and exit nonzero
with the error's code; the input file is never touched unless a complete result is written. A
standard output that fails (a closed pipe, /dev/full) is one such line too (exit 1), never a traceback.
Options shared with other subcommands and the argparse types live in options.py; `apply` refuses
what it can (targets, model names, seeds, sizes) before reading inputs or loading a model.
Heavy imports (torch, transformers) happen inside commands, so `fastapply --help` is instant. A
command whose optional extra is not installed exits 2 with one line naming it (extras.py), and so
does any other missing third-party module a command imports.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import sys

from fastapply import __version__, extras, options
from fastapply.errors import (
    FastApplyError, GuardError, IncompleteOutputError, InputError, MissingExtraError, OutputError, ReadOnlyError,
    RefusedError,
)
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
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: the result, or the refusal (kind, lines, fix, options); exit codes unchanged")
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
    p.add_argument("--force-read-only", action="store_true",
                   help="replace the file (--in-place, -o) even when it is read-only (exit 10 otherwise)")
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
    if getattr(args, "json", False) and args.diff:
        raise InputError("--json and --diff cannot be combined: --json prints the file (or the refusal) as JSON")
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
        _with_read_only_hint(check_writable, args.output, read_only_ok=args.force_read_only)
    if args.in_place:
        _with_read_only_hint(check_writable, args.original, read_only_ok=args.force_read_only)
    if args.strategy == "model":
        extras.require("model", f"{PROG} apply --strategy model")
        if args.model or os.environ.get(models.ENV_VAR):
            models.resolve(args.model)  # a wrong name or a missing model fails before the inputs are read
    elif args.model or (args.strategy == "auto" and os.environ.get(models.ENV_VAR)):
        # an unknown name fails now, even when the instant merge would succeed (with instant it is
        # never loaded, but a typo is still a typo); its files are looked for only when it loads
        models.resolve(args.model, locate=False)
    if args.strategy != "instant":
        options.check_device(args.device)  # before the instant merge, which would hide a wrong device
    if args.instruction:
        check_size(args.instruction, args.max_snippet_bytes, "the instruction", "--max-snippet-bytes")
    if args.seed == options.RANDOM_SEED:
        args.seed = options.resolve_seed(args.seed)
        _say(args, f"--seed -1: sampling with random seed {args.seed}")


def _with_read_only_hint(write, *a, **k):
    """`write(*a, **k)` (check_writable, atomic_write); a read-only refusal names the override."""
    try:
        return write(*a, **k)
    except ReadOnlyError as exc:
        raise ReadOnlyError(f"{exc} (--force-read-only replaces it anyway)", exc.mode) from None


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


def result_json(result, text: str | None = None, written: str | None = None) -> dict:
    """`apply --json`'s object: merged or not, how, the file (when printed) or where it went, and
    a refusal as data (merge/refuse/refusal.py) with the model's guard, when there was one."""
    out = {"merged": bool(result.complete), "path": result.path, "method": result.method, "rung": result.rung}
    if text is not None:
        out["text"] = text
    if written:
        out["written"] = written
    if result.refusal is not None:
        out["refusal"] = result.refusal.to_dict()
    elif result.refused_reason:
        out["refusal"] = {"kind": "form", "message": result.refused_reason}
    if result.guard:
        out["guard"] = {"name": result.guard, "reason": result.guard_reason}
    return out


def _say_options(args, refusal) -> None:
    """A refusal's concrete revisions of the snippet, the first `MAX_SHOWN` in the order an agent's
    answer shows them (the pipeline put them in reading order: merge/instant.py `ordered_refusal`),
    before the error line: each is an edit to the snippet file."""
    from fastapply.merge.refuse.ranking import MAX_SHOWN, left_out

    if not refusal.options:
        return
    _say(args, f"{len(refusal.options)} way(s) to revise the snippet; options at the same snippet lines are "
               "alternatives (pick one per part):")
    for n, option in enumerate(refusal.options[:MAX_SHOWN], 1):
        _say(args, f"  option {n}: {option.says}")
    left, _ = left_out(refusal.options)
    if left:
        _say(args, f"  ... and {left} more (--json lists them all)")


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
        if result.path != "instant":  # an instant refusal's reason is the error below: said once
            _say(args, result.summary_line())
        if getattr(args, "json", False):
            write_stdout(json.dumps(result_json(result), ensure_ascii=False) + "\n")
        if result.path == "instant":
            if result.refusal is not None and not getattr(args, "json", False):
                _say_options(args, result.refusal)
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
        _with_read_only_hint(atomic_write, target, result.text, read_only_ok=args.force_read_only)
    written = f"; {target} was written" if target else ""
    if getattr(args, "json", False):
        write_stdout(json.dumps(result_json(result, None if target else result.text, target), ensure_ascii=False) + "\n",
                     written)
    elif args.diff:
        write_stdout("".join(_diff(original, result.text, args.original)), written)
    elif not target:
        write_stdout(result.text)
    _say(args, result.summary_line())
    return 0


def _silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so the interpreter's own flush at exit cannot fail
    again and print a traceback (what Python's documentation advises for a closed pipe)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):  # not a real file (a test's capture): nothing to silence
        pass


def _stdout_error(exc: OSError, done: str = "") -> OutputError:
    _silence_stdout()
    why = "it was closed (broken pipe)" if isinstance(exc, BrokenPipeError) else (exc.strerror or str(exc))
    return OutputError(f"cannot write to standard output: {why}{done}")


def write_stdout(text: str, done: str = "") -> None:
    """Write `text` to standard output as UTF-8 bytes, exactly; a failing stdout (a closed pipe, a
    full disk) is an `OutputError` (one line, exit 1), `done` saying what was written anyway."""
    try:
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            out.write(text.encode("utf-8"))
            out.flush()
    except OSError as exc:
        raise _stdout_error(exc, done) from None


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
    stdout = sys.stdout
    if args.command not in _OWN_STDOUT:
        sys.stdout = _CheckedStdout(stdout)
    try:
        code = args.func(args)
        sys.stdout.flush()  # what a command printed fails here, not in the interpreter's exit
        return code
    except FastApplyError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except ModuleNotFoundError as exc:  # an optional package a command did not check for (extras.require)
        if not exc.name or exc.name.partition(".")[0] == PROG:
            raise  # our own module missing is a bug, not an install to suggest
        extra = extras.extra_for(exc.name)
        hint = extras.install_hint(extra if extra else "all")
        print(f"{PROG}: error: {args.command} needs {exc.name or 'a package'} that is not installed: {hint}",
              file=sys.stderr)
        return MissingExtraError.exit_code
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; nothing was written", file=sys.stderr)
        return 130
    finally:
        sys.stdout = stdout


_OWN_STDOUT = {"serve", "mcp"}  # long-running: the server or the MCP protocol owns standard output


class _CheckedStdout:
    """Standard output during a command: a print that fails (a closed pipe, a full disk) raises
    `OutputError`, one line and exit 1, instead of a traceback."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise _stdout_error(exc) from None

    def flush(self):
        try:
            return self._stream.flush()
        except OSError as exc:
            raise _stdout_error(exc) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


if __name__ == "__main__":
    sys.exit(main())
