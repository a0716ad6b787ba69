"""refuse/shown_deletion.py: an unshown-deletion refusal offers the candidate's deletions as `-` lines."""

from fastapply.evaluation.agreement import agrees
from fastapply.evaluation.retry import choose
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

_BODY = "".join(f"        step_{n} = helper({n})\n        assert step_{n}\n" for n in range(12))

ORIGINAL = f"""\
import unittest


class TestThing(unittest.TestCase):

    def test_first(self):
        self.assertTrue(run())

    def test_long(self):
{_BODY}        return None

    def test_last(self):
        self.assertFalse(stop())


if __name__ == '__main__':
    unittest.main()
"""

# the intent: test_long deleted whole (the snippet shows the lines around it, next to each other)
DELETED = ORIGINAL.replace(f"""    def test_long(self):
{_BODY}        return None

""", "")

SNIPPET = """\
# ... existing code ...
    def test_first(self):
        self.assertTrue(run())

    def test_last(self):
        self.assertFalse(stop())
# ... existing code ...
"""


def _refused():
    result = instant_merge(ORIGINAL, SNIPPET, language="python")
    assert not result.merged and result.refusal.kind == "unshown-deletion"
    return result


def _shown(result):
    return [o for o in result.refusal.options if any(e.action == "deleted" for e in o.edits)]


def test_the_deletion_is_offered_as_minus_lines_and_the_retry_merges_it():
    result = _refused()
    assert result.candidate == DELETED  # the guard refused the meant file: too many lines go
    (option,) = _shown(result)
    assert option.edits[0].original_line == 9  # `def test_long(self):`
    chosen = choose(result.refusal, SNIPPET, DELETED, ORIGINAL)
    assert chosen is not None
    second = instant_merge(ORIGINAL, revise(SNIPPET, chosen), language="python")
    assert second.merged and second.text == DELETED


def test_a_snippet_with_new_lines_marks_them_added_and_the_retry_merges_it():
    # a literal diff reads an unprefixed line as unchanged context: the new line is marked `+`,
    # and the line it changes is shown `-` with the deleted test
    snippet = SNIPPET.replace("        self.assertTrue(run())\n", "        self.assertTrue(run(fast=True))\n")
    meant = DELETED.replace("self.assertTrue(run())", "self.assertTrue(run(fast=True))")
    result = instant_merge(ORIGINAL, snippet, language="python")
    assert not result.merged and result.refusal.kind == "unshown-deletion" and result.candidate == meant
    (option,) = _shown(result)
    assert [e.action for e in option.edits] == ["deleted", "added"]
    assert (option.edits[1].start, option.edits[1].end) == (3, 3)  # `self.assertTrue(run(fast=True))`
    revised = revise(snippet, option)
    assert "+        self.assertTrue(run(fast=True))\n" in revised and "-        self.assertTrue(run())\n" in revised
    chosen = choose(result.refusal, snippet, meant, ORIGINAL)
    assert chosen is not None
    second = instant_merge(ORIGINAL, revise(snippet, chosen), language="python")
    assert second.merged and second.text == meant
    # the intent keeps test_long: the literal diff would delete it, so the option does not agree
    kept = ORIGINAL.replace("self.assertTrue(run())", "self.assertTrue(run(fast=True))")
    assert not agrees(option, snippet, kept, ORIGINAL)


def test_a_deletion_kept_by_the_intent_does_not_agree():
    result = _refused()
    (option,) = _shown(result)
    assert not agrees(option, SNIPPET, ORIGINAL.replace("stop()", "halt()"), ORIGINAL)


def test_more_deleted_under_a_marker_does_not_agree():
    # the intent also deletes test_last's neighbour below the snippet's last marker: the `-` lines
    # show only the deletion the candidate makes, so the revision read as a diff keeps the rest
    more = DELETED.replace("""

if __name__ == '__main__':
    unittest.main()
""", "\n")
    result = _refused()
    (option,) = _shown(result)
    assert not agrees(option, SNIPPET, more, ORIGINAL)


def test_a_deleted_line_the_file_still_holds_elsewhere_agrees():
    # `return None` is deleted with test_long but stands in another method too: the deletion leaves one
    original = ORIGINAL.replace("        self.assertFalse(stop())\n", "        self.assertFalse(stop())\n        return None\n")
    snippet = SNIPPET.replace("        self.assertFalse(stop())\n", "        self.assertFalse(stop())\n        return None\n")
    expected = DELETED.replace("        self.assertFalse(stop())\n", "        self.assertFalse(stop())\n        return None\n")
    result = instant_merge(original, snippet, language="python")
    assert not result.merged and result.candidate == expected
    (option,) = _shown(result)
    assert agrees(option, snippet, expected, original)
    second = instant_merge(original, revise(snippet, choose(result.refusal, snippet, expected, original)),
                           language="python")
    assert second.merged and second.text == expected
