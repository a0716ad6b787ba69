"""Floating sections (no anchor in their window): placement by edge lines and by edited copies."""

from fastapply.merge.align.anchors import key_function
from fastapply.merge.align.floating import edited_block, most_similar
from fastapply.merge.align.lazy import merge_lazy
from fastapply.merge.instant import instant_merge

KEY = key_function("exact")
CONFIG = """import os

TIMEOUT = 30
RETRIES = 3
NAME = "svc"

def run():
    connect(TIMEOUT)
    return RETRIES""".split("\n")


def test_edited_block_finds_the_one_line_a_lone_changed_line_edits():
    assert edited_block(["RETRIES = 5"], CONFIG, KEY, 0, len(CONFIG)) == 3


def test_edited_block_pairs_a_run_line_for_line():
    assert edited_block(["TIMEOUT = 60", "RETRIES = 5"], CONFIG, KEY, 0, len(CONFIG)) == 2


def test_edited_block_refuses_a_new_line_and_a_line_that_edits_several():
    assert edited_block(["DEBUG = True"], CONFIG, KEY, 0, len(CONFIG)) is None  # new: its place is unknown
    calls = ["check(a, 1)", "x = 1", "check(b, 2)"]
    assert edited_block(["check(a, 3)"], calls, KEY, 0, 3) is None  # `check(` edits both calls


def test_edited_block_refuses_a_pair_another_line_reads_closer_to():
    orig = ['assert_re(t, "^GET /x$", out)', 'assert_eq(t, out, "Loaded 2 templates: a, b")']
    assert most_similar('assert_re(t, "Loaded 2 templates: (a|b)", out)', orig, 0, 2) == 1
    assert edited_block(['assert_re(t, "Loaded 2 templates: (a|b)", out)'], orig, KEY, 0, 2) is None


def test_edited_block_keeps_the_window():
    assert edited_block(["RETRIES = 5"], CONFIG, KEY, 4, len(CONFIG)) is None


def test_a_lone_changed_line_between_markers_replaces_its_original():
    m = merge_lazy(CONFIG, ["# ... existing code ...", "RETRIES = 5", "# ... existing code ..."])
    assert m.lines == CONFIG[:3] + ["RETRIES = 5"] + CONFIG[4:]


def test_an_unplaced_section_names_the_original_line_it_may_change():
    snippet = ["# ... existing code ...", "    connect(TIMEOUT, retries=RETRIES)", "    log()", "# ... existing code ..."]
    m = merge_lazy(CONFIG, snippet)
    assert m.lines is None
    assert "may change original line 8 (`connect(TIMEOUT)`)" in m.refused_reason
    m = merge_lazy(CONFIG, ["# ... existing code ...", "zzz_unrelated_block()", "# ... existing code ..."])
    assert m.lines is None and "may change" not in m.refused_reason


def test_edited_block_keeps_the_indentation_of_the_line_it_edits():
    orig = ["if b:", "    use(y, old=True)", "done()"]
    assert edited_block(["    use(y, old=False)"], orig, KEY, 0, 3) == 1
    assert edited_block(["  use(y, old=False)"], orig, KEY, 0, 3) is None  # another depth: another line


def test_a_place_whose_brackets_do_not_balance_is_doubted_with_a_note_naming_it():
    orig = ["items = [", "    1,", "    2,", "]", "other = [", "    3,", "]"]
    m = merge_lazy(orig, ["# ... existing code ...", "    2,", "])", "# ... existing code ..."])
    assert m.lines is None
    assert "(starting `2,`): it fits only at original line 3" in m.refused_reason and "balance their brackets" in m.refused_reason


# -- huge floating sections (issue 18, item 3): bounded work, whatever the snippet's size

def _functions_file() -> list[str]:
    lines = []
    for i in range(20):
        lines += [f"def f{i}(x):", f'    """Function {i}."""', f"    y = x * {i}", "    return y + 1", ""]
    return lines + ["", "if __name__ == '__main__':", "    print(f0(1))"]


def test_a_long_floating_section_at_many_places_is_refused_before_weighing_them():
    # 400 new functions opening on `return y + 1`, which the original has 20 times: 20 places x
    # 1,201 lines is past FLOATING_CELLS, so no place is weighed (each would read all 1,201 lines)
    snippet = ["# ... existing code ..."]
    for i in range(400):
        snippet += ["    return y + 1", "", f"def new_func_{i}(x):"]
    snippet += ["    return y + 1", "# ... existing code ..."]
    merged = merge_lazy(_functions_file(), snippet)
    assert merged.lines is None
    assert "too many readings to weigh" in merged.refused_reason
    assert "`return y + 1` occurs at 20 place(s)" in merged.refused_reason


