"""Siblings: a new block the merge read as an edit of the similar block next to it.

Tests, routes and handlers come in runs of blocks of one shape (`it('...', function(done){`,
`func TestX(t *testing.T) {`, `app.get('/x', function(req, res){`). A lazy snippet that adds one
shows its opener line and some of its body, often right after a generic closing line (`})`,
`}`) and often stopping at a marker before the block ends. Two readings then keep every line the
snippet shows, in order:

- the snippet's block is **new**, inserted next to the original sibling (before it, or after
  it when the lines above the new opener are the sibling's own generic closing lines);
- the snippet's block is the **sibling edited**: its opener renamed, its body changed where the
  snippet's lines differ.

The second reading is what a line-matching merge prefers (it matches the most lines), but a
commit adds a route or a test far more often than it renames one and rewrites its body. The
snippet settles it by showing a line only the original block has (then it shows that block,
edited), or, after the block it opens, original lines that follow the sibling's block.

`check_sibling_overwritten` refuses a result that replaced an original opener line by the
snippet's new opener at the same indentation when all of these hold:

- the new opener names another block (`renamed`: another leading name or first string literal,
  `blog.get('/'` -> `admin.get('/'`, `describe('a'` -> `describe('b'`; not a changed parameter
  list, not a small rename such as a typo fixed);
- the snippet's non-blank line above the new opener is generic (`})`, `}`), a marker, or none;
- the new block's lines the snippet shows (up to a marker) include no distinctive line that is
  unique in the original;
- after the new block, no distinctive original line follows before a marker or the snippet's end.

Worked example (original, snippet, refused merge):

    it('a', function(done){    // ... existing code ...     it('a', function(done){
      run(1, done)             })                             run(1, done)
    })                                                      })
    it('b', function(done){    it('c', function(done){      it('c', function(done){  <- 'b' overwritten
      run(2, done)               run(3, done)                 run(3, done)
    })                         })                           })

`it('c'` may be a new test after `a` (or after `b`) or `b` renamed: the snippet cannot say.
Had the new block kept a line only `b` has, the snippet would show `b` edited; had the snippet
shown `it('b'` below the new block, the block would be new: either settles it.

This module knows lines, indentation and generic lines; it does not parse and does not know how
the result was made.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Sequence

from fastapply.merge.anchors import is_generic
from fastapply.merge.snippet_checks import _distinctive, _marker_like, line_opcodes

_OPENERS = ("{", "(", ":", "[", "do", "then")


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def is_opener(line: str) -> bool:
    """A distinctive line that opens a block (ends with `{`, `(`, `:`, `[`, `do`, `then`)."""
    text = line.strip()
    return _distinctive(text) and text.endswith(_OPENERS)


_CONTROL = frozenset("if elif else for foreach while switch case catch with try except finally match loop do "
                     "unless until return select when".split())
_LEAD = re.compile(r"([A-Za-z_$][\w$.]*)(?:\s+[A-Za-z_$][\w$.]*)*\s*(?:\(|=|:|\{)")
_STRING = re.compile(r"""(['"`])(.*?)\1""")
SAME_NAME = 0.8  # identities this alike are one block renamed in place (`.accept` -> `.accepts`, a typo fixed)


def identity(line: str) -> str | None:
    """What an opener line names: its leading name plus its first string literal (`def echo`,
    `func TestLogger`, `it 'works'`, `blog.get '/'`), or None for a keyword-led line (`if err :=
    f(); err != nil {`), which names nothing."""
    text = line.strip()
    string = _STRING.search(text)
    if string is not None and string.start() == 0:
        return string.group(2)  # a quoted key: `'test #contentType': function(assert){`
    m = _LEAD.match(text)
    if m is None or m.group(1).lower() in _CONTROL:
        return None
    name = " ".join(m.group(0).rstrip("(=:{ ").split())
    return f"{name} {string.group(2)}" if string else name


def renamed(old: str, new: str) -> bool:
    """True when the opener `new` names another block than `old` (not the same name with other
    parameters, nor a small rename that keeps SAME_NAME of it)."""
    a, b = identity(old), identity(new)
    if a is None or b is None or a == b:
        return False
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() < SAME_NAME


def _is_marker(line: str, known: frozenset[str]) -> bool:
    from fastapply.merge.markers import is_elision

    text = line.strip()
    return text not in known and (is_elision(line, known) or _marker_like(text))


def _block_end(snippet: Sequence[str], k: int) -> int:
    """Index just past the block that snippet[k] opens: the lines deeper than it, then the
    closing lines (`}`, `})`, `end`) at its own indentation."""
    depth = _indent(snippet[k])
    i = k + 1
    while i < len(snippet) and (not snippet[i].strip() or _indent(snippet[i]) > depth):
        i += 1
    while i < len(snippet) and snippet[i].strip() and _indent(snippet[i]) == depth and is_generic(snippet[i]):
        i += 1
    return i


def _unsettled(snippet: Sequence[str], k: int, known: frozenset[str], counts: Counter) -> bool:
    """True when nothing around the opener snippet[k] says whether its block is new or an edit:
    the non-blank line above it is generic (or a marker, or none), and after its block no
    distinctive original line comes before a marker or the snippet's end."""
    above = next((l for l in reversed(snippet[:k]) if l.strip()), None)
    if above is not None and not is_generic(above) and not _is_marker(above, known):
        return False
    end = _block_end(snippet, k)
    body = snippet[k + 1:end]
    cut = next((i for i, l in enumerate(body) if _is_marker(l, known)), None)
    if cut is not None:
        body, end = body[:cut], k + 1 + cut
    if any(counts.get(l.strip()) == 1 and _distinctive(l) for l in body):
        return False  # a line only the original block has: the snippet shows that block, edited
    for line in snippet[end:]:
        if not line.strip():
            continue
        if _is_marker(line, known):
            return True
        if not is_generic(line) and counts.get(line.strip()):
            return False
    return True


def check_sibling_overwritten(original: Sequence[str], result: Sequence[str], snippet: Sequence[str]) -> str | None:
    """Refuse a result that overwrote an original opener line with a new opener the snippet shows
    (see the module docstring) where the snippet does not settle new block versus edited one."""
    known = frozenset(l.strip() for l in original)
    counts = Counter(l.strip() for l in original)
    shown = [l.strip() for l in snippet]
    for tag, i1, i2, j1, j2 in line_opcodes(original, result):
        if tag != "replace":
            continue
        old = next((l for l in original[i1:i2] if l.strip()), None)
        new = next((l for l in result[j1:j2] if l.strip()), None)
        if old is None or new is None or not (is_opener(old) and is_opener(new)):
            continue
        if _indent(old) != _indent(new) or old.strip() in shown or new.strip() in known or not renamed(old, new):
            continue
        if shown.count(new.strip()) != 1:
            continue
        k = shown.index(new.strip())
        if _unsettled(snippet, k, known, counts):
            return (f"`{new.strip()[:60]}` could open a new block next to `{old.strip()[:60]}` or be that block "
                    "changed; show the unchanged lines after the new block (or the original opener, if it stays)")
    return None
