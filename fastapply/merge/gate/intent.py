"""The instruction as a stricter gate: a result that still defines what the instruction says to remove.

A planner's intent ("Remove the unused `accessLogger` middleware") often names a definition the
edit deletes while the snippet never shows the deletion; the merge then keeps it.

- `removal_targets(instruction)`: code-like names after remove/delete/drop (backticked, dotted,
  snake_case, camelCase, `name()`, CAPS); not plain words, nor names followed by a word that
  says only a use of the name goes ("remove `foo` calls");
- `check_removals(original, result, instruction)`: a Refusal (unshown-deletion) when the original
  defines a target (text/names.defined_name) and the result keeps every such definition line;
- `import_targets(instruction)`: names the instruction says to remove as imports ("drop the unused
  `binascii` import", "remove unused `Foo`", "remove `x` imports"); `check_removals` also refuses
  when the original imports such a name (an import, `use`, `using`, `require` line naming it as a
  word) and the result keeps every such line unchanged while using the name nowhere else.

The instruction only ever refuses: it never chooses a reading or writes a file. Measured on the
tuned pool (16,000 rows): 13 of the instant merge's wrong files flagged, none of its right ones
(docs/ARCHITECTURE.md, the rule table). It knows no snippet form and no merge rule.
"""

from __future__ import annotations

import re

from fastapply.merge.text.names import defined_name
from fastapply.merge.refuse.refusal import Line, Refusal
from fastapply.merge.text.spans import code

_REMOVE = r"\b(?:remove[sd]?|removing|delete[sd]?|deleting|drop(?:s|ped|ping)?|get rid of|eliminate[sd]?)"
_VERB = re.compile(
    _REMOVE + r"\b\s+"
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


_IMPORT_WORDS = r"(?:imports?|requires?|use|using|uses|dependency|dependencies)"
_IMPORT_INTENT = [
    # "drop unneccessary `binascii` import", "remove the os and sys imports", "remove `x` import"
    re.compile(_REMOVE + r"\s+((?:[`\w.$\\:/-]+(?:,\s*|\s+))+?)" + _IMPORT_WORDS + r"\b", re.I),
    # "remove unused `Foo`", "drop unused binascii"
    re.compile(_REMOVE + r"\s+"
               r"(?:the\s+)?(?:unused|unneeded|unnecessary|unneccessary)\s+((?:`[^`\n]+`|[A-Za-z_$][\w.$\\:]*)"
               r"(?:(?:,\s*|\s+and\s+)(?:`[^`\n]+`|[A-Za-z_$][\w.$\\:]*))*)(?![\w$])"
               # not a name followed by the kind of thing it is ("unused Logger instance")
               r"(?!\s+(?:instances?|variables?|vars?|fields?|members?|methods?|functions?|class(?:es)?|"
               r"constants?|parameters?|params?|arguments?|args?|properties|property|helpers?|types?|"
               r"structs?|objects?|calls?|code|logic|values?|keys?|options?|flags?|settings?)\b)", re.I),
]
_IMPORT_LINE = re.compile(r"^\s*(?:import\b|from\s+\S+\s+import\b|(?:pub(?:\([^)]*\))?\s+)?use\s|using\s|require\b|"
                          r"(?:local|const|let|var)\s+[\w{}, ]+=\s*require\b|#include\b|@import\b)")
_NOT_IMPORTED = {"the", "a", "an", "and", "or", "all", "unused", "unnecessary", "unneccessary", "unneeded", "old",
                 "obsolete", "redundant", "dead", "legacy", "stale", "extra", "now", "no", "longer", "needed",
                 "import", "imports", "require", "requires", "use", "using", "uses", "from", "of"}


def import_targets(instruction: str | None) -> list[str]:
    """The names `instruction` says to remove as imports (module docstring), each once, in order:
    a backticked name, or a word that is no plain adjective or article (checked against the
    original's import lines, so a plain word names nothing)."""
    names: list[str] = []
    if not isinstance(instruction, str):
        return names
    for pattern in _IMPORT_INTENT:
        for m in pattern.finditer(instruction):
            for raw in re.split(r",\s*|\s+", m.group(1)):
                name = raw.strip("`").strip().removesuffix("()").strip(".,")
                if len(name) < 2 or name.lower() in _NOT_IMPORTED or name in names:
                    continue
                names.append(name)
    return names


def _word(name: str) -> re.Pattern:
    """`name`'s last part (`a.b` -> b, `A\\B` -> B) as a word."""
    last = re.split(r"[.\\:/]+", name)[-1]
    return re.compile(r"(?<![\w$])" + re.escape(last) + r"(?![\w$])")


def _imports(line: str, name: str) -> bool:
    """True when `line` is an import line that names `name` (or its last part) as a word."""
    return bool(_IMPORT_LINE.match(line)) and _word(name).search(line) is not None


def check_import_removals(original: str, result: str, instruction: str | None) -> Refusal | None:
    """A refusal when `result` keeps, unchanged, every original import line that names an import the
    instruction says to remove; None when it names none or one such line went or changed."""
    old, new = _split(original), _split(result)
    for target in import_targets(instruction):
        lines = [i for i, line in enumerate(old) if _imports(line, target)]
        # still used in the result: the instruction means something else ("unused Logger instance")
        if _all_kept(old, new, lines) and not any(not _IMPORT_LINE.match(line) and _word(target).search(line)
                                                  for line in new):
            return _unshown(f"the import of {code(target)}", "imports", "the import lines just above and just below it",
                            "the line as a `-` line", old, lines[0])
    return None


def _split(text: str) -> list[str]:
    return [line.rstrip("\r") for line in text.split("\n")]


def _all_kept(old: list[str], new: list[str], lines: list[int]) -> bool:
    """Whether `lines` (original indexes) is not empty and the result keeps every one of them."""
    return bool(lines) and all(new.count(old[i]) >= old.count(old[i]) for i in lines)


def _unshown(what: str, keeps: str, neighbours: str, as_minus: str, old: list[str], first: int) -> Refusal:
    """The unshown-deletion refusal: the result still `keeps` (imports, defines) `what`, whose
    original line `first` the snippet should show gone (refuse/removal.py reads `removes`)."""
    cause = (f"the instruction says to remove {what}, but the merged file still {keeps} it "
             f"(original line {first + 1} {code(old[first].strip())}): the snippet does not show that deletion")
    fix = (f"show it: put {neighbours} one after the other in the snippet (no marker between them), "
           f"or {as_minus}; if it stays, leave its removal out of the instruction")
    return Refusal("unshown-deletion", cause, fix, original=(Line(first + 1, old[first]),), detail={"removes": first})


def _last(name: str) -> str:
    """`utils.contentDisposition` -> contentDisposition; `Route#run` -> run; `Foo::bar` -> bar."""
    return re.split(r"[.#:\s]+", name.strip())[-1]


def check_removals(original: str, result: str, instruction: str | None) -> Refusal | None:
    """A refusal when `result` keeps every original line that defines a name the instruction
    says to remove, or every import line of an import it says to remove (`check_import_removals`);
    None when the instruction names no such definition or import, or one of its lines went."""
    old, new = _split(original), _split(result)
    for target in removal_targets(instruction):
        wanted = _last(target)
        defining = [i for i, line in enumerate(old) if (d := defined_name(line)) and _last(d) == wanted]
        if _all_kept(old, new, defining):
            return _unshown(code(target), "defines", "the unchanged lines just above and just below the definition",
                            "its lines as `-` lines", old, defining[0])
    return check_import_removals(original, result, instruction)
