"""Edge rules: edited copies, doubtful look-alikes, rewritten lines."""

import pytest

from fastapply.merge.align.edge_edits import (
    EdgeDoubt, bare_declaration, edge_edit, leading_name, rewritten_by, same_edit,
)


@pytest.mark.parametrize(
    "new, old",
    [
        ('html_title = "Click Documentation ({})".format(version)', 'html_title = "{} Documentation".format(project)'),
        ("def echo(message=None, file=None, nl=True):", "def echo(message=None, file=None, nl=True, err=False):"),
        ('    Text: viper.GetString("license.text")}', '    Text: "license.text"}'),
        ("/// Generates the `Clap` implementation.", "/// Generates the `Clap` impl."),
        ("// due to an example in the README.", "// due to an example in the README, although this is not robust."),
        ("            result = runner.invoke(cmd)", "        result = runner.invoke(cmd)"),  # re-indented
    ],
)
def test_edited_copies(new, old):
    assert same_edit(new, old)


@pytest.mark.parametrize(
    "new, old",
    [
        ('case "b": return 2', 'case "c": return 3'),  # a new case next to another one
        ("if (x) {", "if (y) {"),  # keyword-led lines say nothing
        ("value = compute(1) + 1", "total = compute(1)"),  # another name
        ("}", "}"),
        ("    }", "}"),  # a closer re-indented closes another block: the class's `}` is not a new method's
        ("        end", "    end"),
    ],
)
def test_look_alikes_are_not_edits(new, old):
    assert not same_edit(new, old)


def test_leading_name():
    assert leading_name("html_title = 1") == "html_title"
    assert leading_name("[Result]::new(a, b)") == "[Result]::new"
    assert leading_name("if (x) {") is None
    assert leading_name("a == b") is None


def test_edge_edit_replaces_paired_lines_and_keeps_going_over_equal_ones():
    inserted = ["#[derive(Parser, Debug)]", "", "use clap::Parser;"]  # outwards from the edge
    beyond = ["#[derive(Clap, Debug)]", "", "use clap::Clap;", "//! docs"]
    assert edge_edit(inserted, beyond) == 3


def test_edge_edit_inserts_unrelated_lines():
    assert edge_edit(["def new():", "    pass"], ["def old(a, b):", "    return a"]) == 0


def test_edge_edit_doubts_a_merely_similar_line():
    with pytest.raises(EdgeDoubt):
        edge_edit(["    value = compute(1) + 1"], ["    total = compute(1)", "def a():"])


def test_rewritten_by_spots_a_one_liner_spread_over_a_block():
    block = ["New-Object -TypeName PSCustomObject -Property @{", 'Name = "$Name"', 'Description = "$Description"', "}"]
    assert rewritten_by(block, '@{Name="$Name";Description="$Description"}')
    assert not rewritten_by(block, '@{Name="$Name";Tooltip="$Tooltip";Extra="$Extra"}')
    assert not rewritten_by(block, "@{a=1}")  # too few names to tell


def test_a_declaration_without_its_initializer_is_an_edited_copy():
    assert same_edit("    let context;", "    let context = {};")
    assert same_edit("    int count = 0;", "    int count;")
    assert not same_edit("    context;", "    context = {};")  # one word: an expression, not a declaration
    assert not bare_declaration("let other;", "let context")
    assert edge_edit(["  let context;"], ["  let context = {};", "  const program = make();"]) == 1


def test_the_same_name_declared_with_another_keyword_is_an_edited_copy():
    assert same_edit("const parseJson = require('parse-json');", "var parseJson = require('parse-json');")
    assert same_edit("    multipart = require('multipart'),", "var multipart = require('multipart'),")  # a var chain
    assert not same_edit("const other = require('parse-json');", "var parseJson = require('parse-json');")


# --- whole new blocks between siblings (edge_edits.new_sibling) ---

from fastapply.merge.align.edge_edits import new_sibling, opens_block, whole_blocks  # noqa: E402

_NEW_FUNC = ["", "func (_ indentedJSON) Render(w http.ResponseWriter, code int) error {",
             '\tWriteHeader(w, code, "application/json")', "\treturn nil", "}"]


def test_whole_blocks_and_opens_block():
    assert opens_block("func f() {") and opens_block("def f(x):") and not opens_block("x := 1")
    assert whole_blocks(_NEW_FUNC)
    assert not whole_blocks(_NEW_FUNC[:-1])  # left open
    assert not whole_blocks(["\treturn nil", "}"])  # does not open with a header
    assert whole_blocks(["def g(x):", "    y = x", "    return y"]) and not whole_blocks(["def g(x):", "y = x", "return y"])
    assert not whole_blocks(["func TestRelease(t *testing.T) {", "", "}"])  # a header and `}`: maybe an elided body


