"""The code a marker keeps stays: a marker laid over nothing, a model answer dropping what a marker keeps (gate/kept_code.py)."""

from fastapply.merge.gate import guards, kept_code
from fastapply.merge.gate.kept_code import check_marker_kept_nothing
from tests.merge.gate.test_answer_checks import _handlers  # ten look-alike functions

ORIGINAL = ['    ("markdown", &[', '        "*.markdown",', '        "*.md",', '        "*.mkd",', '    ]),',
            '    ("matlab", &["*.m"]),']
SNIPPET = ['// ... existing code ...', '    ("markdown", &[', '        // ... existing code ...', '        "*.mkd",',
           '        "*.mdx",', '    ]),', '// ... existing code ...']


def test_a_marker_whose_code_the_merge_dropped_is_refused():
    dropped = ['    ("markdown", &[', '        "*.mkd",', '        "*.mdx",', '    ]),', '    ("matlab", &["*.m"]),']
    reason = check_marker_kept_nothing(ORIGINAL, dropped, SNIPPET)
    assert reason and '("markdown", &[' in reason and '"*.mkd",' in reason


def test_a_marker_that_keeps_its_code_or_stands_for_nothing_passes():
    kept = ORIGINAL[:4] + ['        "*.mdx",'] + ORIGINAL[4:]
    assert check_marker_kept_nothing(ORIGINAL, kept, SNIPPET) is None
    # The original has nothing between the two lines: the marker keeps nothing there anyway.
    adjacent = ['    ("markdown", &[', '        // ... existing code ...', '        "*.markdown",', '        "*.mdx",']
    result = ORIGINAL[:2] + ['        "*.mdx",'] + ORIGINAL[2:]
    assert check_marker_kept_nothing(ORIGINAL, result, adjacent) is None


def test_the_code_a_marker_keeps_after_a_shown_line_must_stay():
    original = ["function listen(port) {", "    configure(this);", "    // reload views", "    if (reload) {",
                "        watch();", "    }", "    serve(port);", "};"]
    snippet = ["function listen(port, host) {", "    configure(this);", "    // ... existing code ...", "    }",
               "    serve(port, host);", "};"]
    expected = ["function listen(port, host) {", *original[1:6], "    serve(port, host);", "};"]
    assert kept_code.check_marker_gaps(original, expected, snippet) is None
    skipped = ["function listen(port, host) {", "    configure(this);", "    serve(port, host);", "};"]
    reason = kept_code.check_marker_gaps(original, skipped, snippet)
    assert reason and "// reload views" in reason
    # a line the snippet shows elsewhere is not the marker's to keep
    moved = ["    // reload views", *snippet[:2], *original[3:6], "    serve(port, host);", "};"]
    assert kept_code.check_marker_gaps(original, moved[1:] , snippet + ["    // reload views"]) is None


HANDLER_5 = ["# ... existing code ...", "def handler_5(request, ctx):", '    """Handle request kind 5."""',
             "    value = request.get('k5', 5)", "    if value is None:", "        return ctx.fallback",
             "# ... existing code ..."]


def _replace_in_handler_5(lines, old, new):
    at = lines.index("def handler_5(request, ctx):")
    end = at + next(k for k, l in enumerate(lines[at:]) if l == "    return total") + 1
    body = lines[at:end]
    k = next(k for k in range(len(body)) if body[k : k + len(old)] == old)
    return lines[:at] + body[:k] + new + body[k + len(old):] + lines[end:]


def test_a_changed_line_before_a_marker_does_not_take_the_code_after_it_along():
    # issue 18 item 1: the model changed `return ctx.default` and dropped the three lines after it,
    # which the closing marker keeps; all snippet lines are present and in order.
    original = _handlers()
    right = _replace_in_handler_5(original, ["        return ctx.default"], ["        return ctx.fallback"])
    damaged = _replace_in_handler_5(original, ["        return ctx.default", "    total = value * 7",
                                               "    ctx.log('handled 5', total)", "    return total"],
                                    ["        return ctx.fallback"])
    reason = kept_code.check_kept_after_marker(original, damaged, HANDLER_5)
    assert reason and "`return ctx.fallback`" in reason and "deletes 3 line(s)" in reason
    assert kept_code.check_kept_after_marker(original, right, HANDLER_5) is None
    failure = guards.check_answer("\n".join(original), "\n".join(HANDLER_5), "\n".join(damaged), language="python")
    assert failure is not None and failure.guard == "deletions"
    assert guards.check_answer("\n".join(original), "\n".join(HANDLER_5), "\n".join(right), language="python") is None


def test_an_unchanged_last_line_before_a_marker_keeps_what_follows_even_where_the_file_repeats_it():
    # the shown line before the marker (`if value is None:`) occurs ten times in the file, so the
    # unique-line check (check_marker_gaps) cannot place it; the diff of the answer can
    original = _handlers()
    snippet = ["# ... existing code ...", "def handler_5(request, ctx):", '    """Handle request kind 5."""',
               "    value = request.get('k5', 50)", "    if value is None:", "# ... existing code ..."]
    changed = _replace_in_handler_5(original, ["    value = request.get('k5', 5)"], ["    value = request.get('k5', 50)"])
    damaged = _replace_in_handler_5(changed, ["        return ctx.default", "    total = value * 7"], [])
    assert kept_code.check_marker_gaps(original, damaged, snippet) is None  # the older check misses it
    reason = kept_code.check_kept_after_marker(original, damaged, snippet)
    assert reason and "`if value is None:`" in reason
    assert kept_code.check_kept_after_marker(original, changed, snippet) is None


def test_lines_replaced_before_the_changed_line_are_not_the_markers_code():
    # the model replaced two old lines by one new line, the changed one being the second: what it
    # deleted came before the new line, not after it, so the marker's code is intact
    original = _handlers()
    snippet = ["# ... existing code ...", "    value = request.get('k5', 5)",
               "    return value if value is not None else ctx.default", "# ... existing code ..."]
    merged = _replace_in_handler_5(original, ["    if value is None:", "        return ctx.default"],
                                   ["    return value if value is not None else ctx.default"])
    assert kept_code.check_kept_after_marker(original, merged, snippet) is None
