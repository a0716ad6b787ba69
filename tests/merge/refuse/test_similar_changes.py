"""late_options.similar_changed and as_changes: a section whose line stands unchanged elsewhere in the
file but is meant as a change of a similar line (`res.render('user.jade');` for one of the
`res.render('user.jade', {});`) is offered the lines that close it in as that change, at each copy
of the similar line (no-change) or each place the sentence lists (ambiguous-place)."""

from __future__ import annotations

from fastapply.evaluation.retry import retry_example
from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.explain import explain
from fastapply.merge.text.spans import CUT, cut

ORIGINAL = """\
describe('res.render', function(){
  it('should render a view', function(done){
    app.use(function(req, res){
      res.render('user.jade');
    });
  })

  it('should expose app.locals', function(done){
    app.use(function(req, res){
      res.render('user.jade', {});
    });
    request(app).get('/app-locals').expect('<p>tobi</p>', done);
  })

  it('should expose res.locals', function(done){
    app.use(function(req, res){
      res.locals.user = { name: 'tobi' };
      res.render('user.jade', {});
    });
    request(app).get('/res-locals').expect('<p>tobi</p>', done);
  })
})
"""
SNIPPET = "// ... existing code ...\n      res.render('user.jade');\n// ... existing code ...\n"
EXPECTED = ORIGINAL.replace("      res.locals.user = { name: 'tobi' };\n      res.render('user.jade', {});", "      res.locals.user = { name: 'tobi' };\n      res.render('user.jade');")


def test_a_no_change_refusal_naming_a_similar_line_offers_its_change_at_each_copy():
    refusal = instant_merge(ORIGINAL, SNIPPET, language="javascript").refusal
    assert refusal.kind == "no-change" and "which it may mean to change" in refusal.sentence
    says = [o.says for o in refusal.options]
    assert any(s.endswith("if it changes original line 10") for s in says)
    assert any(s.endswith("if it changes original line 18") for s in says)
    row = retry_example({"original": ORIGINAL, "snippet": SNIPPET, "expected": EXPECTED, "language": "javascript"})
    assert row["second"] == "right" and "changes original line 18" in row["option"]


def test_an_ambiguous_line_is_offered_as_a_change_only_where_the_listed_line_differs():
    line = "res.render('user.jade');"
    sentence = (f"section 1 (starting `{line}`): `{line}` matches 3 places in the original (lines 4, 10, 18) "
                "equally well; add the unchanged lines that pin the place you mean")
    refusal = explain(ORIGINAL, SNIPPET, sentence, language="javascript")
    says = [o.says for o in refusal.options]
    assert any(s.endswith("if it changes original line 18") for s in says)
    assert not any(s.endswith("if it changes original line 4") for s in says)  # the line itself stands there


LONG = """\
fn stdout_is_console() -> bool {
    let fd = STD_OUTPUT_HANDLE;
    let mut out = 0;
    unsafe { kernel32::GetConsoleMode(kernel32::GetStdHandle(fd), &mut out) != 0 }
}

fn stderr_is_console() -> bool {
    let fd = STD_ERROR_HANDLE;
    let mut out = 0;
    unsafe { kernel32::GetConsoleMode(handle, &mut out) != 0 }
}
"""
LONG_LINE = "    unsafe { kernel32::GetConsoleMode(kernel32::GetStdHandle(fd), &mut out) != 0 }\n"
LONG_SNIPPET = "// ... existing code ...\n" + LONG_LINE + "// ... existing code ...\n"


def test_a_line_the_sentence_quotes_cut_short_is_still_found():
    """The sentence quotes the snippet line cut at 60 characters; its options are built all the same
    (before, `find` compared the cut text with whole lines and offered nothing)."""
    refusal = instant_merge(LONG, LONG_SNIPPET, language="rust").refusal
    assert refusal.kind == "no-change" and "which it may mean to change" in refusal.sentence
    assert LONG_LINE.strip() not in refusal.sentence  # quoted cut short, and marked so
    assert cut(LONG_LINE) in refusal.sentence and cut(LONG_LINE).endswith(CUT)
    assert any(o.says.endswith("if it changes original line 10") for o in refusal.options)
    expected = LONG.replace("GetConsoleMode(handle,", "GetConsoleMode(kernel32::GetStdHandle(fd),")
    row = retry_example({"original": LONG, "snippet": LONG_SNIPPET, "expected": expected, "language": "rust"})
    assert row["second"] == "right"


TWINS = LONG.replace("    let mut out = 0;\n    unsafe { kernel32::GetConsoleMode(handle, &mut out) != 0 }",
                     "    let mut err = 0;\n    unsafe { kernel32::GetConsoleMode(kernel32::GetStdHandle(fd), &mut err) != 0 }")


def test_two_lines_alike_past_the_cut_are_quoted_where_they_differ_and_still_offered():
    """The snippet line and the similar original line share their first 60 characters: the sentence
    quotes both from just before their first difference (spans.apart), and its options are built."""
    assert TWINS != LONG
    refusal = instant_merge(TWINS, LONG_SNIPPET, language="rust").refusal
    assert refusal.kind == "no-change"
    assert "`…StdHandle(fd), &mut out) != 0 }`" in refusal.sentence
    assert "similar `…StdHandle(fd), &mut err) != 0 }`" in refusal.sentence
    expected = TWINS.replace("&mut err) != 0 }", "&mut out) != 0 }")
    row = retry_example({"original": TWINS, "snippet": LONG_SNIPPET, "expected": expected, "language": "rust"})
    assert row["second"] == "right" and "changes original line 10" in row["option"]
