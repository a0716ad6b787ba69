"""Unchanged results that are suspect (gate/kept_code.py `check_unchanged_suspect`)."""

from fastapply.merge.gate import kept_code
from fastapply.merge.gate.guards import check_changed
from fastapply.merge.instant import instant_merge

ORIGINAL = ["import os", "", "if PY2:", "    from .packages import chardet", "else:",
            "    from .packages import chardet2 as chardet", "", "def main():", "    run()", "", "main()"]


def test_a_short_section_with_a_near_twin_changes_nothing_suspectly():
    snippet = ["# ... existing code ...", "    from .packages import chardet", "# ... existing code ..."]
    reason = kept_code.check_unchanged_suspect(ORIGINAL, ORIGINAL, snippet)
    assert reason and "chardet2 as chardet" in reason
    assert check_changed(ORIGINAL, ORIGINAL, snippet) == reason
    # A result that changes something is not this module's business.
    assert kept_code.check_unchanged_suspect(ORIGINAL, ORIGINAL[:-1], snippet) is None
    # The twin shown in the snippet too, or a longer section, or two sections: applied already.
    both = snippet[:2] + ["else:", "    from .packages import chardet2 as chardet"] + snippet[2:]
    assert kept_code.near_twin(ORIGINAL, both) is None
    two = snippet + ["def main():", "# ... existing code ..."]
    assert kept_code.near_twin(ORIGINAL, two) is None


def test_a_snippet_stopping_before_the_file_s_end_would_delete_the_tail():
    snippet = ["# ... existing code ...", "def main():", "    run()"]
    assert kept_code.tail_it_would_delete(ORIGINAL, snippet) == "run()"
    assert "without a marker" in kept_code.check_unchanged_suspect(ORIGINAL, ORIGINAL, snippet)
    # It ends with a marker, or at the file's last line: nothing to say.
    assert kept_code.tail_it_would_delete(ORIGINAL, snippet + ["# ... existing code ..."]) is None
    assert kept_code.tail_it_would_delete(ORIGINAL, ["# ... existing code ...", "", "main()"]) is None


def test_instant_merge_refuses_the_unchanged_near_twin_reading():
    original = "\n".join(ORIGINAL) + "\n"
    r = instant_merge(original, "# ... existing code ...\n    from .packages import chardet\n# ... existing code ...\n",
                      path="compat.py")
    assert not r.merged and "similar" in r.refused_reason
    # An edit re-sent with its context (several lines, unique edges) still reads as applied already.
    again = "# ... existing code ...\ndef main():\n    run()\n\nmain()\n"
    assert instant_merge(original, again, path="compat.py").merged


def test_a_section_at_the_file_s_start_is_pinned_there():
    original = ["def f():", "    return 1", "", "", "def g():", "    return 2"]
    assert kept_code.near_twin(original, ["def f():", "    return 1", "# ... existing code ..."]) is None
    assert kept_code.near_twin(original, ["# ... existing code ...", "def f():", "    return 1",
                                          "# ... existing code ..."]) == ("def f():", "def g():")
