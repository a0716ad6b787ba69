"""Command-line options shared by several subcommands, declared once: the model options and the
number types, plus an argparse parser whose errors are one line and a hint.

- `add_model_arguments(parser)`: `-m/--model`, `--device`, `--dtype`, with one help text that names
  the real default model (`models.DEFAULT_MODEL`). Subcommands whose default is another model
  (`train` tunes the untuned base) pass `default=`.
- argparse types: `positive_int`, `non_negative_int`, `temperature`, `top_p`, `seed`, `device_name`,
  `non_empty`; each raises `argparse.ArgumentTypeError` with a short reason.
- `add_size_arguments(parser)`: the input size limits (limits.py) checked before anything is read
  or tokenised.
- `Parser`: an `ArgumentParser` that reports a usage error as `PROG CMD: error: ...` plus
  `try 'PROG CMD --help'` (two lines, exit code 2) instead of the whole usage block.

Seeds: `-1` means "pick a random seed" (as in llama.cpp); `resolve_seed` picks it, so the caller
can report the seed it used. Any other seed must be in [0, 2**64 - 1].

This module imports nothing heavy (no torch, no fastapi) and knows nothing about commands' logic.
"""

from __future__ import annotations

import argparse
import math
import re
import secrets

from fastapply import extras, models
from fastapply.errors import InputError
from fastapply.limits import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_SNIPPET_BYTES

DTYPES = ("float32", "bfloat16", "float16")
MAX_SEED = 2**64 - 1
RANDOM_SEED = -1
_INNERMOST = "_fastapply_parser"  # set on the namespace by Parser, removed before it is returned
_DEVICE = re.compile(r"^(cpu|mps|cuda(:\d+)?)$")


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, with a hint to the full help (subparsers inherit the class)."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\ntry '{self.prog} --help'\n")

    def parse_known_args(self, args=None, namespace=None):
        namespace, unknown = super().parse_known_args(args, namespace)
        if getattr(namespace, _INNERMOST, None) is None:  # the innermost subcommand parses first
            setattr(namespace, _INNERMOST, self)
        return namespace, unknown

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but unknown arguments are reported by the subcommand that got them."""
        namespace, unknown = self.parse_known_args(args, namespace)
        innermost = vars(namespace).pop(_INNERMOST, None) or self
        if unknown:
            innermost.error(f"unrecognized arguments: {' '.join(unknown)}")
        return namespace


def positive_int(text: str) -> int:
    """An integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value}")
    return value


def number_in(name: str, low: float, high: float, low_open: bool = False):
    """An argparse type for a finite float in [low, high] (or (low, high] with low_open)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        inside = (low < value) if low_open else (low <= value)
        if math.isnan(value) or not inside or not value <= high:
            bracket = "(" if low_open else "["
            raise argparse.ArgumentTypeError(f"{name} must be in {bracket}{low:g}, {high:g}], got {text.strip()}")
        return value

    parse.__name__ = name  # argparse names the type in some messages
    return parse


def int_in(name: str, low: int, high: int):
    """An argparse type for an integer in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer {name}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be in [{low}, {high}], got {value}")
        return value

    parse.__name__ = name
    return parse


port = int_in("port", 0, 65535)
seconds = number_in("seconds", 0.0, 86_400.0, low_open=True)
temperature = number_in("temperature", 0.0, 2.0)
top_p = number_in("top-p", 0.0, 1.0, low_open=True)


def seed(text: str) -> int:
    """A sampling seed in [0, 2**64 - 1], or -1 for a random one."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if value != RANDOM_SEED and not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"seed must be -1 (random) or in [0, 2**64 - 1], got {value}")
    return value


def resolve_seed(value: int | None) -> int | None:
    """-1 becomes a fresh random seed (so it can be reported and the run repeated); others as given."""
    return secrets.randbits(32) if value == RANDOM_SEED else value


def device_name(text: str) -> str:
    """cpu, cuda, cuda:N or mps (whether it exists is checked when the model loads)."""
    value = text.strip().lower()
    if not _DEVICE.match(value):
        raise argparse.ArgumentTypeError(f"expected cpu, cuda, cuda:N or mps, got {text!r}")
    return value


def non_empty(what: str):
    """An argparse type for a string that must not be empty or blank."""

    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"{what} must not be empty")
        return text

    parse.__name__ = what
    return parse


def model_help(default: str | None = None) -> str:
    if default is None:
        return (f"bundled name ({', '.join(models.BUNDLED)}), .gguf file, model directory, Hub id, "
                f"remote:URL#MODEL or openai:URL#MODEL (default: ${models.ENV_VAR} or {models.DEFAULT_MODEL})")
    return f"bundled name, .gguf file, model directory or Hub id (default: {default})"


def add_model_arguments(parser: argparse.ArgumentParser, *, default: str | None = None, device: bool = True,
                        dtype: bool = True, model_help_text: str | None = None) -> None:
    """`-m/--model`, and `--device` and `--dtype` unless turned off, declared the same everywhere."""
    parser.add_argument("-m", "--model", default=default, type=non_empty("--model"),
                        help=model_help_text or model_help(default))
    if device:
        parser.add_argument("--device", type=device_name, help="cpu, cuda, cuda:N or mps (default: cuda when available)")
    if dtype:
        parser.add_argument("--dtype", choices=DTYPES, help="default: float32 on CPU, bfloat16 on CUDA")


def add_size_arguments(parser: argparse.ArgumentParser) -> None:
    """Input size limits, checked before a file is read or anything is tokenised."""
    parser.add_argument("--max-file-bytes", type=positive_int, default=DEFAULT_MAX_FILE_BYTES, metavar="N",
                        help=f"refuse an original file bigger than N bytes (default: {DEFAULT_MAX_FILE_BYTES})")
    parser.add_argument("--max-snippet-bytes", type=positive_int, default=DEFAULT_MAX_SNIPPET_BYTES, metavar="N",
                        help=f"refuse a snippet bigger than N bytes (default: {DEFAULT_MAX_SNIPPET_BYTES})")


def check_device(device: str | None) -> None:
    """A clear error for an accelerator this machine lacks (torch is imported anyway to load)."""
    if not device or device == "cpu":
        return
    try:
        import torch
    except ImportError:
        return  # models.load says torch is missing
    if device.startswith("cuda"):
        if not torch.cuda.is_available():
            raise InputError(f"--device {device}: CUDA is not available on this machine (use --device cpu)")
        index = int(device.partition(":")[2] or 0)
        if index >= torch.cuda.device_count():
            raise InputError(f"--device {device}: this machine has {torch.cuda.device_count()} CUDA device(s)")
    elif device == "mps" and not (getattr(torch.backends, "mps", None) and torch.backends.mps.is_available()):
        raise InputError("--device mps: MPS is not available on this machine (use --device cpu)")


def load_model(args, say=None):
    """The model the `--model/--device/--dtype` options name, loaded once per process; a clear
    error for a device this machine lacks, or for the [model] extra missing (naming the command).
    `say(message)` reports progress."""
    command = getattr(args, "command", None)
    extras.require("model", f"fastapply {command}" if command else "the model path")
    check_device(args.device)
    if say:
        say(f"loading model {models.resolve(args.model).name} ...")
    return models.load(args.model, device=args.device, dtype=args.dtype)
