"""The shape of a wrong file (evaluation/shapes.py) and where eval reports it."""

from fastapply.evaluation.run import InstantOutcome, run_eval
from fastapply.evaluation.shapes import SHAPES, shape_counts, wrong_shape

ORIGINAL = "def a():\n    return 1\n\n\ndef b():\n    return 1\n\n\ndef c():\n    return 3\n"
EXPECTED = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"


def test_each_shape_is_told_from_the_three_files():
    assert wrong_shape(ORIGINAL, EXPECTED, EXPECTED.replace("\n\n\ndef c", "\n\ndef c")) == "whitespace"
    assert wrong_shape(ORIGINAL, EXPECTED, EXPECTED.replace("    ", "\t")) == "whitespace"
    # the edit landed at the twin of its line: `return 1` changed at a, kept at b
    assert wrong_shape(ORIGINAL, EXPECTED, ORIGINAL.replace("return 1", "return 2", 1)) == "order"
    # the commit deleted c, the result keeps it; the commit kept c, the result drops it
    no_c = "def a():\n    return 1\n\n\ndef b():\n    return 1\n"
    assert wrong_shape(ORIGINAL, no_c, ORIGINAL) == "kept-old"
    assert wrong_shape(ORIGINAL, ORIGINAL, no_c) == "dropped-old"
    assert wrong_shape(ORIGINAL, no_c, "def a():\n    return 1\n\n\ndef c():\n    return 3\n") == "kept-and-dropped"
    assert wrong_shape(ORIGINAL, EXPECTED, EXPECTED.replace("return 2", "return 2\n    return 2")) == "new-lines"
    assert set(SHAPES) >= {"whitespace", "order", "kept-old", "dropped-old", "kept-and-dropped", "new-lines"}


def test_eval_rows_and_results_carry_the_shapes_of_wrong_files():
    no_c = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    answers = {"dropped": no_c, "right": EXPECTED, "refused": None}

    def apply_fn(original, snippet, instruction=None, strategy="instant"):
        text = answers[snippet]
        return InstantOutcome(text or "", text is not None, None if text else "refused")

    examples = [{"id": k, "original": ORIGINAL, "expected": EXPECTED, "snippet": k} for k in answers]
    result = run_eval(examples, "instant", apply_fn, None)
    assert [r["wrong_shape"] for r in result["examples"]] == ["dropped-old", None, None]
    assert result["wrong_shapes"] == [("dropped-old", 1)]
    rows = [{"wrong_shape": "kept-old"}, {"wrong_shape": None}, {"wrong_shape": "kept-old"}]
    assert shape_counts(rows) == [("kept-old", 2)]
