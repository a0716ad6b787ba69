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


def test_a_result_that_changes_only_blank_lines_and_trailing_spaces_is_refused():
    snippet = ["# ... existing code ...", "if PY2:", "# ... existing code ..."]
    spaced = ORIGINAL[:1] + ["", ""] + ORIGINAL[1:6] + ["    "] + ORIGINAL[7:]  # a blank line added, one spaced
    assert kept_code.same_code(ORIGINAL, spaced)
    reason = kept_code.check_whitespace_only(ORIGINAL, spaced, snippet)
    # it names the first line of code next to the change, never the blank line itself
    assert reason and "nothing but blank lines" in reason and "line 3 `if PY2:`" in reason
    assert check_changed(ORIGINAL, spaced, snippet) == reason
    trailing = [l + "  " if l.startswith("def") else l for l in ORIGINAL]
    assert kept_code.check_whitespace_only(ORIGINAL, trailing, ["# ... existing code ...", "def main():  "])
    # The file itself (applied already) is check_changed's to judge; a code change or a re-indented line passes.
    assert kept_code.check_whitespace_only(ORIGINAL, ORIGINAL, snippet) is None
    assert kept_code.check_whitespace_only(ORIGINAL, ORIGINAL[:-1] + ["main(1)"], snippet) is None
    assert kept_code.check_whitespace_only(ORIGINAL, ["  " + l if l.startswith("def") else l for l in ORIGINAL],
                                           snippet) is None


def test_spacing_the_snippet_shows_on_purpose_is_written():
    # two blank lines between `import os` and `if PY2:`, shown between the two lines: the planner's spacing
    wider = ORIGINAL[:1] + ["", ""] + ORIGINAL[2:]
    shown = ["import os", "", "", "if PY2:", "# ... existing code ..."]
    assert kept_code.check_whitespace_only(ORIGINAL, wider, shown) is None
    # not so where the snippet does not show the run whole, nor where only the blank line's spaces change
    assert kept_code.check_whitespace_only(ORIGINAL, wider, ["import os", "", "# ... existing code ..."])
    spaces = ORIGINAL[:1] + ["  "] + ORIGINAL[2:]
    assert kept_code.check_whitespace_only(ORIGINAL, spaces, ["import os", "  ", "if PY2:", "# ... existing code ..."])
    # nor a blank line dropped at the file's start
    assert kept_code.check_whitespace_only([""] + ORIGINAL, ORIGINAL, ["import os", "# ... existing code ..."])


def test_instant_merge_refuses_a_deletion_it_read_as_a_blank_line_change():
    # The snippet shows a block's `}` next to the comment below a deleted block; the merge matched the
    # `}` to the deleted block's own closer, so all it would write is the snippet's blank line for `  `.
    original = ("function render(view, options) {\n  if (!view.exists) {\n    view = new View(orig.indexPath);\n  }\n\n"
                "  // Ensure view path exists otherwise try ../name\n  if (!view.exists) {\n"
                "    view = new View(orig.upIndexPath);\n  }\n  \n  // Dynamic helper support\n"
                "  if (false !== options.dynamicHelpers) {\n    helpers(view);\n  }\n  return view;\n}\n")
    snippet = "  }\n\n  // Dynamic helper support\n  if (false !== options.dynamicHelpers) {\n"
    r = instant_merge(original, snippet, path="view.js")
    assert not r.merged and r.refusal.kind == "no-change"
    assert "original line 11 `// Dynamic helper support`" in r.refused_reason
    # one of its options pins the `}` at the block above, where the deletion reads as shown
    assert any("original lines 2-3 above snippet line 1" in o.says for o in r.refusal.options)
