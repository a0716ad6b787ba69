"""new-or-changed doubts (merge/refuse/doubt.py): the original line a refusal offers to show beside a
line that may be new or a change, for each reading."""

from __future__ import annotations

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.doubt import beside
from fastapply.merge.refuse.reading import read_input
from fastapply.merge.refuse.refusal import Edit
from fastapply.merge.refuse.revise import revise
from tests.merge.refuse.api_file import API, API_EXPECTED, API_SNIPPET


def test_a_line_shown_beside_a_doubt_that_pins_no_place_comes_with_lines_out_to_one_that_does():
    original = "describe('a', function(){\n  it('one', function(){\n    run(1);\n  })\n\n  it('two', function(){\n" \
               "    run(2);\n  })\n})\n"
    snippet = "// ... existing code ...\n  it('three', function(){\n    run(3);\n  })\n})\n"
    inp = read_input(original, snippet, "javascript")
    # `  })` (original line 4) is held twice: shown alone it pins nothing, so the lines up to
    # the nearest one the file holds once come with it
    opt = beside(inp, 1, 3, -1, "if it replaces that line")
    assert opt.edits == (Edit("insert", at=2, text="  it('one', function(){\n    run(1);\n  })", original_line=2),)
    assert "original lines 2-4" in opt.says
    # a line the file holds once is shown alone, as before
    opt = beside(inp, 1, 5, -1, "if it is new")
    assert opt.edits == (Edit("insert", at=2, text="  it('two', function(){", original_line=6),)

def test_the_line_past_a_replaced_line_comes_with_the_blank_lines_between_them():
    original = "function f() {\n  a();\n  b();\n\n  c();\n}\n"
    inp = read_input(original, "// ... existing code ...\n  a();\n  bb();\n// ... existing code ...\n", "javascript")
    # `bb()` replaces `b()` (line 3): the unchanged line past it is `c()`, after a blank line the file keeps
    opt = beside(inp, 2, 4, 1, "if it replaces that line", 3)
    assert opt.edits[0].text == "\n  c();" and opt.edits[0].original_line == 4
    assert "lines 4-5 (`c();`, with the blank line next to it)" in opt.says
    # without a run end the line comes alone
    assert beside(inp, 2, 4, 1, "if it replaces that line").edits[0].text == "  c();"


def test_the_replacing_reading_keeps_the_files_blank_line_before_the_line_it_shows():
    # `start(cb?)` replacing `start(): void;`: the unchanged line past it (the one-line comment) comes
    # with the blank line between, so the revised section is a run of the file the planner means
    r = instant_merge(API, API_SNIPPET, language="typescript")
    assert not r.merged and r.refusal.kind == "new-or-changed"
    option = next(o for o in r.refusal.options if "if it replaces that line" in o.says)
    assert option.says.startswith("add the unchanged original lines 6-7 (`/** Stop the thing and free its buffers. */`, "
                                  "with the blank line next to it) after snippet line 11")
    merged = instant_merge(API, revise(API_SNIPPET, option), language="typescript")
    kept = "\n\n    /** Stop the thing and free its buffers. */\n    stop(): void;\n}\n"
    assert merged.merged and merged.text == API_EXPECTED.replace("\n}\n\ninterface Other", kept + "\ninterface Other", 1)


def test_a_run_that_replaces_lines_up_to_one_its_edge_edits_is_offered_the_line_past_that_one():
    # the section's doubtful line may change the one-line comment; its run then ends with
    # `help(cb?)`, an edit of `help()`, so the unchanged line past the replaced run is the `}` after
    # `help()`, not `help()` itself (which the one-line reading offers)
    original = ("interface Command {\n    name(): string;\n\n    /** Output help for this command. */\n"
                "    outputHelp(): void;\n\n    /** Output help information and exit. */\n    help(): void;\n}\n\n"
                "declare const program: Command;\n")
    snippet = ("// ... existing code ...\n    outputHelp(): void;\n\n    /**\n     * Output help information and exit.\n"
               "     *\n     * @param cb Callback method\n     */\n    help(cb?: () => void): void;\n// ... existing code ...\n")
    expected = original.replace("    /** Output help information and exit. */\n    help(): void;\n",
                                "    /**\n     * Output help information and exit.\n     *\n     * @param cb Callback method\n"
                                "     */\n    help(cb?: () => void): void;\n")
    r = instant_merge(original, snippet, language="typescript")
    assert not r.merged and r.refusal.kind == "new-or-changed"
    option = next(o for o in r.refusal.options if "if it replaces original lines 7-8" in o.says)
    assert option.edits[0].text.startswith("}") and option.edits[0].original_line == 9
    again = instant_merge(original, revise(snippet, option), language="typescript")
    assert again.merged and again.text == expected
