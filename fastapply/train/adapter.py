"""Load a trained LoRA adapter onto a loaded base model: rebuild, attach, merge, ready for inference.

`apply_adapter(hf_model, adapter_dir)` returns a new `HFModel` whose weights are base + LoRA merged
(so inference costs exactly what the base model costs); the base `HFModel` is left untouched.
The shipped adapter for `fastapply-135m` lives in `fastapply/weights/fastapply-135m/`.

This module knows models and adapters; it knows nothing about prompts or training data.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from pathlib import Path

from fastapply.errors import UnknownModelError

SHIPPED_ADAPTER = Path(__file__).resolve().parent.parent / "weights" / "fastapply-135m"


def apply_adapter(hf_model, adapter_dir: str | Path = SHIPPED_ADAPTER, *, name: str | None = None):
    """Return an HFModel with the LoRA adapter in `adapter_dir` merged into `hf_model`'s weights."""
    import torch
    from peft import PeftModel

    from fastapply.train.lora import rebuild_plain

    adapter_dir = Path(adapter_dir)
    if not (adapter_dir / "adapter_config.json").is_file():
        raise UnknownModelError(f"no LoRA adapter (adapter_config.json) in {adapter_dir}")
    t0 = time.perf_counter()
    base_dtype = next(hf_model.model.parameters()).dtype
    plain = rebuild_plain(hf_model.model, dtype=torch.float32)
    with warnings.catch_warnings():  # peft calls a transformers method deprecated in 5.x
        warnings.simplefilter("ignore", FutureWarning)
        peft_model = PeftModel.from_pretrained(plain, str(adapter_dir), is_trainable=False)
    merged = peft_model.merge_and_unload()
    merged = merged.to(dtype=base_dtype)
    merged.eval()
    extra = dict(hf_model.extra)
    extra.pop("token_weights", None)
    extra["adapter"] = str(adapter_dir)
    return replace(
        hf_model,
        name=name or hf_model.name,
        model=merged,
        extra=extra,
        load_s=hf_model.load_s + time.perf_counter() - t0,
    )
