"""A line that belongs to what follows it (a decorator, a block comment's opener) must not be
laid as new in front of lines that cannot complete it (merge/dangling.py)."""

from fastapply.merge.gate import dangling
from fastapply.merge.instant import instant_merge


def lines(text: str) -> list[str]:
    return text.split("\n")


def test_decorators_are_recognised():
    assert dangling.is_decorator("@contextmanager")
    assert dangling.is_decorator("    @app.route('/users/<int:id>')")
    assert dangling.is_decorator("  @Override")
    assert not dangling.is_decorator("@app.route(")
    assert not dangling.is_decorator("x = a @ b")
    assert not dangling.is_decorator("# @todo")


def test_bracket_attributes_are_decorators_in_the_languages_that_write_them():
    assert dangling.is_decorator("        [Obsolete]", "csharp")
    assert dangling.is_decorator("    #[inline]", "rust") and dangling.is_decorator("#[derive(Debug)]", "rust")
    assert dangling.is_decorator("[[nodiscard]]", "cpp") and dangling.is_decorator("    #[Deprecated]", "php")
    assert not dangling.is_decorator("[tool.black]", "toml") and not dangling.is_decorator("[Obsolete]")
    assert not dangling.is_decorator("    [a, b]", "csharp")
    original = lines("class Shop\n{\n    public int A() { return 1; }\n\n    public int B() { return 2; }\n}")
    result = original[:4] + ["    [Obsolete]", ""] + original[4:]
    reason = dangling.check_dangling_decorator(original, result, "csharp")
    assert reason and "[Obsolete]" in reason


def test_an_instance_variable_line_in_ruby_is_no_decorator():
    assert not dangling.is_decorator("    @queue.start_worker(@id, Process.pid)", "ruby")
    assert dangling.is_decorator("    @queue.start_worker(id)", "python")
    original = lines("class Worker\n  def run\n    start\n  end\nend")
    snippet = "class Worker\n  def run\n    @queue.start_worker(@id, Process.pid)\n\n    start\n  end\nend\n"
    merged = instant_merge("\n".join(original) + "\n", snippet, language="ruby")
    assert merged.text == snippet


def test_a_new_decorator_followed_by_a_blank_line_is_refused():
    original = lines("import os\n\n\ndef add(path):\n    return path\n\n\n@contextmanager\ndef ctx():\n    yield\n")
    result = original[:2] + ["", "@contextmanager", ""] + original[2:]
    reason = dangling.check_dangling_decorator(original, result, "python")
    assert reason and "@contextmanager" in reason
    attached = original[:3] + ["@contextmanager"] + original[3:]
    assert dangling.check_dangling_decorator(original, attached, "python") is None


def test_a_decorator_the_original_leaves_before_a_blank_is_waived():
    original = lines("@register\n\ndef a():\n    pass\n")
    result = lines("@register\n\ndef b():\n    pass\n\n@register\n\ndef a():\n    pass\n")
    assert dangling.check_dangling_decorator(original, result, "python") is None


def test_a_comment_opened_inside_an_open_one_is_refused():
    original = lines("/**\n * Short-hand for `x`.\n *\n * @api public\n */\n\nfunction f(){}\n")
    result = lines("/**\n * Short-hand for `x`.\n\n\n/**\n * Short-hand for:\n *\n * @api public\n */\n\nfunction f(){}\n")
    assert dangling.reopened_comments(result) == 1
    assert dangling.reopened_comments(original) == 0
    assert dangling.check_comment_reopened(original, result, "javascript")
    assert dangling.check_comment_reopened(original, original + ["/* one line */", "/**", " */"], "javascript") is None
    assert dangling.check_comment_reopened(original, result, "python") is None


def test_instant_merge_refuses_a_decorator_left_dangling():
    body = "".join(f"    x{i} = path + {i}\n" for i in range(15))
    original = ("from io import StringIO\n\n\ndef add_to_path(path):\n    \"\"\"Add path.\"\"\"\n" + body
                + "    return path\n\n\n@contextmanager\ndef catch(stream):\n    yield stream\n\n\n"
                "@contextmanager\ndef other(stream):\n    yield stream\n")
    snippet = "# ... existing code ...\nfrom io import StringIO\n\n\n@contextmanager\n# ... existing code ...\n"
    merged = instant_merge(original, snippet, language="python", path="t.py")
    assert merged.text is None and "new decorator `@contextmanager`" in merged.refused_reason


def test_a_new_closer_before_deeper_kept_lines_is_refused():
    original = lines("describe 'x'\n  it 'parses'\n    nested = {\n        foo : 'bar'\n      }\n    nested.should.eql 1\n  end\nend")
    result = original[:3] + ["    nested.foo.should.eql 'bar'", "  end", "end"] + original[3:]
    snippet = lines("  # ... existing code ...\n    nested.foo.should.eql 'bar'\n  end\nend\n  # ... existing code ...")
    reason = dangling.check_closer_before_deeper(original, result, snippet, "ruby")
    assert reason and "`end`" in reason and "foo : 'bar'" in reason


