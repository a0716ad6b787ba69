"""LoRA fine-tuning of the fast-apply model on built examples (`fastapply data build` output).

    examples.jsonl --tokenise--> [prompt ids | answer ids + <|im_end|>]
    plain LlamaForCausalLM (rebuilt from the GGUF-loaded model's config + state dict) + peft LoRA
    loop: one sequence per micro-step, gradient accumulation, AdamW, warm-up then cosine decay,
          bf16 autocast on the CPU, loss on the answer tokens only (the lm_head runs only at those
          positions: a 49k-vocabulary head over a 3k-token prompt would dominate the step)
    every `eval_every` steps: held-out bits per byte; every `save_every` steps: a checkpoint

Bits per byte (Cursor's normalisation across tokenizers) = summed answer-token cross-entropy in
nats / ln 2 / UTF-8 bytes of the answer text.

The schedule's clock is `max(step / total_steps, elapsed / max_minutes)`: on a shared CPU whose
throughput drifts, a run given a time budget still completes its warm-up and decay and stops on
time. Checkpoints hold the adapter, optimizer state, step, elapsed time and the data position, so
`resume=True` continues where a run stopped.

This module knows models, tokens and training; the data format comes from `fastapply.data.build`.
"""

from __future__ import annotations

import copy
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch

TARGET_MODULES = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
END_TOKEN = "<|im_end|>"


@dataclass
class TrainConfig:
    rank: int = 16
    alpha: int = 32
    dropout: float = 0.0
    lr: float = 7e-4
    warmup_steps: int = 8
    min_lr_ratio: float = 0.05
    grad_accum: int = 4
    epochs: float = 1.0
    max_steps: int | None = None  # optimizer steps; default: epochs over the data
    max_minutes: float | None = None  # time budget (schedule and stop)
    max_tokens: int = 3072  # longer sequences are skipped
    eval_every: int = 25
    save_every: int = 25
    max_eval: int = 40
    seed: int = 0
    bf16: bool = True  # autocast to bf16 (CPU and CUDA); the weights stay fp32
    weight_decay: float = 0.0
    target_modules: tuple = TARGET_MODULES
    log: list = field(default_factory=list, repr=False)


def rebuild_plain(model, dtype=torch.float32):
    """A plain transformers model with the same config and weights (drops GGUF loading state)."""
    from transformers import AutoModelForCausalLM

    cfg = copy.deepcopy(model.config)
    for attr in ("quantization_config", "_pre_quantization_dtype"):
        if hasattr(cfg, attr):
            try:
                delattr(cfg, attr)
            except AttributeError:
                pass
    plain = AutoModelForCausalLM.from_config(cfg, dtype=dtype)
    state = {k: v.to(dtype) for k, v in model.state_dict().items()}
    missing, unexpected = plain.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith("lm_head.weight")]  # tied to the embeddings
    if missing or unexpected:
        raise RuntimeError(f"rebuilding the model: missing {missing[:3]}, unexpected {unexpected[:3]}")
    if getattr(cfg, "tie_word_embeddings", False):
        plain.tie_weights()
    return plain.to(next(model.parameters()).device)


def add_lora(plain, cfg: TrainConfig):
    import warnings

    from peft import LoraConfig, get_peft_model

    warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
    lcfg = LoraConfig(
        r=cfg.rank, lora_alpha=cfg.alpha, lora_dropout=cfg.dropout, bias="none",
        target_modules=list(cfg.target_modules), task_type="CAUSAL_LM",
    )
    return get_peft_model(plain, lcfg)


@dataclass
class Sequence:
    ids: list[int]
    n_prompt: int
    answer_bytes: int


def tokenise(examples: list[dict], tokenizer, max_tokens: int) -> list[Sequence]:
    """Prompt + answer + <|im_end|>, exactly as the apply path sees them; too-long ones dropped."""
    from fastapply.rewrite import prompts

    end = tokenizer.convert_tokens_to_ids(END_TOKEN)
    out = []
    for e in examples:
        prompt = e.get("prompt") or prompts.render_prompt(tokenizer, e["original"], e["snippet"], e.get("instruction"))
        answer = e.get("answer") or prompts.answer_text(e["expected"])
        p = tokenizer.encode(prompt, add_special_tokens=False)
        a = tokenizer.encode(answer, add_special_tokens=False) + [end]
        if len(p) + len(a) <= max_tokens:
            out.append(Sequence(p + a, len(p), len(answer.encode("utf-8"))))
    return out


