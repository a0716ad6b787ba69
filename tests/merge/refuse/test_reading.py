"""reading.quoted_at: the lines a refusal sentence quotes, whole or cut short at a quoting width."""

from __future__ import annotations

from fastapply.merge.refuse.reading import CUTS, quoted_at

LINES = ["def f():", "    return compute_the_console_mode(get_std_handle(fd), out) != 0", "    return 0", ""]


def test_a_whole_line_is_found_by_its_stripped_text():
    assert quoted_at(LINES, "return 0") == [2]
    assert quoted_at(LINES, "return 1") == []


def test_a_line_cut_at_a_quoting_width_is_found_by_its_start():
    cut = LINES[1].strip()[:60]
    assert len(cut) in CUTS and quoted_at(LINES, cut) == [1]


def test_a_short_prefix_is_no_quote_of_a_longer_line():
    assert quoted_at(LINES, "return") == []  # not a width a sentence cuts at: a different line
    assert quoted_at(LINES, LINES[1].strip()[:59]) == []


def test_a_line_quoted_from_inside_is_found_by_what_it_holds():
    assert quoted_at(LINES, "…console_mode(get_std_handle(fd), out) != 0") == [1]
    assert quoted_at(LINES, "…not in any line") == []
