"""`fastapply eval --retry`: the options that agree with the planner's intent, the second try."""

from __future__ import annotations

import json

from fastapply import cli
from fastapply.evaluation.retry import agrees, choose, run_retry
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.ranking import MAX_SHOWN
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.revise import revise

ORIGINAL = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(2))
SNIPPET = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
EXPECTED = ORIGINAL.replace("return value\n\ndef handler_1", "return value + 1\n\ndef handler_1")


def test_only_the_option_that_matches_the_intent_is_chosen():
    refusal = instant_merge(ORIGINAL, SNIPPET).refusal
    assert [agrees(o, SNIPPET, EXPECTED) for o in refusal.options[:2]] == [True, False]
    assert choose(refusal, SNIPPET, EXPECTED) == refusal.options[0]


def test_a_marker_agrees_only_where_the_expected_file_has_unshown_lines():
    snippet = "b = 2\nc = 3\n"
    lead = Option("lead", (Edit("marker", at=1, text="# ..."),))
    assert agrees(lead, snippet, "a = 1\nb = 2\nc = 3\n")
    assert not agrees(lead, snippet, "b = 2\nc = 3\n")
    between = Option("between", (Edit("marker", at=2, text="# ..."),))
    assert not agrees(between, snippet, "b = 2\nc = 3\n") and agrees(between, snippet, "b = 2\nx\nc = 3\n")


