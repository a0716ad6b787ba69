"""The `edit_file` tool's work, without MCP: read the file, apply the edit, write it, report a diff.

`FileEditor(roots, strategy=..., model=..., loaded=/loader=)` holds the settings; `edit(target_file,
instructions, code_edit)` returns an `EditOutcome` (the unified diff and how the edit was applied)
or raises `EditFailed`, whose message says why nothing was written and what to change in the
snippet before retrying. Every failure writes nothing: a refusal of the instant merge, a model
answer that did not finish or failed a guard (`ApplyResult.guard`), any `FastApplyError` the
pipeline raises, a path outside the roots, a file or snippet over the CLI's default size limits,
a `code_edit` that cannot be a text file (a lone surrogate, a NUL character), and a file with
several hard links or a read-only one (with advice the agent can follow: tell the user).
A file is replaced atomically (`textio.atomic_write`) or not at all; a BOM in the file is kept,
one in the snippet ignored.

A target that does not exist yet is created from `code_edit` when the snippet elides nothing
(no `... existing code ...` markers); otherwise it is refused.

Edits run one at a time (a lock), since the model is one and two edits of one file must not race.
This module knows files, paths and the public `apply_edit`; it knows nothing about MCP.
"""

from __future__ import annotations

import difflib
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

from fastapply.errors import FastApplyError
from fastapply.limits import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_SNIPPET_BYTES, check_size
from fastapply.errors import HardLinkError, ReadOnlyError
from fastapply.mcp.roots import Roots, lone_surrogate
from fastapply.merge.refuse.ranking import MAX_SHOWN, left_out, reading_order
from fastapply.merge.text.markers import count_marker_lines
from fastapply.merge.text.spans import quote
from fastapply.rewrite.prompts import without_bom
from fastapply.textio import atomic_write, check_writable, read_text


class EditFailed(FastApplyError):
    """The edit was not applied; the message says why and how to retry."""


@dataclass
class EditOutcome:
    path: str  # relative to its root
    diff: str  # unified diff, "" when the file is unchanged
    how: str  # one line: which path applied it, and its statistics
    created: bool = False
    by_model: bool = False  # the model rewrote the file (the instant merge refused or was skipped)

    def message(self) -> str:
        if not self.diff:
            return f"{self.path}: the edit leaves the file unchanged ({self.how})."
        verb = "Created" if self.created else "Applied the edit to"
        check = " The model rewrote the file: check that the diff is what you meant." if self.by_model else ""
        return f"{verb} {self.path} ({self.how}).{check}\n\n{self.diff}"


_ADVICE = (
    (("matches", "places", "unique", "defined"),
     "Add a few more unchanged lines around each edit (for example the enclosing function or class "
     "header) so every edited section matches exactly one place in the file."),
    (("could not be found", "not found", "similar line"),
     "Copy the unchanged context lines exactly as they are in the current file (re-read it first: "
     "it may have changed), and keep the edits in file order."),
    (("would appear",),
     "Show each changed line once, with the unchanged lines just before and after it, so the edit "
     "replaces the old lines instead of adding a second copy."),
    (("snippet line",),
     "Keep the snippet's lines in file order and give each edit unchanged context lines copied exactly "
     "from the current file."),
    (("deleted", "delet", "removed", "drops", "empty body"),
     "Mark every span of unchanged code you leave out with a `... existing code ...` comment; to delete "
     "code, show the unchanged lines just before and just after it with nothing between them."),
    (("no longer parses", "parse"),
     "Show whole statements and blocks, with every bracket and indentation level as in the file."),
    (("marker",),
     "Use `... existing code ...` comments only where unchanged code is left out, in the file's own "
     "comment syntax (`# ...` in Python, `// ...` in C-like languages)."),
    (("did not finish", "max_tokens", "context"),
     "The file may be too long for the model: split the change into smaller edits with more unchanged "
     "context around each, so the instant merge can place them."),
)
_DEFAULT_ADVICE = (
    "Retry with more unchanged context around each edit and a `... existing code ...` comment for every "
    "span of unchanged code left out, or as search/replace blocks."
)


def advice(reason: str) -> str:
    """What to add to the snippet for a given failure reason."""
    low = reason.lower()
    for words, text in _ADVICE:
        if any(word in low for word in words):
            return text
    return _DEFAULT_ADVICE


