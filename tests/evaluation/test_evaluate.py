"""Eval: loading, scoring right / wrong / refused, decode statistics on model rows, summaries,
JSON/report output, CLI glue (instant end to end, the fake model for the model strategies)."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from fastapply import cli, models
from fastapply.errors import InputError
from fastapply.evaluation.cli import add_arguments, cmd_eval
from fastapply.evaluation.examples import load_examples
from fastapply.evaluation.run import instant_apply_fn, model_apply_fn, run_eval
from fastapply.evaluation.scoring import whitespace_match
from tests.fakes import FakeLoaded

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "edits-small.jsonl"


@dataclass
class Outcome:
    text: str
    complete: bool
    path: str = "model"
    refused_reason: str | None = None


def parse(argv):
    parser = argparse.ArgumentParser()
    add_arguments(parser.add_subparsers())
    return parser.parse_args(["eval", *argv])


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


def test_instant_strategy_scores_right_refused_and_wrong():
    result = run_eval(load_examples(str(FIXTURE)), "instant", instant_apply_fn, None)
    rows = {r["id"]: r for r in result["examples"]}
    assert [rows[i]["outcome"] for i in ("py-lazy", "go-lazy", "py-search-replace")] == ["right"] * 3
    assert rows["py-lazy"]["exact"] and rows["py-lazy"]["parses"] is True and rows["py-lazy"]["decode"] is None
    assert rows["py-refused"]["outcome"] == "refused" and rows["py-refused"]["refused_reason"]
    assert rows["py-wrong"]["outcome"] == "wrong" and not rows["py-wrong"]["exact"]
    s = result["summary"]
    assert (s["n"], s["right"], s["wrong"], s["refused"]) == (5, 3, 1, 1)
    assert s["instant_written"] == 4 and s["model_runs"] == 0
    assert 0 < s["median_latency_s"] < 1.0  # milliseconds, measured around the call
    assert set(result["breakdowns"]) == {"language", "snippet_style", "regions"}
    assert result["breakdowns"]["language"]["go"]["right"] == 1
    assert result["breakdowns"]["regions"]["2"]["n"] == 1
    assert result["refusals"] and result["refusals"][0][1] == 1


def test_an_incomplete_answer_is_refused_even_when_its_text_is_right():
    example = {"id": "x", "original": "a\n", "snippet": "b\n", "expected": "b\n"}
    result = run_eval([example], "model", lambda *a, **k: Outcome("b\n", complete=False), "m")
    row = result["examples"][0]
    assert row["outcome"] == "refused" and row["exact"]  # a guard refused a right answer: not written


def test_errors_are_recorded_as_refusals():
    def stub(original, snippet, instruction, strategy):
        if "nowhere" in snippet:
            raise RuntimeError("boom")
        return Outcome(original + "  \n", complete=True)

    result = run_eval(load_examples(str(FIXTURE)), "model", stub, "stub-model")
    rows = result["examples"]
    assert all(r["path"] == "model" for r in rows)
    assert any(r["refused_reason"] == "error: RuntimeError: boom" and r["outcome"] == "refused" for r in rows)
    assert result["summary"]["wrong"] == sum(r["outcome"] == "wrong" for r in rows) > 0
    assert result["model"] == "stub-model"


def test_model_rows_carry_the_decode_statistics():
    examples = [e for e in load_examples(str(FIXTURE)) if e["id"] == "py-lazy"]
    loaded = FakeLoaded(examples[0]["expected"])
    result = run_eval(examples, "model", model_apply_fn("model", loaded), loaded.name)
    row = result["examples"][0]
    assert row["outcome"] == "right" and row["path"] == "model"
    d = row["decode"]
    assert d["completion_tokens"] > 0 and d["forward_passes"] > 0
    assert d["accepted_prediction_tokens"] > 0.5 * d["completion_tokens"] and d["chars_per_s"] > 0
    assert result["summary"]["model_right"] == 1 and result["summary"]["accepted_fraction"] > 0.5


def test_whitespace_match():
    assert whitespace_match("a  \nb\n\n", "a\nb\n")
    assert not whitespace_match("a\n b\n", "a\nb\n")


@pytest.mark.extras
def test_cmd_eval_writes_json_and_report(tmp_path, capsys):
    out = tmp_path / "out.json"
    report = tmp_path / "report"
    args = parse(["--data", str(FIXTURE), "--strategy", "instant", "--json", str(out), "--report", str(report)])
    assert cmd_eval(args, lambda strategy: instant_apply_fn) == 0
    data = json.loads(out.read_text())
    assert data["strategy"] == "instant" and data["model"] is None
    for key in ("id", "outcome", "exact", "whitespace_match", "parses", "path", "refused_reason", "latency_s", "decode"):
        assert key in data["examples"][0]
    assert (data["summary"]["right"], data["summary"]["wrong"], data["summary"]["refused"]) == (3, 1, 1)
    text = (report / "report.md").read_text()
    assert text.startswith("# fastapply eval report") and "py-wrong" in text
    assert (report / "accuracy_vs_speed.png").read_bytes()[:4] == b"\x89PNG"
    captured = capsys.readouterr()
    assert "right" in captured.out and "by snippet style" in captured.out
    assert "[instant]" in captured.err


def test_cmd_eval_several_strategies_with_stub_factory(tmp_path, capsys):
    calls = []

    def factory(strategy):
        calls.append(strategy)
        if strategy == "instant":
            return instant_apply_fn
        return lambda original, snippet, instruction, strategy: Outcome(original, True)

    out = tmp_path / "r.json"
    args = parse(["--data", str(FIXTURE), "--strategy", "instant,model", "--model", "m", "--json", str(out), "--limit", "3"])
    assert cmd_eval(args, factory) == 0
    assert calls == ["instant", "model"]
    assert json.loads(out.read_text())["summary"]["n"] == 3
    assert json.loads((tmp_path / "r.model.json").read_text())["strategy"] == "model"


def test_cmd_eval_rejects_unknown_strategy():
    with pytest.raises(InputError, match="unknown strategy"):
        cmd_eval(parse(["--data", str(FIXTURE), "--strategy", "fast"]), None)


@pytest.mark.extras
def test_eval_loads_the_model_once_with_device_and_dtype(monkeypatch, tmp_path, capsys):
    """Bug: --device/--dtype were ignored on the model path (the pipeline loaded a second copy with
    default settings inside the first example's timing)."""
    calls = []

    def fake_load(name=None, device=None, dtype=None):
        calls.append((name, device, dtype))
        return FakeLoaded("def a():\n    return 1\n\n\ndef b():\n    return 3\n")

    monkeypatch.setattr(models, "load", fake_load)
    code = cli.main(["eval", "--data", str(FIXTURE), "--strategy", "auto,model", "--limit", "2",
                     "--device", "cpu", "--dtype", "float32", "--json", str(tmp_path / "o.json")])
    assert code == 0
    assert calls == [(None, "cpu", "float32")]
