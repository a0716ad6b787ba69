"""The two complete readings a refusal hands on for ranking (MergeResult.alternatives)."""

from fastapply.merge.instant import instant_merge
from fastapply.merge.align.lazy import merge_lazy

from tests.merge.align.test_doubts import COMMENTED, COMMENTED_SNIPPET

# `yield x + new_total` is merely similar to `yield x + old_total` (no shared leading name):
# new line after it, or that line changed?
TAIL_ORIGINAL = ["def f(x):", "    y = 2", "    yield x + old_total", "", "z = 3"]
TAIL_SNIPPET = ["# ... existing code ...", "    y = 2", "    yield x + new_total", "# ... existing code ..."]
HEAD_ORIGINAL = ["def f(x):", "    yield x + old_total", "    y = 2", "", "z = 3"]
HEAD_SNIPPET = ["# ... existing code ...", "    yield x + new_total", "    y = 2", "# ... existing code ..."]


def test_a_doubt_after_a_section_gives_the_reading_that_changes_the_similar_line():
    m = merge_lazy(TAIL_ORIGINAL, TAIL_SNIPPET)
    assert m.doubted
    assert m.candidate == ["def f(x):", "    y = 2", "    yield x + new_total", "    yield x + old_total", "", "z = 3"]
    assert m.alternative == ["def f(x):", "    y = 2", "    yield x + new_total", "", "z = 3"]


def test_a_doubt_before_a_section_gives_the_reading_that_changes_the_similar_line():
    m = merge_lazy(HEAD_ORIGINAL, HEAD_SNIPPET)
    assert m.doubted
    assert m.candidate == ["def f(x):", "    yield x + old_total", "    yield x + new_total", "    y = 2", "", "z = 3"]
    assert m.alternative == ["def f(x):", "    yield x + new_total", "    y = 2", "", "z = 3"]


def test_a_rival_doubt_gives_the_reading_that_replaces_the_rivals_lines():
    m = merge_lazy(COMMENTED, COMMENTED_SNIPPET)
    assert m.doubted and m.alternative is not None
    assert "    def test_two(self):" in m.candidate and "    def test_two(self):" not in m.alternative
    assert m.alternative.count("    # def test_two(self):") == 1


def test_instant_merge_hands_on_both_readings_of_a_doubt_candidate_first():
    r = instant_merge("\n".join(TAIL_ORIGINAL) + "\n", "\n".join(TAIL_SNIPPET) + "\n", language="python")
    assert not r.merged and "could be a new line" in r.refused_reason
    assert r.alternatives == (r.candidate, "def f(x):\n    y = 2\n    yield x + new_total\n\nz = 3\n")
    assert r.choice == "doubt"


def test_a_second_undecided_place_leaves_no_pair_to_rank():
    # The same doubt twice, in two functions: four readings, not two.
    original = TAIL_ORIGINAL + ["", "def g(x):", "    w = 5", "    return x + old_count", "", "v = 4"]
    snippet = TAIL_SNIPPET + ["    w = 5", "    return x + new_count", "# ... existing code ..."]
    m = merge_lazy(original, snippet)
    assert m.lines is None and m.alternative is None


def test_a_refusal_with_one_reading_hands_on_no_pair():
    r = instant_merge("a = 1\nb = 2\na = 1\n", "# ... existing code ...\na = 1\nc = 3\n# ... existing code ...\n")
    assert not r.merged and r.alternatives == () and r.choice is None


# The snippet stops without a marker before the file's short final block: the joint reading keeps
# it, the greedy one deletes it (readings.differ_by_final_block).
FINAL_ORIGINAL = ("VERSION = '1.0'\n\n# a more generic name.\njsonify = json.jsonify\n\n# backwards compat\n"
                  "json_available = True\n")
FINAL_SNIPPET = "# ... existing code ...\nVERSION = '1.1'\n\n# a more generic name.\njsonify = json.jsonify\n"


def test_a_refusal_between_the_joint_and_greedy_readings_hands_on_both():
    r = instant_merge(FINAL_ORIGINAL, FINAL_SNIPPET, language="python")
    assert "final block" in r.refused_reason and r.choice == "readings"
    assert len(r.alternatives) == 2 and r.alternatives[0] == r.candidate
    assert sorted("json_available" in a for a in r.alternatives) == [False, True]
