"""options.py: each option, applied to the snippet it answers (revise.py), gives the file the
planner meant; where it goes is the refusal's data (the doubted run's edge, the similar line, the
place the merge's own reading put a section), not a guess."""

from __future__ import annotations

from fastapply.merge.align.doubts import doubt_note
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.new_lines import settle
from fastapply.merge.refuse.readings import reading_pins
from fastapply.merge.refuse.reading import read_input
from fastapply.merge.refuse.refusal import Edit, Option
from fastapply.merge.refuse.revise import revise


def test_a_doubt_about_the_first_of_two_new_lines_settles_at_the_runs_end_not_inside_it():
    original = "def a():\n    total = add(x, y)\n    return total\n"
    snippet = "def a():\n    total = add(x, y, z)\n    log(total)\n# ... existing code ...\n"
    note = doubt_note("    total = add(x, y, z)", original.splitlines(), 1, 1)
    r = explain(original, snippet, note)
    replaces = next(o for o in r.options if "replaces" in o.says)
    assert replaces.edits[0].at == 4  # after `log(total)` (snippet line 3), before the marker
    revised = revise(snippet, replaces)
    assert revised.splitlines()[1:4] == ["    total = add(x, y, z)", "    log(total)", "    return total"]
    merged = instant_merge(original, revised)
    assert merged.text == "def a():\n    total = add(x, y, z)\n    log(total)\n    return total\n"
    new = next(o for o in r.options if "is new" in o.says)
    assert revise(snippet, new).splitlines()[3] == "    total = add(x, y)"


ORIGINAL = """\
import os

TIMEOUT = 10
RETRIES = 3
VERBOSE = False


def connect(host):
    return os.getenv(host)
"""


def test_a_section_of_new_lines_is_closed_in_by_original_lines_for_each_reading():
    snippet = "# ... existing code ...\nTIMEOUT = 30\n# ... existing code ...\n"
    inp = read_input(ORIGINAL, snippet)
    options = settle(inp, inp.sections[0], 2)  # `TIMEOUT = 30` is like original line 3
    says = [o.says for o in options]
    assert [s.split(" if ")[1] for s in says] == ["it changes original line 3", "it is new after original line 3",
                                                  "it is new before original line 3"]
    changed = instant_merge(ORIGINAL, revise(snippet, options[0]))
    assert changed.text == ORIGINAL.replace("TIMEOUT = 10", "TIMEOUT = 30")
    after = instant_merge(ORIGINAL, revise(snippet, options[1]))
    assert after.text == ORIGINAL.replace("TIMEOUT = 10\n", "TIMEOUT = 10\nTIMEOUT = 30\n")


def test_a_refused_lone_line_offers_the_settling_context_through_instant_merge():
    snippet = "# ... existing code ...\nRETRIES = 5\n# ... existing code ...\n    return os.environ[host]\n"
    r = instant_merge(ORIGINAL, snippet)
    assert r.refusal.kind == "new-or-changed" and "may change original line 9" in r.refused_reason
    change = [o for o in r.refusal.options if "changes original line 9" in o.says]
    merged = instant_merge(ORIGINAL, revise(snippet, change[0]))
    assert merged.text == ORIGINAL.replace("RETRIES = 3", "RETRIES = 5").replace("os.getenv(host)", "os.environ[host]")


def test_a_section_is_pinned_where_the_merges_reading_put_it():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    snippet = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
    reading = original.replace("    return value\n\ndef handler_2", "    return value + 1\n\ndef handler_2")
    (pin,) = reading_pins(read_input(original, snippet), reading)
    revised = revise(snippet, pin)
    assert "def handler_1(request):" in revised and "def handler_2(request):" in revised
    assert instant_merge(original, revised).text == reading
    assert reading_pins(read_input(original, snippet), None) == ()


def test_a_reading_that_changes_nothing_pins_nothing():
    # a snippet line the file already has (`no-change`): the unchanged file is no reading to pin
    original = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    snippet = "# ... existing code ...\n    return 2\n# ... existing code ...\n"
    assert reading_pins(read_input(original, snippet), original) == ()


