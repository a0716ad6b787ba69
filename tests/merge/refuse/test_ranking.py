"""refuse/ranking.py: options that agree with the snippet's unique lines are shown first."""

from fastapply.merge.refuse.ranking import pins, rank, shown_options
from fastapply.merge.refuse.refusal import Edit, Option

ORIGINAL = [
    "def first_handler(request):",      # 1
    "    value = compute(request)",     # 2
    "    return value",                 # 3
    "",                                 # 4
    "def second_handler(request):",     # 5
    "    value = compute(request)",     # 6
    "    return value",                 # 7
    "",                                 # 8
    "def unique_helper_name():",        # 9
    "    return 42",                    # 10
]
SNIPPET = [
    "# ... existing code ...",          # 1
    "def unique_helper_name():",        # 2
    "# ... existing code ...",          # 3
    "    value = compute(request)",     # 4
    "    log(value)",                   # 5
    "# ... existing code ...",          # 6
]


def _pin(line: int, at: int = 4) -> Option:
    return Option(f"add original line {line} above snippet line {at}",
                  (Edit("insert", at=at, text=ORIGINAL[line - 1], original_line=line),))


def test_a_distinctive_line_once_in_each_pins_the_snippet():
    assert pins(ORIGINAL, SNIPPET) == [(2, 9)]
    # a line the original has twice pins nothing
    assert pins(ORIGINAL, ["    value = compute(request)"]) == []


def test_pins_out_of_file_order_keep_the_longest_tightest_chain():
    original = [f"line number {n} unique text" for n in range(1, 41)]
    snippet = [original[9], original[10], original[35], original[11]]  # line 36 is out of order
    assert pins(original, snippet) == [(1, 10), (2, 11), (4, 12)]


def test_options_on_the_wrong_side_of_a_pin_go_last_and_the_rest_keep_their_order():
    # the section at snippet line 4 comes after `unique_helper_name` (original line 9): a place
    # before it contradicts the pin
    before_a, before_b, after = _pin(1), _pin(5), Option(
        "add original line 10 above snippet line 4", (Edit("insert", at=4, text="    return 42", original_line=10),))
    assert rank([before_a, before_b, after], ORIGINAL, SNIPPET) == [after, before_a, before_b]
    marker = Option("add a marker", (Edit("marker", at=1, text="# ..."),))
    assert rank([marker, before_a], ORIGINAL, SNIPPET) == [marker, before_a]
    assert rank([before_a, after], ORIGINAL, ["no pins here"]) == [before_a, after]


def test_shown_options_spell_out_the_agreeing_alternative_within_the_cap():
    wrong = [_pin(n) for n in (1, 2, 3, 5, 6)]
    right = Option("add original line 10 above snippet line 4",
                   (Edit("insert", at=4, text="    return 42", original_line=10),))
    options = (*wrong, right)
    unranked, left, _ = shown_options(options, 2)
    assert right not in unranked and left == 4
    ranked, left, elsewhere = shown_options(options, 2, ORIGINAL, SNIPPET)
    assert ranked[0] == right and (left, elsewhere) == (4, 0)


def test_a_snippet_that_is_most_of_a_long_file_is_pinned_by_a_longest_run_quickly():
    import time

    original = [f"unique line number {n} of the file" for n in range(3000)]
    snippet = original[:1500] + [original[2999]] + original[1500:2999]  # one line out of order
    started = time.process_time()
    chain = pins(original, snippet)
    assert len(chain) == 2999 and (1501, 3000) not in chain
    assert time.process_time() - started < 2.0  # about 0.1 s; the pairwise chain would take seconds


def test_a_second_pin_of_a_place_waits_until_every_place_of_its_part_has_one():
    wide = Option("add the unchanged original lines 1-2 above snippet line 4 (for the place at original line 3)",
                  (Edit("insert", at=4, text="a\nb", original_line=1),))
    narrow = Option("add the unchanged original lines 2-2 above snippet line 4 (for the place at original line 3)",
                    (Edit("insert", at=4, text="b", original_line=2),))
    other = Option("add the unchanged original lines 6-6 above snippet line 4 (for the place at original line 7)",
                   (Edit("insert", at=4, text="f", original_line=6),))
    shown, left, _ = shown_options((wide, narrow, other), 2)
    assert shown == [wide, other] and left == 1


