"""`Refusal`: why the instant merge wrote nothing, as data a planner (or a program) can act on.

A refusal names its cause from a small closed set of kinds, the original lines and the snippet
lines involved (by number, 1-based, and text), a fix in words (an instruction to whoever wrote the
snippet) and the same fix as machine-readable `options`, each one concrete edit of the snippet as
it was sent (`revise.py` applies one). The one-sentence `refused_reason` every surface has always
carried is rendered from this data (`sentence`).

The kinds (`KINDS` says each in a line):

    ambiguous-place    a section or line fits several places in the original equally well
    out-of-order       every section is found, but not in the snippet's order: move one
    line-not-found     a section's lines do not occur where it must go (or are there at another indentation)
    new-or-changed     a shown line could be new or a change to a similar original line beside it
    unshown-deletion   the result drops original lines the snippet does not show deleted
    would-delete-edge  the snippet stops without a marker where the file goes on (its start or end)
    unbalanced         the result would not parse, re-nests lines, or leaves a body empty
    duplicate          the result would hold a line or definition twice (context read as new code)
    no-change          the snippet changes nothing the merge could place
    form               the input's form (not text, a malformed block, too large) or a cause not yet converted

An option is a sentence and the edits (`Edit.action`) that carry it out together:

    insert   put `text` (original lines from `original_line`, when they are) before snippet line `at`
             (`at` = number of lines + 1 appends)
    marker   put the marker line `text` before snippet line `at`
    deleted  put the original lines `text` (from `original_line`), each as a `-` line, before snippet line `at`
    move     move snippet lines `start`..`end` to before snippet line `at`
    remove   delete snippet lines `start`..`end`
    added    mark snippet lines `start`..`end` as new (`+`): with `deleted` lines, the snippet reads as a diff

Sites in the merge that know a refusal's data attach it to their sentence (`Reason`, a `str` that
carries its `Refusal`, so the code between the site and the entry point, which passes reasons as
text, needs no change). Sentence-only sites are converted at the entry point (`explain.py`).

This module holds data and its rendering; it knows no merge rule.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

KINDS = {
    "ambiguous-place": "a section or line fits several places in the original equally well",
    "out-of-order": "every section is found in the original, but not in the snippet's order",
    "line-not-found": "a section's lines do not occur where it must go (or occur at another indentation)",
    "new-or-changed": "a shown line could be new or a change to a similar original line beside it",
    "unshown-deletion": "the result drops original lines the snippet does not show deleted",
    "would-delete-edge": "the snippet stops without a marker where the file goes on",
    "unbalanced": "the result would not parse, re-nests lines, or leaves a body empty",
    "duplicate": "the result would hold a line or definition twice",
    "no-change": "the snippet changes nothing the merge could place",
    "form": "the input's form, or a cause not yet given a kind of its own",
}
ACTIONS = ("insert", "marker", "deleted", "move", "remove", "added")


@dataclass(frozen=True)
class Line:
    """One numbered line (1-based) of the original or of the snippet."""

    number: int
    text: str


@dataclass(frozen=True)
class Edit:
    """One change to the snippet as sent (see the module docstring for each action)."""

    action: str
    at: int | None = None  # snippet line number the insert, marker or move goes before
    text: str | None = None  # the line(s) inserted (insert, marker, deleted), "\n"-joined
    original_line: int | None = None  # the original line `text` starts with (insert)
    start: int | None = None  # first snippet line moved, removed or marked added
    end: int | None = None  # last snippet line moved, removed or marked added (inclusive)

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise ValueError(f"unknown edit action {self.action!r}")


@dataclass(frozen=True)
class Option:
    """One way to answer the refusal: its edits of the snippet (all applied together) in words."""

    says: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Refusal:
    """Why nothing was written: the kind, the lines involved, the fix and its options."""

    kind: str
    cause: str  # what is wrong, in words (the sentence's first half)
    fix: str  # an instruction to the snippet's writer
    original: tuple[Line, ...] = ()  # the original lines involved (never a blank or lone bracket)
    snippet: tuple[Line, ...] = ()  # the snippet lines involved
    options: tuple[Option, ...] = ()  # the fix as edits of the snippet; empty when none is mechanical
    detail: dict = field(default_factory=dict, compare=False)  # what a site knew, for explain.py

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown refusal kind {self.kind!r}")

    @property
    def sentence(self) -> str:
        """The one-line `refused_reason` every surface carries."""
        return f"{self.cause}; {self.fix}" if self.fix else self.cause

    def with_(self, **changes) -> "Refusal":
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """JSON-ready: kind, message, fix, the lines and the options (empty fields left out)."""
        out = {"kind": self.kind, "message": self.sentence, "cause": self.cause, "fix": self.fix,
               "original_lines": [asdict(x) for x in self.original],
               "snippet_lines": [asdict(x) for x in self.snippet],
               "options": [{"says": o.says, "edits": [{k: v for k, v in asdict(e).items() if v is not None}
                                                      for e in o.edits]} for o in self.options]}
        return out


class Reason(str):
    """A refusal sentence that carries its `Refusal` through code that passes reasons as text."""

    refusal: Refusal

    def __new__(cls, refusal: Refusal) -> "Reason":
        made = super().__new__(cls, refusal.sentence)
        made.refusal = refusal
        return made


def reason(kind: str, cause: str, fix: str, **detail) -> Reason:
    """The sentence `cause; fix` carrying a Refusal of `kind` and what the site knew (`detail`,
    e.g. original line indexes, the snippet line it is about) for explain.py to number."""
    return Reason(Refusal(kind, cause, fix, detail=detail))


def prefixed(prefix: str, sentence: str) -> str:
    """`prefix: sentence`, keeping the Refusal a site attached to `sentence` (its cause prefixed)."""
    site = attached(sentence)
    if site is None:
        return f"{prefix}: {sentence}"
    return Reason(site.with_(cause=f"{prefix}: {site.cause}"))


def attached(sentence: str | None) -> Refusal | None:
    """The Refusal a site attached to `sentence`, if any."""
    return getattr(sentence, "refusal", None)
