"""A merger's result through every guard: the `MergeResult` the instant path writes or refuses.

`finish(orig, merged, method, ...)` takes one merger's `Merged` (result.py): a refusal keeps its
reason and its candidate in file text (none when the candidate is the unchanged file; a doubt's
rival reading as the pair of `alternatives`); merged lines pass guards.run_guards, else are
refused with the original line ranges they change (`changed_regions`, where the model path
rewrites). The rung says "whitespace" when the snippet's indentation was converted.

This module runs the guards on one reading; which reading is written is decide/'s, which merger
reads the snippet is instant.py's.
"""

from __future__ import annotations

from fastapply.merge.gate import guards
from fastapply.merge.result import MergeResult
from fastapply.merge.text.compare import line_opcodes
from fastapply.merge.text.conventions import Text, join_lines


def finish(
    orig: Text, merged, method: str, language: str | None, shown_lines: int | None, converted: bool = False,
    snippet: str | None = None,
) -> MergeResult:
    """`merged` (one merger's Merged) in file text: refused with its reason, or merged when the guards pass."""
    rung = merged.rung or ("exact" if method == "definition" else None)
    if converted and rung == "exact":
        rung = "whitespace"
    if merged.lines is None:
        candidate = join_lines(merged.candidate, orig) if merged.candidate else None
        if candidate == join_lines(orig.lines, orig):
            candidate = None  # an unchanged file is no draft worth handing on
        alternative = getattr(merged, "alternative", None)
        pair = (candidate, join_lines(alternative, orig)) if candidate and alternative else ()
        return MergeResult(None, merged.refused_reason or "the snippet could not be applied", method, rung,
                           candidate, alternatives=pair, choice="doubt" if pair else None)
    text = join_lines(merged.lines, orig)
    original_text = "\n".join(orig.lines)
    reason = guards.run_guards(original_text, "\n".join(merged.lines), language=language,
                               shown_lines=shown_lines, snippet=snippet)
    if reason:
        return MergeResult(None, reason, method, rung, text, changed_regions(orig.lines, merged.lines))
    return MergeResult(text, None, method, rung, None)


def changed_regions(original: list[str], candidate: list[str]) -> tuple[tuple[int, int], ...]:
    """The original line ranges [start, end) a refused candidate changes: where a guard found
    fault, so the model path rewrites there (an insertion is the one line it follows)."""
    return tuple((max(0, i1 - 1), i2) if i1 == i2 else (i1, i2)
                 for tag, i1, i2, _, _ in line_opcodes(original, candidate) if tag != "equal")
