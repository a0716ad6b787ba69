"""Whole definitions between markers (merge/marked_definitions.py), read by name."""

from fastapply.merge.gate import snippet_checks
from fastapply.merge.instant import instant_merge
from fastapply.merge.snippet.marked_definitions import read_marked_definitions

ORIGINAL = '''import os


def confirm(*decls, **attrs):
    """Shortcut for confirmation prompts.

    Equivalent to::

        @option('--yes', is_flag=True)
    """

    def decorator(f):
        attrs.setdefault("is_flag", True)
        return option(*(decls or ("--yes",)), **attrs)(f)

    return decorator


def password(*decls, **attrs):
    """Shortcut for password prompts."""

    def decorator(f):
        attrs.setdefault("hide_input", True)
        return option(*(decls or ("--password",)), **attrs)(f)

    return decorator


def version(*decls, **attrs):
    """Shortcut for the version option."""
    attrs.setdefault("is_eager", True)
    return option(*decls, **attrs)
'''

# every header and body line of the two functions changed: no line of them anchors a lazy reading
SNIPPET = '''# ... existing code ...


def confirm(*param_decls, **kwargs):
    """Add a ``--yes`` option."""
    if not param_decls:
        param_decls = ("--yes",)

    kwargs.setdefault("is_flag", True)
    return option(*param_decls, **kwargs)


def password(*param_decls, **kwargs):
    """Add a ``--password`` option."""
    if not param_decls:
        param_decls = ("--password",)

    kwargs.setdefault("hide_input", True)
    return option(*param_decls, **kwargs)


# ... version stays as it is ...
'''
EXPECTED = ORIGINAL[: ORIGINAL.index("def confirm")] + SNIPPET[SNIPPET.index("def confirm"):SNIPPET.index("# ... version")] \
    + ORIGINAL[ORIGINAL.index("def version"):]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def test_whole_definitions_between_markers_replace_theirs_by_name():
    read = read_marked_definitions(_lines(ORIGINAL), _lines(SNIPPET), "python")
    assert read is not None and "\n".join(read.lines) == EXPECTED
    assert len(read.replaced) == 2


# `help` rewritten in `version`'s new style: the lazy readings doubt whether its header is new
# or changed (it shares `version`'s body lines), so only the reading by name places it
HELP_ORIGINAL = '''import os


def confirm(*decls, **attrs):
    """Shortcut for confirmation prompts."""

    def decorator(f):
        attrs.setdefault("is_flag", True)
        return option(*(decls or ("--yes",)), **attrs)(f)

    return decorator


def version(*param_decls, **kwargs):
    """Add a ``--version`` option."""

    def callback(ctx, param, value):
        if not value or ctx.resilient_parsing:
            return

        echo(get_version(ctx), color=ctx.color)
        ctx.exit()

    if not param_decls:
        param_decls = ("--version",)

    kwargs.setdefault("is_flag", True)
    kwargs.setdefault("expose_value", False)
    kwargs.setdefault("is_eager", True)
    kwargs["callback"] = callback
    return option(*param_decls, **kwargs)


def help(*decls, **attrs):
    """Shortcut for the help option."""

    def decorator(f):
        def callback(ctx, param, value):
            if value and not ctx.resilient_parsing:
                echo(ctx.get_help(), color=ctx.color)
                ctx.exit()

        attrs.setdefault("is_eager", True)
        attrs["callback"] = callback
        return option(*(decls or ("--help",)), **attrs)(f)

    return decorator
'''
HELP_SNIPPET = '''# ... existing code ...


def confirm(*param_decls, **kwargs):
    """Add a ``--yes`` option."""
    if not param_decls:
        param_decls = ("--yes",)

    kwargs.setdefault("is_flag", True)
    return option(*param_decls, **kwargs)


# ... version stays as it is ...


def help(*param_decls, **kwargs):
    """Add a ``--help`` option."""

    def callback(ctx, param, value):
        if not value or ctx.resilient_parsing:
            return

        echo(ctx.get_help(), color=ctx.color)
        ctx.exit()

    if not param_decls:
        param_decls = ("--help",)

    kwargs.setdefault("is_flag", True)
    kwargs.setdefault("expose_value", False)
    kwargs.setdefault("is_eager", True)
    kwargs["callback"] = callback
    return option(*param_decls, **kwargs)
'''


