"""text/quoting.py: every line a refusal quotes is one the snippet's writer can find."""

from __future__ import annotations

from fastapply.merge.gate.parses import check_parses
from fastapply.merge.instant import instant_merge
from fastapply.merge.text.quoting import (numbered, one_line_ranges, placed, placed_in_inputs, placed_lines, placed_places,
                                         where_in_inputs)
from fastapply.merge.text.spans import quote

ORIGINAL = ["def total(items):", "    count = 0", "    for item in items:", "        count += item", "",
            "    return count", "}"]


def test_a_generic_line_is_quoted_with_its_nearest_distinctive_line():
    assert placed(ORIGINAL, 1) == "`count = 0`"  # distinctive: as it is
    assert placed(ORIGINAL, 4) == "a blank line, below `count += item`"
    assert placed(ORIGINAL, 6) == "`}`, below `return count`"
    assert placed(["}", "}"], 0) == "`}`"  # nothing distinctive to place it by


def test_sentences_place_the_generic_original_lines_they_quote_and_nothing_else():
    sentence = "include the unchanged original line 2 (`count = 0`) if it is new, or line 7 (`}`) if it replaces it"
    assert placed_lines(ORIGINAL, sentence) == sentence.replace("(`}`)", "(`}`, below `return count`)")
    wrong_number = "the similar original line 6 (`}`) next to it"  # line 6 is not `}`: left as said
    assert placed_lines(ORIGINAL, wrong_number) == wrong_number


def test_a_line_whose_quoted_start_is_generic_is_quoted_by_its_end():
    """A doc line whose first WIDTH characters are `*` and the spaces that align a trailing comment:
    cut there it points at nothing (foreign-a, one row); its end is what the writer can find."""
    doc = ["/**", " * const a = f(x); // note", " *" + " " * 62 + "// which is passed on", " */"]
    sentence = f"the similar original line 3 ({quote(doc[2])}) next to it"  # "(`*…`)"
    assert placed_lines(doc, sentence) == "the similar original line 3 (ending `…// which is passed on`) next to it"
    assert placed_lines(doc, "line 2 (`* const a = f(x); // note`)") == "line 2 (`* const a = f(x); // note`)"


def test_a_one_line_range_is_said_as_one_line():
    assert one_line_ranges("add the unchanged original lines 4-4 above snippet line 2") == (
        "add the unchanged original line 4 above snippet line 2")
    assert one_line_ranges("remove snippet lines 3-4; original lines 14-14") == "remove snippet lines 3-4; original line 14"
    assert one_line_ranges("add the unchanged original lines 8-9 above snippet line 2 and 11-11 below snippet line 2") == (
        "add the unchanged original lines 8-9 above snippet line 2 and 11 below snippet line 2")
    # any one-line range outside quoted code, e.g. the `-` lines an option lists
    assert one_line_ranges("show them as `-` lines: 9-9 before snippet line 3, 29-52 before snippet line 7") == (
        "show them as `-` lines: 9 before snippet line 3, 29-52 before snippet line 7")
    assert one_line_ranges("lines 12-120 and `x = 3-3` stay; 2-22 too") == "lines 12-120 and `x = 3-3` stay; 2-22 too"


def test_a_merged_files_line_is_said_as_the_original_or_snippet_line_it_is():
    original = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    snippet = "# ... existing code ...\ndef g():\n    total = (\n    return 2\n"
    result = "def f():\n    return 1\n\n\ndef g():\n    total = (\n    return 2\n"
    assert where_in_inputs(original, result, snippet, 5) == "snippet line 3 (`total = (`)"
    assert where_in_inputs(original, result, snippet, 0) == "original line 1 (`def f():`)"
    assert where_in_inputs(original, result, snippet, 2) == "original line 1 (`def f():`)"  # blank, `return 1`: generic
    assert where_in_inputs(original, result, None, 5) == "line 6 of the merged file (`total = (`)"
    # the parse gate says where in those terms, never by a line number of the file it refused to write
    assert "near snippet line 3 (`total = (`)" in check_parses(original, result, "python", snippet)


def test_a_refusal_never_points_at_the_merged_files_line_numbers():
    # the parse refusal's original lines are the original's, not the merged file's line number read as one
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    snippet = "# ... existing code ...\ndef handler_1(request):\n    value = compute(\n# ... existing code ...\n"
    result = instant_merge(original, snippet, language="python")
    assert not result.merged
    assert "no longer parses near snippet line 3 (`value = compute(`)" in result.refused_reason
    for line in result.refusal.original:
        assert original.splitlines()[line.number - 1] == line.text


def test_a_one_line_range_is_placed_like_a_line():
    sentence = "add a marker line before snippet line 3 to keep original lines 7-7 (`}`)"
    assert placed_lines(ORIGINAL, sentence) == (
        "add a marker line before snippet line 3 to keep original line 7 (`}`, below `return count`)")


