"""`fastapply doctor`: models, files, sizes, hashes on request, the device, the optional tiers."""

import dataclasses

import pytest

from fastapply import doctor, gguf_parts
from fastapply.cli import main
from tests.test_gguf_parts import make_tier

QWEN = gguf_parts.QWEN_05B.name


@pytest.mark.extras
def test_doctor_lists_the_bundled_models_and_the_device(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "fastapply-135m-v2 (default, installed)" in out
    assert "SmolLM2-135M-Instruct.Q4_1.gguf  98.4 MB" in out and "adapter_model.safetensors" in out
    assert "sha256" not in out  # hashing only on request
    assert "\ndevice: cpu (torch 2." in out or "\ndevice: cuda (torch 2." in out
    assert "qwen2.5-coder-1.5b-instruct (GPU tier" in out and f"cache: {gguf_parts.cache_dir()}" in out


def test_a_missing_tier_says_how_to_install_it(monkeypatch, capsys):
    missing = dataclasses.replace(gguf_parts.QWEN_05B, parts=(gguf_parts.Part("fa_no_such_part", "data/x.bin"),))
    monkeypatch.setitem(gguf_parts.TIERS, QWEN, missing)
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert f"{QWEN} (optional tier, NOT installed)" in out
    assert "missing fa_no_such_part" in out and "install: make qwen" in out


def test_hashes_check_a_tier_before_and_after_it_is_joined(tmp_path, monkeypatch):
    tier = make_tier(tmp_path, monkeypatch, name=QWEN)
    monkeypatch.setitem(gguf_parts.TIERS, QWEN, tier)

    def report(hashes):
        return next(r for r in doctor.model_reports(hashes=hashes) if r.name == QWEN)

    r = report(False)
    assert r.installed and not r.files and any("not joined yet" in d for d in r.detail)
    assert not any("sha256" in d for d in r.detail)
    assert "the parts join to the pinned sha256" in report(True).detail
    path = gguf_parts.ensure_joined(tier)
    r = report(True)
    assert r.files[0].path == path and r.files[0].sha256 == tier.sha256
    assert "joined file matches the pinned sha256" in r.detail
    path.write_bytes(b"X" * tier.size)
    assert any("does NOT match" in d for d in report(True).detail)
    (tmp_path / "site" / "fa_test_part2" / "data" / "part02.bin").write_bytes(b"?")
    path.unlink()
    assert any("do NOT join" in d for d in report(True).detail)


@pytest.mark.extras
def test_hashes_of_bundled_files_are_full_sha256():
    reports = doctor.model_reports(hashes=True)
    files = [f for r in reports if r.name == "smollm2-135m-instruct" for f in r.files]
    assert files and all(len(f.sha256) == 64 for f in files)


def test_no_torch_is_reported_not_raised(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "torch":
            raise ImportError("no torch")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    d = doctor.device_report()
    assert d.torch is None and "torch is not installed" in d.detail


@pytest.mark.extras  # the openai: backend's SDK and httpx come with [model]
def test_the_chat_backend_line_names_the_key_variable_never_the_key(monkeypatch):
    from fastapply import doctor

    monkeypatch.delenv("FASTAPPLY_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert "no key set ($FASTAPPLY_API_KEY or $OPENAI_API_KEY)" in doctor.chat_backend_line()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    line = doctor.chat_backend_line()
    assert "openai:URL#MODEL" in line and "key from $OPENAI_API_KEY" in line and "sk-secret-value" not in line
