"""The reference merger: exact placement, refusals, and agreement with the shared dev edits."""

import json
from pathlib import Path

import pytest

from fastapply.data.reference_merge import (
    MergeRefused, apply_search_replace, is_marker, merge_lazy, reference_merge,
)

ORIGINAL = "a\nb\nc\nd\ne\nf\ng\n"
DEV = Path(__file__).resolve().parents[3] / "shared" / "data" / "dev-edits.jsonl"


def test_markers_in_several_comment_syntaxes():
    assert is_marker("# ... existing code ...")
    assert is_marker("    // ... rest of the code ...")
    assert is_marker("// ...")
    assert not is_marker("x = 1  # ... existing code ...")
    assert not is_marker("print('...')")


def test_section_between_markers_replaces_its_span():
    snippet = "// ... existing code ...\nb\nC\nd\n// ... existing code ...\n"
    assert merge_lazy(ORIGINAL, snippet) == "a\nb\nC\nd\ne\nf\ng\n"


def test_snippet_without_leading_marker_starts_at_the_first_line():
    assert merge_lazy(ORIGINAL, "a\nX\nc\n# ...\n") == "a\nX\nc\nd\ne\nf\ng\n"


def test_deletion_is_context_before_then_context_after():
    assert merge_lazy(ORIGINAL, "# ...\nc\nf\n# ...\n") == "a\nb\nc\nf\ng\n"


def test_final_newline_follows_the_original():
    assert merge_lazy("a\nb\nc", "a\nB\nc") == "a\nB\nc"


def test_ambiguous_context_is_refused():
    original = "a\nx\ny\nx\ny\nz\n"
    with pytest.raises(MergeRefused):
        merge_lazy(original, "# ...\nx\ny\n# ...\n")  # "x y" fits at lines 2 and 4


def test_unknown_opening_line_is_refused():
    with pytest.raises(MergeRefused):
        merge_lazy(ORIGINAL, "# ...\nNEW\nc\n# ...\n")


def test_a_marker_must_stand_for_at_least_one_line():
    with pytest.raises(MergeRefused):
        merge_lazy(ORIGINAL, "# ...\na\nB\n# ...\n")  # nothing before 'a' for the marker to stand for


def test_search_replace_exact_once():
    sr = "<<<<<<< SEARCH\nc\nd\n=======\nc\nD\n>>>>>>> REPLACE\n"
    assert apply_search_replace(ORIGINAL, sr) == "a\nb\nc\nD\ne\nf\ng\n"
    assert reference_merge(ORIGINAL, sr) == "a\nb\nc\nD\ne\nf\ng\n"
    with pytest.raises(MergeRefused):
        apply_search_replace("x\nx\n", "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")


@pytest.mark.skipif(not DEV.is_file(), reason="shared dev edits not present")
def test_reproduces_the_shared_dev_edits():
    rows = [json.loads(line) for line in open(DEV, encoding="utf-8")][:120]
    ok = 0
    for r in rows:
        try:
            ok += reference_merge(r["original"], r["snippet"]) == r["expected"]
        except MergeRefused:
            pass
    assert ok >= len(rows) - 2  # the shared merger's rule; 299 of all 300 merge here