def sequence_loss(peft_model, seq: Sequence, bf16: bool) -> tuple[torch.Tensor, int]:
    """Summed cross-entropy (nats) over the answer tokens, and their count."""
    inner = peft_model.get_base_model()  # LlamaForCausalLM with LoRA layers injected in place
    device = next(inner.parameters()).device
    ids = torch.tensor([seq.ids], dtype=torch.long, device=device)
    with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
        hidden = inner.model(input_ids=ids).last_hidden_state[0]
        h = hidden[seq.n_prompt - 1 : -1]  # positions that predict the answer tokens
        logits = inner.lm_head(h).float()
    targets = ids[0, seq.n_prompt :]
    loss = torch.nn.functional.cross_entropy(logits, targets, reduction="sum")
    return loss, int(targets.numel())


@torch.no_grad()
def bits_per_byte(peft_model, seqs: list[Sequence], bf16: bool) -> float:
    was_training = peft_model.training
    peft_model.eval()
    nats = 0.0
    nbytes = 0
    for s in seqs:
        loss, _ = sequence_loss(peft_model, s, bf16)
        nats += float(loss)
        nbytes += s.answer_bytes
    if was_training:
        peft_model.train()
    return nats / math.log(2) / max(nbytes, 1)


def lr_at(progress: float, step: int, cfg: TrainConfig) -> float:
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    p = min(max(progress, 0.0), 1.0)
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * p)))


def _save_adapter(peft_model, directory: Path, fp16: bool = True) -> None:
    from safetensors.torch import load_file, save_file

    import warnings

    directory.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():  # "could not find a config file" for a GGUF-sourced base: expected
        warnings.simplefilter("ignore", UserWarning)
        peft_model.save_pretrained(str(directory))
    if fp16:
        f = directory / "adapter_model.safetensors"
        state = {k: v.to(torch.float16).contiguous() for k, v in load_file(str(f)).items()}
        save_file(state, str(f), metadata={"format": "pt"})


def save_checkpoint(peft_model, optimizer, state: dict, out_dir: Path) -> Path:
    ck = out_dir / "checkpoint"
    tmp = out_dir / "checkpoint.tmp"
    _save_adapter(peft_model, tmp, fp16=False)
    torch.save({"optimizer": optimizer.state_dict(), **state}, tmp / "trainer_state.pt")
    if ck.exists():
        old = out_dir / "checkpoint.old"
        if old.exists():
            _rmtree(old)
        ck.rename(old)
    tmp.rename(ck)
    return ck


def _rmtree(p: Path) -> None:
    import shutil

    shutil.rmtree(p, ignore_errors=True)


