"""Held-out bits per byte of several LoRA adapters (or none) on one `fastapply data build` held-out set.

    python benchmarks/heldout_bpb.py runs/data-v2/heldout.jsonl none fastapply/weights/fastapply-135m runs/train-v2/adapter

`fastapply train` logs the held-out bits per byte of the adapter it trains, on the held-out set of its
own data build; adapters trained on different builds are compared here on the same rows, split by
example style (whole-file vs windowed rewrite). Cursor's normalisation: summed answer-token
cross-entropy / ln 2 / answer UTF-8 bytes. CPU, fp32 weights, bf16 autocast as in training.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace

from safetensors.torch import load_file


def main(heldout: str, adapters: list[str], max_tokens: int = 2048) -> None:
    from peft import set_peft_model_state_dict

    from fastapply import models
    from fastapply.train.lora import TrainConfig, add_lora, bits_per_byte, rebuild_plain, tokenise

    rows = [json.loads(line) for line in open(heldout) if line.strip()]
    loaded = models.load(models.BASE_MODEL, device="cpu")
    groups = {"all": rows, "window": [r for r in rows if str(r.get("style", "")).startswith("window")],
              "whole file": [r for r in rows if not str(r.get("style", "")).startswith("window")]}
    seqs = {k: tokenise(v, loaded.tokenizer, max_tokens) for k, v in groups.items()}
    print("| adapter | " + " | ".join(f"{k} ({len(v)})" for k, v in seqs.items()) + " |")
    print("|---|" + "---|" * len(seqs))
    for adapter in adapters:
        model = add_lora(rebuild_plain(loaded.model), replace(TrainConfig(), rank=16, alpha=32))
        if adapter != "none":
            state = load_file(f"{adapter}/adapter_model.safetensors")
            set_peft_model_state_dict(model, {k: v.float() for k, v in state.items()})
        cells = [f"{bits_per_byte(model, s, True):.4f}" if s else "-" for s in seqs.values()]
        print(f"| {adapter} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