def test_options_whose_revision_merges_are_shown_before_the_others():
    late = _pin(10)  # pin-consistent, but say its revision does not merge
    merging = _pin(1)  # contradicts the pin, yet its revision merges
    tried = []

    def merges(option):
        tried.append(option)
        return option is merging

    shown, left, _ = shown_options((merging, late), 1, ORIGINAL, SNIPPET, merges)
    assert shown == [merging] and left == 1 and set(tried) == {merging, late}
    assert shown_options((merging, late), 1, ORIGINAL, SNIPPET)[0] == [late]  # ranked alone


def test_revision_merges_tries_the_revised_snippet_without_explaining():
    from fastapply.merge.instant import revision_merges

    original = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n"
    snippet = "# ... existing code ...\n    x = 2\n    return x\n# ... existing code ...\n"
    merges = revision_merges(original, snippet)
    pin_b = Option("add the unchanged original line 6 above snippet line 2",
                   (Edit("insert", at=2, text="def b():", original_line=6),))
    bad = Option("add a line that is nowhere", (Edit("insert", at=2, text="def nowhere(): pass", original_line=1),))
    assert merges(pin_b) and not merges(bad)
    assert not merges(Option("out of range", (Edit("insert", at=99, text="x"),)))


def test_reading_order_keeps_every_option_with_the_shown_ones_first_and_counts_the_rest():
    from fastapply.merge.refuse.ranking import left_out, reading_order

    wrong = [_pin(n) for n in (1, 2, 3, 5, 6)]
    right = Option("add original line 10 above snippet line 4",
                   (Edit("insert", at=4, text="    return 42", original_line=10),))
    elsewhere = Option("add a marker", (Edit("marker", at=1, text="# ..."),))
    options = (*wrong, right, elsewhere)
    ordered = reading_order(options, ORIGINAL, SNIPPET, limit=2)
    assert set(ordered) == set(options) and len(ordered) == len(options)
    assert ordered[:2] == shown_options(options, 2, ORIGINAL, SNIPPET)[0]
    assert right in ordered[:2]  # ranked by the pin
    assert left_out(ordered, 2) == (5, 0)  # five alternatives at the lines of those shown
    assert left_out([right, *wrong, elsewhere], 1) == (6, 1)  # the marker edits a line no shown option does


def test_chained_options_are_shown_after_the_merging_ones_only_where_few_merge():
    from fastapply.merge.refuse.ranking import CHAIN_WHEN
    from fastapply.merge.refuse.refusal import Refusal

    first, other = _pin(1), _pin(5)
    then = Option("add a marker above snippet line 2", (Edit("marker", at=2, text="# ..."),))
    second = Refusal("ambiguous-place", "still", "pin it", options=(then,))
    asked = []

    def again(option):
        asked.append(option)
        return second

    def merges(option):
        return option.says.endswith("above snippet line 2")  # only the pairs

    shown, _, _ = shown_options((first, other), 12, ORIGINAL, SNIPPET, merges, again)
    assert [o.says.split("; and then ")[-1] for o in shown[:2]] == [then.says] * 2
    assert set(shown[2:]) == {first, other} and asked
    asked.clear()
    def first_and_pairs(option):
        return option is first or "; and then " in option.says

    shown, _, _ = shown_options((first, other), 12, ORIGINAL, SNIPPET, first_and_pairs, again)
    assert shown[0] is first and asked  # one merges (fewer than CHAIN_WHEN): the pairs are still looked for
    assert shown[1].says == f"{other.says}; and then {then.says}" and shown[2] is other  # right after it
    asked.clear()
    many = tuple(_pin(k) for k in range(1, CHAIN_WHEN + 1))
    shown, _, _ = shown_options(many, 12, ORIGINAL, SNIPPET, lambda o: o in many, again)
    assert set(shown) == set(many) and not asked  # CHAIN_WHEN merge: no refusal is read ahead
