"""refuse/replaced.py: the two answers to a replaced-kept refusal, each of which the merge then settles."""

from __future__ import annotations

from fastapply.merge.instant import instant_merge
from fastapply.merge.refuse.refusal import Refusal
from fastapply.merge.refuse.replaced import with_replaced_options
from fastapply.merge.refuse.revise import revise

ORIGINAL = "import sys\n\nrequired = [\n    'certifi',\n    'chardet',\n]\n\nsetup(name='x', install_requires=required)\n"
SNIPPET = "import sys\n\nrequired = ['certifi>=0.0.4']\n# ... existing code ...\n"


def test_the_refusal_offers_the_old_statement_as_minus_lines_or_kept_and_each_merges_as_meant():
    r = instant_merge(ORIGINAL, SNIPPET, language="python")
    assert r.refusal.kind == "new-or-changed" and "original line 3" in r.refused_reason
    replace, both = r.refusal.options[-2:]
    assert replace.says == "show the original lines 3-6 as `-` lines right below snippet line 3 if the new line replaces it"
    assert revise(SNIPPET, replace) == ("import sys\n\nrequired = ['certifi>=0.0.4']\n-required = [\n-    'certifi',\n"
                                        "-    'chardet',\n-]\n# ... existing code ...\n")
    assert instant_merge(ORIGINAL, revise(SNIPPET, replace), language="python").text == (
        "import sys\n\nrequired = ['certifi>=0.0.4']\n\nsetup(name='x', install_requires=required)\n")
    assert both.says == "add the unchanged original lines 3-6 right below snippet line 3 if both stay"
    kept = instant_merge(ORIGINAL, revise(SNIPPET, both), language="python").text
    assert kept == ORIGINAL.replace("required = [\n", "required = ['certifi>=0.0.4']\nrequired = [\n")


def test_an_old_line_above_goes_above_the_new_statement():
    refusal = Refusal("new-or-changed", "c", "f", detail={"replaced": (2, "x = g(", True)})
    snippet = "# ... existing code ...\nx = g(\n    1,\n)\n# ... existing code ...\n"
    options = with_replaced_options(refusal, "a = 0\nx = f()\nb = 1\n", snippet).options
    assert [o.says for o in options] == ["show the original line 2 as `-` lines right above snippet line 2 if the new "
                                         "line replaces it",
                                         "add the unchanged original line 2 right above snippet line 2 if both stay"]
    assert revise(snippet, options[0]).splitlines()[1] == "-x = f()"


def test_no_option_where_the_snippet_holds_the_new_line_twice_or_the_refusal_is_another():
    twice = "x = g()\n# ... existing code ...\nx = g()\n"
    refusal = Refusal("new-or-changed", "c", "f", detail={"replaced": (1, "x = g()", False)})
    assert with_replaced_options(refusal, "x = f()\n", twice).options == ()
    other = Refusal("new-or-changed", "c", "f")
    assert with_replaced_options(other, "x = f()\n", "x = g()\n") is other
