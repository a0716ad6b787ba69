"""The scored aligner's line-cost model (merge/align/line_costs.py): how lines are compared and how alike they are."""

from fastapply.merge.align import line_costs as costs


def test_tokens_are_lower_cased_sub_words():
    assert costs.tokens('set_env("APP_TEST_ENV_WD")') == {"set", "env", "app", "test", "wd"}
    assert costs.tokens("parseHTTPHeader(x2)") == {"parse", "http", "header", "x", "2"}
    assert costs.tokens("});") == {"}", ")", ";"}  # no word: its punctuation


def test_lead_of_an_annotated_assignment_is_the_plain_target():
    assert costs.lead("exit_code: t.ClassVar[int] = 2") == costs.lead("exit_code = 1") == "exit_code="
    assert costs.lead('"name": 2') == '"name":'  # a key set, not an assignment
    assert costs.lead("x: y == 2") == "x:"  # a comparison after the colon is no assignment


def test_key_keeps_a_lone_closers_depth_only():
    assert costs.key("    end") == "    end" and costs.key("  end") != costs.key("    end")
    assert costs.key("\t}") == costs.key("    }")  # a tab is one indent level
    assert costs.key("    return value  ") == "return value"


def test_change_scores_by_sub_words():
    O = costs.Original(["configure()", 'set_env("APP_TEST_ENV")', "run()"], costs.tokens('set_env("APP_TEST_ENV_WD")'))
    row = O.scores('set_env("APP_TEST_ENV_WD")')
    assert row[1] > 0 and row[0] < 0 and row[2] < 0  # one line changed, like no other
