"""Adjacent readings of a section's edge: where a section's first (last) two or more lines match
consecutive original lines right next to the run matched from its anchor, with only new lines
between, so that nothing of the original is deleted (a new block that ends like its twin).
edges.py (`_check_split_run`) takes the one such reading, or refuses.

This module knows lines, keys and a LineIndex; it does not decide (edges.py does).
"""

from __future__ import annotations

from fastapply.merge.align.anchors import LineIndex


def adjacent_head(sec, keys, index: LineIndex, key, sf: int, of: int, o_edge: int, lo: int) -> list[tuple[int, int]]:
    """(place, lines matched) for readings where the section's first lines match the original
    right before the run matched back from the anchor, with only new lines between."""
    found = []
    for p in index.places(key(sec[0]), max(lo, o_edge), of):
        c = 0
        while p + c < of and c < sf and key(sec[c]) == keys[p + c]:
            c += 1
        kept = of - (p + c)  # the anchor run's last lines, which still match before the anchor
        if c >= 2 and sf - kept > c and any(l.strip() for l in sec[c : sf - kept]):
            found.append((p, c))
    return found


def adjacent_tail(sec, keys, index: LineIndex, key, sl: int, ol: int, o_edge: int, hi: int) -> list[tuple[int, int]]:
    """The mirror of `adjacent_head` for a section's last lines (place of the last line + 1,
    lines matched)."""
    n, found = len(sec), []
    for q in index.places(key(sec[-1]), ol + 1, min(hi, o_edge)):
        d = 0
        while q - d > ol and d < n - sl - 1 and key(sec[n - 1 - d]) == keys[q - d]:
            d += 1
        kept = (q - d + 1) - (ol + 1)
        if d >= 2 and (n - d) - (sl + 1 + kept) > 0 and any(l.strip() for l in sec[sl + 1 + kept : n - d]):
            found.append((q + 1, d))
    return found
