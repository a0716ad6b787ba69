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
    assert len(pins) == 3 and list(r.refusal.options[:3]) == pins
    for n, option in enumerate(pins):
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