def test_context_below_a_section_replaces_its_blank_padding_with_the_originals_own_lines():
    from fastapply.merge.refuse.options import below

    original = "def a():\n    x = 1\n    \n    return x\n"  # line 3 is a blank line with spaces
    snippet = "# ... existing code ...\n    x = 2\n\n# ... existing code ...\n"
    inp = read_input(original, snippet)
    edits = below(inp, 1, 2, 3)  # original lines 3-4 below snippet line 2
    revised = revise(snippet, Option("x", edits))
    assert revised.splitlines() == ["# ... existing code ...", "    x = 2", "    ", "    return x", "# ... existing code ..."]
    assert below(read_input(original, "x = 2\n# ... existing code ...\n"), 0, 2, 3) == (
        Edit("insert", at=2, text="    \n    return x", original_line=3),)


def test_where_two_readings_differ_under_a_marker_the_option_shows_what_it_keeps():
    from fastapply.merge.refuse.readings import gap_options

    original = "def a():\n    x = 1\n    y = 2\n    return x\n"
    snippet = "def a():\n    x = 10\n\n# ... existing code ...\n\n    return x\n"
    keeps = original.replace("x = 1\n", "x = 10\n")  # the marker keeps `y = 2`
    drops = keeps.replace("    y = 2\n", "")  # the marker stands for nothing: `y = 2` deleted
    (option,) = gap_options(read_input(original, snippet), keeps, drops)
    revised = revise(snippet, option)
    assert revised == "def a():\n    x = 10\n    y = 2\n    return x\n"
    assert instant_merge(original, revised).text == keeps
    assert gap_options(read_input(original, snippet), keeps, keeps) == ()


def test_where_two_readings_differ_by_one_run_the_options_show_it_kept_or_deleted_there():
    from fastapply.merge.refuse.readings import difference_options

    original = "def a():\n    x = 1\n    y = 2\n    return x\n\n\ndef b():\n    pass\n"
    snippet = "def a():\n    x = 10\n    return x\n# ... existing code ...\n"
    keeps = original.replace("x = 1\n", "x = 10\n")
    drops = keeps.replace("    y = 2\n", "")  # shown next to each other, `x` and `return` say `y = 2` goes
    kept, gone = difference_options(read_input(original, snippet), keeps, drops)
    assert kept.says == "add the unchanged original line 3 between snippet lines 2 and 3 if it stays"
    assert revise(snippet, kept) == "def a():\n    x = 10\n    y = 2\n    return x\n# ... existing code ...\n"
    assert instant_merge(original, revise(snippet, kept)).text == keeps
    assert gone.says == "show the original line 3 as `-` line between snippet lines 2 and 3 if you delete it"
    assert revise(snippet, gone).splitlines()[2] == "-    y = 2"
    assert instant_merge(original, revise(snippet, gone)).text == drops
    # readings that differ otherwise (a changed line) get none
    assert difference_options(read_input(original, snippet), keeps, keeps.replace("y = 2", "y = 3")) == ()


def test_a_dropped_file_head_can_be_kept_with_a_marker_or_deleted_with_minus_lines():
    original = ('// Expose the helpers\nrequire.paths.unshift(__dirname + "/support");\n\n/**\n * Module dependencies.\n'
                ' */\n\nvar express = require("express");\n')
    snippet = "/**\n * Module dependencies.\n// ... existing code ...\n"
    r = instant_merge(original, snippet)
    assert r.refusal.kind == "would-delete-edge" and "first 2 line(s)" in r.refused_reason
    (minus,) = [o for o in r.refusal.options if o.edits[0].action == "deleted"]
    revised = revise(snippet, minus)
    assert revised.startswith('-// Expose the helpers\n-require.paths.unshift(__dirname + "/support");\n-\n/**')
    assert instant_merge(original, revised).text == original[original.index("/**"):]
    (keep,) = [o for o in r.refusal.options if o.edits[0].action == "marker"]
    assert instant_merge(original, revise(snippet, keep)).text == original


