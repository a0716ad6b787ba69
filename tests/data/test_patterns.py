"""data/patterns.py: everyday edits and harder shapes in fifteen languages, and the instant merge on all of them."""

import json
import subprocess
import sys

import pytest

from fastapply.data.pattern_shapes import shapes
from fastapply.data.patterns import LANGUAGES, edits, pattern_rows
from fastapply.merge.instant import instant_merge
from fastapply.merge.text import syntax


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_file_of_the_grid_parses(language):
    for edit, (before, after) in edits(LANGUAGES[language]).items():
        assert syntax.parses(before, language) is not False, (language, "before")
        assert syntax.parses(after, language) is not False, (language, edit)


def test_every_language_has_the_everyday_edits_it_can_write():
    for name, lang in LANGUAGES.items():
        got = set(edits(lang))
        assert {"add_import", "add_field", "wrap_in_if", "add_parameter", "add_comment", "delete_line",
                "two_methods"} <= got, name
        assert ("add_annotation" in got) == bool(lang.note) and ("add_class" in got) == bool(lang.second)
        assert all(before != after for before, after in edits(lang).values()), name


SHAPES = set(shapes(LANGUAGES["java"]))


def test_the_added_shapes_are_written_in_every_language_that_can():
    for name, lang in LANGUAGES.items():
        got = set(edits(lang))
        assert {"twin_edit", "guard_change", "nested_edit", "delete_block", "move_method", "delete_first",
                "change_return", "after_comment", "add_header"} <= got, name
        assert ("return_type" in got) == bool(lang.rtype[0]) and ("second_class" in got) == bool(lang.second)


def test_the_extra_styles_keep_context_on_one_side_only():
    rows = pattern_rows(languages=("java",), styles=("context_above", "context_below"))
    above = next(r for r in rows if r["edit"] == "change_return" and r["snippet_style"] == "pattern-context_above")
    below = next(r for r in rows if r["edit"] == "change_return" and r["snippet_style"] == "pattern-context_below")
    assert above["snippet"].rstrip().split("\n")[-2].strip() == "return label + 1;"
    assert below["snippet"].split("\n")[1].strip() == "return label + 1;"


def test_rows_are_eval_rows_of_every_style():
    rows = pattern_rows(languages=("php",))
    assert {r["snippet_style"] for r in rows} >= {"pattern-agent", "pattern-minimal", "pattern-skeleton"}
    assert all(r["original"] != r["expected"] and r["snippet"].strip() for r in rows)


def test_a_php_header_comment_sits_above_the_first_code_line_as_in_every_language():
    """The comment goes right above the first line of code; in PHP that is below `<?php` and the
    blank line PSR-12 writes after it. Glued to `<?php` instead, the grid's expected file was one
    the context_below snippet (marker, comment, blank line, `class Shop`) does not show."""
    for name in ("php", "java", "python"):
        before, after = edits(LANGUAGES[name])["add_header"]
        code = next(i for i, line in enumerate(before.split("\n")) if line.strip() and line != "<?php")
        lines = after.split("\n")
        assert lines[code].startswith(("//", "#")) and lines[code + 1] == before.split("\n")[code], name
        assert lines[:code] == before.split("\n")[:code], name


# Wrong files the enlarged grid still finds (seed 0), each an open bug with its mechanism; any
# other wrong file fails the test. Remove an entry when its fix lands.
KNOWN_WRONG = {
    # A moved Ruby method laid over the first one: the greedy reading closes the new `def` block on
    # alpha's `end` (reading `def` ... `end` blocks as whole there cost planner-dev2 one right file).
    "pattern:ruby:move_method:context_above",
    # A new method cut short by a marker laid over its sibling in Lua, whose `function T:f(x)`
    # headers siblings.py does not read as openers (doing so cost planner-dev2 one right file).
    "pattern:lua:add_middle:context_above",
    # The snippet ends without a marker: read as the file's end, `module.exports = Shop;` goes.
    # That is the convention; refusing such a dropped final block cost 8 right files on the tuned
    # pool for 2 wrong ones (grid4).
    "pattern:javascript:move_method:missing_edges",
}


def test_the_instant_merge_writes_no_wrong_file_on_the_grid():
    """1393 rows (17 edits, 12 languages, 7 styles): on 2026-11-26 main wrote 26 wrong files on
    the first 8 edits (a method added between two in C#, PHP, C++, Go, Ruby and Lua overwrote
    the next one; a Python excerpt cut inside a definition deleted its rest), then 2 on the 9
    added ones (a decorator above a cut-short Python definition hid the cut; a C# statement
    wrapped in an `if` was shifted a level out), then none. Enlarged to 3825 rows (12 more
    shapes, Kotlin, Swift and C, two more styles: data/pattern_shapes.py) it found 41 more (a
    changed return laid after the kept one; a new method over its sibling in Allman style or
    with a qualified header; a new comment separated from its method; a moved method kept
    twice; a stray Ruby `end`); the ones still open are KNOWN_WRONG. Most (85%) are merged."""
    rows = pattern_rows()
    outcome = {"right": 0, "wrong": [], "refused": 0}
    for r in rows:
        m = instant_merge(r["original"], r["snippet"], language=r["language"])
        if m.merged and m.text == r["expected"]:
            outcome["right"] += 1
        elif m.merged:
            outcome["wrong"].append(r["id"])
        else:
            outcome["refused"] += 1
    assert sorted(set(outcome["wrong"]) - KNOWN_WRONG) == []
    assert outcome["right"] >= 0.8 * len(rows)


def test_the_everyday_edits_in_the_first_styles_have_no_wrong_file():
    """The first grid (17 everyday edits, the seven planner styles of STYLES, 12 languages):
    no wrong file at all."""
    from fastapply.data.planner_snippets import STYLES

    first = ("java", "csharp", "cpp", "javascript", "typescript", "php", "go", "rust", "python", "ruby", "lua",
             "scala")
    wrong = []
    for r in pattern_rows(languages=first, styles=STYLES):
        if r["edit"] in SHAPES:
            continue
        m = instant_merge(r["original"], r["snippet"], language=r["language"])
        if m.merged and m.text != r["expected"]:
            wrong.append(r["id"])
    assert wrong == []


def test_the_cli_writes_the_grid_and_names_an_unknown_language(tmp_path):
    out = tmp_path / "p.jsonl"
    ok = subprocess.run([sys.executable, "-m", "fastapply", "data", "patterns", "--language", "lua", "-o", str(out)],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert {json.loads(l)["language"] for l in out.read_text().splitlines()} == {"lua"}
    bad = subprocess.run([sys.executable, "-m", "fastapply", "data", "patterns", "--language", "klingon", "-o",
                          str(out)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "klingon" in bad.stderr and "Traceback" not in bad.stderr
