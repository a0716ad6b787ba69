"""Eval: loading, scoring, summaries, JSON/report output, CLI glue (instant end to end, stubs
for the model strategies)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from fastapply.errors import InputError
from fastapply.evaluate import (
    ApplyOutcome, add_eval_arguments, cmd_eval, instant_apply_fn, load_examples, run_eval, whitespace_match,
)

FIXTURE = Path(__file__).parent / "fixtures" / "edits-small.jsonl"


def parse(argv):
    parser = argparse.ArgumentParser()
    add_eval_arguments(parser)
    return parser.parse_args(argv)


def test_load_examples_and_limit():
    assert [e["id"] for e in load_examples(str(FIXTURE))] == [
        "py-lazy", "go-lazy", "py-search-replace", "py-refused", "py-wrong"]
    assert len(load_examples(str(FIXTURE), limit=2)) == 2


@pytest.mark.parametrize(
    "content, message",
    [("{not json}\n", "not valid JSON"), ('{"original": "a", "snippet": "b"}\n', "missing or non-text field 'expected'"),
     ("[1, 2]\n", "JSON object"), ("", "no examples")],
)
def test_bad_data_raises_input_error(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(InputError, match=message):
        load_examples(str(path))


def test_missing_file_raises_input_error(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_examples(str(tmp_path / "nope.jsonl"))


def test_instant_strategy_scores_merged_refused_and_wrong():
    result = run_eval(load_examples(str(FIXTURE)), "instant", instant_apply_fn, None)
    rows = {r["id"]: r for r in result["examples"]}
    assert [rows[i]["outcome"] for i in ("py-lazy", "go-lazy", "py-search-replace")] == ["merged"] * 3
    assert rows["py-lazy"]["exact"] and rows["py-lazy"]["parses"] is True
    assert rows["py-refused"]["outcome"] == "refused" and rows["py-refused"]["refused_reason"]
    assert rows["py-wrong"]["outcome"] == "wrong" and not rows["py-wrong"]["exact"]
    s = result["summary"]
    assert s["n"] == 5
    assert s["exact_rate"] == pytest.approx(3 / 5)
    assert s["instant_merged_rate"] == pytest.approx(4 / 5)
    assert s["instant_wrong_rate"] == pytest.approx(1 / 5)
    assert s["median_latency_s"] >= 0
    assert set(result["breakdowns"]) == {"language", "snippet_style", "regions"}
    assert result["breakdowns"]["language"]["go"]["n"] == 1
    assert result["breakdowns"]["regions"]["2"]["n"] == 1


def test_stub_model_strategy_and_errors_are_recorded():
    def stub(original, snippet, instruction, strategy):
        if "nowhere" in snippet:
            raise RuntimeError("boom")
        return ApplyOutcome(text=original + "  \n", path="model")

    result = run_eval(load_examples(str(FIXTURE)), "model", stub, "stub-model")
    rows = result["examples"]
    assert all(r["path"] == "model" for r in rows)
    assert result["summary"]["instant_merged_rate"] == 0
    assert any(r["refused_reason"] == "error: RuntimeError: boom" for r in rows)
    assert result["model"] == "stub-model"


def test_whitespace_match():
    assert whitespace_match("a  \nb\n\n", "a\nb\n")
    assert not whitespace_match("a\n b\n", "a\nb\n")


def test_cmd_eval_writes_json_and_report(tmp_path, capsys):
    out = tmp_path / "out.json"
    report = tmp_path / "report"
    args = parse(["--data", str(FIXTURE), "--strategy", "instant", "--json", str(out), "--report", str(report)])
    assert cmd_eval(args, lambda strategy, model: instant_apply_fn) == 0
    data = json.loads(out.read_text())
    assert data["strategy"] == "instant" and data["model"] is None
    for key in ("id", "exact", "whitespace_match", "parses", "path", "refused_reason", "latency_s"):
        assert key in data["examples"][0]
    for key in ("n", "exact_rate", "whitespace_match_rate", "instant_merged_rate", "instant_wrong_rate", "median_latency_s"):
        assert key in data["summary"]
    assert (report / "report.md").read_text().startswith("# fastapply eval report")
    assert (report / "accuracy_vs_speed.png").read_bytes()[:4] == b"\x89PNG"
    captured = capsys.readouterr()
    assert "exact" in captured.out and "instant" in captured.out
    assert "[instant]" in captured.err


def test_cmd_eval_several_strategies_with_stub_factory(tmp_path, capsys):
    calls = []

    def factory(strategy, model):
        calls.append((strategy, model))
        if strategy == "instant":
            return instant_apply_fn
        return lambda original, snippet, instruction, strategy: ApplyOutcome(original, "model")

    out = tmp_path / "r.json"
    args = parse(["--data", str(FIXTURE), "--strategy", "instant,model", "--model", "m", "--json", str(out), "--limit", "3"])
    assert cmd_eval(args, factory) == 0
    assert calls == [("instant", "m"), ("model", "m")]
    assert json.loads(out.read_text())["summary"]["n"] == 3
    assert json.loads((tmp_path / "r.model.json").read_text())["strategy"] == "model"


def test_cmd_eval_rejects_unknown_strategy():
    with pytest.raises(InputError, match="unknown strategy"):
        cmd_eval(parse(["--data", str(FIXTURE), "--strategy", "fast"]), None)