def refusal_answer(target: str, refusal, max_options: int = MAX_SHOWN, original: str | None = None,
                   code_edit: str | None = None, ordered: bool = False) -> str:
    """What an agent reads when the instant merge refused: the kind, the cause, the lines involved
    (the file's and its own code_edit's, by number), the fix, the first `max_options` concrete edits
    of code_edit that answer it and how many more there are. `ordered`: the options are in reading
    order already (the pipeline's instant refusal: instant.ordered_refusal, those whose revision merges
    first); else they are put so here (ranking.py's `reading_order`: every part of the edit its first
    option before any its second; given the file and the code_edit, those that agree with code_edit's
    unique lines first)."""
    out = [f"{target} was not changed: the edit was refused ({refusal.kind}): {refusal.cause.rstrip('.')}."]
    lines = [f"file line {x.number} {quote(x.text, 80)}" for x in refusal.original]
    lines += [f"code_edit line {x.number} {quote(x.text, 80)}" for x in refusal.snippet]
    if lines:
        out.append("Lines: " + "; ".join(lines) + ".")
    fix = _fix_before_options(refusal.fix, refusal.options) if len(refusal.options) > 1 else refusal.fix
    out.append(f"Fix: {fix.rstrip('.')}. Then call edit_file again with the revised code_edit.")
    options = list(refusal.options)
    if not ordered:
        options = reading_order(options, original.splitlines() if original is not None else None,
                                code_edit.splitlines() if code_edit is not None else None, limit=max_options)
    shown = options[:max_options]
    left, elsewhere = left_out(options, max_options)
    if len(refusal.options) > 1:
        out.append(f"{len(refusal.options)} options; options at the same code_edit lines are alternatives: apply one "
                   "of them, and one for each other part that needs it.")
    for n, option in enumerate(shown, 1):
        out.append(f"Option {n}: {option.says}" + "".join(
            "\n    " + ("-" if e.action == "deleted" else "") + line for e in option.edits
            if e.action in ("insert", "deleted") and e.text for line in e.text.split("\n")))
    if left:
        out.append(f"{left} more option(s) not shown: {left - elsewhere} alternative(s) at the code_edit lines of those "
                   f"shown (other places the same part fits), {elsewhere} at other code_edit lines.")
    return "\n".join(out)


def _fix_before_options(fix: str, options) -> str:
    """The fix's instruction without the options it spells out inline (the refusal's first few, in
    the order its site found them): the answer lists the options itself, ranked, so the same options
    named again in another order would point the agent at a worse one first."""
    cuts = [fix.find(o.says) for o in options if o.says and o.says in fix]
    cut = min((c for c in cuts if c > 0), default=-1)
    if cut <= 0:
        return fix
    head = fix[:cut].rstrip(" ;:,").removesuffix("; or").removesuffix(" or").rstrip(" ;:,")
    return f"{head} (the options below)" if head else fix


def _failed(target: str, reason: str) -> EditFailed:
    reason = reason.rstrip(".")
    return EditFailed(f"{target} was not changed: {reason}. {advice(reason)}")


def unified_diff(before: str, after: str, path: str) -> str:
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=f"a/{path}" if before else "/dev/null", tofile=f"b/{path}",
    ))