def test_new_sibling_needs_a_closed_block_before_it():
    assert new_sibling(_NEW_FUNC, "}", True)
    assert not new_sibling(_NEW_FUNC, "\tisTerm := true", True)  # after a statement: may rewrite the next block
    assert new_sibling(list(reversed(_NEW_FUNC)), "func (_ xmlRender) Render(w http.ResponseWriter) error {", False)


def test_a_new_function_before_its_twin_is_no_doubt_after_a_closed_sibling():
    beyond = ["", "func (_ xmlRender) Render(w http.ResponseWriter, code int) error {",
              '\tWriteHeader(w, code, "application/xml")', "\treturn nil", "}"]
    assert edge_edit(_NEW_FUNC, beyond, forward=True, inner="}") == 0
    with pytest.raises(EdgeDoubt):  # the same lines after a statement stay doubted
        edge_edit(_NEW_FUNC, beyond, forward=True, inner="\tisTerm := true")


def test_a_doc_comment_above_the_next_sibling_belongs_to_it():
    beyond = ["", "// Render writes XML.", "func (_ xmlRender) Render(w http.ResponseWriter, code int) error {",
              '\tWriteHeader(w, code, "application/xml")', "}"]
    assert edge_edit(_NEW_FUNC, beyond, forward=True, inner="}") == 0
    one_line = ["", "// Render writes XML.", "func (_ xmlRender) Render(w http.ResponseWriter, code int) error { return nil }"]
    with pytest.raises(EdgeDoubt):  # what follows the comment opens no block: the doubt stays
        edge_edit(_NEW_FUNC, one_line, forward=True, inner="}")


def test_a_changed_loop_opener_after_a_marker_replaces_the_original_one():
    from fastapply.merge.instant import instant_merge

    original = ("package x\n\nfunc f(items []int) {\n\tsetup()\n\tprepare(items)\n\tfor i, c := range items {\n"
                "\t\tuse(c)\n\t\tlog(i)\n\t}\n\tdone()\n}\n")
    snippet = "// ... existing code ...\n\tfor _, c := range items {\n\t\tuse(c)\n\t\tmore(c)\n\t}\n// ... existing code ...\n"
    # Kept beside the new header, the old one would leave an unclosed `{`.
    expected = original.replace("for i, c", "for _, c").replace("log(i)", "more(c)")
    assert instant_merge(original, snippet, language="go").text == expected


CLASS_END = {  # a method added after the last one: its `}` must not take the class's
    "java": ("class Bag {\n    int count() {\n        return n;\n    }\n}\n",
             "// ... existing code ...\n    int count() {\n        return n;\n    }\n\n    void clear() {\n"
             "        n = 0;\n    }\n// ... existing code ...\n"),
    "javascript": ("class Bag {\n  count() {\n    return this.n;\n  }\n}\n\nmodule.exports = Bag;\n",
                   "// ... existing code ...\n  count() {\n    return this.n;\n  }\n\n  clear() {\n    this.n = 0;\n"
                   "  }\n// ... existing code ...\n"),
    "csharp": ("namespace Demo\n{\n    public class Bag\n    {\n        public int Count()\n        {\n"
               "            return n;\n        }\n    }\n}\n",
               "// ... existing code ...\n        public int Count()\n        {\n            return n;\n        }\n\n"
               "        public void Clear()\n        {\n            n = 0;\n        }\n// ... existing code ...\n"),
}


@pytest.mark.parametrize("language", sorted(CLASS_END))
def test_a_method_added_after_the_last_one_keeps_the_class_closer(language):
    from fastapply.merge.instant import instant_merge

    original, snippet = CLASS_END[language]
    r = instant_merge(original, snippet, language=language)
    assert r.merged, r.refused_reason
    body = "".join(l + "\n" for l in snippet.split("\n")[1:-2])  # the snippet between its markers
    old = body.split("\n\n")[0] + "\n"  # the last method, as the original has it
    assert r.text == original.replace(old, body)  # every original `}` kept, the new method after the last


