"""refuse/chained.py: two fixes in turn written as one option of the snippet as sent."""

import pytest

from fastapply.merge.refuse.chained import chained_options, compose
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.revise import revise

SNIPPET = "def a():\n    x = 1\n# ... existing code ...\n    y = 2\n    return y\n"


def _marker_first() -> Option:
    return Option("start with a marker", (Edit("marker", at=1, text="# ... existing code ..."),))


@pytest.mark.parametrize("then", [
    # numbers of the snippet the first option revised (a marker put on top: every line one lower)
    Option("add line 9 above snippet line 5", (Edit("insert", at=5, text="def b():", original_line=9),)),
    Option("remove snippet lines 3-3", (Edit("remove", start=3, end=3),)),
    Option("mark snippet lines 5-6 added", (Edit("added", start=5, end=6),)),
    Option("show line 4 deleted before snippet line 7", (Edit("deleted", at=7, text="    z = 3", original_line=4),)),
    Option("move snippet lines 5-6 to before snippet line 2", (Edit("move", start=5, end=6, at=2),)),
    Option("end with a marker", (Edit("marker", at=7, text="# ... existing code ..."),)),
])
def test_the_pair_revises_the_sent_snippet_as_the_two_revisions_in_turn(then):
    first = _marker_first()
    both = compose(SNIPPET, first, then)
    assert both is not None
    assert revise(SNIPPET, both) == revise(revise(SNIPPET, first), then)
    assert both.says.startswith("start with a marker; and then ")


def test_snippet_line_numbers_in_the_second_fix_are_the_sent_snippets():
    then = Option("add line 9 above snippet line 5", (Edit("insert", at=5, text="def b():", original_line=9),))
    both = compose(SNIPPET, _marker_first(), then)
    assert both.says.endswith("add line 9 above snippet line 4")  # line 5 after the marker is sent line 4
    on_top = Option("remove snippet line 1", (Edit("remove", start=1, end=1),))
    assert compose(SNIPPET, _marker_first(), on_top) is None  # the marker the first fix put: not the sent snippet's


def test_an_insertion_before_the_first_fixs_lines_goes_before_them():
    first = Option("add line 3 above snippet line 4", (Edit("insert", at=4, text="    pass", original_line=3),))
    then = Option("add a marker above the added line", (Edit("marker", at=4, text="# ... existing code ..."),))
    both = compose(SNIPPET, first, then)
    assert both is not None and revise(SNIPPET, both) == revise(revise(SNIPPET, first), then)
    inside = Option("two lines put in", (Edit("insert", at=4, text="    pass\n    pass", original_line=3),))
    between = Option("between them", (Edit("marker", at=5, text="# ..."),))
    assert compose(SNIPPET, inside, between) is None  # inside the lines the first fix put in


def test_chained_options_offer_only_pairs_whose_revision_merges():
    first = _marker_first()
    good = Option("add line 9 above snippet line 5", (Edit("insert", at=5, text="def b():", original_line=9),))
    bad = Option("remove snippet lines 3-3", (Edit("remove", start=3, end=3),))
    second = Refusal("ambiguous-place", "`x` fits twice", "pin it", options=(bad, good))
    asked = []

    def again(option):
        asked.append(option)
        return second if option == first else None

    def merges(option):
        return "def b():" in revise(SNIPPET, option)

    out = chained_options([first], SNIPPET, again, merges, lambda options, revised: list(options))
    assert [o.says for o in out] == ["start with a marker; and then add line 9 above snippet line 4"]
    assert asked == [first]
    assert chained_options([first], SNIPPET, lambda option: None, merges, lambda o, r: list(o)) == []
