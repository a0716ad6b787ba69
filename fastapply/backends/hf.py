"""The transformers backend: a causal LM with a `DynamicCache`, plus loading models by spec.

`HFBackend` implements the `Backend` protocol: `forward` runs the model over new ids with the cache
(one pass, however many ids; the cache goes in as `cache=`, transformers 5.24's name, or as
`past_key_values=` for a model class that has no `cache` argument), `truncate` crops the cache
(transformers 5.x `DynamicCache.crop` takes the negative count of tokens to drop). Logits stay on the model's device; only argmaxes, or one row
when sampling, cross to the host.

Dtypes: fp32 on CPU (exact: batched verification and one-token decoding agree, so speculative output
equals plain greedy output). On CUDA the default is bf16 for speed; there, a batched verify pass and
a one-token decode can round differently, so on rare near-ties the speculative output may differ
from plain greedy decoding in bf16 (each output is still a greedy decoding of the model as the
verify pass computes it). Ask for `dtype="float32"` where token identity matters more than speed.

`load_model(spec)` loads a GGUF file (dequantised, via transformers `gguf_file=`), a local model
directory or a Hub id. It knows nothing about prompts, drafts or code.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, DynamicCache


class TorchLogits:
    """`Logits` over a torch tensor [n_rows, vocab] that may live on a GPU."""

    def __init__(self, rows: torch.Tensor):
        self._rows = rows

    def __len__(self) -> int:
        return int(self._rows.shape[0])

    def argmax(self) -> np.ndarray:
        return self._rows.argmax(dim=-1).to("cpu", torch.int64).numpy()

    def row(self, i: int) -> np.ndarray:
        return self._rows[i].to("cpu", torch.float32).numpy()


def cache_argument(model: Any) -> str:
    """The keyword that passes the KV cache to `model.forward`: `cache` in transformers 5.24+
    (`past_key_values` is deprecated there, a FutureWarning on every pass), `past_key_values` for a
    model class that has not moved yet (its `**kwargs` would swallow `cache` and run uncached)."""
    import inspect

    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


class HFBackend:
    """A `Backend` over a transformers causal LM. One generation at a time per instance."""

    def __init__(self, model: Any, context_length: int | None = None):
        self.model = model
        self.device = next(model.parameters()).device
        self.context_length = int(context_length or getattr(model.config, "max_position_embeddings", 2048))
        self.cache = DynamicCache()
        self.n_cached = 0
        self._cache_arg = cache_argument(model)

    def forward(self, ids: Sequence[int], *, rows: int | None = None) -> TorchLogits:
        if not ids:
            raise ValueError("forward() needs at least one token")
        input_ids = torch.tensor([list(ids)], dtype=torch.long, device=self.device)
        with torch.inference_mode():
            out = self.model(
                input_ids=input_ids,
                **{self._cache_arg: self.cache},
                use_cache=True,
                logits_to_keep=0 if rows is None else max(1, min(rows, len(ids))),  # 0 = all
            )
        self.n_cached += len(ids)
        return TorchLogits(out.logits[0])

    def truncate(self, n_keep: int) -> None:
        if n_keep < 0 or n_keep > self.n_cached:
            raise ValueError(f"cannot keep {n_keep} of {self.n_cached} cached tokens")
        if n_keep == 0:
            self.cache = DynamicCache()
        elif n_keep < self.n_cached:
            self.cache.crop(n_keep - self.n_cached)  # negative: the number of tokens to drop
        self.n_cached = n_keep


@dataclass
class HFModel:
    """A loaded model and its tokenizer, ready to make backends."""

    name: str
    model: Any
    tokenizer: Any
    device: str
    dtype: str
    load_s: float
    extra: dict = field(default_factory=dict)

    @property
    def context_length(self) -> int:
        return int(getattr(self.model.config, "max_position_embeddings", 2048))

    def new_backend(self) -> HFBackend:
        return HFBackend(self.model, self.context_length)


def pick_device(device: str | None) -> str:
    if device:
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def pick_dtype(device: str, dtype: str | None) -> torch.dtype:
    if dtype:
        try:
            return {"float32": torch.float32, "fp32": torch.float32, "bfloat16": torch.bfloat16,
                    "bf16": torch.bfloat16, "float16": torch.float16, "fp16": torch.float16}[dtype]
        except KeyError:
            raise ValueError(f"unknown dtype {dtype!r} (float32, bfloat16, float16)") from None
    return torch.bfloat16 if device.startswith("cuda") else torch.float32


def load_model(
    name: str,
    source: str,
    *,
    gguf_file: str | None = None,
    device: str | None = None,
    dtype: str | None = None,
    local_files_only: bool = False,
) -> HFModel:
    """Load `source` (a directory or Hub id; with `gguf_file`, the GGUF file inside that directory)."""
    t0 = time.perf_counter()
    dev = pick_device(device)
    torch_dtype = pick_dtype(dev, dtype)
    kwargs: dict[str, Any] = {"local_files_only": local_files_only}
    if gguf_file:
        kwargs["gguf_file"] = gguf_file
    tokenizer = AutoTokenizer.from_pretrained(source, **kwargs)
    model = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype, **kwargs)
    model.to(dev)
    model.eval()
    return HFModel(
        name=name,
        model=model,
        tokenizer=tokenizer,
        device=dev,
        dtype=str(torch_dtype).replace("torch.", ""),
        load_s=time.perf_counter() - t0,
        extra={"source": os.fspath(source), "gguf_file": gguf_file},
    )
