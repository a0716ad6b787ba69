"""explain.py: a refusal sentence and the whole input into a Refusal (kind, cause, lines), with options
that revise.py applies and the instant merge then writes."""

from __future__ import annotations

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.refuse.refusal import attached
from fastapply.merge.refuse.revise import revise
from tests.merge.refuse.settings_file import SETTINGS

ORIGINAL = SETTINGS


def test_an_ambiguous_place_offers_the_context_that_pins_each_place_and_each_merges_there():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    snippet = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
    r = instant_merge(original, snippet)
    assert r.refusal.kind == "ambiguous-place"
    pins = [o for o in r.refusal.options if "for the place" in o.says]  # after them: unpinned.py's places at its depth
    # each place's pin, first reaching one line further where it adds a single line (pin_options)
    assert len(pins) == 5 and list(r.refusal.options[:5]) == pins
    for n, option in zip((0, 1, 1, 2, 2), pins):
        merged = instant_merge(original, revise(snippet, option))
        assert merged.merged
        changed = [k for k, (a, b) in enumerate(zip(original.splitlines(), merged.text.splitlines())) if a != b]
        assert changed == [4 * n + 2]


def test_explain_reads_a_sentence_no_site_converted_as_kind_form_with_its_words():
    r = explain("a = 1\n", "b = 2\n", "something nobody foresaw")
    assert r.kind == "form" and r.cause == "something nobody foresaw" and r.fix


def test_a_doubt_site_attaches_its_lines_and_explain_numbers_the_snippet_line():
    from fastapply.merge.align.doubts import doubt_note

    original = ["def a():", "    total = add(x, y)", "    return total"]
    note = doubt_note("    total = add(x, y, z)", original, 1, 1)
    site = attached(note)
    assert site.kind == "new-or-changed" and site.detail["at"] == 1 and site.detail["beyond"] == 2
    r = explain("\n".join(original) + "\n", "def a():\n    total = add(x, y, z)\n# ... existing code ...\n", note)
    assert r.kind == "new-or-changed" and r.snippet[0].number == 2 and r.original[0].number == 2
    says = [o.says for o in r.options]
    assert any("line 2" in s and "if it is new" in s for s in says)
    assert any("line 3" in s and "replaces" in s for s in says)


def test_an_ambiguous_bracket_line_is_named_by_a_line_of_its_own_section_never_a_marker():
    block = "  it('works', function(done){\n    call(1);\n    done();\n    });\n  })\n})\n"
    original = "describe('a', function(){\n" + block + "\ndescribe('b', function(){\n" + block
    snippet = ("// ... existing code ...\n    call(1);\n    done();\n    });\n  })\n})\n// ... existing code ...\n")
    r = explain(original, snippet, "section 1 (starting `call(1);`): the line `})` after `});` matches 2 places in "
                "the original (lines 6, 14) equally well")
    assert r.kind == "ambiguous-place"
    assert [line.text for line in r.snippet] == ["call(1);"]



RESPONSE = """package retrofit2;

import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.ResponseBody;

/** An HTTP response. */
public final class Response<T> {
  public static <T> Response<T> success(T body) {
    return success(body, new okhttp3.Response.Builder() //
        .code(200)
        .protocol(Protocol.HTTP_1_1)
        .request(new okhttp3.Request.Builder().url("http://localhost").build())
        .build());
  }

  public static <T> Response<T> error(int code, ResponseBody body) {
    return error(body, new okhttp3.Response.Builder() //
        .code(code)
        .protocol(Protocol.HTTP_1_1)
        .request(new okhttp3.Request.Builder().url("http://localhost").build())
        .build());
  }
}
"""


