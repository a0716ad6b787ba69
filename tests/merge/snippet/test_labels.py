"""snippet/labels.py: a planner's label lines are refused with the option that removes them."""

from __future__ import annotations

import pytest

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise
from fastapply.merge.snippet.labels import LABEL, label_lines

ORIGINAL = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"


@pytest.mark.parametrize("label", ["# NEW: validation", "# BEGIN REPLACE", "# END REPLACE", "# CHANGED:", "# ADD THIS",
                                   "# <-- new", "# new code", "# Added"])
def test_a_label_line_is_refused_and_removing_it_merges(label):
    snippet = f"# ... existing code ...\ndef b():\n    {label}\n    if x:\n        return 3\n    return 2\n"
    r = instant_merge(ORIGINAL, snippet, language="python")
    assert r.text is None and r.refusal.kind == "form" and "snippet line 3" in r.refused_reason
    fixed = revise(snippet, r.refusal.options[0])
    assert label not in fixed
    assert instant_merge(ORIGINAL, fixed, language="python").text == (
        "def a():\n    return 1\n\n\ndef b():\n    if x:\n        return 3\n    return 2\n")


def test_comments_that_say_what_the_code_does_are_no_labels():
    for comment in ("// Start server", "# fixed bug in parse()", "// end of options parsing loop", "# new_value = 2",
                    "/* the new connection */", "-- added by the migration tool on deploy"):
        assert not LABEL.match(comment), comment
    for label in ("// END REPLACE", "/* NEW */", "<!-- changed -->", "  // <-- added", "// New line here"):
        assert LABEL.match(label), label


def test_a_label_the_original_already_holds_is_its_code():
    assert label_lines(["# ... existing code ...", "# NEW", "x = 1"], ["# NEW", "x = 0"]) == []
    assert label_lines(["# ... existing code ...", "# NEW", "x = 1"], ["x = 0"]) == [1]


def test_a_block_keyword_alone_in_a_comment_is_commented_out_code_not_a_label():
    original = ("class Simple\n  # Example:\n  #\n  #   module Foo\n  #   end\n  def a\n    1\n  end\nend\n")
    snippet = ("class Simple\n  # Example:\n  #\n  #   module Bar\n  #     def b\n  #     end\n  #   end\n"
               "  # ... existing code ...\nend\n")
    assert label_lines(snippet.splitlines(), original.splitlines()) == []
    r = instant_merge(original, snippet, language="ruby")
    assert r.text == original.replace("  #   module Foo\n", "  #   module Bar\n  #     def b\n  #     end\n")
    for label in ("# END", "-- BEGIN", "# end of new code", "# end: replacement"):
        assert label_lines(["x = 1", label], ["x = 0"]) == [1], label
