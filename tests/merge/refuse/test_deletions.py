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


RUST = """\
use std::fmt::Display;

pub enum Shell {
    /// Bourne Again SHell (bash)
    Bash,
    /// Z SHell (zsh)
    Zsh,
}

impl Shell {
    /// Deprecated, replaced with [`EnumValueParser`]
    pub fn possible_values() -> Vec<String> {
        Shell::value_variants().iter().collect()
    }
}

impl Display for Shell {
    fn fmt(&self, f: &mut Formatter<'_>) -> Result {
        self.name().fmt(f)
    }
}
"""


def test_edge_lines_that_follow_the_anchor_in_the_file_stay_and_the_rest_is_pinned_later():
    """`Zsh,` follows `/// Z SHell (zsh)` in the file; the `}` after it closes the block the intent
    keeps, after the deleted `impl Shell`: pinned there, by the lines after it."""
    expected = RUST.replace("impl Shell {\n    /// Deprecated, replaced with [`EnumValueParser`]\n"
                            "    pub fn possible_values() -> Vec<String> {\n"
                            "        Shell::value_variants().iter().collect()\n    }\n}\n\n", "")
    assert "impl Shell" not in expected and "Zsh,\n}\n\nimpl Display" in expected
    snippet = "    // ... existing code ...\n    /// Z SHell (zsh)\n    Zsh,\n}\n\n// ... existing code ...\n"
    refusal = instant_merge(RUST, snippet, language="rust").refusal
    assert refusal.kind == "no-change"
    option = choose(refusal, snippet, expected, RUST)
    assert option is not None and "impl Display for Shell {" in option.edits[0].text
    row = {"original": RUST, "snippet": snippet, "expected": expected, "language": "rust"}
    assert retry_example(row)["second"] == "right"
