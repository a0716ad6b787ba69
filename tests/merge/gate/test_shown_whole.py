"""Deletions shown by showing whole what enclosed them: a bracketed block, a rewritten definition."""

from fastapply.merge.gate import shown_whole, snippet_checks
from fastapply.merge.gate.shown_whole import deletion_in_shown_block, enclosing_block
from fastapply.merge.instant import instant_merge

ORIGINAL = """function got(url, opts, cb) {
\tif (typeof opts === 'function') {
\t\tcb = opts;
\t\topts = {};
\t} else if (!opts) {
\t\topts = {};
\t}
\treturn run(url, opts, cb);
}

function other(url, opts, cb) {
\tif (typeof opts === 'function') {
\t\tcb = opts;
\t\topts = {};
\t}
}""".split("\n")
RESULT = ORIGINAL[:4] + ORIGINAL[6:]  # the `else if` branch dropped
MARK = "// ... existing code ..."


def test_enclosing_block_finds_the_innermost_open_bracket_around_a_gap():
    assert enclosing_block(RESULT, 4) == (1, 4)  # `if (...) {` .. `}`
    assert enclosing_block(RESULT, 0) is None  # top level


def test_a_deletion_inside_a_block_the_snippet_shows_whole_is_shown():
    snippet = [MARK, *ORIGINAL[:4], "\t}", "", MARK]
    assert deletion_in_shown_block(ORIGINAL, RESULT, snippet, 4)
    assert snippet_checks.check_unshown_deletions(ORIGINAL, RESULT, snippet) is None


def test_a_block_that_repeats_or_is_cut_by_a_marker_shows_nothing():
    # The `if` block alone: two functions open it, nothing in the run says which one.
    alone = [MARK, *ORIGINAL[1:4], "\t}", MARK]
    assert not deletion_in_shown_block(ORIGINAL, RESULT, alone, 4)
    assert "does not touch" in snippet_checks.check_unshown_deletions(ORIGINAL, RESULT, alone)
    # A marker inside the block: the snippet does not show all of it.
    cut = [MARK, ORIGINAL[0], ORIGINAL[1], MARK, ORIGINAL[3], "\t}", MARK]
    assert not deletion_in_shown_block(ORIGINAL, RESULT, cut, 4)


def test_a_long_deletion_inside_a_shown_block_is_still_refused():
    # The snippet shows a function's header, an `if` opener and the closers, no marker: a planner
    # that left out the marker may have meant a long body to stay, so only short deletions pass.
    original = ["function fetch(url) {", "\tif (ok) {", "\t\tx();", "\t\ty();", "\t\tz();", "\t\tw();", "\t}", "}", "",
                "function other(url) {", "\tif (ok) {", "\t}", "}"]
    snippet = [MARK, "function fetch(url) {", "\tif (ok) {", "\t}", "}", MARK]
    short = original[:2] + original[4:]  # `x();` `y();` deleted, the block shown with what it keeps
    shown_short = [MARK, *short[:6], MARK]
    assert snippet_checks.check_unshown_deletions(original, short, shown_short) is None
    long = original[:2] + original[6:]  # all four deleted
    assert deletion_in_shown_block(original, long, snippet, 2)
    assert "does not touch" in snippet_checks.check_unshown_deletions(original, long, snippet)


# a definition the snippet shows whole in its new form (the old one's docstring example is gone)

REWRITE_ORIGINAL = '''def first(*decls, **attrs):
    """Shortcut for confirmation prompts.

    This is equivalent to decorating a function with option::

        @click.command()
        @click.option('--yes', is_flag=True, callback=callback)
        def dropdb():
            pass
    """

    def decorator(f):
        def callback(ctx, param, value):
            if not value:
                ctx.abort()

        attrs.setdefault("is_flag", True)
        attrs.setdefault("callback", callback)
        attrs.setdefault("expose_value", False)
        return option(*(decls or ("--yes",)), **attrs)(f)

    return decorator


def second(*decls, **attrs):
    return option(*decls, **attrs)
'''.split("\n")
REWRITE_SNIPPET = '''def first(*decls, **kwargs):
    """Add a ``--yes`` option which shows a prompt before continuing
    if not passed.

    :param decls: One or more option names."""

    def callback(ctx, param, value):
        if not value:
            ctx.abort()

    if not decls:
        decls = ("--yes",)

    kwargs.setdefault("is_flag", True)
    kwargs.setdefault("callback", callback)
    kwargs.setdefault("expose_value", False)
    return option(*decls, **kwargs)


def second(*decls, **attrs):
# ... existing code ...'''.split("\n")
REWRITE_RESULT = REWRITE_SNIPPET[:-1] + REWRITE_ORIGINAL[25:]  # `def second` and its body

RUN = (11, 15)  # `def decorator(f):` and the old callback: between rewritten lines, no landmark shown


def test_lines_inside_a_definition_the_snippet_shows_whole_were_rewritten():
    assert shown_whole.inside_rewritten_definition(REWRITE_ORIGINAL, REWRITE_SNIPPET, *RUN)
    assert snippet_checks.check_unshown_deletions(REWRITE_ORIGINAL, REWRITE_RESULT, REWRITE_SNIPPET, strict=True) is None
    result = instant_merge("\n".join(REWRITE_ORIGINAL), "\n".join(REWRITE_SNIPPET), language="python")
    assert result.text == "\n".join(REWRITE_RESULT)


def test_a_marker_inside_the_definition_or_no_next_header_shown_proves_nothing():
    marked = REWRITE_SNIPPET[:6] + ["    # ... existing code ..."] + REWRITE_SNIPPET[6:]
    assert not shown_whole.inside_rewritten_definition(REWRITE_ORIGINAL, marked, *RUN)
    assert snippet_checks.check_unshown_deletions(REWRITE_ORIGINAL, REWRITE_RESULT, marked) is not None
    unclosed = REWRITE_SNIPPET[:-3] + ["# ... existing code ..."]
    assert not shown_whole.inside_rewritten_definition(REWRITE_ORIGINAL, unclosed, *RUN)
    renamed = ["def other(*decls, **kwargs):"] + REWRITE_SNIPPET[1:]
    assert not shown_whole.inside_rewritten_definition(REWRITE_ORIGINAL, renamed, *RUN)
    assert not shown_whole.inside_rewritten_definition(REWRITE_ORIGINAL, REWRITE_SNIPPET, 16, 26)  # spans two


def test_the_last_definition_is_shown_whole_when_no_marker_follows_its_header():
    original = ["def second(*decls, **attrs):", "    return option(*decls, **attrs)", "    # a note on second",
                "    # and more"]
    snippet = ["# ... existing code ...", "def second(*decls, **kwargs):", "    return option(*decls, **kwargs)"]
    assert shown_whole.inside_rewritten_definition(original, snippet, 2, 4)
    assert not shown_whole.inside_rewritten_definition(original, snippet + ["# ... existing code ..."], 2, 4)
