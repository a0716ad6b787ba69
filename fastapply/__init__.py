"""fastapply: apply code edits to whole files, fast and correctly.

Public API (imports are lazy so `import fastapply` works without torch installed):

    from fastapply import apply_edit, stream_edit
    result = apply_edit(original, snippet, instruction=None)
    result.text, result.stats

See README.md for the package map.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["apply_edit", "stream_edit", "__version__"]


def __getattr__(name: str):
    if name in ("apply_edit", "stream_edit"):
        from fastapply import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'fastapply' has no attribute {name!r}")