def test_run_retry_counts_first_and_second_tries():
    rows = [{"id": "r", "original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "python"}]
    done = run_retry(rows)
    assert done["rows"][0]["first"] == "refused" and done["rows"][0]["second"] == "right"
    assert done["summary"]["retry"]["right"] == 1 and done["summary"]["retry_wrong"] == 0


def test_eval_retry_on_the_command_line(tmp_path, capsys):
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "r", "original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED}) + "\n")
    assert cli.main(["eval", "--retry", "--strategy", "instant", "--data", str(data), "--json", str(tmp_path / "o.json")]) == 0
    out = capsys.readouterr().out
    assert "first try:  0 right / 0 wrong / 1 refused" in out and "second try: 1 right / 0 wrong / 0 refused" in out
    assert json.loads((tmp_path / "o.json").read_text())["summary"]["retry"]["right"] == 1
    assert cli.main(["eval", "--retry", "--strategy", "auto", "--data", str(data)]) != 0


def test_a_leading_marker_alone_does_not_agree_when_the_file_goes_on_below_the_snippet():
    snippet = "b = 2\nc = 3\n"
    lead = Option("lead", (Edit("marker", at=1, text="# ..."),))
    assert not agrees(lead, snippet, "a = 1\nb = 2\nc = 3\nd = 4\n")
    both = Option("both", (Edit("marker", at=1, text="# ..."), Edit("marker", at=3, text="# ...")))
    assert agrees(both, snippet, "a = 1\nb = 2\nc = 3\nd = 4\n")


def test_removing_a_marker_joins_two_sections_and_the_joined_run_must_be_the_intents():
    snippet = "a = 1\n# ...\nz = 9\n"
    join = Option("show what stands there", (Edit("remove", start=2, end=2), Edit("insert", at=2, text="    ")))
    assert agrees(join, snippet, "a = 1\n    \nz = 9\n")
    assert not agrees(join, snippet, "a = 1\nb = 2\nz = 9\n")  # the marker kept `b = 2`: joining drops it


def test_lines_shown_deleted_agree_only_when_the_intent_has_them_gone():
    snippet = "b = 2\n# ...\n"
    minus = Option("delete the head", (Edit("deleted", at=1, text="a = 1"),))
    assert agrees(minus, snippet, "b = 2\nc = 3\n")
    assert not agrees(minus, snippet, "a = 1\nb = 2\nc = 3\n")


def test_an_option_that_makes_a_touched_section_overlap_a_kept_one_does_not_agree():
    snippet = "# ...\nb = 2\n# ...\nc = 3\nd = 4\n"
    expected = "a = 1\nb = 2\nc = 3\nd = 4\n"
    # adding `c = 3` below section 1 runs it into section 2, which shows `c = 3` itself
    overlap = Option("add c below b", (Edit("insert", at=3, text="c = 3"),))
    assert not agrees(overlap, snippet, expected)
    assert agrees(Option("add a above b", (Edit("insert", at=2, text="a = 1"),)), snippet, expected)


def test_edge_markers_are_chosen_first_and_stand_outside_the_lines_added_at_the_same_edge():
    from fastapply.merge.refuse.refusal import Refusal

    snippet = "b = 2\nc = 3\n"
    expected = "z = 0\na = 1\nb = 2\nc = 3\nd = 4\ny = 5\n"
    above = Option("add a above", (Edit("insert", at=1, text="a = 1"),))
    below = Option("add d below", (Edit("insert", at=3, text="d = 4"),))
    markers = Option("markers", (Edit("marker", at=1, text="# ..."), Edit("marker", at=3, text="# ...")))
    chosen = choose(Refusal("form", "c", "f", options=(above, below, markers)), snippet, expected)
    assert revise(snippet, chosen) == "# ...\na = 1\nb = 2\nc = 3\nd = 4\n# ...\n"


def test_a_marker_that_would_keep_code_the_intent_deletes_does_not_agree():
    original = "a = 1\nb = 2\nhelper = 3\ntests = 4\n"
    snippet = "a = 10\nb = 2\n"
    trail = Option("end with a marker", (Edit("marker", at=3, text="# ..."),))
    # the intent deleted `helper = 3` after the snippet's last line: the marker would keep it
    assert agrees(trail, snippet, "a = 10\nb = 2\ntests = 4\n")  # the intent alone cannot tell
    assert not agrees(trail, snippet, "a = 10\nb = 2\ntests = 4\n", original)
    assert agrees(trail, snippet, "a = 10\nb = 2\nhelper = 3\ntests = 4\n", original)


def test_an_option_with_the_edge_markers_is_chosen_before_one_that_only_adds_lines_at_the_same_place():
    from fastapply.merge.refuse.refusal import Refusal

    snippet = "b = 2\nc = 3\n"
    expected = "z = 0\na = 1\nb = 2\nc = 3\nd = 4\n"
    pin = Option("add a above", (Edit("insert", at=1, text="a = 1"),))
    both = Option("markers and a above", (Edit("marker", at=1, text="# ..."), Edit("insert", at=1, text="a = 1"),
                                          Edit("marker", at=3, text="# ...")))
    chosen = choose(Refusal("form", "c", "f", options=(pin, both)), snippet, expected)
    assert chosen == both and revise(snippet, chosen) == "# ...\na = 1\nb = 2\nc = 3\n# ...\n"


def test_original_lines_added_next_to_a_section_must_stand_as_the_intent_spaces_them():
    snippet = "# ...\nnew_line = 1\n# ...\n"
    above = Option("add a above", (Edit("insert", at=2, text="a = 1"),))
    assert agrees(above, snippet, "z = 0\na = 1\nnew_line = 1\nb = 2\n")
    # the same lines, but the intent has a blank line between them: the merge would not write that
    assert not agrees(above, snippet, "z = 0\na = 1\n\nnew_line = 1\nb = 2\n")
    spaced = Option("add a and a blank above", (Edit("insert", at=2, text="a = 1\n"),))
    assert agrees(spaced, snippet, "z = 0\na = 1\n\nnew_line = 1\nb = 2\n")


def test_a_marker_must_keep_original_lines_as_they_are_for_an_option_to_agree():
    # the intent deletes `d = 4` under the snippet's marker: no revision that keeps the marker is right
    original = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\n"
    snippet = "b = 20\n# ... existing code ...\nf = 6\n"
    above = Option("add line 1 above", (Edit("insert", at=1, text="a = 1", original_line=1),))
    assert agrees(above, snippet, original.replace("b = 2\n", "b = 20\n"), original)
    deletes = original.replace("b = 2\n", "b = 20\n").replace("d = 4\n", "")
    assert not agrees(above, snippet, deletes, original)
    assert agrees(above, snippet, deletes)  # without the original, the marker's lines are not known


WEAK_ORIGINAL = ("function a() {\n  setup();\n  var app = make();\n  run(app);\n}\n\n"
                 "function b() {\n  other();\n  var app = make();\n  run(app);\n}\n\n"
                 "function c() {\n  last();\n}\n\nmodule.exports = a;\n")
WEAK_SNIPPET = ("// ... existing code ...\n  var app = make();\n  app.use(x);\n  run(app);\n// ... existing code ...\n"
                "}\n\nfunction added() {\n  return 1;\n}\n// ... existing code ...\n")


def test_a_section_pinned_only_by_a_generic_line_is_pinned_in_the_same_retry():
    # the refusal is about section 1; section 2 starts with a bare `}`, which the merge would put
    # after the first function that fits: the refusal also offers the lines that pin that `}`
    expected = WEAK_ORIGINAL.replace("  other();\n  var app = make();\n", "  other();\n  var app = make();\n  app.use(x);\n")
    expected = expected.replace("  last();\n}\n", "  last();\n}\n\nfunction added() {\n  return 1;\n}\n")
    row = {"id": "w", "original": WEAK_ORIGINAL, "snippet": WEAK_SNIPPET, "expected": expected, "language": "javascript"}
    done = run_retry([row])["rows"][0]
    assert done["first"] == "refused" and done["second"] == "right"
    assert "for the place at original line 15" in done["option"]


# the intent adds a block that ends in the same `end`s as the original lines right above its place
_O = "start_of_file_here()\nend\nend\nfinal_unique_line()\n"
_X = "start_of_file_here()\nend\nend\nnew_block_here()\nend\nend\nfinal_unique_line()\n"
_S = "# ... existing code ...\nnew_block_here()\nend\nend\n# ... existing code ...\n"
_BOTTOM = Option("add the unchanged original line 4 below snippet line 4 (for the place at original line 3)",
                 (Edit("insert", at=5, text="final_unique_line()", original_line=4),))
_BOTH = Option("add the unchanged original lines 1-3 above snippet line 2 and 4 below snippet line 4",
               (Edit("insert", at=2, text="start_of_file_here()\nend\nend", original_line=1),
                Edit("insert", at=5, text="final_unique_line()", original_line=4)))


def test_a_pin_that_leaves_the_intents_new_lines_to_read_as_the_originals_does_not_agree():
    # the bottom pin alone reads the snippet's `end`s as original lines 2-3 (the block is then
    # `new_block_here()` alone, before them): the intent adds them, so the revision means another intent
    assert agrees(_BOTTOM, _S, _X, _O, reads=False)
    assert not agrees(_BOTTOM, _S, _X, _O)
    # with the lines above pinned too, the `end`s cannot be the original's: it reads as meant
    assert agrees(_BOTH, _S, _X, _O)


def test_a_misread_option_is_left_out_and_the_others_chosen_again():
    refusal = Refusal("ambiguous-place", "c", "f", options=(_BOTTOM, _BOTH))
    # both agree line by line and edit the same snippet line: the first alone would be chosen
    assert choose(refusal, _S, _X, _O) == _BOTH
    # where the whole reads as meant, the options are chosen as before
    assert choose(Refusal("ambiguous-place", "c", "f", options=(_BOTH,)), _S, _X, _O) == _BOTH


class _Refused:
    """A MergeResult-shaped refusal, for a fake merge."""

    merged = False
    text = None

    def __init__(self, refusal):
        self.refusal = refusal


class _Written:
    """A MergeResult-shaped written file, for a fake merge."""

    merged = True
    refusal = None

    def __init__(self, text):
        self.text = text


_PIN = Option("add the unchanged line above", (Edit("insert", at=2, text="def handler_0(request):"),))


def test_each_refusal_kind_is_tabled_by_what_its_retry_came_to(capsys):
    from fastapply.evaluation.retry import format_summary

    again = Refusal("ambiguous-place", "still two places", "pin it", options=(_PIN,))
    rows = [{"id": "again", "original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED},
            {"id": "bare", "original": ORIGINAL, "snippet": "x\n", "expected": EXPECTED}]
    merge = lambda example, snippet: _Refused(again if example["id"] == "again" else Refusal("form", "bad", "fix it"))
    done = run_retry(rows, merge)
    assert [r["why"] for r in done["rows"]] == ["refused again", "no option offered"]
    assert done["rows"][0]["second_kind"] == "ambiguous-place" and done["rows"][0]["same_sentence"]
    table = done["summary"]["by_kind"]
    assert table["ambiguous-place"]["refused again"] == 1 and table["ambiguous-place"]["same sentence"] == 1
    assert table["form"]["no option offered"] == 1
    text = format_summary(done["summary"])
    assert "  ambiguous-place    0 / 0 / 1 / 0 / 0; 1" in text and "  form               0 / 0 / 0 / 0 / 1; 0" in text
    real = run_retry([{"id": "r", "original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "python"}])
    assert real["rows"][0]["why"] == "right" and real["summary"]["by_kind"]["ambiguous-place"]["right"] == 1


def test_a_diff_syntax_snippet_is_read_as_the_merge_reads_it():
    # `+` lines are new lines, `@@` a marker (snippet/sections.undiff_each): the planner's pin for the
    # second handler agrees with its intent, the first handler's does not (ftune 108, gen11 325:
    # every diff-in-lazy refusal was "no option agrees")
    snippet = "@@ -0,0 +0,0 @@\n    value = compute(request)\n+    log(value)\n    return value\n@@ -0,0 +0,0 @@\n"
    expected = ORIGINAL[: ORIGINAL.index("def handler_1")] + "def handler_1(request):\n    value = compute(request)\n" \
        "    log(value)\n    return value\n\n"
    refusal = instant_merge(ORIGINAL, snippet, language="python").refusal
    pins = {o.edits[0].text: agrees(o, snippet, expected, ORIGINAL) for o in refusal.options if len(o.edits) == 1}
    assert pins["def handler_1(request):"] and not pins["def handler_0(request):"]
    row = run_retry([{"id": "r", "original": ORIGINAL, "snippet": snippet, "expected": expected, "language": "python"}])
    assert row["rows"][0]["first"] == "refused" and row["rows"][0]["second"] == "right"


def test_an_ambiguous_section_refusal_also_offers_the_places_of_a_later_section_of_new_lines():
    # the merge stops at section 1; the revision that pins it must place section 2 (new lines with no
    # context) too, or the second try stops there (ftune 417, ftune2 438, gen23 564)
    original = ORIGINAL + "def main():\n    setup()\n    run()\n"
    snippet = ("# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
               "    log_started(level)\n# ... existing code ...\n")
    expected = original.replace("return value\n\ndef handler_1", "return value + 1\n\ndef handler_1").replace(
        "    setup()\n", "    setup()\n    log_started(level)\n")
    refusal = instant_merge(original, snippet, language="python").refusal
    assert refusal.kind == "ambiguous-place"
    assert any(e.at == 5 for o in refusal.options for e in o.edits)  # pins round snippet line 5
    row = run_retry([{"id": "r", "original": original, "snippet": snippet, "expected": expected,
                      "language": "python"}])["rows"][0]
    assert (row["first"], row["second"]) == ("refused", "right")


def test_no_option_agrees_where_the_intent_deletes_more_lines_at_a_marker_than_the_section_shows():
    # the intent changes `calls = ...` and deletes the blank line above it; the snippet shows the
    # changed line right under a marker, which keeps that blank line: the pins for the other section
    # agreed and the retry wrote a wrong file (gen11 18)
    original = ('class Auth:\n    def handle_401(self, r):\n        """Takes the response and retries, if needed."""\n\n'
                '        calls = r.request.hooks.count(self.handle_401)\n        s_auth = r.headers.get("auth", "")\n'
                '        if calls < 2:\n            r.content\n            r.raw.release_conn()\n'
                '            r.request.headers["Authorization"] = self.build_header(r.request)\n'
                '            _r = r.connection.send(r.request)\n            return _r\n        return r\n')
    snippet = ("# ... existing code ...\n        calls = getattr(r.request, 'calls', 1)\n# ... existing code ...\n"
               "            r.request.calls = calls + 1\n# ... existing code ...\n")
    changed = original.replace("(r.request)\n            _r", "(r.request)\n            r.request.calls = calls + 1\n            _r")
    changed = changed.replace("        calls = r.request.hooks.count(self.handle_401)\n", "        calls = getattr(r.request, 'calls', 1)\n")
    expected = changed.replace('needed."""\n\n', 'needed."""\n')
    row = run_retry([{"id": "r", "original": original, "snippet": snippet, "expected": expected,
                      "language": "python"}])["rows"][0]
    assert (row["first"], row["why"]) == ("refused", "no option agrees")
    # with the blank line kept, the same pins agree and the retry is right
    row = run_retry([{"id": "r", "original": original, "snippet": snippet, "expected": changed,
                      "language": "python"}])["rows"][0]
    assert (row["first"], row["second"]) == ("refused", "right")


def test_markers_at_both_edges_are_chosen_together_where_neither_agrees_alone():
    # the file goes on above and below the snippet: a marker at one edge alone leaves the other
    # edge claiming the file's start (end), so neither option agrees on its own
    original = "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    snippet = "def b():\n    return 20\n"
    expected = original.replace("return 2\n", "return 20\n")
    lead = Option("add a marker line at the start of the snippet", (Edit("marker", at=1, text="# ... existing code ..."),))
    trail = Option("add a marker line at the end of the snippet", (Edit("marker", at=3, text="# ... existing code ..."),))
    refusal = Refusal("would-delete-edge", "the snippet stops without a marker", "add markers", options=(lead, trail))
    chosen = choose(refusal, snippet, expected, original)
    assert chosen is not None and [e.at for e in chosen.edits] == [1, 3]
    assert revise(snippet, chosen) == "# ... existing code ...\ndef b():\n    return 20\n# ... existing code ...\n"


def test_the_second_try_is_also_counted_as_an_agent_sees_the_options():
    # twelve equal handlers: the place the intent means is the last, beyond the options an MCP answer
    # spells out; a program reading every option merges it right, an agent reading the shown ones cannot
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(12))
    expected = original[: original.rindex("return value")] + "return value + 1\n\n"
    rows = [{"id": "r", "original": original, "snippet": SNIPPET, "expected": expected, "language": "python"}]
    done = run_retry(rows)
    row = done["rows"][0]
    assert len(instant_merge(original, SNIPPET).refusal.options) > MAX_SHOWN
    assert (row["first"], row["second"], row["second_shown"]) == ("refused", "right", "refused")
    assert done["summary"]["retry_shown"] == {"right": 0, "wrong": 0, "refused": 1}
    assert done["summary"]["retry_right_share"] == 1.0 and done["summary"]["retry_shown_right_share"] == 0.0


_HEADER = ("const commander = require('../');\n\n// the default command handler is the old one and keeps old code working\n//\n"
           "// The event 'command:*' is also listened for directly for unknown commands\n"
           "// due to an example in the README, although this is not robust (e.g. git-style commands).\n//\n"
           "// Historical: the event 'command:*' used to be shared by the action handler.\n\ndescribe('x', () => {\n});\n")
_SHORTENED = ("// ... existing code ...\n// The event 'command:*' is also listened for directly for unknown commands\n"
              "// due to an example in the README.\n// ... existing code ...\n")


def test_a_reading_pin_is_offered_whole_though_a_plain_pin_has_one_of_its_edits():
    # two readings: the shortened line replaces the long one, or is new above it. The reading that
    # replaces it is pinned by the lines above (shared with a plain pin) and the lines below it
    expected = _HEADER.replace(", although this is not robust (e.g. git-style commands).", ".")
    refusal = instant_merge(_HEADER, _SHORTENED, language="javascript").refusal
    above = "add the unchanged original lines 3-4 above snippet line 2"
    whole = f"{above} and the unchanged original lines 7-8 below snippet line 3"
    assert refusal.kind == "ambiguous-place" and refusal.options[0].says.startswith(above + " (")
    option = next(o for o in refusal.options if o.says.startswith(whole))
    assert agrees(option, _SHORTENED, expected, _HEADER)
    assert instant_merge(_HEADER, revise(_SHORTENED, option), language="javascript").text == expected


def test_wrong_files_of_both_tries_are_counted_by_shape():
    from fastapply.evaluation.retry import format_summary

    refused = Refusal("ambiguous-place", "two places", "pin it", options=(_PIN,))
    # the change made at handler_1 instead of handler_0: the same lines, the edit at the twin
    head, line, tail = ORIGINAL.rpartition("\n    return value\n")
    twin = head + "\n    return value + 1\n" + tail

    def merge(example, snippet):
        if example["id"] == "first":
            return _Written(ORIGINAL)  # the change not made: the snippet's new line missing
        return _Refused(refused) if snippet == example["snippet"] else _Written(twin)

    rows = [{"id": k, "original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED} for k in ("first", "retry")]
    done = run_retry(rows, merge)
    first, retry = done["rows"]
    assert first["first"] == "wrong" and first["first_shape"] == "new-lines"
    assert retry["second"] == "wrong" and retry["second_shape"] == "order"
    summary = done["summary"]
    assert summary["first_wrong_shapes"] == {"new-lines": 1} and summary["retry_wrong_shapes"] == {"order": 1}
    assert "first try new-lines 1; made by the retry order 1" in format_summary(summary)
