"""reading.quoted_at: the lines a refusal sentence quotes, whole or marked cut (`…`, text/spans.py)."""

from __future__ import annotations

from fastapply.merge.refuse.reading import quoted_at
from fastapply.merge.text.spans import CUT, cut

LINES = ["def f():", "    return compute_the_console_mode(get_std_handle(fd), out) != 0", "    return 0", ""]


def test_a_whole_line_is_found_by_its_stripped_text():
    assert quoted_at(LINES, "return 0") == [2]
    assert quoted_at(LINES, "return 1") == []


def test_a_line_quoted_cut_is_found_by_its_start():
    quoted = cut(LINES[1], 40)
    assert quoted.endswith(CUT) and quoted_at(LINES, quoted) == [1]
    assert quoted_at(LINES, "return comp" + CUT) == [1]


def test_an_unmarked_prefix_is_no_quote_of_a_longer_line():
    assert quoted_at(LINES, "return") == []  # unmarked: a different line, not this one cut
    assert quoted_at(LINES, LINES[1].strip()[:60]) == []


def test_a_line_quoted_from_inside_is_found_by_what_it_holds():
    assert quoted_at(LINES, "…console_mode(get_std_handle(fd), out) != 0") == [1]
    assert quoted_at(LINES, "…console_mode(get_std_h…") == [1]
    assert quoted_at(LINES, "…not in any line") == []