def test_instant_merge_falls_back_to_the_reading_by_name():
    result = instant_merge(HELP_ORIGINAL, HELP_SNIPPET, language="python")
    body = HELP_SNIPPET.split("\n\n\n")
    expected = HELP_ORIGINAL[:HELP_ORIGINAL.index("def confirm")] + body[1] + "\n\n\n" \
        + HELP_ORIGINAL[HELP_ORIGINAL.index("def version"):HELP_ORIGINAL.index("def help")] + body[3]
    assert result.text == expected
    assert result.method == "definition"


def test_removed_lines_inside_a_replaced_definition_count_as_shown():
    read = read_marked_definitions(_lines(ORIGINAL), _lines(SNIPPET), "python")
    original, result, snippet = _lines(ORIGINAL), read.lines, _lines(SNIPPET)
    assert snippet_checks.check_unshown_deletions(original, result, snippet) is not None
    assert snippet_checks.check_unshown_deletions(original, result, snippet, rewritten=read.replaced) is None


def test_a_python_body_cut_short_by_a_top_level_marker_is_not_whole():
    # `password` ends in a plain statement and a marker follows: the marker may stand for the
    # rest of its body
    cut = SNIPPET.replace('    return option(*param_decls, **kwargs)\n\n\n# ... version', '\n\n# ... version')
    assert read_marked_definitions(_lines(ORIGINAL), _lines(cut), "python") is None


def test_an_indented_marker_elides_inside_a_definition():
    inner = SNIPPET.replace('    kwargs.setdefault("hide_input", True)\n', '    # ... existing code ...\n')
    assert read_marked_definitions(_lines(ORIGINAL), _lines(inner), "python") is None


def test_a_new_name_or_one_defined_twice_is_not_read_by_name():
    renamed = SNIPPET.replace("def password(", "def secret(")
    assert read_marked_definitions(_lines(ORIGINAL), _lines(renamed), "python") is None
    twice = ORIGINAL + '\n\nclass Holder:\n    def password(self):\n        return 1\n'
    assert read_marked_definitions(_lines(twice), _lines(SNIPPET), "python") is None


def test_no_marker_where_the_original_has_code_between_definitions():
    # confirm and password adjacent in the snippet, but the original has a constant between them
    spaced = ORIGINAL.replace("\n\ndef password", "\n\nLIMIT = 3\n\n\ndef password")
    assert read_marked_definitions(_lines(spaced), _lines(SNIPPET), "python") is None
    marked = SNIPPET.replace("\n\ndef password", "\n\n# ... existing code ...\n\n\ndef password")
    assert read_marked_definitions(_lines(spaced), _lines(marked), "python") is not None


GO_ORIGINAL = '''package gin

// Redirect returns a HTTP redirect to the specific location.
// It renders with the given code.
func (c *Context) Redirect(location string, code int) {
	c.Render(code, location)
}

func (c *Context) Data(code int, data []byte) {
	c.Write(code, data)
}
'''


def test_comments_right_below_a_marker_are_the_original_comment_tail():
    snippet = '''// ... existing code ...
// It renders with the given code.
func (c *Context) Redirect(code int, location string) {
	if code >= 300 {
		c.Render(code, location)
	}
}
// ... existing code ...
'''
    read = read_marked_definitions(_lines(GO_ORIGINAL), _lines(snippet), "go")
    assert read is not None
    assert read.lines[2:4] == ["// Redirect returns a HTTP redirect to the specific location.",
                               "// It renders with the given code."]
    changed = snippet.replace("// It renders", "// It now renders")
    assert read_marked_definitions(_lines(GO_ORIGINAL), _lines(changed), "go") is None


def test_a_class_shown_with_some_of_its_members_is_not_replaced():
    original = '''class Store:
    def get(self, key):
        return self.data[key]

    def put(self, key, value):
        self.data[key] = value


def helper():
    return 1
'''
    # `helper` follows the class directly, so nothing says the class is cut short, but it shows
    # only `get`: `put` may be meant to stay
    snippet = '''# ... existing code ...
class Store:
    def get(self, key, default=None):
        return self.data.get(key, default)


def helper():
    return 2
'''
    assert read_marked_definitions(_lines(original), _lines(snippet), "python") is None
    whole = snippet.replace("\n\n\ndef helper", "\n\n    def put(self, key, value):\n        self.data[key] = value\n\n\ndef helper")
    read = read_marked_definitions(_lines(original), _lines(whole), "python")
    assert read is not None and "\n".join(read.lines) == whole.split("\n", 1)[1]
