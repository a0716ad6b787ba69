"""revise.py applies an option's edits to the snippet as sent."""

from __future__ import annotations

import pytest

from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.refuse.revise import revise


def test_revise_applies_each_edit_against_the_snippet_as_sent():
    snippet = "a\nb\nc\n"
    option = Option("several", (Edit("insert", at=2, text="x\ny", original_line=4), Edit("marker", at=4, text="# ..."),
                                 Edit("remove", start=3, end=3)))
    assert revise(snippet, option) == "a\nx\ny\nb\n# ...\n"
    assert revise(snippet, Option("move", (Edit("move", at=1, start=3, end=3),))) == "c\na\nb\n"
    with pytest.raises(ValueError):
        revise(snippet, Option("bad", (Edit("insert", at=9, text="z"),)))


def test_deleted_lines_are_written_as_minus_lines():
    from fastapply.merge.refuse.refusal import Edit, Option

    option = Option("delete", (Edit("deleted", at=2, text="x = 1\n", original_line=3),))
    assert revise("a\nb\n", option) == "a\n-x = 1\n-\nb\n"


def test_added_lines_are_marked_plus_in_place():
    option = Option("diff", (Edit("deleted", at=2, text="old = 1", original_line=2), Edit("added", start=2, end=3)))
    assert revise("a\nnew = 1\nnew = 2\nb\n", option) == "a\n-old = 1\n+new = 1\n+new = 2\nb\n"
    with pytest.raises(ValueError):
        revise("a\n", Option("bad", (Edit("added", start=2, end=2),)))


def test_lines_put_on_both_sides_of_a_marker_that_meet_are_written_once_and_the_marker_goes():
    """Two sections each closed in by the same original lines between them (`if b:` below the first,
    `if b:` and `x = 1` above the second): the marker between stands for nothing, so the revision writes
    one run; where the put lines do not overlap, or only the snippet's own lines stand there, the marker
    stays."""
    snippet = "# ...\nnew_a()\n# ...\nnew_b()\n# ...\n"
    option = Option("both", (Edit("insert", at=3, text="if b:", original_line=5),
                             Edit("insert", at=4, text="if b:\n    x = 1", original_line=5)))
    assert revise(snippet, option) == "# ...\nnew_a()\nif b:\n    x = 1\nnew_b()\n# ...\n"
    apart = Option("apart", (Edit("insert", at=3, text="if a:", original_line=2),
                             Edit("insert", at=4, text="if b:", original_line=5)))
    assert revise(snippet, apart) == "# ...\nnew_a()\nif a:\n# ...\nif b:\nnew_b()\n# ...\n"
    assert revise("# ...\nsame()\n# ...\nsame()\n", Option("none", ())) == "# ...\nsame()\n# ...\nsame()\n"
