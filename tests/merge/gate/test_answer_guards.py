"""The guards on whole-file answers (the model path's): each refuses what it should, and correct
answers pass, including the real expected files of the dev fixture."""

import json
from pathlib import Path

import pytest

from fastapply.merge.gate import guards
from fastapply.merge.text import syntax

ORIGINAL = (
    "import os\n\n\n"
    "def load(path):\n    with open(path) as fh:\n        return fh.read()\n\n\n"
    "def save(path, text):\n    with open(path, 'w') as fh:\n        fh.write(text)\n\n\n"
    "def remove(path):\n    os.remove(path)\n"
)
SNIPPET = "# ... existing code ...\ndef save(path, text):\n    with open(path, 'w', encoding='utf-8') as fh:\n        fh.write(text)\n# ... existing code ...\n"
EXPECTED = ORIGINAL.replace("open(path, 'w')", "open(path, 'w', encoding='utf-8')")


def check(result, snippet=SNIPPET, original=ORIGINAL):
    return guards.check_answer(original, snippet, result, language="python")


def test_a_correct_answer_passes():
    assert check(EXPECTED) is None


def test_an_answer_that_drops_a_whole_function_is_refused():
    damaged = EXPECTED.replace("\n\ndef load(path):\n    with open(path) as fh:\n        return fh.read()\n", "")
    failure = check(damaged)
    assert failure is not None and failure.guard == "deletions" and "load" in failure.reason


def test_an_answer_that_does_not_apply_the_edit_is_refused():
    failure = check(ORIGINAL)
    assert failure.guard == "snippet_lines" and "encoding='utf-8'" in failure.reason


def test_copied_diff_prefixes_are_refused_but_not_in_files_that_use_them():
    leaked = EXPECTED.replace("        fh.write(text)", "+        fh.write(text)")
    assert guards.check_diff_prefix_leak(ORIGINAL.split("\n"), leaked.split("\n"))
    markdown = "# Title\n\n- one\n- two\n"
    assert guards.check_diff_prefix_leak(markdown.split("\n"), (markdown + "- three\n").split("\n")) is None


def test_diff_lines_inside_a_lazy_snippet_are_read_as_a_diff():
    snippet = SNIPPET.replace("    with open(path, 'w', encoding='utf-8') as fh:",
                              "-    with open(path, 'w') as fh:\n+    with open(path, 'w', encoding='utf-8') as fh:")
    assert check(EXPECTED, snippet) is None
    assert check(ORIGINAL, snippet).guard == "snippet_lines"


def test_a_leaked_marker_and_a_broken_parse_are_refused():
    assert check(EXPECTED + "# ... existing code ...\n").guard == "markers_left"
    assert check(EXPECTED.replace("def remove(path):", "def remove(path:")).guard == "parses"


def test_a_duplicated_function_is_refused():
    twin = EXPECTED + "\n\ndef load(path):\n    with open(path) as fh:\n        return fh.read()\n"
    assert check(twin).guard == "duplicates"


def test_search_replace_snippets_require_their_replace_side():
    snippet = "<<<<<<< SEARCH\n    os.remove(path)\n=======\n    os.unlink(path)\n>>>>>>> REPLACE\n"
    assert check(ORIGINAL.replace("os.remove(path)", "os.unlink(path)"), snippet) is None
    assert check(ORIGINAL, snippet).guard == "snippet_lines"


def test_a_deletion_the_snippet_shows_is_allowed():
    snippet = "# ... existing code ...\ndef save(path, text):\n    with open(path, 'w') as fh:\n        fh.write(text)\n"
    assert check(ORIGINAL[: ORIGINAL.index("\n\n\ndef remove")] + "\n", snippet) is None


DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"


@pytest.mark.parametrize("name,most", [("dev-edits.jsonl", 0.01), ("planner-dev.jsonl", 0.04)])
def test_real_expected_files_rarely_fail_the_answer_guards(name, most):
    """The guards' false refusals: real commits' files, checked as if a model had written them."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not here (CI has ../shared beside the checkout)")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    refused = [
        r["id"] for r in rows
        if guards.check_answer(r["original"], r["snippet"], r["expected"],
                               language=syntax.detect_language(r.get("path"), r["original"]))
    ]
    assert len(refused) <= most * len(rows), refused


def test_an_answer_that_stops_after_a_marker_free_excerpt_is_refused():
    """A chat answer pastes the changed function alone (no markers): the file goes on around it,
    so an answer that ends with that function has dropped the functions after it."""
    excerpt = "def save(path, text):\n    with open(path, 'w', encoding='utf-8') as fh:\n        fh.write(text)\n"
    truncated = EXPECTED[: EXPECTED.index("\n\n\ndef remove")] + "\n"
    failure = check(truncated, excerpt)
    assert failure is not None and failure.guard == "deletions" and "end of the file" in failure.reason
    beheaded = EXPECTED[EXPECTED.index("def save"):]
    assert "start of the file" in check(beheaded, excerpt).reason
    assert check(EXPECTED, excerpt) is None
    whole = EXPECTED[: EXPECTED.index("\n\n\ndef remove")] + "\n"  # a whole-file snippet may drop the end
    assert guards.check_excerpt_edges(ORIGINAL.split("\n"), whole.split("\n"), whole.split("\n")) is None
