"""`fastapply mcp` options: bad ones fail at start with one line, before any protocol traffic."""

import pytest

from fastapply.cli import build_parser, main


def test_defaults():
    args = build_parser().parse_args(["mcp"])
    assert args.root is None and args.strategy == "auto" and args.model is None
    args = build_parser().parse_args(["mcp", "--root", "a", "--root", "b", "-s", "instant"])
    assert args.root == ["a", "b"] and args.strategy == "instant"


@pytest.mark.extras
def test_bad_root_and_unknown_model_fail_at_start(tmp_path, capsys):
    assert main(["mcp", "--root", str(tmp_path / "missing")]) == 2
    assert main(["mcp", "--root", str(tmp_path), "--model", "no-such-model"]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout belongs to the protocol
    assert "is not a directory" in captured.err and "unknown model 'no-such-model'" in captured.err
    assert "Traceback" not in captured.err
