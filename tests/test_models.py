"""Resolving `--model` names without loading anything."""

import pytest

from fastapply import models
from fastapply.errors import UnknownModelError


def test_bundled_names_resolve_to_the_gguf_inside_the_model_package():
    spec = models.resolve("smollm2-135m-instruct")
    assert spec.kind == "bundled" and spec.gguf_file.endswith(".gguf") and spec.adapter is None


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


@pytest.mark.parametrize("name", ["no-such-model", "missing.gguf", "./nope/"])
def test_unknown_names_say_what_would_work(name):
    with pytest.raises(UnknownModelError) as exc:
        models.resolve(name)
    assert name.rstrip("/").split("/")[-1] in str(exc.value)
