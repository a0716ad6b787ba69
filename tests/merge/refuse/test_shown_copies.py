"""refuse/shown_copies.py: a duplicate refusal offers to show the original's copy, for a file meant to hold both."""

from fastapply.evaluation.retry import choose
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

ORIGINAL = """\
import pytest


def make_users():
    return ['john', 'jane']


def test_count():
    assert len(make_users()) == 2


def test_first():
    users = ['mike', 'anna']
    assert users[0] == 'mike'


def test_last():
    assert True
"""

SNIPPET = """\
# ... existing code ...
def test_count():
    assert len(make_users()) == 2


def make_users():
    return ['mike', 'anna']


def test_first():
    users = make_users()
    assert users[0] == 'mike'
# ... existing code ...
"""

# the intent: a second `make_users` above test_first (the duplicate guard cannot tell it is meant)
BOTH = ORIGINAL.replace("""def test_first():
    users = ['mike', 'anna']""", """def make_users():
    return ['mike', 'anna']


def test_first():
    users = make_users()""")

# the intent: the first `make_users` moved down and changed (one copy): showing the old one is wrong
MOVED = BOTH.replace("""def make_users():
    return ['john', 'jane']


""", "")


def _shown(refused):
    return [o for o in refused.refusal.options if "more than once" in o.says]


def test_the_option_shows_the_original_copy_between_markers_and_the_merge_then_writes():
    refused = instant_merge(ORIGINAL, SNIPPET, path="t.py")
    assert not refused.merged and refused.refusal.kind == "duplicate"
    [option] = _shown(refused)
    assert "original lines 4-5" in option.says
    revised = revise(SNIPPET, option)
    # the copy joins the section below it (only blank lines between them in the file)
    assert revised.startswith("# ... existing code ...\ndef make_users():\n    return ['john', 'jane']\n\n\n"
                              "def test_count():\n")
    second = instant_merge(ORIGINAL, revised, path="t.py")
    assert second.merged and second.text == BOTH
    # the retry's planner, meaning both copies, picks it
    assert choose(refused.refusal, SNIPPET, BOTH, ORIGINAL) is not None
    assert instant_merge(ORIGINAL, revise(SNIPPET, choose(refused.refusal, SNIPPET, BOTH, ORIGINAL)),
                         path="t.py").text == BOTH


def test_a_planner_meaning_one_copy_does_not_take_it():
    refused = instant_merge(ORIGINAL, SNIPPET, path="t.py")
    chosen = choose(refused.refusal, SNIPPET, MOVED, ORIGINAL)
    assert chosen is None or "more than once" not in chosen.says


def test_no_option_where_the_copy_sits_in_a_gap_without_a_marker():
    snippet = SNIPPET.replace("# ... existing code ...\ndef test_count", "def test_count", 1)
    refused = instant_merge(ORIGINAL, snippet, path="t.py")
    assert refused.merged or not _shown(refused)
