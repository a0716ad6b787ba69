"""two_readings.py: which of the joint and the greedy reading is written when they differ (the rules
one by one; end to end through instant_merge in tests/merge/test_instant.py), and the differences
between them the snippet settles (a final block one keeps and the other deletes, marker context,
unused imports, a moved run)."""

from __future__ import annotations

from fastapply.merge.result import MergeResult


def test_a_reading_that_changes_nothing_loses_to_one_that_changes_something():
    from fastapply.merge.text.conventions import split_text
    from fastapply.merge.decide.two_readings import _unchanged_loses

    orig = split_text("a = 1\nb = 2\n")
    same = MergeResult("a = 1\nb = 2\n", None, "lazy", "exact", None)
    changed = MergeResult("a = 1\nb = 3\n", None, "lazy", "exact", None)
    joint, old = _unchanged_loses(orig, same, changed)
    assert not joint.merged and old is changed
    joint, old = _unchanged_loses(orig, changed, same)
    assert joint is changed and not old.merged
    assert _unchanged_loses(orig, same, same) == (same, same)  # both unchanged: check_changed decides


def test_of_two_readings_that_both_copy_lines_the_one_keeping_marker_context_once_wins():
    from fastapply.merge.gate import snippet_checks
    from fastapply.merge.text.conventions import split_text
    from fastapply.merge.decide.two_readings import _keeps_context

    original = ("def test_a(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert result.exit_code == 2\n"
                "\n    result = runner.invoke(cli, ['--version'])\n    assert 'version 1.0' in result.output\n")
    new = ("\n\ndef test_b(runner):\n    result = runner.invoke(cli, ['--help'])\n    assert result.exit_code == 2\n"
           "    assert 'Missing option' in result.output\n")
    snippet = ["# ... existing code ...", "    assert 'version 1.0' in result.output", *new.split("\n")[:-1]]
    greedy = original + new  # copies the new test's lines (they repeat test_a's): right
    joint = original.replace("    assert result.exit_code == 2\n", "    assert 'version 1.0' in result.output" + new[:-1] + "\n", 1)
    orig = split_text(original)
    lines = [split_text(joint).lines, split_text(greedy).lines]  # joint pasted `assert 'version 1.0'` twice
    lost = [snippet_checks.lost_distinctive_lines(orig.lines, r) for r in lines]
    assert _keeps_context(orig, lines, lost, snippet) == 1
    assert _keeps_context(orig, lines[::-1], lost[::-1], snippet) == 0  # whichever reading it is
    assert _keeps_context(orig, [lines[1], lines[1]], [lost[1], lost[1]], snippet) is None  # neither copies it
    assert _keeps_context(orig, lines, [lost[0], lost[0] + 1], snippet) is None  # the keeper loses more


# --------------------------------------------------------------------------- differences the snippet settles

from fastapply.merge.decide import two_readings
from fastapply.merge.gate import repeats
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.revise import revise

KEPT = ["x = 1", "jsonify = json.jsonify", "", "# backwards compat", "json_available = True", ""]
DELETED = ["x = 1", "jsonify = json.jsonify", ""]
SNIPPET = ["# ... existing code ...", "jsonify = json.jsonify", ""]


def test_a_short_final_block_after_a_snippet_without_a_closing_marker_is_named():
    assert two_readings.differ_by_final_block(KEPT, DELETED, SNIPPET)
    assert two_readings.differ_by_final_block(DELETED, KEPT, SNIPPET)


def test_a_closing_marker_a_long_block_or_an_unseparated_one_is_not():
    assert not two_readings.differ_by_final_block(KEPT, DELETED, SNIPPET + ["# ... existing code ..."])
    long_block = DELETED[:2] + [""] + [f"v{i} = {i}" for i in range(two_readings.FINAL_BLOCK + 1)]
    assert not two_readings.differ_by_final_block(long_block, DELETED, SNIPPET)
    glued = ["x = 1", "jsonify = json.jsonify", "json_available = True"]
    assert not two_readings.differ_by_final_block(glued, DELETED, SNIPPET)


def test_readings_that_differ_elsewhere_are_not():
    other = ["x = 2", "jsonify = json.jsonify", "", "# backwards compat", "json_available = True"]
    assert not two_readings.differ_by_final_block(other, DELETED, SNIPPET)


