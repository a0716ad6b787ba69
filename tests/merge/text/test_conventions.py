"""Line endings, final newlines and BOMs survive a merge (merge/conventions.py): issue 18 item 2,
a CR-only (classic Mac) file lost every line outside the edit, and a file mixing endings came back
with one ending everywhere."""

import pytest

from fastapply.merge.text.conventions import join_lines, split_text
from fastapply.merge.instant import instant_merge

SNIPPET = "# ... existing code ...\ndef b():\n    return 3\n"


@pytest.mark.parametrize("text", ["a\nb\n", "a\r\nb\r\n", "a\rb\r", "a\r\nb\nc\r\n", "a", "", "\n", "a\r\nb",
                                  "x\r\r\ry", "\ufeffa\rb\r", "a\nb\r\n\r\n"])
def test_split_and_join_give_the_text_back(text):
    t = split_text(text)
    assert join_lines(t.lines, t) == text


def test_a_cr_only_file_is_as_many_lines_as_it_has_line_ends():
    t = split_text("def a():\r    return 1\r\r\rdef b():\r    return 2\r")
    assert t.lines == ["def a():", "    return 1", "", "", "def b():", "    return 2"]
    assert (t.newline, t.final_newline, t.endings) == ("\r", True, ())


def test_a_cr_only_file_keeps_the_code_outside_the_edit_and_its_line_ends():
    original = "def a():\r    return 1\r\r\rdef b():\r    return 2\r"
    r = instant_merge(original, SNIPPET)
    assert r.merged, r.refused_reason
    assert r.text == "def a():\r    return 1\r\r\rdef b():\r    return 3\r"


def test_a_file_mixing_line_ends_keeps_each_unchanged_lines_own():
    original = "def a():\r\n    return 1\n\n\ndef b():\r\n    return 2\r\n"
    r = instant_merge(original, SNIPPET)
    assert r.merged, r.refused_reason
    # the untouched LF lines stay LF, the CRLF ones CRLF; the changed line takes the commonest (a tie: CRLF)
    assert r.text == "def a():\r\n    return 1\n\n\ndef b():\r\n    return 3\r\n"


def test_a_new_line_in_a_mixed_file_takes_the_commonest_ending():
    t = split_text("a\nb\nc\r\nd\n")
    assert t.newline == "\n"
    assert join_lines(["a", "b", "new", "c", "d"], t) == "a\nb\nnew\nc\r\nd\n"