def test_another_definition_sees_siblings_in_allman_and_keyword_styles():
    from fastapply.merge.align.edge_edits import another_definition

    delta = ["    public function delta($x)", "    {", "        return $x;", "    }"]
    beta = ["    public function beta($x)", "    {", "        return 2;", "    }"]
    assert another_definition(delta, beta)
    assert not another_definition(delta, delta)
    assert another_definition(["def delta(x)", "  x", "end"], ["def beta(x)", "  2", "end"])
    assert not another_definition(["x = delta(1)"], ["x = beta(1)"])  # statements are no headers


def test_a_new_method_shaped_like_the_next_one_never_overwrites_it():
    # Allman methods whose bodies differ in one number: the reading that closes on `beta`'s `}`
    # (writing `delta` over it) was written on 2026-11-26; now it is no candidate
    from fastapply.merge.instant import instant_merge

    original = ("<?php\n\nclass Shop\n{\n    public function alpha($x)\n    {\n        return $x + 1;\n    }\n\n"
                "    public function beta($x)\n    {\n        return $x * 2;\n    }\n}\n")
    snippet = ("// ... existing code ...\n        return $x + 1;\n    }\n\n    public function delta($x)\n    {\n"
               "        return $x * 3;\n    }\n\n// ... existing code ...\n")
    r = instant_merge(original, snippet, language="php")
    assert not r.merged or "public function beta($x)" in r.text


_ALLMAN = ("class Shop\n{\n    public int Alpha(int x)\n    {\n        var price = LoadPrice(x);\n"
           "        return price;\n    }\n{new}    public int Beta(int x)\n    {\n        var count = CountItems(x);\n"
           "        return count;\n    }\n}\n")
_ALLMAN_NEW = "    public int Delta(int x)\n    {\n        var limit = ComputeLimit(x);\n        return limit;\n    }\n"
_LUA = ("local Shop = {}\nfunction Shop:alpha(x)\n  local price = self:loadPrice(x)\n  return price\nend\n"
        "{new}function Shop:beta(x)\n  local count = self:countItems(x)\n  return count\nend\nreturn Shop\n")
_LUA_NEW = "function Shop:delta(x)\n  local limit = self:computeLimit(x)\n  return limit\nend\n"


@pytest.mark.parametrize("language,comment,template,new,context", [
    ("csharp", "//", _ALLMAN, _ALLMAN_NEW, "        var price = LoadPrice(x);\n        return price;\n    }\n"),
])
def test_a_new_method_before_an_allman_or_keyword_header_is_no_rival_of_rewriting_it(language, comment, template,
                                                                                     new, context):
    # refused on 2026-11-26 (`return limit` could be new or a change of `return count`): the next
    # sibling's header (`public int Beta(int x)` then a lone `{`; `function Shop:beta(x)`) was not
    # read as one, so the reading that rewrites `beta` into `delta` stood as a rival
    from fastapply.merge.align.edge_edits import new_siblings_at
    from fastapply.merge.instant import instant_merge

    marker = f"{comment} ... existing code ...\n"
    original = template.replace("{new}", "")
    r = instant_merge(original, marker + context + new + marker, language=language)
    assert r.merged, r.refused_reason
    assert r.text == template.replace("{new}", new)
    lines = original.splitlines()
    at = next(i for i, l in enumerate(lines) if "eta(" in l)  # beta's header
    assert new_siblings_at(lines, at, new.splitlines(), 1)


def test_a_new_first_method_after_a_statement_never_overwrites_the_next_one():
    # written on 2026-11-26: `function Shop:delta(x)` after `local Shop = {}` read line by line
    # as an edited copy of `function Shop:alpha(x)`, which it overwrote (the grid's Lua add_first
    # in the context_above style); a whole new definition of another name is a new member
    from fastapply.merge.align.edge_edits import new_siblings_at
    from fastapply.merge.instant import instant_merge

    original = _LUA.replace("{new}", "")
    snippet = "local Shop = {}\n" + _LUA_NEW + "-- ... existing code ...\n"
    r = instant_merge(original, snippet, language="lua")
    assert r.merged, r.refused_reason
    assert r.text == original.replace("local Shop = {}\n", "local Shop = {}\n" + _LUA_NEW)
    assert edge_edit(_LUA_NEW.splitlines(), original.splitlines()[1:], forward=True, inner="local Shop = {}") == 0
    assert new_siblings_at(original.splitlines(), 1, _LUA_NEW.splitlines(), 1)
    # the same block after a statement inside a body (deeper than it) stays an edited copy
    assert edge_edit(_LUA_NEW.splitlines(), original.splitlines()[1:], forward=True, inner="    x = 1") == 4
