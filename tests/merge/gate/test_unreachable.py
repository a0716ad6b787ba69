"""A merge must not lay a new exit statement in front of original code it keeps: that code could
never run, so the snippet's exit was meant to replace it (merge/unreachable.py)."""

from fastapply.merge.gate import unreachable
from fastapply.merge.instant import instant_merge
from tests.merge.shop_file import SHOP as JAVA_SHOP


def lines(text: str) -> list[str]:
    return text.split("\n")


ORIGINAL = """package r

func (g *Group) Get(p string) IRoutes {
\tg.handle("GET", p)
\treturn g.returnObj()
}

func (g *Group) Post(p string) IRoutes {
\tg.handle("POST", p)
\treturn g.returnObj()
}

func (g *Group) Any(p string) IRoutes {
\tg.handle("GET", p)
\tg.handle("POST", p)
\tg.handle("PUT", p)
\treturn g.returnObj()
}

func (g *Group) Put(p string) IRoutes {
\tg.handle("PUT", p)
\treturn g.returnObj()
}
"""


def test_complete_exits_are_recognised():
    assert unreachable.is_complete_exit("    return g.returnObj()")
    assert unreachable.is_complete_exit("  throw new Error('x');")
    assert unreachable.is_complete_exit("        raise ValueError(name)")
    assert unreachable.is_complete_exit("\t\tbreak")
    assert not unreachable.is_complete_exit("    return {")
    assert not unreachable.is_complete_exit("    return a +")
    assert not unreachable.is_complete_exit("    return foo(a,")
    assert not unreachable.is_complete_exit("    returned = 1")


def test_a_new_return_before_kept_statements_is_refused():
    original = lines(ORIGINAL)
    at = original.index("func (g *Group) Any(p string) IRoutes {") + 1
    pasted = original[:at] + ["\tfor _, m := range all {", "\t\tg.handle(m, p)", "\t}", "\treturn g.returnObj()"] + original[at + 1:]
    snippet = lines("// ... existing code ...\nfunc (g *Group) Any(p string) IRoutes {\n\tfor _, m := range all {\n"
                    "\t\tg.handle(m, p)\n\t}\n\treturn g.returnObj()\n// ... existing code ...")
    reason = unreachable.check_code_after_exit(original, pasted, snippet, "go")
    assert reason and "could never run" in reason and 'g.handle("POST", p)' in reason


def test_the_snippet_may_ask_for_the_pair_and_closers_may_follow():
    original = lines("def f(x):\n    a = 1\n    b = 2\n    return a\n")
    shown = lines("def f(x):\n    a = 1\n    return a\n    b = 2\n# ... existing code ...")
    result = lines("def f(x):\n    a = 1\n    return a\n    b = 2\n    return a\n")
    assert unreachable.check_code_after_exit(original, result, shown, "python") is None
    unshown = lines("def f(x):\n    a = 1\n    return a\n# ... existing code ...")
    assert unreachable.check_code_after_exit(original, result, unshown, "python")
    closer = lines("function f(x) {\n  if (x) {\n    return 1\n  }\n  return 2\n}")
    new_exit = lines("function f(x) {\n  if (x) {\n    log(x)\n    return 1\n  }\n  return 2\n}")
    assert unreachable.check_code_after_exit(closer, new_exit, lines("// ...\n    return 1\n// ..."), "javascript") is None
    hoisted = lines("function f(x) {\n  return g(x)\n\n  function g(y) {\n    return y\n  }\n}")
    original_h = lines("function f(x) {\n\n  function g(y) {\n    return y\n  }\n}")
    assert unreachable.check_code_after_exit(original_h, hoisted, lines("// ...\n  return g(x)\n// ..."), "javascript") is None


def test_prose_is_not_checked():
    original = lines("Intro\n\nsecond line\n")
    result = lines("Intro\n\nreturn to the start\nsecond line\n")
    assert unreachable.check_code_after_exit(original, result, lines("return to the start\n..."), "markdown") is None
    assert unreachable.check_code_after_exit(original, result, lines("return to the start\n..."), "python")


