"""A refusal is data: kind, numbered lines, a fix and options that revise.py applies (refusal.py,
explain.py, revise.py), and what instant_merge returns with it."""

from __future__ import annotations

import pytest

from fastapply.merge.explain import explain, out_of_order, read_input
from fastapply.merge.instant import instant_merge
from fastapply.merge.refusal import KINDS, Edit, Option, Reason, Refusal, attached, prefixed
from fastapply.merge.revise import revise
from fastapply.merge.text.lines import is_generic

ORIGINAL = """\
def configure_logging(level):
    handler = make_handler()
    return handler


def load_settings(path):
    data = read_file(path)
    return data


def save_settings(path, data):
    write_file(path, data)
    return True
"""


def test_the_sentence_is_rendered_from_the_data_and_travels_as_text():
    r = Reason(Refusal("ambiguous-place", "`x` matches 2 places", "add a line"))
    assert r == "`x` matches 2 places; add a line" and isinstance(r, str)
    assert attached(r).kind == "ambiguous-place"
    assert attached(prefixed("section 1", r)).cause == "section 1: `x` matches 2 places"
    assert attached("plain words") is None
    with pytest.raises(ValueError):
        Refusal("made-up", "x", "y")


def test_revise_applies_each_edit_against_the_snippet_as_sent():
    snippet = "a\nb\nc\n"
    option = Option("several", (Edit("insert", at=2, text="x\ny", original_line=4), Edit("marker", at=4, text="# ..."),
                                 Edit("remove", start=3, end=3)))
    assert revise(snippet, option) == "a\nx\ny\nb\n# ...\n"
    assert revise(snippet, Option("move", (Edit("move", at=1, start=3, end=3),))) == "c\na\nb\n"
    with pytest.raises(ValueError):
        revise(snippet, Option("bad", (Edit("insert", at=9, text="z"),)))


def test_sections_out_of_file_order_are_named_with_the_move_that_fixes_them():
    snippet = ("# ... existing code ...\ndef save_settings(path, data):\n    write_file(path, data, atomic=True)\n"
               "# ... existing code ...\ndef load_settings(path):\n    data = read_file(path, strict=True)\n"
               "# ... existing code ...\n")
    refusal = out_of_order(read_input(ORIGINAL, snippet))
    assert refusal is not None and refusal.kind == "out-of-order"
    assert "out of file order" in refusal.sentence and refusal.options
    fixed = revise(snippet, refusal.options[0])
    assert fixed.index("def load_settings") < fixed.index("def save_settings")
    merged = instant_merge(ORIGINAL, fixed)
    assert merged.merged and "read_file(path, strict=True)" in merged.text and "atomic=True" in merged.text


def test_in_order_sections_are_not_called_out_of_order():
    snippet = ("# ... existing code ...\ndef load_settings(path):\n    data = read_file(path, strict=True)\n"
               "# ... existing code ...\ndef save_settings(path, data):\n    write_file(path, data, atomic=True)\n"
               "# ... existing code ...\n")
    assert out_of_order(read_input(ORIGINAL, snippet)) is None


def test_every_instant_refusal_carries_a_kind_a_fix_and_distinctive_lines():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    for snippet in ("    value = compute(request)\n    return value + 1\n",  # no markers, several places
                    "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n",
                    "", "\x00"):
        r = instant_merge(original, snippet)
        assert not r.merged and r.refusal is not None
        assert r.refusal.kind in KINDS and r.refusal.fix and r.refused_reason == r.refusal.sentence
        assert all(not is_generic(line.text) for line in r.refusal.original)


def test_an_ambiguous_place_offers_the_context_that_pins_each_place_and_each_merges_there():
    original = "".join(f"def handler_{n}(request):\n    value = compute(request)\n    return value\n\n" for n in range(3))
    snippet = "# ... existing code ...\n    value = compute(request)\n    return value + 1\n# ... existing code ...\n"
    r = instant_merge(original, snippet)
    assert r.refusal.kind == "ambiguous-place"
    assert len(r.refusal.options) == 3
    for n, option in enumerate(r.refusal.options):
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