def test_a_new_line_placed_by_lines_it_resembles_is_closed_in_on_both_sides_before_a_one_sided_pin():
    # `import okhttp3.Request;` is in no original line; it resembles the three imports. A pin above
    # alone leaves it new after that line or a change of the next one (the merge read the change,
    # dropping `import okhttp3.ResponseBody;`: a wrong file after the retry); the options that close
    # it in on both sides, one per reading, come first
    from fastapply.evaluation.retry import choose

    snippet = ("// ... existing code ...\nimport okhttp3.Request;\n// ... existing code ...\n"
               '        .request(new Request.Builder().url("http://localhost").build())\n// ... existing code ...\n'
               '        .request(new Request.Builder().url("http://localhost").build())\n// ... existing code ...\n')
    expected = RESPONSE.replace("import okhttp3.Protocol;\n", "import okhttp3.Protocol;\nimport okhttp3.Request;\n")
    expected = expected.replace("new okhttp3.Request.", "new Request.")
    refusal = instant_merge(RESPONSE, snippet, language="java").refusal
    assert refusal.kind == "ambiguous-place"
    assert refusal.options[0].says.endswith("if it changes original line 3") and len(refusal.options[0].edits) == 2
    option = choose(refusal, snippet, expected, RESPONSE)
    # (the later sections of new lines are pinned in the same revision: explain._later_places)
    assert option.says.split("; ")[0].endswith("if it is new after original line 4")
    merged = instant_merge(RESPONSE, revise(snippet, option), language="java")
    assert merged.merged and merged.text == expected


def test_a_closer_the_snippet_adds_round_original_code_is_offered_as_new_where_the_pins_read_it_as_the_originals():
    # the snippet wraps an original line in a new `if (...) { ... }`; its `}` after that line fits the
    # original's `}` after the same line elsewhere, and every pin reads it as one of those: the
    # lines after the wrapped line's own place, put below the new `}`, read it as new
    from fastapply.evaluation.retry import choose

    original = """<?php
    class Handler
    {
        public function first($record)
        {
            if ($record) {
                $this->log($record);
            }
        }

        public function second($record)
        {
            foreach ($record as $r) {
                $this->log($r);
            }
        }

        public function send($record)
        {
            $header = $this->createHeader($record);
            $this->sendHeader(key($header), current($header));
        }

        /**
         * Whether headers were sent.
         */
        public function sent()
        {
            return true;
        }
    }
    """
    snippet = """// ... existing code ...
            if (trim(current($header)) !== '') {
                $this->sendHeader(key($header), current($header));
            }
    // ... existing code ...
    """
    expected = original.replace("""        $this->sendHeader(key($header), current($header));
    """, """        if (trim(current($header)) !== '') {
                $this->sendHeader(key($header), current($header));
            }
    """)
    refusal = instant_merge(original, snippet, language="php").refusal
    assert refusal.kind == "ambiguous-place"
    new = [o for o in refusal.options if "if `}` (snippet line 4) is new after original line 21" in o.says]  # numbered
    assert len(new) == 1 and new[0].says.startswith("add the unchanged original lines 22-25 below snippet line 4")
    option = choose(refusal, snippet, expected, original)
    merged = instant_merge(original, revise(snippet, option), language="php")
    assert merged.merged and merged.text == expected


def test_a_refusal_never_points_at_a_lone_bracket_and_names_the_line_the_sentence_names():
    from fastapply.merge.text.lines import is_generic

    original = ("class A\n{\n    void one()\n    {\n        a();\n    }\n\n    /**\n     * Two.\n     */\n    void two()\n"
                "    {\n        b();\n    }\n\n    /**\n     * Three.\n     */\n    void three()\n    {\n        c();\n    }\n}\n")
    snippet = "// ... existing code ...\n    {\n        b2();\n    }\n\n    /**\n// ... existing code ...\n"
    # the section is a lone `{`: the snippet line it points at is no bracket (none, rather than `{`)
    lone = "// ... existing code ...\n    {\n        // ... existing code ...\n        b2();\n    }\n// ... existing code ...\n"
    refusal = explain(original, lone, "section 1 (starting `{`) matches 3 places in the original (lines 4, 12, 20) "
                      "equally well", language="java")
    assert refusal.kind == "ambiguous-place" and refusal.original
    assert not any(is_generic(x.text) for x in refusal.original + refusal.snippet)
    # "the line `/**` matches": the pins are for that line (below the section), not for its first line
    refusal = explain(original, snippet, "section 1 (starting `{`): the line `/**` matches 2 places in the original "
                      "(lines 8, 16) equally well", language="java")
    assert refusal.options and all("below snippet line 6" in o.says for o in refusal.options[:2])


