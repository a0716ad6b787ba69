"""Floating sections: where a section with no anchor in its window lands, by its edge lines.

A section without a unique line in the window between its placed neighbours is placed by its
first and last lines: every place its first line occurs, closed on its last line (or the file's
end), ranked like anchored edges (bracket balance, lines deleted unshown, context). A section that
occurs verbatim is pure context (None); equally good places are an ambiguity.

This module knows lines and sections; candidates and their ranking come from edges.py.
"""

from __future__ import annotations

from typing import Sequence

from fastapply.merge.anchors import LineIndex, bracket_balance
from fastapply.merge.edges import MAX_CANDIDATES, MAX_REGION, Ambiguous, Span, Trimmed, Unplaceable, _replace_cand


def place_floating(t: Trimmed, orig: Sequence[str], index: LineIndex, key, lo: int, hi: int):
    """(Span, lines) for a section with no anchor in orig[lo:hi]; None when it is pure context
    (it occurs there verbatim, so placing it changes nothing)."""
    sec, keys, n = t.lines, index.keys, len(t.lines)
    heads = index.places(key(sec[0]), lo, hi)
    for p in heads:
        if p + n <= hi and all(key(sec[c]) == keys[p + c] for c in range(n)):
            return None
    cands: list[tuple[tuple, int, int]] = []  # (rank, start, end)
    for p in heads[:MAX_CANDIDATES * 4]:
        c = 0
        while c < n and p + c < hi and key(sec[c]) == keys[p + c]:
            c += 1
        rest = sec[c:]
        options = [((not bracket_balance(rest) == 0, 0, -c), p + c)] if t.section.open_end else []
        if not t.section.open_end and hi == len(orig) and hi - (p + c) <= MAX_REGION:
            options.append((_replace_cand(hi, orig[p + c : hi], rest, key, c).rank(), hi))  # the file's end
        for q in index.places(key(sec[-1]), p + c, hi)[:3]:
            d = 0
            while d < n - c and q - d >= p + c and key(sec[n - 1 - d]) == keys[q - d]:
                d += 1
            region, repl = orig[p + c : q - d + 1], sec[c : n - d]
            if len(region) <= MAX_REGION:
                cand = _replace_cand(q + 1, region, repl, key, c + d)
                options.append((cand.rank(), q + 1))
        if options:
            rank, end = min(options)
            cands.append((rank, p, end))
    if not heads and t.section.open_start:
        for q in index.places(key(sec[-1]), lo, hi)[:MAX_CANDIDATES]:
            d = 0
            while d < n and q - d >= lo and key(sec[n - 1 - d]) == keys[q - d]:
                d += 1
            cands.append(((not bracket_balance(sec[: n - d]) == 0, 0, -d), q - d + 1, q + 1))
    if not cands:
        raise Unplaceable("no line of it occurs there")
    cands.sort()
    rank, start, end = cands[0]
    rivals = sorted({(s, e) for r, s, e in cands if r == rank})
    guess = (Span(start, end, "exact", ambiguous=True), list(sec))
    if len(rivals) > 1:
        line = sec[0] if heads else sec[-1]
        raise Ambiguous(line, [s for s, _ in rivals], guess=guess, regions=[(s, e) for s, e in rivals])
    if rank[0]:
        raise Ambiguous(sec[0], [start], doubt=True, guess=guess, regions=[(start, end)])
    return Span(start, end, "exact"), list(sec)