# a module whose short final block (backwards compat) the snippet stops before, without a marker
FLASK_INIT = ("import json\n\nfrom .app import Flask\n\nVERSION = '1.0'\n\n# a more generic name.\n"
              "jsonify = json.jsonify\n\n# backwards compat, goes away in 1.0\n"
              "from .sessions import SecureCookieSession as Session\njson_available = True\n")
FLASK_SNIPPET = "# ... existing code ...\nVERSION = '1.1'\n\n# a more generic name.\njsonify = json.jsonify\n"


def test_instant_merge_refuses_to_guess_whether_a_final_block_stays():
    original, snippet = FLASK_INIT, FLASK_SNIPPET
    result = instant_merge(original, snippet, language="python")
    assert result.text is None
    assert "final block" in result.refused_reason
    assert result.candidate and "VERSION = '1.1'" in result.candidate


# a module whose last statement a snippet shows, without an end marker, above a top-level alias the commit drops
# (rxjs's SequenceError.ts with such an alias added)
ERROR_TS = ("import { createErrorClass } from './createErrorClass';\n"
            '\n'
            'export interface SequenceError extends Error {}\n'
            '\n'
            'export interface SequenceErrorCtor {\n'
            '  /**\n'
            '   * @deprecated Internal implementation detail. Do not construct error instances.\n'
            '   * Cannot be tagged as internal: https://github.com/ReactiveX/rxjs/issues/6269\n'
            '   */\n'
            '  new (message: string): SequenceError;\n'
            '}\n'
            '\n'
            '/**\n'
            ' * An error thrown when something is wrong with the sequence of\n'
            ' * values arriving on the observable.\n'
            ' *\n'
            ' * @see {@link operators/single}\n'
            ' *\n'
            ' * @class SequenceError\n'
            ' */\n'
            'export const SequenceError: SequenceErrorCtor = createErrorClass(\n'
            '  (_super) =>\n'
            '    function SequenceErrorImpl(this: any, message: string) {\n'
            '      _super(this);\n'
            "      this.name = 'SequenceError';\n"
            '      this.message = message;\n'
            '    }\n'
            ');\n'
            '\n'
            'legacyAlias(OldName, NewName);\n')
ERROR_SNIPPET = ("// ...\n\n *\n * @see {@link operators/single}\n */\nexport const SequenceError: SequenceErrorCtor = "
                 "createErrorClass(\n\n// ... unchanged ...\n\n    }\n);\n")


def test_one_reading_that_keeps_a_top_level_final_block_below_an_unmarked_end_is_refused():
    original = ERROR_TS.splitlines()
    kept = instant_merge(ERROR_TS, ERROR_SNIPPET, language="typescript")
    assert kept.text is None and kept.refusal.kind == "would-delete-edge"
    assert kept.refusal.detail["dropped"] == (len(original) - 2, len(original))  # offered as `-` lines
    assert [(x.number, x.text) for x in kept.refusal.original] == [(len(original), "legacyAlias(OldName, NewName);")]
    assert [text.count("legacyAlias") for text in kept.alternatives] == [1, 0]


def test_an_indented_or_closing_tail_below_an_unmarked_end_is_a_forgotten_marker():
    lines = ["class Foo", "{", "    public function a()", "    {", "        return 1;", "    }", "", "    public function b()",
             "    {", "        return 2;", "    }", "}"]
    inside = ["// ... existing code ...", "    public function a()", "    {", "        return 1;", "    }"]
    assert two_readings.kept_final_block(lines, lines, inside) is None  # the tail is indented, and closes the class
    tail = lines + ["", "class_alias('Foo', 'Old_Foo');"]
    assert two_readings.kept_final_block(tail, tail, ["// ... existing code ...", "}"]) is not None
    assert two_readings.kept_final_block(tail, tail, ["// ... existing code ...", "}", "// ..."]) is None  # a marker
    closing = lines[:-1] + ["", "end"]
    assert two_readings.kept_final_block(closing, closing, inside) is None


# marker context: a line shown right next to a marker is the existing line the marker runs up to

CTX_ORIGINAL = ["def test_a(runner):", "    result = runner.invoke(cli, ['--help'])", "    assert result.exit_code == 0",
                "    assert 'Usage' in result.output"]
CTX_SNIPPET = ["# ... existing code ...", "    assert 'Usage' in result.output", "", "", "def test_b(runner):",
               "    result = runner.invoke(cli, ['--version'])", "    assert result.exit_code == 0"]
