"""The instruction as a stricter gate: a result that still defines what the instruction says to remove.

A planner's intent ("Remove the unused `accessLogger` middleware") often names a definition the
edit deletes while the snippet never shows the deletion; the merge then keeps it.

- `removal_targets(instruction)`: code-like names after remove/delete/drop (backticked, dotted,
  snake_case, camelCase, `name()`, CAPS); not plain words, nor names followed by a word that
  says only a use of the name goes ("remove `foo` calls");
- `check_removals(original, result, instruction)`: a Refusal (unshown-deletion) when the original
  defines a target (text/names.defined_name) and the result keeps every such definition line.

The instruction only ever refuses: it never chooses a reading or writes a file. Measured on the
tuned pool (16,000 rows): 13 of the instant merge's wrong files flagged, none of its right ones
(docs/ARCHITECTURE.md, the rule table). It knows no snippet form and no merge rule.
"""

from __future__ import annotations

import re

from fastapply.merge.text.names import defined_name
from fastapply.merge.refuse.refusal import Line, Refusal

_VERB = re.compile(
    r"\b(?:remove[sd]?|removing|delete[sd]?|deleting|drop(?:s|ped|ping)?|get rid of|eliminate[sd]?)\b\s+"
    r"(?:(?:the|a|an|unused|obsolete|deprecated|redundant|unnecessary|dead|old|legacy)\s+)*"
    r"(`[^`\n]+`|\.?[A-Za-z_$][\w.$#:]*(?:\(\))?)(\s+\w+)?",
    re.I,
)
# a word after the name that says only a use of it goes, not its definition
_USE_WORDS = {
    "call", "calls", "usage", "usages", "use", "uses", "reference", "references", "import", "imports",
    "argument", "arguments", "arg", "args", "parameter", "parameters", "param", "params", "option",
    "options", "flag", "flags", "check", "checks", "invocation", "invocations", "prefix", "suffix",
    "attribute", "attributes", "property", "key", "keys", "field", "fields", "value", "values",
    "dependency", "requirement", "annotation", "decorator", "header", "comment", "comments", "test", "tests",
}


def _code_like(token: str, quoted: bool) -> bool:
    return quoted or bool(re.search(r"[._$#]|\(\)|[a-z][A-Z]|^[A-Z][A-Z0-9_]{2,}$", token))


def removal_targets(instruction: str | None) -> list[str]:
    """The names `instruction` says to remove (see the module docstring), each once, in order."""
    names: list[str] = []
    if not isinstance(instruction, str):
        return names
    for m in _VERB.finditer(instruction):
        raw, after = m.group(1), (m.group(2) or "").strip().lower()
        quoted = raw.startswith("`")
        name = raw.strip("`").strip().removesuffix("()").strip(".")
        if len(name) < 3 or " " in name or after in _USE_WORDS or not _code_like(raw, quoted):
            continue
        if name not in names:
            names.append(name)
    return names


def _last(name: str) -> str:
    """`utils.contentDisposition` -> contentDisposition; `Route#run` -> run; `Foo::bar` -> bar."""
    return re.split(r"[.#:\s]+", name.strip())[-1]


def check_removals(original: str, result: str, instruction: str | None) -> Refusal | None:
    """A refusal when `result` keeps every original line that defines a name the instruction
    says to remove; None when the instruction names no such definition or one of its lines went."""
    targets = removal_targets(instruction)
    if not targets:
        return None
    old = [line.rstrip("\r") for line in original.split("\n")]
    new = [line.rstrip("\r") for line in result.split("\n")]
    for target in targets:
        wanted = _last(target)
        defining = [i for i, line in enumerate(old) if (d := defined_name(line)) and _last(d) == wanted]
        if not defining or any(new.count(old[i]) < old.count(old[i]) for i in defining):
            continue
        first = defining[0]
        cause = (f"the instruction says to remove `{target}`, but the merged file still defines it "
                 f"(original line {first + 1} `{old[first].strip()}`): the snippet does not show that deletion")
        fix = ("show it: put the unchanged lines just above and just below the definition one after the other "
               "in the snippet (no marker between them), or its lines as `-` lines; if it stays, leave its "
               "removal out of the instruction")
        return Refusal("unshown-deletion", cause, fix, original=(Line(first + 1, old[first]),), detail={"removes": first})
    return None