def test_instant_merge_refuses_a_return_it_cannot_anchor():
    snippet = ("// ... existing code ...\nfunc (g *Group) Any(p string) IRoutes {\n\tfor _, m := range all {\n"
               "\t\tg.handle(m, p)\n\t}\n\n\treturn g.returnObj()\n// ... existing code ...\n")
    merged = instant_merge(ORIGINAL, snippet, language="go", path="r.go")
    assert merged.text is None and "could never run" in merged.refused_reason


SHOP = JAVA_SHOP + "\n"


def test_a_new_line_after_a_kept_exit_is_refused():
    """The mirror: a section opening after a marker with a changed exit; the old exit kept in front
    of it (the pattern grid's change_return in the context_below style wrote this in ten languages)."""
    original = lines(SHOP)
    at = original.index("        return label;") + 1
    result = original[:at] + ["        return label + 1;"] + original[at:]
    snippet = lines("// ... existing code ...\n        return label + 1;\n    }\n}\n")
    reason = unreachable.check_code_after_kept_exit(original, result, snippet, "java")
    assert reason and "could never run" in reason and "return label;" in reason
    # the snippet asking for the pair, a closer after the exit, or prose: no refusal
    asked = lines("// ...\n        return label;\n        return label + 1;\n// ...")
    assert unreachable.check_code_after_kept_exit(original, result, asked, "java") is None
    closed = original[:at] + ["    }", "", "    public int delta(int x) {", "        return 1;"] + original[at:]
    assert unreachable.check_code_after_kept_exit(original, closed, snippet, "java") is None
    assert unreachable.check_code_after_kept_exit(original, result, snippet, "markdown") is None


def test_instant_merge_replaces_a_changed_exit_after_a_marker():
    """Refused by check_code_after_kept_exit until grid5; the reading in which the new exit
    replaces the kept one is written now (decide.settled.exit_replaced)."""
    merged = instant_merge(SHOP, "// ... existing code ...\n        return label + 1;\n    }\n}\n", language="java")
    assert merged.text == SHOP.replace("return label;", "return label + 1;"), merged.refused_reason


RUBY_SHOP = """class Shop
  def gamma(x)
    label = formatLabel(x)
    label
  end
end
"""


def test_a_new_line_after_a_kept_implicit_return_is_refused():
    """Ruby and Scala return a block's last value: `label + 1` laid after the kept `label` (the
    grid's change_return in the context_below style wrote this on 2026-11-26) leaves `label` doing
    nothing. A bare value that is not its block's last line, or a statement, is no such exit."""
    original = lines(RUBY_SHOP)
    at = original.index("    label") + 1
    result = original[:at] + ["    label + 1"] + original[at:]
    snippet = lines("# ... existing code ...\n    label + 1\n  end\nend\n")
    reason = unreachable.check_code_after_kept_exit(original, result, snippet, "ruby")
    assert reason and "`label`" in reason and "last value" in reason
    assert unreachable.implicit_return(original, at - 1)
    assert not unreachable.implicit_return(original, at - 2)  # an assignment
    assert not unreachable.implicit_return(original, at)  # `end`
    merged = instant_merge(RUBY_SHOP, "# ... existing code ...\n    label + 1\n  end\nend\n", language="ruby")
    assert merged.text is None and "last value" in merged.refused_reason


# --------------------------------------------------------------------------- orphaned bodies

METHODS = '''class Blueprint:
    def app_url_value_preprocessor(self, f):
        """Same as url_value_preprocessor but application wide."""
        self.record_once(lambda s: s.app.url_value_preprocessor
            .setdefault(self.name, []).append(f))
        return f

    def app_url_defaults(self, f):
        """Same as url_defaults but application wide."""
        self.record_once(lambda s: s.app.url_default_functions
            .setdefault(None, []).append(f))
        return f
'''


