"""Code spans in refusal sentences (merge/text/spans.py): a quoted line holding a backtick is written
fenced, and the sentence readers get the whole line back."""

from __future__ import annotations

import re

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.sentences import SECTION, section_number, split_sentence
from fastapply.merge.text.spans import CUT, TICK, apart, code, cut, quote, readable, restored, unquoted
from tests.merge.refuse.api_file import API, API_SNIPPET, with_ticks


def test_a_line_without_backticks_is_quoted_between_single_ones():
    assert code("return a;") == "`return a;`"
    assert readable("the line `return a;` matches") == "the line `return a;` matches"


def test_a_line_holding_backticks_is_fenced_one_longer_than_its_longest_run():
    assert code("log(`hi ${x}`);") == "`` log(`hi ${x}`); ``"
    assert code("a ``b`` c") == "``` a ``b`` c ```"
    assert code("`") == "`` ` ``"


def test_a_reader_gets_a_fenced_line_back_whole_and_a_sentence_round_trips():
    sentence = f"section 2 (starting {code('log(`hi`);')}): {code('x = `y`')} matches 2 places; add {code('z')}"
    plain = readable(sentence)
    assert "``" not in plain and plain.count("`") == 6
    m = SECTION.match(plain)
    assert m and unquoted(m.group(2)) == "log(`hi`);" and TICK in m.group(2)
    assert [unquoted(q) for q in re.findall(r"`(.*?)`", plain)] == ["log(`hi`);", "x = `y`", "z"]
    assert restored(plain) == sentence
    assert section_number(sentence) == 1


def test_a_sentence_is_cut_at_its_last_semicolon_outside_a_fenced_span():
    sentence = f"the line {code('a; `b; c`')} is new; add {code('d;`e`')} above it"
    assert split_sentence(sentence) == (f"the line {code('a; `b; c`')} is new", f"add {code('d;`e`')} above it")


def test_a_refusal_quoting_a_line_with_backticks_fences_it_in_its_sentence_and_options():
    original, snippet = with_ticks(API), with_ticks(API_SNIPPET)
    r = instant_merge(original, snippet, language="typescript")
    assert not r.merged and r.refusal.kind == "new-or-changed"
    fenced = "`` /** Stop the `thing` and free its buffers. */ ``"
    assert fenced in r.refusal.sentence
    assert any(fenced in o.says and "if it replaces that line" in o.says for o in r.refusal.options)
    # no span is left open: each sentence reads back to whole single-backtick spans
    for text in [r.refusal.sentence] + [o.says for o in r.refusal.options]:
        assert readable(text).count("`") % 2 == 0


def test_apart_quotes_two_lines_that_share_their_cut_where_they_differ():
    old = "# only look at lines where the first non-white-space character is `-`"
    new = "# only look at lines where the first non-white-space character is `-`, or"
    assert old[:60] == new[:60]  # cut alike, a reader would see one line twice
    assert apart(new, old) == "…ace character is `-`, or" and apart(old, new) == "…ace character is `-`"
    longer = "x = f(" + "a, " * 30 + "b)"
    other = "x = f(" + "a, " * 30 + "c)"
    said = apart(longer, other)
    assert said.startswith(CUT) and said.endswith("b)") and said != apart(other, longer)


def test_apart_is_the_plain_cut_where_the_cuts_differ_or_the_lines_are_one():
    assert apart("  x = compute(a, b)", "x = compute(a, c)") == "x = compute(a, b)"
    long = "y = " + "a" * 80
    assert apart(long, long) == long[:60] + CUT


def test_a_long_line_is_quoted_cut_and_marked_a_short_one_whole():
    assert cut("    return a;  ") == "return a;" and quote("  return a;") == "`return a;`"
    long = "value = compute(" + ", ".join(f"arg{i}" for i in range(20)) + ")"
    assert cut(long) == long[:60] + CUT and cut(long, 40) == long[:40].rstrip() + CUT
    assert quote(long, 40) == code(long[:40].rstrip() + CUT)
    assert cut("x" * 60) == "x" * 60  # exactly the width: whole, unmarked
