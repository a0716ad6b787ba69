"""options: the shared argparse types, model options and the one-line usage errors."""

from __future__ import annotations

import argparse

import pytest

from fastapply import models, options


@pytest.mark.parametrize("parse, good, bad", [
    (options.positive_int, {"1": 1, "10": 10}, ["0", "-1", "1.5", "", "nan"]),
    (options.non_negative_int, {"0": 0, "7": 7}, ["-1", "x", ""]),
    (options.temperature, {"0": 0.0, "2": 2.0, "0.7": 0.7}, ["-0.1", "2.01", "nan", "inf", "-inf", ""]),
    (options.top_p, {"1": 1.0, "0.5": 0.5, "1e-9": 1e-9}, ["0", "-1", "1.01", "nan", ""]),
    (options.seed, {"0": 0, "-1": -1, str(2**64 - 1): 2**64 - 1}, ["-2", str(2**64), "1.0", "nan", ""]),
    (options.device_name, {"cpu": "cpu", "CUDA": "cuda", "cuda:1": "cuda:1", "mps": "mps"}, ["", "gpu", "cuda:", "cuda:x"]),
    (options.non_empty("--host"), {"0.0.0.0": "0.0.0.0"}, ["", " \t"]),
])
def test_types_accept_their_range_and_refuse_the_rest(parse, good, bad):
    for text, value in good.items():
        assert parse(text) == value
    for text in bad:
        with pytest.raises(argparse.ArgumentTypeError):
            parse(text)


def test_minus_one_picks_a_fresh_seed_and_others_stay():
    assert options.resolve_seed(None) is None and options.resolve_seed(0) == 0
    picked = {options.resolve_seed(-1) for _ in range(8)}
    assert all(0 <= s < 2**32 for s in picked) and len(picked) > 1


def test_model_options_are_declared_once_with_the_real_default():
    p = argparse.ArgumentParser()
    options.add_model_arguments(p)
    args = p.parse_args([])
    assert (args.model, args.device, args.dtype) == (None, None, None)
    assert f"or {models.DEFAULT_MODEL})" in options.model_help()
    q = argparse.ArgumentParser()
    options.add_model_arguments(q, default=models.BASE_MODEL, device=False, dtype=False)
    assert vars(q.parse_args([])) == {"model": models.BASE_MODEL}


def test_usage_errors_name_the_innermost_subcommand(capsys):
    parser = options.Parser(prog="tool")
    sub = parser.add_subparsers(dest="command")
    outer = sub.add_parser("outer")
    inner = outer.add_subparsers(dest="inner").add_parser("inner")
    inner.add_argument("--n", type=options.positive_int)
    for argv, prog in [(["outer", "inner", "--n", "0"], "tool outer inner"),
                       (["outer", "inner", "--bogus"], "tool outer inner"),
                       (["--bogus"], "tool")]:
        with pytest.raises(SystemExit) as exc:
            parser.parse_args(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2
        assert err.splitlines()[0].startswith(f"{prog}: error: ") and err.splitlines()[1:] == [f"try '{prog} --help'"]
    args = parser.parse_args(["outer", "inner", "--n", "3"])
    assert vars(args) == {"command": "outer", "inner": "inner", "n": 3}  # no bookkeeping left behind