CTX_GREEDY = CTX_ORIGINAL + CTX_SNIPPET[2:]  # the new test appended after the line it follows: right
CTX_JOINT = CTX_ORIGINAL[:2] + CTX_SNIPPET[1:-1] + CTX_ORIGINAL[2:]  # anchored on the new test's last line

def test_marker_context_is_the_line_next_to_each_marker():
    ctx = repeats.marker_context(CTX_SNIPPET, CTX_ORIGINAL)
    assert ctx == {"assert 'Usage' in result.output"}
    closed = repeats.marker_context(CTX_SNIPPET + ["# ... existing code ..."], CTX_ORIGINAL)
    assert closed == {"assert 'Usage' in result.output", "assert result.exit_code == 0"}
    assert repeats.marker_context(CTX_SNIPPET[1:], CTX_ORIGINAL) == set()  # no markers, no context


def test_a_reading_that_pastes_a_second_copy_of_marker_context_is_named():
    assert repeats.copied_context(CTX_ORIGINAL, CTX_JOINT, CTX_SNIPPET) == {"assert 'Usage' in result.output"}
    assert repeats.copied_context(CTX_ORIGINAL, CTX_GREEDY, CTX_SNIPPET) == set()


# a block whose imports the snippet removed

ORPH_ORIGINAL = ["import (", '\t"fmt"', '\t"io/ioutil"', ")", "", "func A() {", '\tfmt.Println("a")', "}", "",
                 "func B() {", '\tioutil.ReadFile("b")', "}"]
ORPH_DROP = ["import (", '\t"fmt"', ")", "", "func A() {", '\tfmt.Println("a")', "}"]
ORPH_KEEP = ORPH_DROP + ORPH_ORIGINAL[8:]


def test_a_kept_block_using_an_import_the_snippet_removed_settles_for_deleting_it():
    assert two_readings.orphaned_block(ORPH_ORIGINAL, ORPH_KEEP, ORPH_DROP, "go") == {"ioutil"}


def test_no_orphan_when_the_import_stays_the_rest_uses_it_or_the_block_is_new():
    kept_import = ORPH_DROP[:2] + ['\t"io/ioutil"'] + ORPH_DROP[2:]
    assert two_readings.orphaned_block(ORPH_ORIGINAL, kept_import + ORPH_ORIGINAL[8:], kept_import, "go") == set()
    used_elsewhere = ORPH_DROP[:-1] + ['\tioutil.ReadFile("a")', "}"]
    assert two_readings.orphaned_block(ORPH_ORIGINAL, used_elsewhere + ORPH_ORIGINAL[8:], used_elsewhere, "go") == set()
    new_block = ORPH_DROP + ["", "func C() {", '\tioutil.ReadFile("c")', "}"]
    assert two_readings.orphaned_block(ORPH_ORIGINAL, new_block, ORPH_DROP, "go") == set()
    assert two_readings.orphaned_block(ORPH_ORIGINAL, ORPH_DROP, ORPH_KEEP, "go") == set()  # only the keeper is named


def test_a_run_the_snippet_shows_and_the_reading_also_keeps_at_its_old_place_is_a_moved_block():
    original = ["def main():", "    args = parse()", "    data = load(args)", "    save(data)", ""]
    snippet = ["def run(args):", "    data = load(args)", "    save(data)", "", "def main():", "    args = parse()",
               "    run(args)"]  # the run's old neighbour `args = parse()` is shown without it: it moved
    kept_twice = ["def run(args):", "    data = load(args)", "    save(data)", "", "def main():", "    args = parse()",
                  "    run(args)", "    data = load(args)", "    save(data)", ""]
    assert two_readings.shown_run_kept_twice(original, kept_twice, snippet)
    moved = ["def run(args):", "    data = load(args)", "    save(data)", "", "def main():", "    args = parse()",
             "    run(args)", ""]
    assert not two_readings.shown_run_kept_twice(original, moved, snippet)
    # new code repeating two old lines, whose old neighbours the snippet does not show, is not a move
    new_code = ["def other():", "    data = load(args)", "    save(data)"]
    assert not two_readings.shown_run_kept_twice(original, original + new_code, new_code)


RUBY_SHOP = """class Shop
  def alpha(x)
    price = loadPrice(x)
    price
  end

  def beta(x)
    count = countItems(x)
    count
  end
end
"""
RUBY_DELTA = """  def delta(x)
    limit = computeLimit(x)
    limit
  end
"""


