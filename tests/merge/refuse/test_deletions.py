"""A deletion shown by the lines around it at an edge the file repeats (refuse/deletions.py)."""

from fastapply.evaluation.retry import choose, retry_example
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.deletions import deletion_edges
from fastapply.merge.refuse.reading import read_input

ORIGINAL = ("var cache = {};\n\n/**\n * Clear the cache.\n */\n\nexports.clear = function(){\n  cache = {};\n};\n\n"
            "/**\n * Render a view.\n */\n\nexports.render = function(view){\n  return view;\n};\n")
EXPECTED = ORIGINAL.replace("/**\n * Clear the cache.\n */\n\nexports.clear = function(){\n  cache = {};\n};\n\n", "")


def _row(snippet: str) -> dict:
    return {"original": ORIGINAL, "snippet": snippet, "expected": EXPECTED, "language": "javascript"}


def test_a_repeated_edge_after_an_anchor_is_pinned_where_the_deletion_ends():
    snippet = "// ... existing code ...\nvar cache = {};\n\n/**\n// ... existing code ...\n"
    refusal = instant_merge(ORIGINAL, snippet, language="javascript").refusal
    assert refusal.kind == "no-change"
    option = choose(refusal, snippet, EXPECTED, ORIGINAL)
    assert option is not None and "* Render a view." in option.edits[0].text
    assert retry_example(_row(snippet))["second"] == "right"


def test_a_repeated_edge_before_an_anchor_is_pinned_where_the_deletion_starts():
    snippet = "// ... existing code ...\n\n/**\n * Render a view.\n */\n// ... existing code ...\n"
    refusal = instant_merge(ORIGINAL, snippet, language="javascript").refusal
    assert refusal.kind == "no-change"
    assert retry_example(_row(snippet))["second"] == "right"


def test_the_place_next_to_the_anchor_is_not_offered():
    """Right after `var cache = {};` the `/**` reads as nothing deleted: the merge's own reading."""
    snippet = "// ... existing code ...\nvar cache = {};\n\n/**\n// ... existing code ...\n"
    options = deletion_edges(read_input(ORIGINAL, snippet, "javascript"))
    assert options and all("Clear the cache" not in e.text for o in options for e in o.edits if e.text)