def test_a_removed_header_whose_body_is_kept_is_refused():
    original = lines(METHODS)
    fused = original[:3] + ["        self.record_once(lambda s: s.app.url_value_preprocessors"] + original[10:]
    reason = unreachable.check_orphaned_body(original, fused, "python")
    assert reason and "def app_url_defaults(self, f):" in reason and ".setdefault(None" in reason


def test_a_renamed_header_or_a_long_rewrite_passes():
    original = lines(METHODS)
    renamed = original[:7] + ["    def app_url_default_functions(self, f):"] + original[8:]
    assert unreachable.check_orphaned_body(original, renamed, "python") is None
    body = [f"        x{i} = {i}" for i in range(8)]
    long_original = original[:7] + ["    def old(self, f):"] + body + ["        return f", ""]
    rewritten = original[:5] + ["        y = 1"] + ["        return f", ""]
    assert unreachable.check_orphaned_body(long_original, rewritten, "python") is None


def test_instant_merge_refuses_an_excerpt_that_fuses_two_methods():
    snippet = ('        """Same as url_value_preprocessor but application wide."""\n'
               "        self.record_once(lambda s: s.app.url_value_preprocessors\n"
               "            .setdefault(None, []).append(f))\n        return f\n")
    merged = instant_merge(METHODS, snippet, language="python", path="bp.py")
    assert merged.text is None and "removes `def app_url_defaults(self, f):`" in merged.refused_reason


# --------------------------------------------------------------------------- no-op statements

TESTS = '''class T(unittest.TestCase):
    def tearDown(self):
        """Teardown."""
        pass

    def test_assertion(self):
        assert 1

    def test_entry_points(self):
        import requests
'''


def test_a_pass_added_beside_statements_is_refused():
    original = lines(TESTS)
    pasted = original[:7] + ["", "        pass"] + original[7:]
    snippet = lines("# ... existing code ...\n        pass\n\n    def test_entry_points(self):\n# ... existing code ...")
    reason = unreachable.check_pass_added_to_body(original, pasted, snippet, "python")
    assert reason and "assert 1" in reason
    assert unreachable.check_pass_added_to_body(original, pasted, snippet, "javascript") is None


def test_a_pass_in_an_empty_or_docstring_body_or_one_the_snippet_writes_passes():
    original = lines("def f():\n    x = 1\n")
    emptied = lines('def f():\n    """Doc.\n\n    More.\n    """\n    pass\n')
    assert unreachable.check_pass_added_to_body(original, emptied, lines("def f():\n    pass"), "python") is None
    beside = lines("def f():\n    x = 1\n    pass\n")
    shown = lines("try:\n    pass\n\n    ok = True\nexcept E:\n    raise")
    assert unreachable.check_pass_added_to_body(original, beside, shown, "python") is None
    assert unreachable.check_pass_added_to_body(original, beside, lines("# ...\n    pass\n# ..."), "python")


def test_instant_merge_reads_a_shown_pass_as_the_empty_body_s():
    snippet = "# ... existing code ...\n        pass\n\n    def test_entry_points(self):\n# ... existing code ...\n"
    merged = instant_merge(TESTS, snippet, language="python", path="test_x.py")
    assert merged.text == TESTS.replace("    def test_assertion(self):\n        assert 1\n\n", "")


def test_a_new_exit_is_said_in_the_lines_the_writer_has():
    """The merged file is never written: the new exit is numbered in the snippet and the line it
    would strand in the original (a generic `return;` said by a merged file's line number pointed at
    nothing, issue 20)."""
    from fastapply.evaluation.pointing import unplaced

    original = lines("int f() {\n    a();\n    b();\n}\n")
    result = lines("int f() {\n    a();\n    return;\n    b();\n}\n")
    reason = unreachable.check_code_after_exit(original, result, lines("// ...\n    a();\n    return;\n// ...\n"), "c")
    assert reason.startswith("snippet line 3 (`return;`) is new and the original line 3 (`b();`) kept after it")
    assert unplaced(reason, original) == []
