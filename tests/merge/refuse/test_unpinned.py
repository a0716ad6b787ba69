"""Unpinned sections (refuse/unpinned.py): a section with no line the file holds once is pinned too."""

from fastapply.merge.refuse.unpinned import unpinned
from fastapply.merge.refuse.reading import read_input

ORIGINAL = "".join(f"def {name}_report(path):\n    prepare_the_output(path)\n    pass\n\n\n"
                   for name in ("first", "second", "third", "fourth"))


def test_a_section_of_repeated_lines_between_two_placed_ones_is_pinned_between_them():
    snippet = ("# ... existing code ...\ndef second_report(path):\n    prepare_the_output(1)\n# ... existing code ...\n    pass\n"
               "# ... existing code ...\ndef fourth_report(path):\n    prepare_the_output(4)\n")
    options = unpinned(read_input(ORIGINAL, snippet, "python"))
    pins = [o for o in options if "for the place" in o.says]
    # `pass` stands in second and third, between the two placed sections; never in first or fourth
    assert [e.original_line for o in pins for e in o.edits] == [6, 11]
    assert all(e.at == 5 for o in pins for e in o.edits)


def test_a_repeated_line_new_between_two_placed_sections_is_closed_in_at_each_place_at_its_depth():
    snippet = ("# ... existing code ...\ndef second_report(path):\n    prepare_the_output(1)\n# ... existing code ...\n    pass\n"
               "# ... existing code ...\ndef fourth_report(path):\n    prepare_the_output(4)\n")
    says = [o.says for o in unpinned(read_input(ORIGINAL, snippet, "python"))]
    assert any("new after original line 8" in s for s in says)  # after second's `pass`
    assert not any("new after original line 3" in s for s in says)  # first lies above the section before


def test_a_section_with_a_line_the_file_holds_once_does_not_float():
    snippet = "# ... existing code ...\ndef second_report(path):\n    prepare_the_output(1)\n# ... existing code ...\n"
    assert unpinned(read_input(ORIGINAL, snippet, "python")) == ()