def test_a_bare_original_line_number_of_a_generic_line_is_placed_when_asked():
    sentence = "`x = 1` fits only at original line 5, where the brackets would not balance"
    assert placed_lines(ORIGINAL, sentence) == sentence  # options keep their words
    assert placed_lines(ORIGINAL, sentence, bare=True) == sentence.replace(
        "line 5,", "line 5 (a blank line, below `count += item`),")
    edit = "add the unchanged original line 5 above snippet line 2 (for the place at original line 7)"
    assert placed_lines(ORIGINAL, edit, bare=True) == edit  # an edit's place and a candidate place are no pointers


SNIPPET = ["# ... existing code ...", "    }", "", "    return count", "# ... existing code ...", "}", "}",
           "# ... existing code ..."]
SECTIONS = [(1, 3), (5, 6)]


def test_a_generic_line_nothing_places_is_numbered_in_the_snippet():
    assert numbered(SNIPPET, SECTIONS, "section 1 (starting `}`) matches 2 places") == (
        "section 1 (starting `}` at snippet line 2) matches 2 places")
    # the one `}` of the section the sentence names; the other section has two, which no number can tell apart
    assert numbered(SNIPPET, SECTIONS, "section 1 (starting `x`): the line `}` matches 2 places") == (
        "section 1 (starting `x`): the line `}` (snippet line 2) matches 2 places")
    assert numbered(SNIPPET, SECTIONS, "section 2: the line `}` matches 2 places") == (
        "section 2: the line `}` matches 2 places")
    assert numbered(SNIPPET, SECTIONS, "its section 2 (`}` ...) matches") == (
        "its section 2 (`}` (snippet line 6) ...) matches")  # named by its first line
    # the line right after the one a quote before it names
    assert numbered(SNIPPET, SECTIONS, "the marker between `return count` and `}` keeps code") == (
        "the marker between `return count` and `}` (snippet line 6) keeps code")


def test_a_generic_line_placed_or_numbered_already_is_left_as_it_is():
    for sentence in ("section 1 (starting `}`, before `return count`) matches", "original line 7 (`}`) is kept",
                     "snippet line 2 (`}`) is new", "`return count` after `}` is new", "a `-` line"):
        assert numbered(SNIPPET, SECTIONS, sentence) == sentence
    # `before`: the words a fix follows, read for the section they name
    assert numbered(SNIPPET, SECTIONS, "the line `}` is new", "section 1 (starting `x`): ") == (
        "the line `}` (snippet line 2) is new")


def test_a_refusal_numbers_the_generic_line_it_is_about():
    original = "a = 1\n}\nb = 2\n}\nc = 3\n"
    refusal = instant_merge(original, "# ... existing code ...\n}\n# ... existing code ...\n").refusal
    assert refusal is not None and "section 1 (`}` (snippet line 2))" in refusal.sentence, refusal.sentence


def test_a_generic_line_matching_several_places_is_said_with_each_place_placed():
    original = ["it('a', function(){", "  a()", "})", "it('b', function(){", "  b()", "})"]
    sentence = "section 1 (starting `})`): the line `})` matches 2 places in the original (lines 3, 6) equally well"
    # the label quotes the section's first line already: the section is the subject, each place is placed
    assert placed_places(original, sentence) == (
        "section 1 (starting `})`): it matches 2 places in the original (lines 3 (`})`, below `a()`), "
        "6 (`})`, below `b()`)) equally well")
    inner = "section 2 (starting `x()`): the line `})` matches 2 places in the original (lines 3, 6) equally well"
    assert placed_places(original, inner) == inner.replace(  # another line's section: the subject stays
        "(lines 3, 6)", "(lines 3 (`})`, below `a()`), 6 (`})`, below `b()`))")
    distinctive = "section 1 (starting `a()`): `a()` matches 2 places in the original (lines 2, 5) equally well"
    assert placed_places(original, distinctive) == distinctive  # a line that says something: as it is
    wrong_number = "section 1 (starting `})`): the line `})` matches 2 places in the original (lines 2, 6) equally well"
    assert placed_places(original, wrong_number) == wrong_number  # line 2 is not `})`: left as said


def test_a_merged_files_generic_line_is_quoted_with_where_it_stands():
    original = ["do", "  x()", "  end", "  gap()", "done()"]
    result = ["do", "  x()", "  end", "  gap()", "  end", "done()"]
    assert placed_in_inputs(original, result, ["  gap()", "  end"], 2) == "`end`, below `x()` (original line 3)"
    assert placed_in_inputs(original, result, ["  gap()", "  end"], 4) == "`end` (snippet line 2)"  # the snippet's
    assert placed_in_inputs(original, result, None, 3) == "`gap()`"  # a line that says something: as it is
