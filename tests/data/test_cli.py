"""`fastapply data build|mine` and `fastapply train` argument handling (no model loaded)."""

import argparse
import gzip
import json

import pytest

from fastapply.data import cli as data_cli
from fastapply.errors import InputError
from fastapply.train import cli as train_cli


def _parser():
    p = argparse.ArgumentParser(prog="fastapply")
    sub = p.add_subparsers(dest="command")
    data_cli.add_arguments(sub)
    train_cli.add_arguments(sub)
    return p


def _run(argv):
    args = _parser().parse_args(argv)
    return args.func(args)


def test_data_build_writes_splits(tmp_path):
    before = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(40))
    rows = []
    for repo in ("a/one", "b/two"):
        for k in range(3):
            after = before.replace(f"return x + {k}\n", f"return x - {k}\n")
            rows.append({"repo": repo, "path": f"m{k}.py", "language": "python", "subject": "s",
                         "before": before, "after": after})
    pairs = tmp_path / "pairs.jsonl.gz"
    with gzip.open(pairs, "wt") as fh:
        fh.write("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "data"
    assert _run(["data", "build", str(pairs), "-o", str(out), "--no-tokenize", "--heldout-repo", "b/two",
                 "--small-keep", "1"]) == 0
    train = [json.loads(l) for l in open(out / "train.jsonl")]
    held = [json.loads(l) for l in open(out / "heldout.jsonl")]
    assert {e["repo"] for e in train} == {"a/one"} and {e["repo"] for e in held} == {"b/two"}
    assert all({"original", "snippet", "instruction", "expected", "style", "path", "language"} <= set(e) for e in train)
    assert json.loads((out / "stats.json").read_text())["train"]["examples"] == len(train)


@pytest.mark.extras
def test_bad_inputs_raise_input_error(tmp_path):
    with pytest.raises(InputError):
        _run(["data", "build", str(tmp_path / "missing.jsonl"), "--no-tokenize"])
    with pytest.raises(InputError):
        _run(["data", "build", str(tmp_path / "x.jsonl"), "--small-keep", "2", "--no-tokenize"])
    with pytest.raises(InputError):
        _run(["data", "mine", str(tmp_path)])
    with pytest.raises(InputError):
        _run(["train", "--data", str(tmp_path)])
    with pytest.raises(InputError):
        _run(["train", "--data", str(tmp_path), "--rank", "0"])


def test_data_mine_releases_writes_pairs_and_planner_set_reads_them(tmp_path):
    body = "".join(f"x{i} = {i}\n" for i in range(30))
    for top, text in (("old", body), ("new", body.replace("x3 = 3", "x3 = 33"))):
        (tmp_path / top).mkdir()
        (tmp_path / top / "m.py").write_text(text)
    pairs = tmp_path / "pairs.jsonl.gz"
    assert _run(["data", "mine-releases", str(tmp_path / "old"), str(tmp_path / "new"), "--name", "me/pkg",
                 "--subject", "Bump x3", "-o", str(pairs)]) == 0
    rows = [json.loads(line) for line in gzip.open(pairs, "rt")]
    assert [(r["path"], r["subject"]) for r in rows] == [("m.py", "Bump x3")]
    out = tmp_path / "set.jsonl"
    assert _run(["data", "planner-set", str(pairs), "-o", str(out), "--n", "1"]) == 0
    assert json.loads(out.read_text())["expected"] == body.replace("x3 = 3", "x3 = 33")
    with pytest.raises(InputError):
        _run(["data", "mine-releases", str(tmp_path / "missing"), str(tmp_path / "new"), "--name", "x"])
