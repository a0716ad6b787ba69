"""Rewritten definitions (merge/rewrites.py): removed lines inside a definition the snippet shows whole."""

from fastapply.merge.gate import rewrites, snippet_checks
from fastapply.merge.instant import instant_merge

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
    assert rewrites.inside_rewritten_definition(REWRITE_ORIGINAL, REWRITE_SNIPPET, *RUN)
    assert snippet_checks.check_unshown_deletions(REWRITE_ORIGINAL, REWRITE_RESULT, REWRITE_SNIPPET, strict=True) is None
    result = instant_merge("\n".join(REWRITE_ORIGINAL), "\n".join(REWRITE_SNIPPET), language="python")
    assert result.text == "\n".join(REWRITE_RESULT)


def test_a_marker_inside_the_definition_or_no_next_header_shown_proves_nothing():
    marked = REWRITE_SNIPPET[:6] + ["    # ... existing code ..."] + REWRITE_SNIPPET[6:]
    assert not rewrites.inside_rewritten_definition(REWRITE_ORIGINAL, marked, *RUN)
    assert snippet_checks.check_unshown_deletions(REWRITE_ORIGINAL, REWRITE_RESULT, marked) is not None
    unclosed = REWRITE_SNIPPET[:-3] + ["# ... existing code ..."]
    assert not rewrites.inside_rewritten_definition(REWRITE_ORIGINAL, unclosed, *RUN)
    renamed = ["def other(*decls, **kwargs):"] + REWRITE_SNIPPET[1:]
    assert not rewrites.inside_rewritten_definition(REWRITE_ORIGINAL, renamed, *RUN)
    assert not rewrites.inside_rewritten_definition(REWRITE_ORIGINAL, REWRITE_SNIPPET, 16, 26)  # spans two


def test_the_last_definition_is_shown_whole_when_no_marker_follows_its_header():
    original = ["def second(*decls, **attrs):", "    return option(*decls, **attrs)", "    # a note on second",
                "    # and more"]
    snippet = ["# ... existing code ...", "def second(*decls, **kwargs):", "    return option(*decls, **kwargs)"]
    assert rewrites.inside_rewritten_definition(original, snippet, 2, 4)
    assert not rewrites.inside_rewritten_definition(original, snippet + ["# ... existing code ..."], 2, 4)
