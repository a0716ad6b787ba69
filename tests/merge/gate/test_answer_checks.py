"""The checks only a model answer can fail: unchanged answers, shown deletions not made, and a
window answer that runs on past its window."""

from fastapply.merge.gate import answer_checks, guards

ORIGINAL = [
    "class Settings:",
    "    cache = {}",
    "    defaults = []",
    "",
    "    def __init__(self):",
    "        self.ready = True",
    "",
    "    def get(self, key):",
    "        return self.cache[key]",
]
SNIPPET = [
    "# ... existing code ...",
    "class Settings:",
    "",
    "    def __init__(self):",
    "# ... existing code ...",
]
EXPECTED = ["class Settings:", "", *ORIGINAL[4:]]


def test_an_unchanged_answer_is_refused():
    assert answer_checks.check_unchanged(ORIGINAL, list(ORIGINAL))
    assert answer_checks.check_unchanged(ORIGINAL, [l + " " for l in ORIGINAL])  # trailing spaces aside
    assert answer_checks.check_unchanged(ORIGINAL, [""] + ORIGINAL)  # and blank lines
    assert answer_checks.check_unchanged(ORIGINAL, EXPECTED) is None
    failure = guards.check_answer("\n".join(ORIGINAL), "\n".join(SNIPPET), "\n".join(ORIGINAL), language="python")
    assert failure is not None and failure.guard in ("deletions", "unchanged")


def test_lines_shown_next_to_each_other_must_be_next_to_each_other_in_the_answer():
    reason = answer_checks.check_shown_adjacency(ORIGINAL, list(ORIGINAL), SNIPPET)
    assert reason and "cache = {}" in reason and "keeps 2" in reason
    assert answer_checks.check_shown_adjacency(ORIGINAL, EXPECTED, SNIPPET) is None
    # a new line between them is the snippet's business (the snippet-lines check), not a kept one
    assert answer_checks.check_shown_adjacency(ORIGINAL, ["class Settings:", "    x = 1", *ORIGINAL[4:]], SNIPPET) is None


def test_a_generic_line_of_a_pair_is_found_by_the_run_the_snippet_shows_around_it():
    # The snippet shows `  }` `}` then `// --- Logger`: the helper between them is deleted. The
    # nearest `}` above the comment is the helper's own, so the pair alone sees nothing between.
    original = ["function log(e) {", "  if (e) {", "    print(e)", "  }", "}", "",
                "function pad(n) {", "  return n", "}", "", "// --- Logger"]
    snippet = ["// ... existing code ...", "    print(e.stack)", "  }", "}", "", "// --- Logger", "// ... existing code ..."]
    expected = ["function log(e) {", "  if (e) {", "    print(e.stack)", "  }", "}", "", "// --- Logger"]
    kept = ["function log(e) {", "  if (e) {", "    print(e.stack)", *original[3:]]
    reason = answer_checks.check_shown_adjacency(original, kept, snippet)
    assert reason and "// --- Logger" in reason and "function pad(n) {" in reason
    assert answer_checks.check_shown_adjacency(original, expected, snippet) is None
    # the run where only a shorter part of it occurs (a changed line in it) falls back to that part
    assert answer_checks.check_shown_adjacency(original, expected, ["    print(e.stack)", "}", "// --- Logger"]) is None


def test_a_marker_or_a_hunk_separator_breaks_the_pair_and_minus_lines_do_not():
    with_marker = ["class Settings:", "    # ... existing code ...", "    def __init__(self):"]
    assert answer_checks.shown_runs(with_marker, ORIGINAL) == []
    with_hunks = ["class Settings:", "@@ -0,0 +0,0 @@", "    def __init__(self):"]
    assert answer_checks.shown_runs(with_hunks, ORIGINAL) == []
    with_minus = ["class Settings:", "-    cache = {}", "+    cache = None", "    def __init__(self):"]
    assert answer_checks.shown_runs(with_minus, ORIGINAL) == [["class Settings:", "cache = None", "def __init__(self):"]]
    search_replace = ["<<<<<<< SEARCH", "class Settings:", "=======", "class Config:", ">>>>>>> REPLACE"]
    assert answer_checks.shown_runs(search_replace, ORIGINAL) == []


def test_a_window_answer_that_copies_the_line_after_the_window_is_refused():
    window = "var View = require('./view')\n  , stat = require('fs').statSync;\n"
    tail = "\n/**\n * Render a partial.\n */\n"
    ran_on = "var View = require('./view');\n\n/**\n"
    assert "goes on past it" in answer_checks.check_seam(window, ran_on, tail)
    assert answer_checks.check_seam(window, "var View = require('./view');\n", tail) is None
    closing = "func f() {\n}\n"  # a window that already ended on the tail's first line may keep it
    assert answer_checks.check_seam(closing, "func f() {\n\treturn\n}\n", "}\n") is None


def test_a_pair_closed_by_a_generic_line_is_found_from_its_distinctive_end():
    original = ["func TestMode(t *testing.T) {", "\tassert.Panics(t, bad)", "", "\tos.Setenv(KEY, debug)",
                "\tos.Unsetenv(KEY)", "}"]
    snippet = ["// ... existing code ...", "\tassert.Panics(t, bad)", "}"]
    kept = list(original)
    reason = answer_checks.check_shown_adjacency(original, kept, snippet)
    assert reason and "os.Setenv(KEY, debug)" in reason
    assert answer_checks.check_shown_adjacency(original, original[:2] + ["}"], snippet) is None


def test_a_new_line_written_at_more_places_than_the_snippet_shows_is_refused():
    original = ["class A:", "    def call(self, r):", "        r.a = 1", "        return r", "",
                "class B:", "    def call(self, r):", "        r.b = 2", "        return r"]
    snippet = ["class A:", "    def call(self, r):", "        r.hook(self.handle)", "        return r", "# ... existing code ..."]
    right = ["class A:", "    def call(self, r):", "        r.hook(self.handle)", "        return r", *original[4:]]
    both = [*right[:6], "    def call(self, r):", "        r.hook(self.handle)", "        return r"]
    reason = answer_checks.check_new_line_repeated(original, both, snippet)
    assert reason and "r.hook(self.handle)" in reason and "2 times" in reason
    assert answer_checks.check_new_line_repeated(original, right, snippet) is None
    # a line the original already has may repeat (the other duplicate checks weigh it)
    assert answer_checks.check_new_line_repeated(original, [*right, "        r.b = 2"], snippet) is None
    failure = guards.check_answer("\n".join(original), "\n".join(snippet), "\n".join(both), language="python")
    assert failure is not None and failure.guard == "duplicates"


def _handlers(n=10):
    """Ten look-alike functions (issue 18 item 1): docstring, a lookup, a None check, three more lines."""
    lines = []
    for i in range(n):
        lines += [f"def handler_{i}(request, ctx):", f'    """Handle request kind {i}."""',
                  f"    value = request.get('k{i}', {i})", "    if value is None:", "        return ctx.default",
                  f"    total = value * {i + 2}", f"    ctx.log('handled {i}', total)", "    return total", "", ""]
    return lines[:-2]