def train(
    hf_model,
    train_examples: list[dict],
    heldout_examples: list[dict],
    out_dir: str | Path,
    cfg: TrainConfig,
    *,
    resume: bool = False,
    progress: bool = True,
    log_fn=None,
) -> dict:
    """Train a LoRA adapter; write checkpoints, `log.jsonl` and the final fp16 adapter in `out_dir/adapter`.

    Returns a summary with the loss curve and held-out bits per byte before and after.
    """
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    tok = hf_model.tokenizer
    train_seqs = tokenise(train_examples, tok, cfg.max_tokens)
    held_seqs = tokenise(heldout_examples, tok, cfg.max_tokens)[: cfg.max_eval]
    if not train_seqs:
        raise ValueError("no training sequence fits max_tokens")
    order = list(range(len(train_seqs)))
    random.Random(cfg.seed).shuffle(order)
    total_micro = max(1, int(len(order) * cfg.epochs))
    total_steps = cfg.max_steps or max(1, total_micro // cfg.grad_accum)

    model = add_lora(rebuild_plain(hf_model.model), cfg)
    # The adapter names its base by the model name `--model` takes (models.resolve reads it back
    # when the adapter directory is given as a model), not by the GGUF package's directory.
    model.peft_config["default"].base_model_name_or_path = getattr(hf_model, "name", None) or "smollm2-135m-instruct"
    model.train()
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=cfg.weight_decay, betas=(0.9, 0.99))
    step, micro, elapsed_before = 0, 0, 0.0
    log_path = out_dir / "log.jsonl"
    ck = out_dir / "checkpoint"
    if resume and ck.exists():
        set_peft_model_state_dict(model, load_file(str(ck / "adapter_model.safetensors")))
        st = torch.load(ck / "trainer_state.pt", weights_only=False)
        optimizer.load_state_dict(st["optimizer"])
        step, micro, elapsed_before = st["step"], st["micro"], st["elapsed"]
    elif log_path.exists():
        log_path.unlink()

    def log(rec: dict) -> None:
        rec = {"time": round(time.time(), 1), **rec}
        with open(log_path, "a") as fh:
            fh.write(json.dumps(rec) + "\n")
        if log_fn:
            log_fn(rec)

    (out_dir / "train_config.json").write_text(json.dumps(
        {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items() if k != "log"}
        | {"train_sequences": len(train_seqs), "heldout_sequences": len(held_seqs), "total_steps": total_steps},
        indent=1))
    bpb0 = None
    if held_seqs and step == 0:
        bpb0 = bits_per_byte(model, held_seqs, cfg.bf16)
        log({"event": "eval", "step": 0, "heldout_bpb": bpb0})

    t_start = time.perf_counter()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total_steps, initial=step, desc="train", unit="step", dynamic_ncols=True)

    def elapsed() -> float:
        return elapsed_before + time.perf_counter() - t_start

    def clock() -> float:
        p = step / total_steps
        if cfg.max_minutes:
            p = max(p, elapsed() / (cfg.max_minutes * 60))
        return p

    acc_loss, acc_tok, acc_seq_tokens, t_window = 0.0, 0, 0, time.perf_counter()
    while step < total_steps and clock() < 1.0:
        optimizer.zero_grad(set_to_none=True)
        n_tok_step = 0
        losses = []
        batch = [train_seqs[order[(micro + i) % len(order)]] for i in range(cfg.grad_accum)]
        batch_targets = sum(len(s.ids) - s.n_prompt for s in batch)
        for s in batch:
            loss, n = sequence_loss(model, s, cfg.bf16)
            (loss / batch_targets).backward()
            losses.append(float(loss.detach()))
            n_tok_step += n
            acc_seq_tokens += len(s.ids)
        micro += cfg.grad_accum
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        lr = lr_at(clock(), step, cfg)
        for g in optimizer.param_groups:
            g["lr"] = lr
        optimizer.step()
        step += 1
        acc_loss += sum(losses)
        acc_tok += n_tok_step
        step_loss = sum(losses) / n_tok_step
        if bar:
            bar.update(1)
            bar.set_postfix(loss=f"{step_loss:.3f}", lr=f"{lr:.1e}")
        if step % 5 == 0 or step == total_steps:
            dt = time.perf_counter() - t_window
            log({"event": "train", "step": step, "loss": acc_loss / max(acc_tok, 1), "lr": lr,
                 "tokens_per_s": acc_seq_tokens / max(dt, 1e-9), "elapsed_s": round(elapsed(), 1),
                 "examples_seen": micro})
            acc_loss, acc_tok, acc_seq_tokens, t_window = 0.0, 0, 0, time.perf_counter()
        if held_seqs and cfg.eval_every and step % cfg.eval_every == 0:
            log({"event": "eval", "step": step, "heldout_bpb": bits_per_byte(model, held_seqs, cfg.bf16),
                 "elapsed_s": round(elapsed(), 1)})
        if cfg.save_every and step % cfg.save_every == 0:
            save_checkpoint(model, optimizer, {"step": step, "micro": micro, "elapsed": elapsed()}, out_dir)
    if bar:
        bar.close()
    bpb1 = bits_per_byte(model, held_seqs, cfg.bf16) if held_seqs else None
    log({"event": "eval", "step": step, "heldout_bpb": bpb1, "elapsed_s": round(elapsed(), 1), "final": True})
    save_checkpoint(model, optimizer, {"step": step, "micro": micro, "elapsed": elapsed()}, out_dir)
    _save_adapter(model, out_dir / "adapter", fp16=True)
    curve = [json.loads(l) for l in open(log_path)]
    return {"steps": step, "examples_seen": micro, "elapsed_s": elapsed(), "heldout_bpb_before": bpb0,
            "heldout_bpb_after": bpb1, "log": curve, "adapter_dir": str(out_dir / "adapter")}
