"""A section's blank padding before a marker doubted by the greedy placement (`(blank lines at the
end)`): the site attaches the doubt as data and the refusal offers the padding's removal."""

from __future__ import annotations

from fastapply.merge.align.greedy import _doubt_note
from fastapply.merge.align.greedy_locate import GreedyAmbiguous
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.refusal import attached, prefixed
from fastapply.merge.refuse.revise import revise

ORIGINAL = "import os\n\n\ndef first():\n    a = 1\n    return a\n\ndef second():\n    return 2\n"
SNIPPET = "# ... existing code ...\ndef first():\n    a = 10\n    return a\n\n\n\n# ... existing code ...\n"


def test_the_blank_padding_doubt_is_offered_its_removal_and_then_merges_right():
    err = GreedyAmbiguous("(blank lines at the end)", (), 0, doubt=True)
    err.near = None
    sentence = prefixed("section 1 (starting `def first():`)", _doubt_note(err, ORIGINAL.splitlines()))
    assert attached(sentence).kind == "new-or-changed"
    refusal = explain(ORIGINAL, SNIPPET, sentence, language="python")
    assert refusal.kind == "new-or-changed"
    padding = refusal.options[0]
    assert padding.says.startswith("remove the blank lines 5-7 before the marker at snippet line 8")
    revised = revise(SNIPPET, padding)
    assert revised == "# ... existing code ...\ndef first():\n    a = 10\n    return a\n# ... existing code ...\n"
    merged = instant_merge(ORIGINAL, revised, language="python")
    assert merged.merged and merged.text == ORIGINAL.replace("a = 1\n", "a = 10\n")
