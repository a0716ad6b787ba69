"""wrapped.py: a line the snippet adds round an original one (the file holds the new line at
several places, the wrapped line once) is offered the lines above (below) the wrapped line's own
place, so the new line is new right there."""

from __future__ import annotations

from fastapply.evaluation.retry import choose
from fastapply.merge.refuse.reading import read_input
from fastapply.merge.refuse.refusal import Edit
from fastapply.merge.refuse.wrapped import wrapped

ORIGINAL = """\
class Transport:
    def handle(self, request):
        with map_exceptions():
            return self._pool.handle(request)

    def stream(self, request):
        with map_exceptions():
            return self._pool.stream(request)

    def close(self):
        self._pool.close()
"""
SNIPPET = """\
# ... existing code ...
        with map_exceptions():
            self._pool.close()
# ... existing code ...
"""
EXPECTED = ORIGINAL.replace("        self._pool.close()\n", "        with map_exceptions():\n            self._pool.close()\n")


def test_the_new_line_above_a_wrapped_line_is_pinned_at_that_lines_place():
    options = wrapped(read_input(ORIGINAL, SNIPPET, "python"))
    assert len(options) == 1
    assert options[0].edits == (Edit("insert", at=2, text="    def close(self):", original_line=10),)
    assert "new right before original line 11" in options[0].says


def test_the_option_agrees_with_the_intent_and_none_is_offered_where_the_original_has_the_line_there():
    from fastapply.merge.refuse.refusal import Refusal

    refusal = Refusal("ambiguous-place", "x", "y", options=wrapped(read_input(ORIGINAL, SNIPPET, "python")))
    assert choose(refusal, SNIPPET, EXPECTED, ORIGINAL) is not None
    kept = "# ... existing code ...\n        with map_exceptions():\n            return self._pool.stream(request)\n# ...\n"
    assert wrapped(read_input(ORIGINAL, kept, "python")) == ()


def test_the_ambiguous_refusal_offers_it_and_the_retry_writes_the_intent():
    from fastapply.evaluation.retry import retry_example
    from fastapply.merge.instant import instant_merge

    refusal = instant_merge(ORIGINAL, SNIPPET, language="python").refusal
    assert refusal.kind == "ambiguous-place"
    assert any("is new right before original line 11" in o.says for o in refusal.options)
    row = retry_example({"original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "python"})
    assert row["second"] == "right"