def test_a_reading_that_lays_a_new_definition_over_an_unnamed_one_loses():
    # refused on 2026-11-26 as placeable two ways (the grid's Ruby add_middle, chat style): the
    # greedy reading closed `def delta` on `beta`'s `end` and wrote it over `beta`
    from fastapply.merge.decide.two_readings import overwritten_definitions
    from fastapply.merge.instant import instant_merge

    from fastapply.data.patterns import pattern_rows

    for row in pattern_rows(languages=("ruby",)):
        if row["edit"] == "add_middle" and row["snippet_style"].endswith(("chat", "inline", "skeleton")):
            m = instant_merge(row["original"], row["snippet"], language="ruby")
            assert m.merged and m.text == row["expected"], (row["id"], m.refused_reason)
    snippet = "# ... existing code ...\n    price\n  end\n\n" + RUBY_DELTA + "\n# ... existing code ...\n"
    original, snip = RUBY_SHOP.splitlines(), snippet.splitlines()
    over = original[:6] + RUBY_DELTA.splitlines() + original[10:]
    assert overwritten_definitions(original, over, snip) == ["def beta(x)"]
    right = RUBY_SHOP.replace("  end\n\n  def beta", "  end\n\n" + RUBY_DELTA + "\n  def beta")
    assert overwritten_definitions(original, right.splitlines(), snip) == []
    # a snippet that names `beta` (a rename shown as such) settles nothing this way
    assert overwritten_definitions(original, over, snip + ["# replaces beta"]) == []


def test_the_final_block_refusal_offers_the_block_as_minus_lines_and_that_answer_deletes_it():
    original, snippet = FLASK_INIT, FLASK_SNIPPET
    result = instant_merge(original, snippet, language="python")
    assert result.refusal.kind == "would-delete-edge"
    minus = [o for o in result.refusal.options if "`-` lines" in o.says]
    assert len(minus) == 1 and "lines 9-12" in minus[0].says
    revised = revise(snippet, minus[0])
    assert revised.endswith("-# backwards compat, goes away in 1.0\n"
                            "-from .sessions import SecureCookieSession as Session\n-json_available = True\n")
    again = instant_merge(original, revised, language="python")
    assert again.text == original.replace("1.0'", "1.1'").split("\n\n# backwards")[0] + "\n"
    keep = [o for o in result.refusal.options if o.says.startswith("add a marker line at the end")]
    assert instant_merge(original, revise(snippet, keep[0]), language="python").text == original.replace("'1.0'", "'1.1'")


def test_of_two_readings_that_differ_in_blank_lines_only_an_unmarked_snippet_edge_decides_the_file_edge():
    from fastapply.merge.decide.two_readings import blank_keeper

    original = ["import os", "", "x = 1", ")", ""]  # the file ends in a blank line
    snippet = ["# ... existing code ...", "x = 2", ")"]  # shows the file's end: no blank line after `)`
    keeps, drops = ["import os", "", "x = 2", ")", ""], ["import os", "", "x = 2", ")"]
    assert blank_keeper(snippet, [keeps, drops]) == 1
    assert blank_keeper(snippet, [drops, keeps]) == 0
    # a marker after the last line: the file goes on, and its end's blank lines are no evidence
    marked = snippet + ["# ... existing code ..."]
    assert blank_keeper(marked, [keeps, drops]) == 0
    assert blank_keeper(marked, [drops, keeps]) == 0  # a tie: the first reading
    # a last line that is not the file's: the snippet stops short of the end (a forgotten marker)
    short = ["# ... existing code ...", "x = 2"]
    assert blank_keeper(short, [keeps, drops]) == 0
    # a blank line that starts a snippet says nothing of the file's first line
    start = ["", "import os", "# ... existing code ..."]
    assert blank_keeper(start, [original, [""] + original]) == 0



def test_two_readings_that_write_the_same_file_are_guarded_once(monkeypatch):
    from fastapply.merge.gate import guards

    calls = []
    run = guards.run_guards
    monkeypatch.setattr(guards, "run_guards", lambda *a, **k: calls.append(a[1]) or run(*a, **k))
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    snippet = "# ... existing code ...\ndef b():\n    return 3\n"
    result = instant_merge(original, snippet, path="m.py")
    assert result.merged and result.text == original.replace("return 2", "return 3")
    assert len(calls) == 1  # the joint and the greedy reading agree: one run of the guards
