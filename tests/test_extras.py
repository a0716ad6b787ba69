"""A core install (`pip install fastapply`, no extras): the instant merge works and imports no torch;
every command whose extra is missing says which one in one line and exits 2 (fastapply/extras.py).

The missing packages are simulated in a child process by `sys.modules[name] = None` (import fails
with ModuleNotFoundError and `importlib.util.find_spec` finds nothing), so these tests run in the
full environment too; the CI's core step (.ci/run) runs the core tests in a venv that truly lacks them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fastapply import cli, extras
from fastapply.errors import MissingExtraError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ALL_EXTRAS = sorted({m for names in extras.EXTRAS.values() for m in names} | {"starlette", "safetensors", "tokenizers"})

RUN = """
import json, sys
for name in json.loads(sys.argv[1]):
    sys.modules[name] = None
from fastapply.cli import main
code = main(sys.argv[2:])
heavy = sorted(m for m in ("torch", "transformers", "fastapi", "mcp", "matplotlib") if sys.modules.get(m) is not None)
print("HEAVY=" + ",".join(heavy), file=sys.stderr)
sys.exit(code)
"""


def run_without(blocked, *argv, cwd=None):
    """Run `fastapply ARGV` in a child process where the `blocked` modules cannot be imported."""
    proc = subprocess.run([sys.executable, "-c", RUN, json.dumps(list(blocked)), *map(str, argv)],
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k != "FASTAPPLY_MODEL"},
                               "PYTHONPATH": str(ROOT)})
    *lines, heavy = proc.stderr.rstrip("\n").split("\n")
    assert heavy.startswith("HEAVY="), proc.stderr
    return proc.returncode, proc.stdout, lines, heavy[len("HEAVY="):]


@pytest.fixture
def store(tmp_path):
    """The demo's model edit: the instant merge refuses it (is the new docstring line a change or an addition?)."""
    for name in ("store.py", "cart.snippet.py", "inventory.py", "inventory.snippet.py"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    return tmp_path


def test_require_names_the_extra_and_its_install_command(monkeypatch):
    monkeypatch.setitem(extras.EXTRAS, "serve", ("fastapply_no_such_module",))
    assert extras.missing("serve") == ["fastapply_no_such_module"] and not extras.installed("serve")
    with pytest.raises(MissingExtraError) as exc:
        extras.require("serve", "fastapply serve")
    assert str(exc.value) == "fastapply serve needs the [serve] extra: pip install 'fastapply[serve]'"
    assert exc.value.exit_code == 2
    monkeypatch.setitem(extras.EXTRAS, "mcp", ("json",))
    extras.require("mcp", "fastapply mcp")  # found: nothing raised


def test_modules_map_to_their_extra():
    assert extras.extra_for("torch.nn") == "model" and extras.extra_for("transformers") == "model"
    assert extras.extra_for("starlette.responses") == "serve" and extras.extra_for("matplotlib.pyplot") == "train"
    assert extras.extra_for("mcp.server") == "mcp" and extras.extra_for("json") is None and extras.extra_for(None) is None


def test_an_instant_edit_runs_without_any_extra_and_imports_no_torch(store):
    code, out, err, heavy = run_without(ALL_EXTRAS, "apply", store / "inventory.py", store / "inventory.snippet.py",
                                        "--strategy", "instant", "--diff")
    assert code == 0, err
    assert out.startswith("--- a/") and heavy == ""
    assert len(err) == 1 and err[0].startswith("fastapply: path=instant")
    code, out, err, heavy = run_without(ALL_EXTRAS, "apply", store / "inventory.py", store / "inventory.snippet.py")
    assert code == 0 and heavy == "" and "path=instant" in err[0]  # auto, merged: no model needed


def test_auto_without_the_model_extra_says_why_the_model_was_needed(store):
    before = (store / "store.py").read_bytes()
    code, out, err, heavy = run_without(ALL_EXTRAS, "apply", store / "store.py", store / "cart.snippet.py", "--in-place",
                                        "-i", "Say in the Cart docstring that items are keyed by name")
    assert code == 2 and out == "" and heavy == ""
    assert len(err) == 1, err
    assert err[0].startswith("fastapply: error: the instant merge refused (")
    assert err[0].endswith("so fastapply apply needs the [model] extra: pip install 'fastapply[model]'")
    assert (store / "store.py").read_bytes() == before


@pytest.mark.parametrize("argv, message", [
    (["apply", "{d}/store.py", "{d}/cart.snippet.py", "--strategy", "model"],
     "fastapply apply --strategy model needs the [model] extra: pip install 'fastapply[model]'"),
    (["apply", "{d}/store.py", "{d}/cart.snippet.py", "--strategy", "model", "-m", "fastapply-135m"],
     "fastapply apply --strategy model needs the [model] extra: pip install 'fastapply[model]'"),
    (["serve"], "fastapply serve needs the [serve] extra: pip install 'fastapply[serve]'"),
    (["mcp", "--root", "{d}"], "fastapply mcp needs the [mcp] extra: pip install 'fastapply[mcp]'"),
    (["train", "--data", "{d}"], "fastapply train needs the [train] extra: pip install 'fastapply[train]'"),
    (["bench", "--data", "{d}/rows.jsonl"], "fastapply bench needs the [model] extra: pip install 'fastapply[model]'"),
    (["eval", "--data", "{d}/rows.jsonl", "--strategy", "auto"],
     "fastapply eval needs the [model] extra: pip install 'fastapply[model]'"),
    (["eval", "--data", "{d}/rows.jsonl", "--report", "{d}/report"],
     "fastapply eval --report needs the [train] extra (its chart is drawn with matplotlib): "
     "pip install 'fastapply[train]'"),
    (["data", "build", "{d}/rows.jsonl", "-o", "{d}/out"],
     "fastapply data build needs the [model] extra (to count tokens; --no-tokenize needs none): "
     "pip install 'fastapply[model]'"),
])
def test_each_command_without_its_extra_exits_2_naming_it(store, argv, message):
    row = {"original": "x = 1\n", "snippet": "x = 2\n# ... existing code ...\n", "expected": "x = 2\n"}
    (store / "rows.jsonl").write_text(json.dumps(row) + "\n")
    (store / "train.jsonl").write_text(json.dumps({"prompt": "a", "answer": "b"}) + "\n")
    code, out, err, heavy = run_without(ALL_EXTRAS, *[a.format(d=store) for a in argv])
    assert (code, err) == (2, [f"fastapply: error: {message}"])
    assert heavy == ""


@pytest.mark.extras
def test_serve_with_its_extra_but_not_the_model_one_names_model():
    code, _, err, _ = run_without(extras.EXTRAS["model"], "serve", "--port", "1")
    assert (code, err) == (2, ["fastapply: error: fastapply serve needs the [model] extra: pip install 'fastapply[model]'"])


def test_instant_with_a_model_name_checks_the_name_but_needs_no_model(store):
    argv = ["apply", store / "inventory.py", store / "inventory.snippet.py", "--strategy", "instant", "-q"]
    assert run_without(ALL_EXTRAS, *argv, "-m", "fastapply-135m-v2")[0] == 0
    code, _, err, _ = run_without(ALL_EXTRAS, *argv, "-m", "no-such-model")
    assert code == 3 and len(err) == 1 and "unknown model 'no-such-model'" in err[0]


def test_an_unchecked_missing_package_is_one_line_naming_its_extra(monkeypatch, capsys):
    def needs_fastapi(args):
        raise ModuleNotFoundError("No module named 'fastapi'", name="fastapi")

    monkeypatch.setattr(cli, "cmd_models", needs_fastapi)
    assert cli.main(["models"]) == 2
    assert capsys.readouterr().err == (
        "fastapply: error: models needs fastapi that is not installed: pip install 'fastapply[serve]'\n")


def test_a_missing_module_of_our_own_is_a_bug_not_an_install_hint(monkeypatch):
    def broken(args):
        raise ModuleNotFoundError("No module named 'fastapply.nothing'", name="fastapply.nothing")

    monkeypatch.setattr(cli, "cmd_models", broken)
    with pytest.raises(ModuleNotFoundError):
        cli.main(["models"])


@pytest.mark.extras
def test_doctor_lists_the_extras():
    code, out, err, _ = run_without(["fastapi"], "doctor")
    assert code == 0
    line = next(x for x in out.splitlines() if x.startswith("extras: "))
    assert "[serve] missing fastapi: pip install 'fastapply[serve]'" in line and "[model] installed" in line
