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


def test_a_fence_whose_opening_line_names_a_language_and_a_path_is_dropped():
    from fastapply.merge.text.conventions import unfence

    for opening in ("```python", "```python:src/app.py", "```py title=\"app.py\"", "```src/app.py", "~~~"):
        assert unfence([opening, "x = 1", "```"]) == ["x = 1"], opening
    assert unfence(["```python", "x = 1"]) == ["```python", "x = 1"]  # no closing fence: content


def test_a_first_comment_naming_the_file_is_a_header_not_code():
    from fastapply.merge.text.conventions import drop_path_header

    original = ["import os", "x = 1"]
    for header in ("# File: src/app.py", "# filepath: src/app.py", "# app.py", "// src/app.py"):
        assert drop_path_header([header, "# ... existing code ...", "x = 2"], original, "src/app.py") == \
            ["# ... existing code ...", "x = 2"], header
    kept = ["# File: src/app.py", "x = 2"]
    assert drop_path_header(kept, original, "lib/other.py") == kept  # names another file
    assert drop_path_header(kept, ["# File: src/app.py", "x = 1"], "src/app.py") == kept  # the file's own line
    assert drop_path_header(["# File: notes", "x = 2"], original) == ["# File: notes", "x = 2"]  # no known extension
    assert drop_path_header(["x = 2", "# app.py"], original, "app.py") == ["x = 2", "# app.py"]  # not the first line


def test_instant_merge_reads_a_snippet_under_a_path_header_and_a_path_fence():
    from fastapply.merge.instant import instant_merge

    original = "import os\n\n\ndef f():\n    return 1\n"
    for snippet in ("# File: pkg/mod.py\n# ... existing code ...\ndef f():\n    return 2\n",
                    "```python:pkg/mod.py\n# ... existing code ...\ndef f():\n    return 2\n```\n"):
        r = instant_merge(original, snippet, path="pkg/mod.py")
        assert r.text == "import os\n\n\ndef f():\n    return 2\n", snippet
