"""Reading choice: when the two readings of a lazy snippet (joint and greedy) give different
files, which differences the snippet can settle.

`two_readings.two_readings` writes one reading alone when the other pasted a twin, or when they
differ in blank lines only, or when one deletes much less than the other. One difference no
rule can settle is a *final block*: the snippet stops without a marker just before the file's
short final block, set apart by a blank line. One reading keeps it (the planner left the marker out, as planners often do), the other
deletes it (the snippet shows the file's end, Morph's convention). Both happen in real commits
(a trailing `if __name__ == '__main__':` or a circular import removed; an `app.listen(3000)`
kept), so `differ_by_final_block` names the case and the caller refuses. (Not at the file's
start: a licence or header comment above the first line a snippet shows is kept by planners
who leave out the first marker, and commits seldom delete it; a real planner snippet does.)

Example (joint keeps, greedy deletes; the snippet ends at `jsonify = json.jsonify`):

    joint                          greedy
    jsonify = json.jsonify         jsonify = json.jsonify
    <blank>
    # backwards compat
    json_available = True

A difference the snippet does settle is *marker context* (repeats.copied_context): when both readings
paste copies of existing lines (new code shaped like old: a new test after its twin), the line a
snippet shows right after a marker (or right before one) is context, the existing line the marker
runs up to. A reading that pastes a second copy of it has read the context as new code; when the
other reading places it on the original line and copies no such line, it is the one the snippet
describes (`two_readings._keeps_context` adds the deletion checks). Example: the snippet
`# ... existing code ... / assert out == 'x' / <blank> / def test_new(): ...` appends a test; a
reading that anchors on a line inside the new test (`assert result.exit_code == 2`, which the
old test has too) pastes `assert out == 'x'` a second time, the other keeps it once.

A reading that lays a new definition over an original one the snippet never names (its
header gone, `overwritten_definitions`), where the other keeps every header, is the wrong one: a
snippet that replaces a definition shows or names it.

A block one reading keeps and the other deletes is also settled when the snippet removed
imports that only the block uses (`orphaned_block`): keeping it would leave it calling names
the file no longer imports (imports.py reads the import lines).

This module knows lines (and, through imports.py, import lines); it does not know how either
reading was made.
"""

from __future__ import annotations

import re
from typing import Sequence

FINAL_BLOCK = 8  # non-blank lines: a longer final block is not one a snippet deletes by stopping short


def _trim(lines: Sequence[str]) -> list[str]:
    out = list(lines)
    while out and not out[-1].strip():
        out.pop()
    while out and not out[0].strip():
        out.pop(0)
    return out


def differ_by_final_block(a: Sequence[str], b: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when one of two results is the other plus a short block (at most FINAL_BLOCK non-blank
    lines) at the file's end after a blank line, blank lines at the very edges aside, and the
    snippet does not end with a marker: the readings disagree only on whether the missing
    marker keeps that block."""
    from fastapply.merge.text.markers import is_marker

    shown = _trim(snippet)
    if not shown:
        return False
    a, b = _trim(a), _trim(b)
    if len(a) == len(b):
        return False
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    if is_marker(shown[-1]) or not shorter or longer[:len(shorter)] != shorter:
        return False
    block = longer[len(shorter):]
    code = [line for line in block if line.strip()]
    return not block[0].strip() and 0 < len(code) <= FINAL_BLOCK


def orphaned_block(original: Sequence[str], keep: Sequence[str], drop: Sequence[str],
                   language: str | None = None) -> set[str]:
    """The names that settle a block one reading keeps (`keep`) and the other deletes (`drop`)
    in favour of deleting it: names bound by import lines of the original that both readings
    remove (the snippet removed those imports), which the kept block still uses and nothing
    else in `drop` does. Empty when that is not so.

    `keep` must be `drop` with original lines added (nothing else differs). Keeping the block
    would leave it calling what the snippet no longer imports (`ioutil.ReadFile` after the
    snippet's import list drops `io/ioutil`), while the shorter file uses none of the removed
    names: the imports were removed because the block goes (a snippet that ends without a marker
    before a function only that function's imports served)."""
    from fastapply.merge.text import imports
    from fastapply.merge.text.compare import line_opcodes

    ops = line_opcodes(drop, keep)
    if any(tag not in ("equal", "insert") for tag, *_ in ops):
        return set()
    keep_imports = imports.bound_names(keep, language)
    added = [keep[j] for tag, _, _, j1, j2 in ops if tag == "insert" for j in range(j1, j2) if j not in keep_imports]
    known = {line.strip() for line in original}
    if not any(line.strip() for line in added) or any(line.strip() not in known for line in added):
        return set()
    bound = imports.bound_names(original, language)
    if not bound:
        return set()
    present = {line.strip() for line in keep} | {line.strip() for line in drop}
    removed = {i for i in bound if original[i].strip() not in present}
    still = set().union(*(names for i, names in imports.bound_names(drop, language).items()))
    names = set().union(*(bound[i] for i in removed)) - still if removed else set()
    if not names:
        return set()
    code = [line for i, line in enumerate(drop) if i not in imports.bound_names(drop, language)]
    if imports.uses(code, names):
        return set()
    return imports.uses(added, names)


def shown_run_kept_twice(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> bool:
    """True when two copied lines (`compare.copied_lines`: the result has them more often
    than the original and the snippet) follow each other both in the snippet and in the original,
    and the snippet shows the run's old neighbour (the original line just before it, or just after
    it) without the run next to it: the run moved (code moved into a new function), and a reading
    that keeps it at its old place as well (below an excerpt's end) kept it twice. New code shaped
    like old (a new test repeating an old test's two lines) shows no old neighbour of the run."""
    from fastapply.merge.text.compare import copied_lines

    copied = copied_lines(original, result, snippet)
    if len(copied) < 2:
        return False
    old = [l.strip() for l in original if l.strip()]
    shown = [l.strip() for l in snippet if l.strip()]
    after = {a: b for a, b in zip(shown, shown[1:])}
    before = {b: a for a, b in zip(shown, shown[1:])}
    for a, b in set(zip(shown, shown[1:])) & set(zip(old, old[1:])):
        if a not in copied or b not in copied:
            continue
        k = next(k for k in range(len(old) - 1) if old[k] == a and old[k + 1] == b)
        prev, nxt = (old[k - 1] if k > 0 else None), (old[k + 2] if k + 2 < len(old) else None)
        if (prev in after and after[prev] != a) or (nxt in before and before[nxt] != b):
            return True
    return False


def overwritten_definitions(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> list[str]:
    """The original's definition headers (gate/landing.definition_headers) that `result` no
    longer has and the snippet never names (no snippet line carries the header's name): a
    definition another one was laid over, unseen."""
    from fastapply.merge.align.edge_edits import header_name
    from fastapply.merge.gate.landing import definition_headers

    kept = {l.strip() for l in result}
    names = {header_name(l) for l in snippet} - {None}
    words = set(re.findall(r"[A-Za-z_$][\w$]*", "\n".join(snippet)))
    return [h for h in definition_headers(original)
            if h not in kept and (n := header_name(h)) is not None and n not in names and n not in words]
