"""A refusal is data (refusal.py): kind, numbered lines, a fix and options, rendered as the sentence
every surface carries, and what instant_merge returns with it."""

from __future__ import annotations

import pytest

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.refusal import KINDS, Reason, Refusal, attached, prefixed
from fastapply.merge.text.lines import is_generic


def test_the_sentence_is_rendered_from_the_data_and_travels_as_text():
    r = Reason(Refusal("ambiguous-place", "`x` matches 2 places", "add a line"))
    assert r == "`x` matches 2 places; add a line" and isinstance(r, str)
    assert attached(r).kind == "ambiguous-place"
    assert attached(prefixed("section 1", r)).cause == "section 1: `x` matches 2 places"
    assert attached("plain words") is None
    with pytest.raises(ValueError):
        Refusal("made-up", "x", "y")


def test_every_instant_refusal_carries_a_kind_a_fix_and_distinctive_lines():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    for snippet in ("    value = compute(request)\n    return value + 1\n",  # no markers, several places
                    "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n",
                    "", "\x00"):
        r = instant_merge(original, snippet)
        assert not r.merged and r.refusal is not None
        assert r.refusal.kind in KINDS and r.refusal.fix and r.refused_reason == r.refusal.sentence
        assert all(not is_generic(line.text) for line in r.refusal.original)
