"""two_readings.py: which of the joint and the greedy reading is written when they differ (the rules
one by one; end to end through instant_merge in tests/merge/test_instant.py)."""

from __future__ import annotations

from fastapply.merge.result import MergeResult


def test_of_two_readings_that_both_copy_lines_the_one_copying_less_and_losing_nothing_wins():
    from fastapply.merge.gate import snippet_checks
    from fastapply.merge.text.conventions import split_text
    from fastapply.merge.decide.two_readings import _fewer_copies

    original = "def test_a(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert result.exit_code == 0\n\n\n" \
               "def test_b(runner):\n    result = runner.invoke(cli, ['--version'])\n    assert 'version' in result.output\n"
    new = "\n\ndef test_c(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert 'Usage' in result.output\n"
    snippet = ["# ... existing code ...", "    assert 'version' in result.output", "", "", "def test_c(runner):",
               "    result = runner.invoke(cli, ['--help'])", "    assert 'Usage' in result.output"]
    greedy = original + new  # one copied line: the new test's invoke, which the snippet brings
    joint = original.replace("    assert 'version' in result.output\n", "") + new + "    result = runner.invoke(cli, ['--version'])\n"
    orig = split_text(original)
    lines = [split_text(joint).lines, split_text(greedy).lines]
    lost = [snippet_checks.lost_distinctive_lines(orig.lines, r) for r in lines]
    assert _fewer_copies(orig, lines, lost, snippet)  # joint copies more and loses a line: greedy
    assert not _fewer_copies(orig, lines[::-1], lost[::-1], snippet)  # never the other way round


def test_a_reading_that_changes_nothing_loses_to_one_that_changes_something():
    from fastapply.merge.text.conventions import split_text
    from fastapply.merge.decide.two_readings import _unchanged_loses

    orig = split_text("a = 1\nb = 2\n")
    same = MergeResult("a = 1\nb = 2\n", None, "lazy", "exact", None)
    changed = MergeResult("a = 1\nb = 3\n", None, "lazy", "exact", None)
    joint, old = _unchanged_loses(orig, same, changed)
    assert not joint.merged and old is changed
    joint, old = _unchanged_loses(orig, changed, same)
    assert joint is changed and not old.merged
    assert _unchanged_loses(orig, same, same) == (same, same)  # both unchanged: check_changed decides


def test_of_two_readings_that_both_copy_lines_the_one_keeping_marker_context_once_wins():
    from fastapply.merge.gate import snippet_checks
    from fastapply.merge.text.conventions import split_text
    from fastapply.merge.decide.two_readings import _keeps_context

    original = ("def test_a(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert result.exit_code == 2\n"
                "\n    result = runner.invoke(cli, ['--version'])\n    assert 'version 1.0' in result.output\n")
    new = ("\n\ndef test_b(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert result.exit_code == 2\n"
           "    assert 'Missing option' in result.output\n")
    snippet = ["# ... existing code ...", "    assert 'version 1.0' in result.output", *new.split("\n")[:-1]]
    greedy = original + new  # copies the new test's lines (they repeat test_a's): right
    joint = original.replace("    assert result.exit_code == 2\n", "    assert 'version 1.0' in result.output" + new[:-1] + "\n", 1)
    orig = split_text(original)
    lines = [split_text(joint).lines, split_text(greedy).lines]  # joint pasted `assert 'version 1.0'` twice
    lost = [snippet_checks.lost_distinctive_lines(orig.lines, r) for r in lines]
    assert _keeps_context(orig, lines, lost, snippet) == 1
    assert _keeps_context(orig, lines[::-1], lost[::-1], snippet) == 0  # whichever reading it is
    assert _keeps_context(orig, [lines[1], lines[1]], [lost[1], lost[1]], snippet) is None  # neither copies it
    assert _keeps_context(orig, lines, [lost[0], lost[0] + 1], snippet) is None  # the keeper loses more