def test_each_sections_pins_are_read_once_per_refusal(monkeypatch):
    # explain._with_pins offers the pins at the places a section's edge lines fit, then (after the
    # readings' pins) those where only a shorter part stands: one section_pins call gives both
    import fastapply.merge.refuse.explain as explain_module

    calls = []
    real = explain_module.section_pins

    def counted(inp, n, *args, **kwargs):
        calls.append(n)
        return real(inp, n, *args, **kwargs)

    monkeypatch.setattr(explain_module, "section_pins", counted)
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    snippet = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
    r = instant_merge(original, snippet)
    assert r.refusal.kind == "ambiguous-place" and len([o for o in r.refusal.options if "for the place" in o.says]) == 5
    assert calls == [0]


def test_sentences_of_three_late_sites_have_kinds_of_their_own():
    # markers and nothing between them: nothing to place, and the fix says what to send
    r = instant_merge("a = 1\nb = 2\n", "# ... existing code ...\n\n# ... existing code ...\n").refusal
    assert r.kind == "no-change" and "between the markers" in r.fix
    assert explain("a = 1\n", "x\n", "section 2 (starting `x`): `y` matches original line 9, which would delete "
                   "original lines 4-8 that the snippet does not show").kind == "unshown-deletion"
    assert explain("a = 1\n", "x\n", "line 3 (`return 1`) is new and the original line after it (`f()`, kept as "
                   "line 4) could never run").kind == "new-or-changed"


def test_a_snippet_that_ends_inside_a_definition_would_delete_its_rest_and_is_offered_the_end_marker():
    original = "def m(self, x):\n    y = x + 1\n    return y\n\n\ndef n():\n    return 3\n"
    snippet = "def m(self, x):\n    y = x + 2\n"
    r = explain(original, snippet, "the snippet ends inside `def m(self, x):`, which the original goes on after "
                "(`return y`): add a marker after it, or show the definition whole", language="python")
    assert r.kind == "would-delete-edge"  # was "form": no kind of its own
    ends = [o for o in r.options if [(e.action, e.at) for e in o.edits] == [("marker", 3)]]
    assert ends and revise(snippet, ends[0]).endswith("    y = x + 2\n    # ... existing code ...\n")


def test_every_section_is_offered_its_pins_where_the_scored_alignment_reads_it():
    """A rewritten body whose only edge is a `}` three functions end with: the merge's own options
    pin one edge or another, each already offered apart; the scored alignment reads the whole
    section as the body of `handle_request` (its old lines deleted), and its pins on both sides, as
    one option, are what a planner who meant that adds: the retry merges it right."""
    from fastapply.evaluation.retry import retry_example
    from fastapply.merge.instant import instant_merge

    original = ("fn read_config(path: &Path) -> Config {\n    a();\n}\n\n"
                "fn handle_request(req: &Request) -> Response {\n    let Ok(x) = run() else { return };\n    use_it(x);\n}\n\n"
                "fn write_report(out: &mut Report) {\n    c();\n}\n")
    new = "    let x = run();\n    match x {\n        Ok(x) => use_it(x),\n        Err(e) => warn(e),\n    }\n"
    snippet = "// ... existing code ...\n" + new + "}\n// ... existing code ...\n"
    expected = original.replace("    let Ok(x) = run() else { return };\n    use_it(x);\n", new)
    refusal = instant_merge(original, snippet, language="rust").refusal
    assert refusal is not None and refusal.kind == "ambiguous-place"
    assert any(o.says.startswith("add the unchanged original line 5 above snippet line 2 and the unchanged original "
                                 "lines 9-10 below snippet line 7") for o in refusal.options)
    row = retry_example({"original": original, "snippet": snippet, "expected": expected, "language": "rust"})
    assert row["second"] == "right"