class FileEditor:
    def __init__(
        self,
        roots: Roots | Iterable[str],
        *,
        strategy: str = "auto",
        model: str | None = None,
        loaded=None,
        loader: Callable[[], object] | None = None,
    ):
        self.roots = roots if isinstance(roots, Roots) else Roots(roots)
        self.strategy = strategy
        self.model = model
        self.loaded = loaded
        self.loader = loader
        self._lock = threading.Lock()

    def edit(self, target_file: str, instructions: str, code_edit: str) -> EditOutcome:
        with self._lock:
            return self._edit(target_file, instructions or None, code_edit)

    def _edit(self, target_file: str, instructions: str | None, code_edit: str) -> EditOutcome:
        target = self.roots.resolve(target_file)
        _check_code_edit(target.relative, code_edit, instructions)
        code_edit = without_bom(code_edit)
        if not target.exists:
            return self._create(target, code_edit)
        _writable(target)  # before the model runs
        original = read_text(target.path, target.relative, max_bytes=DEFAULT_MAX_FILE_BYTES)  # exactly, BOM kept
        from fastapply.pipeline import apply_edit

        try:
            result = apply_edit(
                original, code_edit, instructions, strategy=self.strategy, path=target.relative,
                model=self.model, loaded=self.loaded, loader=self.loader,
            )
        except EditFailed:
            raise
        except FastApplyError as exc:  # a guard, the context length, a model that cannot load ...
            raise _failed(target.relative, str(exc)) from None
        if not result.complete:
            if result.path == "instant" and result.refusal is not None:  # options in reading order (pipeline)
                raise EditFailed(refusal_answer(target.relative, result.refusal, ordered=True))
            if result.path == "instant":
                raise _failed(target.relative, f"the instant merge refused: {result.refused_reason}")
            why = f" after the instant merge refused ({result.refused_reason})" if result.refused_reason else ""
            if result.guard and result.guard != "closed":
                raise _failed(target.relative, f"the model's answer{why} failed the {result.guard} guard: {result.guard_reason}")
            stats = result.stats
            raise _failed(
                target.relative,
                f"the model did not finish the file{why} (stopped after {stats.completion_tokens} tokens: "
                f"{stats.finish_reason or 'no end'})",
            )
        if result.text != original:
            _writable(target, result.text)
        return EditOutcome(
            target.relative, unified_diff(original, result.text, target.relative), result.summary_line(),
            by_model=result.path == "model",
        )

    def _create(self, target, code_edit: str) -> EditOutcome:
        if count_marker_lines(code_edit.splitlines()):
            raise EditFailed(
                f"{target.relative} does not exist, and code_edit leaves code out with `... existing code ...` "
                f"markers. Check the path, or send the whole new file without markers to create it."
            )
        _writable(target, code_edit)
        return EditOutcome(target.relative, unified_diff("", code_edit, target.relative), "new file", created=True)


def _check_code_edit(relative: str, code_edit, instructions: str | None) -> None:
    """Refuse what cannot become a text file before any work: empty, too big, a lone surrogate
    (JSON carries one, UTF-8 cannot), a NUL character (the file would be binary)."""
    if not isinstance(code_edit, str) or not code_edit.strip():
        raise EditFailed(f"{relative} was not changed: code_edit is empty. Send the changed lines.")
    for name, text in (("code_edit", code_edit), ("instructions", instructions or "")):
        bad = lone_surrogate(text)
        if bad is not None:
            raise EditFailed(f"{relative} was not changed: {name} is not valid Unicode (a lone surrogate, "
                             f"U+{ord(text[bad]):04X}, at character {bad}). Send it again as valid text.")
    check_size(code_edit, DEFAULT_MAX_SNIPPET_BYTES, "code_edit")
    check_size(instructions or "", DEFAULT_MAX_SNIPPET_BYTES, "instructions")
    nul = code_edit.find("\x00")
    if nul >= 0:
        raise EditFailed(f"{relative} was not changed: code_edit contains a NUL character (at character {nul}), "
                         f"which would make the file binary. Send the code without it.")


def _writable(target, text: str | None = None) -> None:
    """Check that `target` may be replaced (`text` None) or replace it with `text`; a file with
    several hard links or a read-only one is refused with advice an agent can act on: the CLI's
    remedies (`-o`, `--force-read-only`) are not the agent's to use."""
    try:
        if text is None:
            check_writable(target.path)
        else:
            atomic_write(target.path, text)
    except HardLinkError as exc:
        raise EditFailed(
            f"{target.relative} was not changed: it has {exc.links} hard links (other names for the same file), "
            f"and replacing it atomically would leave those names with the old content. Tell the user; if this name "
            f"should become a file of its own, they can run `cp {target.relative} {target.relative}.copy && "
            f"mv {target.relative}.copy {target.relative}`, and then the edit can be retried."
        ) from None
    except ReadOnlyError as exc:
        raise EditFailed(
            f"{target.relative} was not changed: it is read-only (mode {exc.mode:04o}), so its owner does not want "
            f"it changed. Tell the user and do not work around it; retry only if they make it writable "
            f"(e.g. `chmod u+w {target.relative}`)."
        ) from None
