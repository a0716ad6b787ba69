"""Resolving `--model` names without loading anything."""

import pytest

from fastapply import models
from fastapply.errors import UnknownModelError


@pytest.mark.extras
def test_bundled_names_resolve_to_the_gguf_inside_the_model_package():
    spec = models.resolve("smollm2-135m-instruct")
    assert spec.kind == "bundled" and spec.gguf_file.endswith(".gguf") and spec.adapter is None


@pytest.mark.extras
def test_env_var_is_the_fallback(monkeypatch):
    monkeypatch.setenv(models.ENV_VAR, "smollm2-135m-instruct")
    assert models.resolve(None).name == "smollm2-135m-instruct"


def test_paths_and_hub_ids(tmp_path):
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    spec = models.resolve(str(gguf))
    assert spec.kind == "gguf" and spec.gguf_file == "m.gguf" and spec.source == str(tmp_path)
    (tmp_path / "hf").mkdir()
    with pytest.raises(UnknownModelError, match="config.json"):
        models.resolve(str(tmp_path / "hf"))
    (tmp_path / "hf" / "config.json").write_text("{}")
    assert models.resolve(str(tmp_path / "hf")).kind == "dir"
    assert models.resolve("HuggingFaceTB/SmolLM2-360M-Instruct").kind == "hub"


@pytest.mark.extras
def test_an_adapter_directory_loads_on_the_base_its_config_names(tmp_path):
    spec = models.resolve(str(models.ADAPTER_DIR))  # what `fastapply train` writes to OUT/adapter/
    base = models.resolve("smollm2-135m-instruct")
    assert (spec.source, spec.gguf_file, spec.adapter) == (base.source, base.gguf_file, str(models.ADAPTER_DIR))
    (tmp_path / "adapter_config.json").write_text('{"base_model_name_or_path": "fastapply-135m"}')
    with pytest.raises(UnknownModelError, match="carries an adapter"):
        models.resolve(str(tmp_path))
    (tmp_path / "adapter_config.json").write_text("{}")
    with pytest.raises(UnknownModelError, match="adapter_config.json"):
        models.resolve(str(tmp_path))


@pytest.mark.parametrize("name", ["no-such-model", "missing.gguf", "./nope/"])
def test_unknown_names_say_what_would_work(name):
    with pytest.raises(UnknownModelError) as exc:
        models.resolve(name)
    assert name.rstrip("/").split("/")[-1] in str(exc.value)


@pytest.mark.extras
def test_an_optional_tier_without_its_parts_names_the_install_command(monkeypatch, tmp_path, capsys):
    import dataclasses

    from fastapply import gguf_parts
    from fastapply.cli import main
    from fastapply.errors import MissingDependencyError

    name = gguf_parts.QWEN_05B.name
    monkeypatch.setenv(gguf_parts.CACHE_ENV, str(tmp_path / "cache"))
    missing = dataclasses.replace(gguf_parts.QWEN_05B, parts=(gguf_parts.Part("fa_no_such_part", "data/x.bin"),))
    monkeypatch.setitem(gguf_parts.TIERS, name, missing)
    assert name in models.BUNDLED
    with pytest.raises(MissingDependencyError, match="make qwen"):
        models.resolve(name)
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "s.py").write_text("x = 2\n")
    code = main(["apply", str(tmp_path / "a.py"), str(tmp_path / "s.py"), "--strategy", "model", "--model", name])
    err = capsys.readouterr().err
    assert code == MissingDependencyError.exit_code and "make qwen" in err and "Traceback" not in err
    assert (tmp_path / "a.py").read_text() == "x = 1\n"
