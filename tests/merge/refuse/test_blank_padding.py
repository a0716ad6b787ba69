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
    # the sentence says what the doubt is and what to do, not the merge's internal name for it
    assert "(blank lines at the end)" not in refusal.sentence
    assert "its blank lines before the marker could be a new line each" in refusal.cause
    assert refusal.fix.startswith("remove the blank lines before the marker")
    padding = refusal.options[0]
    assert padding.says.startswith("remove the blank lines 5-7 before the marker at snippet line 8")
    revised = revise(SNIPPET, padding)
    assert revised == "# ... existing code ...\ndef first():\n    a = 10\n    return a\n# ... existing code ...\n"
    merged = instant_merge(ORIGINAL, revised, language="python")
    assert merged.merged and merged.text == ORIGINAL.replace("a = 1\n", "a = 10\n")


def test_every_sections_blank_padding_before_a_marker_is_offered_its_removal_beside_the_refused_ones_pins():
    # section 1 fits two places (the refusal); section 2 ends in blank padding before a marker, a
    # doubt of its own once section 1 is pinned: its removal is offered in the same refusal
    original = ("def first():\n    value = load()\n    return value\n\n\ndef second():\n    value = load()\n"
                "    return value\n\n\ndef third():\n    name = 'x'\n    size = 3\n    return name\n\n\ndef fourth():\n"
                "    return 4\n")
    snippet = ("# ... existing code ...\n    value = load()\n    return value + 1\n# ... existing code ...\n"
               "def third():\n    name = 'y'\n\n# ... existing code ...\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal.kind == "ambiguous-place"
    padding = [o for o in refusal.options if o.says.startswith("remove the blank line 7 before the marker at snippet line 8")]
    assert len(padding) == 1
    from fastapply.evaluation.retry import _joined

    both = _joined([refusal.options[0], padding[0]], 2, 7)
    merged = instant_merge(original, revise(snippet, both), language="python")
    assert merged.merged and merged.text == original.replace("return value\n\n\ndef second", "return value + 1\n\n\ndef second").replace("'x'", "'y'")


def test_padding_that_repeats_the_originals_spacing_or_follows_a_generic_line_is_not_offered_its_removal():
    # `greeting = 'hi'` is followed by one blank line in the original: the snippet's one blank line
    # after it is that spacing (context), not a doubt; after a lone `}`-like line it pins nothing
    original = ("def first():\n    value = load()\n    return value\n\n\ndef second():\n    value = load()\n"
                "    return value\n\n\ndef third():\n    greeting = 'hi'\n\n    return greeting\n")
    snippet = ("# ... existing code ...\n    value = load()\n    return value + 1\n# ... existing code ...\n"
               "def third():\n    greeting = 'hi'\n\n# ... existing code ...\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal.kind == "ambiguous-place"
    assert not [o for o in refusal.options if o.says.startswith("remove the blank lines")]
    spaced = snippet.replace("greeting = 'hi'\n\n#", "greeting = 'hello'\n\n#")  # a changed line: its padding is new
    refusal = instant_merge(original, spaced, language="python").refusal
    assert [o for o in refusal.options if o.says.startswith("remove the blank line 7 ")]