def test_a_megabyte_of_small_new_functions_is_refused_in_about_linear_time():
    # the hostile probe's snippet: 24,000 small new functions (just under the instant merge's
    # 1,000,000 characters) around a 103-line file took 22 s to refuse (bracket_balance over the
    # whole section at every place its last line occurs, and again for each place order.py tried)
    import time

    from fastapply.merge.instant import MAX_SNIPPET_CHARS, instant_merge

    snippet = ["# ... existing code ..."]
    for i in range(24_000):
        snippet += [f"def new_func_{i}(x):", "    return y + 1", "", ""]
    text = "\n".join(snippet + ["# ... existing code ..."]) + "\n"
    assert 0.95 * MAX_SNIPPET_CHARS < len(text) <= MAX_SNIPPET_CHARS
    t0 = time.process_time()  # CPU time: other processes on the machine do not count
    result = instant_merge("\n".join(_functions_file()) + "\n", text, path="a.py")
    assert not result.merged
    assert time.process_time() - t0 < 6.0  # about 1.3 s here; the old code took 16 s of CPU


def test_a_lone_declaration_of_another_name_names_no_line_it_edits():
    # written on 2026-11-26 over `attr_reader :id` (the grid's Ruby second_class, minimal style):
    # `attr_reader :code` may as well be added beside it; the snippet cannot say, so it is refused
    from fastapply.merge.align.floating import names_another
    from fastapply.merge.instant import instant_merge

    item = ["class Item", "  attr_reader :id", "end"]
    assert edited_block(["  attr_reader :code"], item, KEY, 0, 3) is None
    assert edited_block(["  attr_reader :id, :code"], item, KEY, 0, 3) == 1  # the list extended: an edit
    assert names_another("include Pricing", "include Labels")
    assert not names_another("TIMEOUT = 60", "TIMEOUT = 30") and not names_another("return b", "return a")
    m = instant_merge("\n".join(item) + "\n", "# ... existing code ...\n  attr_reader :code\n# ... existing code ...\n",
                      language="ruby")
    assert not m.merged and "attr_reader :id" in m.refused_reason


def test_a_first_section_that_occurs_verbatim_after_blank_lines_starts_the_file():
    from fastapply.merge.instant import instant_merge

    original = ("\n/**\n * Module dependencies.\n */\n\nvar path = require('path')\n  , utils = require('./utils')\n"
                "  , join = path.join;\n\nfunction a() {\n  return 1;\n}\n")
    snippet = ("/**\n// ... existing code ...\nvar path = require('path')\n  , fs = require('fs')\n"
               "  , utils = require('./utils')\n// ... existing code ...\n")
    want = original[1:].replace("  , utils", "  , fs = require('fs')\n  , utils")
    result = instant_merge(original, snippet, language="javascript")
    assert result.merged and result.text == want
    # with the blank line shown, the file keeps it
    result = instant_merge(original, "\n" + snippet, language="javascript")
    assert result.merged and result.text == "\n" + want


SHOP = """public class Shop {
    public int alpha(int x) {
        return x;
    }

    public int gamma(int x) {
        int label = formatLabel(x);
        return label;
    }
}""".split("\n")
DELTA = ["    public int delta(int x) {", "        int limit = computeLimit(x);", "        return limit;", "    }"]


def test_a_new_last_method_matches_only_the_closer_that_balances():
    """A new last method shown after a marker down to the class's `}`: its own `}` and the class's
    match the original's last two lines, which would leave its body inside gamma's (unbalanced:
    refused before). Matching the class's `}` alone balances: the method is inserted before it,
    with the snippet's blank line above it."""
    snippet = ["// ... existing code ...", ""] + DELTA + ["}"]
    merged = merge_lazy(SHOP, snippet)
    assert merged.lines == SHOP[:-1] + [""] + DELTA + ["}"], merged.refused_reason
    merged = merge_lazy(SHOP, snippet[:1] + snippet[2:])  # no blank lead: none written
    assert merged.lines == SHOP[:-1] + DELTA + ["}"], merged.refused_reason


def test_a_new_last_class_goes_after_the_old_ones_closer():
    """A new class shown after a marker, ending the file: its `}` matches the old class's last
    line, which would leave the new class inside it (unbalanced: refused before). Matching none
    of its lines there balances: the class is appended, after the snippet's blank line."""
    item = ["class Item {", "    int id;", "}"]
    merged = merge_lazy(SHOP, ["// ... existing code ...", ""] + item)
    assert merged.lines == SHOP + [""] + item, merged.refused_reason
    merged = merge_lazy(SHOP, ["// ... existing code ...", ""] + item + ["// ... existing code ..."])
    assert merged.lines is None  # a marker after it: not the file's end, so no place is proven


def test_a_new_block_after_matched_closers_keeps_its_blank_line_before_the_marker():
    # the section has no unique line (only closers) and ends with a new function, a blank line and
    # a marker: the blank line separates it from the original code the marker keeps, as an anchored
    # section's trail would
    original = ("package auth\n\nfunc check(ok bool) {\n\tif ok {\n\t\tif !ok {\n\t\t\tfail()\n\t\t}\n\t}\n}\n\n"
                "func process(accounts Accounts) error {\n\treturn nil\n}\n")
    snippet = ("// ... existing code ...\n\t\t}\n\t}\n}\n\n// Simple wraps check.\nfunc Simple() {\n\tcheck(true)\n}\n\n"
               "// ... existing code ...\n")
    r = instant_merge(original, snippet, language="go")
    assert r.merged
    assert "\tcheck(true)\n}\n\nfunc process(" in r.text and "\n\n\n" not in r.text