def test_a_closer_before_shallower_lines_or_a_shown_pair_passes():
    original = lines("function f() {\n  if (a) {\n    g()\n  }\n  return 1\n}")
    result = lines("function f() {\n  if (a) {\n    g()\n  }\n  if (b) {\n    h()\n  }\n  return 1\n}")
    assert dangling.check_closer_before_deeper(original, result, lines("// ...\n  if (b) {\n    h()\n  }\n// ..."), "javascript") is None
    deeper = lines("function f() {\n  if (a) {\n    g()\n  }\n  })\n    .then(x)\n  return 1\n}")
    assert dangling.check_closer_before_deeper(original, deeper, lines("// ...\n  })\n    .then(x)\n// ..."), "javascript") is None


RUBY = "class Shop\n  def alpha(x)\n    x\n  end\n\n  def gamma(x)\n    label = format(x)\n    label\n  end\nend\n"


def test_ruby_blocks_are_counted_by_their_openers_and_ends():
    assert dangling.ruby_unclosed(lines(RUBY)) == 0
    assert dangling.ruby_unclosed(lines("items.each do |i|\n  puts i\nend\nx = if a\n  1\nelse\n  2\nend\n")) == 0
    assert dangling.ruby_unclosed(lines("def ok? = true\ndef empty; end\nputs 1 if ready\n")) == 0
    assert dangling.ruby_unclosed(lines(RUBY + "end\n")) == -1
    # a method made private in its header, and the guard clauses every Ruby method opens with, are no
    # blocks (read as openers, they refused right merges: `private def x`, `return unless x`)
    assert dangling.ruby_unclosed(lines("private def size(x)\n  x\nend\nprotected def y = 1\n")) == 0
    assert dangling.ruby_unclosed(lines("def f(x)\n  return unless x\n  return if x.empty?\n  x\nend\n")) == 0


def test_a_stray_ruby_end_is_refused():
    """A method moved first whose old copy was taken apart, its `end` kept (the pattern grid's
    move_method in the minimal style): tree-sitter-ruby parses the extra `end` without an error."""
    original = lines(RUBY)
    result = original[:1] + original[5:9] + [""] + original[1:5] + ["  end"] + original[9:]
    snippet = lines("# ... existing code ...\n  def gamma(x)\n    label = format(x)\n    label\n  end\n\n"
                    "# ... existing code ...\n  end\nend\n")
    reason = dangling.check_end_balance(original, result, snippet, "ruby")
    assert reason and "more end line(s) than blocks it opens" in reason
    assert dangling.check_end_balance(original, original[:9] + ["  end"] + original[9:], snippet, "python") is None
    adds_end = lines("# ... existing code ...\n    label\n  end\n  end\n# ... existing code ...\n")
    assert dangling.check_end_balance(original, result, adds_end + ["stray_end"], "ruby")  # `end` is known
    assert dangling.check_end_balance(original, original, snippet, "ruby") is None


def test_a_stray_end_with_no_kept_end_beside_it_is_said_as_the_snippets_end():
    """The snippet's `else ... end end` laid after the block it meant to finish, away from the kept
    `end`s: the sentence numbers the snippet's first `end` (debian-f's `to_fs` rename, one row) and
    quotes no lone `end` that nothing places (issue 20)."""
    from fastapply.evaluation.pointing import unplaced

    original = lines("class Shop\n  def alpha(x)\n    if x\n      1\n    end\n  end\n  helper :alpha\nend\n")
    snippet = lines("# ... existing code ...\n    else\n      2\n    end\n  end\n  alias_method :b, :alpha\n"
                    "# ... existing code ...\n")
    result = original[:7] + ["    else", "      2", "    end", "  end", "  alias_method :b, :alpha"] + original[7:]
    reason = dangling.check_end_balance(original, result, snippet, "ruby")
    assert reason.startswith("the result has 2 more end line(s) than blocks it opens")
    assert "the snippet's `end` (snippet line 4) closes a block that a kept original end already closes" in reason
    assert unplaced(reason, original) == []


def test_the_stray_end_refusal_is_unbalanced_and_says_where_the_kept_end_is():
    from fastapply.merge.refuse.explain import explain

    original = lines(RUBY)
    snippet = "# ... existing code ...\n    label\n  end\n  end\n# ... existing code ...\n"
    result = original[:9] + ["  end"] + original[9:]  # the snippet's `end` beside the original's
    reason = dangling.check_end_balance(original, result, lines(snippet), "ruby")
    assert "(at original line 10 (`end`))" in reason  # the class's `end`, after the snippet's
    refusal = explain("\n".join(original) + "\n", snippet, reason, language="ruby")
    assert refusal.kind == "unbalanced"
    assert "original line 10 (`end`, below `label`)" in refusal.sentence  # placed, not a lone `end`
