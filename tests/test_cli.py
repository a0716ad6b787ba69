"""`fastapply apply` from the command line: outputs, atomic writes, and every bad-input case.

The model is a torch-free fake (tests/fakes.py) patched into models.load, except where the test is
about resolving model names.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fastapply import cli, models
from tests.fakes import FakeLoaded

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
SNIPPET = "def f():\n    return 10\n# ... existing code ...\n"


@pytest.fixture
def files(tmp_path):
    orig = tmp_path / "code.py"
    orig.write_text(ORIGINAL)
    snip = tmp_path / "edit.py"
    snip.write_text(SNIPPET)
    return orig, snip


@pytest.fixture
def fake_model(monkeypatch):
    holder = {"loaded": FakeLoaded(EXPECTED)}
    monkeypatch.setattr(models, "load", lambda *a, **k: holder["loaded"])
    return holder


def run(*argv):
    return cli.main([str(a) for a in argv])


@pytest.mark.extras
def test_apply_prints_the_updated_file_and_a_summary(files, fake_model, capsys):
    orig, snip = files
    assert run("apply", orig, snip, "--strategy", "model") == 0
    out, err = capsys.readouterr()
    assert out == EXPECTED
    assert "path=model" in err and "accepted" in err and "chars/s" in err and "ttft" in err
    assert orig.read_text() == ORIGINAL  # stdout mode never touches the file


@pytest.mark.extras
def test_diff_output_file_and_in_place(files, fake_model, capsys, tmp_path):
    orig, snip = files
    assert run("apply", orig, snip, "--strategy", "model", "--diff") == 0
    out = capsys.readouterr().out
    assert "-    return 1\n+    return 10\n" in out and out.startswith("---")
    target = tmp_path / "out.py"
    assert run("apply", orig, snip, "--strategy", "model", "-o", target) == 0
    assert target.read_text() == EXPECTED
    mode = 0o640
    os.chmod(orig, mode)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place") == 0
    assert orig.read_text() == EXPECTED
    assert (orig.stat().st_mode & 0o777) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["code.py", "edit.py", "out.py"]  # no temp files left


@pytest.mark.extras
def test_snippet_from_stdin(files, fake_model, capsys, monkeypatch):
    orig, _ = files
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SNIPPET.encode())))
    assert run("apply", orig, "-", "--strategy", "model") == 0
    assert capsys.readouterr().out == EXPECTED


def test_auto_strategy_uses_the_instant_path_and_says_so(files, capsys, monkeypatch):
    orig, snip = files
    snip.write_text("def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n")
    monkeypatch.setattr(models, "load", lambda *a, **k: pytest.fail("no model needed"))
    assert run("apply", orig, snip) == 0
    out, err = capsys.readouterr()
    assert out == EXPECTED and "path=instant" in err


@pytest.mark.parametrize(
    "make, code, message",
    [
        (lambda p: None, 2, "no such file"),
        (lambda p: p.mkdir(), 2, "is a directory"),
        (lambda p: p.write_bytes(b"\x7fELF\x00\x01\x02"), 2, "binary"),
        (lambda p: p.write_bytes("caf\u00e9\n".encode("latin-1")), 2, "not valid UTF-8"),
    ],
)
def test_bad_original_files(tmp_path, files, fake_model, capsys, make, code, message):
    _, snip = files
    bad = tmp_path / "bad.py"
    make(bad)
    assert run("apply", bad, snip) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_empty_snippet(files, fake_model, capsys):
    orig, snip = files
    snip.write_text("\n  \n")
    assert run("apply", orig, snip) == 2
    assert "snippet is empty" in capsys.readouterr().err


@pytest.mark.extras
def test_unknown_model_is_a_clear_error(files, capsys):
    orig, snip = files
    assert run("apply", orig, snip, "--strategy", "model", "--model", "no-such-model") == 3
    err = capsys.readouterr().err
    assert "unknown model 'no-such-model'" in err and "Traceback" not in err
    assert run("apply", orig, snip, "--strategy", "model", "--model", str(orig.parent / "missing.gguf")) == 3


@pytest.mark.extras
def test_prompt_longer_than_the_context(files, fake_model, capsys):
    orig, snip = files
    fake_model["loaded"] = FakeLoaded(EXPECTED, context_length=100)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place") == 4
    assert "context" in capsys.readouterr().err
    assert orig.read_text() == ORIGINAL


@pytest.mark.extras
def test_unfinished_output_never_replaces_the_file(files, fake_model, capsys):
    orig, snip = files
    fake_model["loaded"] = FakeLoaded(EXPECTED, close=False)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place", "--max-tokens", "80") == 6
    assert "did not finish" in capsys.readouterr().err
    assert orig.read_text() == ORIGINAL


def test_instant_refusal_never_replaces_the_file(tmp_path, capsys):
    orig = tmp_path / "a.py"
    orig.write_text("a\nb\na\nb\n")
    snip = tmp_path / "s.py"
    snip.write_text("# ... existing code ...\na\nB\n# ... existing code ...\n")
    assert run("apply", orig, snip, "--strategy", "instant", "--in-place") == 7
    assert "refused" in capsys.readouterr().err
    assert orig.read_text() == "a\nb\na\nb\n"


def test_instant_refusal_is_said_once_with_its_options(tmp_path, capsys):
    orig = tmp_path / "a.py"
    orig.write_text("import os\n\n\ndef alpha():\n    x = 1\n    return x\n\n\ndef beta():\n    x = 1\n    return x\n")
    snip = tmp_path / "s.py"
    snip.write_text("# ... existing code ...\n    x = 1\n    return x + 1\n# ... existing code ...\n")
    assert run("apply", orig, snip, "--strategy", "instant") == 7
    err = capsys.readouterr().err
    assert err.count("matches 2 places in the original") == 1  # the reason once, in the error line
    assert "option 1: add the unchanged original lines" in err
    assert err.rstrip().splitlines()[-1].startswith("fastapply: error: the instant merge refused")


@pytest.mark.extras
def test_failed_rename_leaves_the_original_and_no_temp_file(files, fake_model, capsys, monkeypatch):
    orig, snip = files

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place") == 2
    assert "No space left" in capsys.readouterr().err
    assert orig.read_text() == ORIGINAL
    assert sorted(p.name for p in orig.parent.iterdir()) == ["code.py", "edit.py"]


@pytest.mark.parametrize("option", [["--temperature", "5"], ["--top-p", "0"], ["--max-tokens", "-3"]])
def test_invalid_options_are_refused_by_the_parser(files, capsys, option):
    orig, snip = files
    with pytest.raises(SystemExit) as exc:
        run("apply", orig, snip, *option)
    assert exc.value.code == 2


def test_help_does_not_import_torch():
    code = "import sys, fastapply.cli; fastapply.cli.build_parser(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.extras
def test_a_guarded_model_answer_is_not_written_unless_forced(files, fake_model, capsys):
    orig, snip = files
    damaged = "def f():\n    return 10\n"  # applies the edit, drops g()
    fake_model["loaded"] = FakeLoaded(damaged)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place") == 8
    err = capsys.readouterr().err
    assert "deletions guard" in err and "nothing was written" in err and "Traceback" not in err
    assert "-def g():" in err  # the candidate, as a diff on stderr
    assert orig.read_text() == ORIGINAL
    assert run("apply", orig, snip, "--strategy", "model", "--in-place", "--force") == 0
    assert orig.read_text() == damaged


@pytest.mark.extras
def test_force_never_writes_an_unclosed_answer(files, fake_model, capsys):
    orig, snip = files
    fake_model["loaded"] = FakeLoaded(EXPECTED, close=False)
    assert run("apply", orig, snip, "--strategy", "model", "--in-place", "--force", "--max-tokens", "80") == 6
    assert orig.read_text() == ORIGINAL