def test_every_section_of_new_lines_gets_the_context_that_settles_it():
    from fastapply.merge.refuse.new_lines import new_sections

    snippet = "# ... existing code ...\nTIMEOUT = 30\n# ... existing code ...\n    return os.environ[host]\n"
    inp = read_input(ORIGINAL, snippet)
    options = new_sections(inp)
    changes = [o for o in options if " if it changes original line" in o.says]
    assert [o.says.rsplit(" ", 1)[1] for o in changes] == ["3", "9"]
    both = Option("both", changes[0].edits + changes[1].edits)
    merged = instant_merge(ORIGINAL, revise(snippet, both))
    assert merged.text == ORIGINAL.replace("TIMEOUT = 10", "TIMEOUT = 30").replace("os.getenv(host)", "os.environ[host]")
    assert new_sections(inp, inp.sections[0]) == tuple(o for o in options if "snippet line 4" in o.says)


def test_weak_edges_pin_a_generic_section_edge_at_each_place_with_a_line_the_file_holds_once():
    from fastapply.merge.refuse.options import weak_edges

    original = ("function a() {\n  setup();\n}\n\nfunction b() {\n  other();\n}\n\n"
                "function c() {\n  last();\n}\n")
    snippet = "// ... existing code ...\n}\n\nfunction added() {\n  return 1;\n}\n"
    options = weak_edges(read_input(original, snippet, "javascript"))
    tops = [o for o in options if "above snippet line 2" in o.says]
    assert [o.edits[0].text.splitlines()[-1] for o in tops] == ["  setup();", "  other();", "  last();"]
    merged = instant_merge(original, revise(snippet, tops[2]), language="javascript")
    assert merged.text == original + "\nfunction added() {\n  return 1;\n}\n"
    # a section whose edge line pins a place (here `function b() {`) is not weak
    assert weak_edges(read_input(original, "// ... existing code ...\nfunction b() {\n  more();\n", "javascript")) == ()


def test_weak_edges_count_a_repeated_line_as_weak_as_a_generic_one():
    from fastapply.merge.refuse.options import weak_edges

    original = ("def first_handler():\n    prepare_the_request()\n    return respond()\n\n"
                "def second_handler():\n    check_the_session()\n    return respond()\n")
    snippet = "# ... existing code ...\n    return respond()\n\ndef third_handler():\n    return 3\n"
    options = weak_edges(read_input(original, snippet, "python"))
    # (each place's pin of one line the file holds once comes twice: first reaching one line further, pin_options)
    assert list(dict.fromkeys(o.edits[0].text.splitlines()[-1] for o in options)) == ["    prepare_the_request()",
                                                                                      "    check_the_session()"]
    for option in [o for o in options if o.edits[0].text.splitlines()[-1] == "    check_the_session()"]:
        merged = instant_merge(original, revise(snippet, option), language="python")
        assert merged.text == original + "\ndef third_handler():\n    return 3\n"


def test_a_place_whose_nearest_pinning_line_is_twelve_lines_away_is_still_pinned():
    """Two copies of one test block, ten lines each: the line the file holds once (the `describe`)
    is 12 lines above the change; a planner shows them all (MAX_CONTEXT 16: at 8 no option reached it)."""
    from fastapply.evaluation.retry import retry_example
    from fastapply.merge.instant import instant_merge

    body = "".join(f"    var {v} = {n};\n" for n, v in enumerate("abcdefghijt", 1))
    original = "".join(f"describe('{name}', function(){{\n  it('works', function(){{\n{body}    check(x);\n  }})\n}})\n\n"
                       for name in ("one", "two"))
    snippet = "// ... existing code ...\n    var t = 11;\n    check(x, true);\n  })\n// ... existing code ...\n"
    at = original.rindex("    check(x);\n")
    expected = original[:at] + "    check(x, true);\n" + original[at + len("    check(x);\n"):]
    assert instant_merge(original, snippet, language="javascript").refusal.kind == "ambiguous-place"
    row = retry_example({"original": original, "snippet": snippet, "expected": expected, "language": "javascript"})
    assert (row["first"], row["second"]) == ("refused", "right")


