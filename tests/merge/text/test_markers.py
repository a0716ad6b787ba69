"""Marker recognition: every wording models write, in every comment syntax, and no false hits."""

import pytest

from fastapply.merge.text.markers import count_marker_lines, is_elision, is_marker


@pytest.mark.parametrize(
    "line",
    [
        "# ... existing code ...",
        "    // ... existing code ...",
        "\t// ... rest of the code ...",
        "# ... existing code here ...",
        "// existing code",
        "# existing code here",
        "/* ... */",
        "{/* ... existing code ... */}",
        "<!-- ... existing code ... -->",
        "-- ... existing code ...",
        "; ...",
        "...",
        "    …",
        "# …",
        "// … other methods …",
        "# ... (unchanged) ...",
        "// rest of the file unchanged",
        "# rest of the code",
        "/// ... existing code ...",
        " * ... existing code ...",
        "// other methods",  # `other` / `original` / `previous` / `same` + a word about code
        "# original code",
        "-- other functions unchanged",
        "// existing handlers",  # `existing` + any word stays a marker
    ],
)
def test_marker_wordings_are_recognised(line):
    assert is_marker(line)


@pytest.mark.parametrize(
    "line",
    [
        "x = 1  # ... existing code ...",  # code before it: not a marker line
        "# Keep the existing behaviour for old callers of this API",  # real prose
        "# ... fileio/naming-a-file#win32-file-namespaces",  # a wrapped URL, not an elision
        "return ...",
        "print('...')",
        "",
        "    ",
        "// TODO: handle the rest",
        "*ptr = value;",
        "// Original mobile sizing",  # `original` + words that are not about elided code
        "// Other options",
        "# Previous behaviour",
        "///     // ...",  # a doc comment's example code, holding a comment of its own
        " * // ... more setup",
    ],
)
def test_code_and_real_comments_are_not_markers(line):
    assert not is_marker(line)


def test_a_marker_like_line_the_original_has_is_content():
    original = {"...", "def f(): ..."}
    assert not is_elision("    ...", frozenset(original))
    assert is_elision("    # ... existing code ...", frozenset(original))


def test_count_marker_lines_sees_inline_phrases():
    assert count_marker_lines(["a = 1", "# ... existing code ...", "b()  // ... existing code ..."]) == 2
    assert count_marker_lines(["a = 1", "b = 2"]) == 0
