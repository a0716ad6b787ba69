"""The shipped adapters (fastapply-135m, fastapply-135m-v2) are small fp16 files; fastapply-135m loads onto the bundled base model and merges a small edit."""

import json
from pathlib import Path

import pytest

from fastapply.train.adapter import SHIPPED_ADAPTER

ORIGINAL = '''import json


def load(path):
    with open(path) as fh:
        return json.load(fh)


def save(path, data):
    with open(path, "w") as fh:
        json.dump(data, fh)


def main():
    data = load("in.json")
    save("out.json", data)
'''
SNIPPET = '''# ... existing code ...
def save(path, data):
    with open(path, "w") as fh:
        json.dump(data, fh, indent=2)


def main():
    # ... existing code ...
'''
EXPECTED = ORIGINAL.replace("json.dump(data, fh)", "json.dump(data, fh, indent=2)")


@pytest.mark.extras
@pytest.mark.parametrize("name", ["fastapply-135m", "fastapply-135m-v2"])
def test_shipped_files_are_small_and_fp16(name):
    from fastapply import models

    adapter = models.ADAPTERS[name]
    cfg = json.loads((adapter / "adapter_config.json").read_text())
    assert cfg["peft_type"] == "LORA" and cfg["base_model_name_or_path"] == models.BASE_MODEL
    assert models.resolve(name).adapter == str(adapter)
    weights = adapter / "adapter_model.safetensors"
    assert 1e6 < weights.stat().st_size < 25e6
    from safetensors import safe_open

    with safe_open(str(weights), "pt") as f:
        name = next(iter(f.keys()))
        assert str(f.get_tensor(name).dtype) == "torch.float16"
    assert (adapter / "MODEL_CARD.md").is_file()


@pytest.mark.model
def test_shipped_adapter_merges_a_small_edit():
    from fastapply import models
    from fastapply.pipeline import apply_edit
    from fastapply.train.adapter import apply_adapter

    base = models.load("smollm2-135m-instruct")
    tuned = apply_adapter(base, SHIPPED_ADAPTER, name="fastapply-135m")
    assert tuned.model is not base.model
    result = apply_edit(ORIGINAL, SNIPPET, "Indent the saved JSON", loaded=tuned, strategy="model")
    assert result.path == "model" and result.complete
    assert result.text == EXPECTED
    assert result.stats.accepted_prediction_tokens > 0.8 * result.stats.completion_tokens


@pytest.mark.model
def test_the_default_model_name_end_to_end_through_the_cli(tmp_path, capsys):
    """`fastapply apply --model fastapply-135m-v2` (the default): the bundled name resolves, the
    adapter merges at load, and the model writes the edit."""
    from fastapply import cli, models

    assert models.DEFAULT_MODEL == "fastapply-135m-v2"
    original = tmp_path / "store.py"
    original.write_text(ORIGINAL)
    snippet = tmp_path / "edit.py"
    snippet.write_text(SNIPPET)
    code = cli.main(["apply", str(original), str(snippet), "--strategy", "model", "--model", "fastapply-135m-v2",
                     "-i", "Indent the saved JSON", "--in-place"])
    err = capsys.readouterr().err
    assert "model=fastapply-135m-v2" in err
    assert code == 0 and original.read_text() == EXPECTED