def test_the_dropped_tail_is_offered_as_minus_lines_at_the_snippets_end():
    from fastapply.merge.refuse.options import deleted_head

    original = ["a = 1", "b = 2", "", "def f(", "    x,", "):", "    return x", ""]
    snippet = ["# ... existing code ...", "b = 3"]
    inp = read_input("\n".join(original), "\n".join(snippet))
    tail = deleted_head(inp, 3, 7)
    assert "at the end" in tail.says
    assert revise("\n".join(snippet), tail).split("\n")[-4:] == ["-def f(", "-    x,", "-):", "-    return x"]
    head = deleted_head(inp, 0, 1)
    assert "at the start" in head.says and revise("\n".join(snippet), head).startswith("-a = 1\n")


def test_weak_edges_pin_a_generic_edge_where_only_its_first_line_is_the_originals():
    # the section's top run is `}` and `/**`: the `/**` opens a new method's comment, so the `}` may
    # stand where the file has no `/**` after it (the end of b), not only where it has (the end of a)
    from fastapply.merge.refuse.options import weak_edges

    original = ("class A {\n  int a() {\n    return computeFirstValue();\n  }\n\n  /**\n   * b doc.\n   */\n  int b() {\n"
                "    return computeSecondValue();\n  }\n\n  int old() {\n    return computeOldValue();\n  }\n}\n")
    snippet = ("// ... existing code ...\n  }\n\n  /**\n   * New doc.\n   */\n  int fresh() {\n    return computeFreshValue();\n  }\n"
               "// ... existing code ...\n")
    options = weak_edges(read_input(original, snippet, "java"))
    tops = [o for o in options if "above snippet line 2" in o.says]
    # (a pin of one line the file holds once comes twice: first reaching one line further, pin_options)
    assert list(dict.fromkeys(o.edits[0].text.splitlines()[-1] for o in tops)) == [
        "    return computeFirstValue();", "    return computeSecondValue();", "    return computeOldValue();"]
    # the new method now follows b (whether it replaces old() is the bottom edge's own doubt)
    for option in [o for o in tops if o.edits[0].text.splitlines()[-1] == "    return computeSecondValue();"]:
        merged = instant_merge(original, revise(snippet, option), language="java")
        assert "    return computeSecondValue();\n  }\n\n  /**\n   * New doc." in merged.text


def test_section_pins_pin_where_only_a_head_of_the_sections_original_lines_stands():
    # the section's lines are all original ones, but only `data = load()` stands in beta: the rest
    # (from alpha) is new there; its last line pins beta, so the head's places are offered
    from fastapply.merge.refuse.options import section_pins

    original = ("def alpha():\n    data = load()\n    if not data:\n        return None\n    return alpha_done(data)\n"
                "\n\ndef beta():\n    data = load()\n    return beta_done(data)\n")
    snippet = "# ... existing code ...\n    data = load()\n    if not data:\n        return None\n    return beta_done(data)\n"
    options = section_pins(read_input(original, snippet, "python"), 0)[1]
    assert [o.edits[0].text.splitlines()[-1] for o in options] == ["def alpha():", "def beta():"]
    merged = instant_merge(original, revise(snippet, options[1]), language="python")
    assert merged.text == original.replace("    data = load()\n    return beta_done",
                                           "    data = load()\n    if not data:\n        return None\n    return beta_done")


def test_weak_edges_past_the_limit_also_pin_where_the_line_beyond_the_edge_is_most_like_the_sections():
    # 20 places for a `  }` edge: past the first and last 8, the one whose next line is the line the
    # section changes (`return x + 10;`) is pinned too, and the retry then merges it right (ftune2 616)
    from fastapply.evaluation.retry import run_retry
    from fastapply.merge.refuse.options import weak_edges

    original = "".join(f"function f{n}(x) {{\n  if (x > {n}) {{\n    log(x);\n  }}\n  return x + {n};\n}}\n\n"
                       for n in range(20))
    snippet = "// ... existing code ...\n  }\n  return x + 10 + offset(x);\n}\n// ... existing code ...\n"
    expected = original.replace("  return x + 10;\n", "  return x + 10 + offset(x);\n")
    says = [o.says for o in weak_edges(read_input(original, snippet, "javascript"))]
    assert any("for the place at original line 74)" in s for s in says)  # f10's `  }`
    row = run_retry([{"id": "r", "original": original, "snippet": snippet, "expected": expected,
                      "language": "javascript"}])["rows"][0]
    assert (row["first"], row["second"]) == ("refused", "right")
