"""Sections placed by order: the one rival place that leaves room for the sections after it."""

from fastapply.merge.align.edges import Ambiguous, Span, Unplaceable
from fastapply.merge.align.lazy import merge_lazy
from fastapply.merge.align.order import forced_place

TWINS = ["def a():", "    x = compute()", "    return x", "", "def b():", "    x = compute()", "    return x"]
SNIPPET = ["# ... existing code ...", "    x = compute()", "    log(x)", "    return x"] * 2 + ["# ... existing code ..."]


def test_two_equal_sections_land_on_two_equal_places_in_order():
    m = merge_lazy(TWINS, SNIPPET)
    assert m.refused_reason is None
    assert m.lines == TWINS[:2] + ["    log(x)"] + TWINS[2:6] + ["    log(x)", "    return x"]


def test_one_section_on_two_equal_places_stays_ambiguous():
    m = merge_lazy(TWINS, SNIPPET[:4] + ["# ... existing code ..."])
    assert m.lines is None and "matches 2 places" in m.refused_reason


def _fake(places_by_section):
    """place(i, cursor, lo, hi) over sections that each fit the given original lines (one line long)."""
    def place(i, cursor, lo=None, hi=None):
        fits = [p for p in places_by_section[i] if p >= cursor and (lo is None or lo <= p) and (hi is None or p < hi)]
        if not fits:
            raise Unplaceable()
        if len(fits) > 1:
            amb = Ambiguous("x", fits)
            amb.floating = True
            raise amb
        return Span(fits[0], fits[0] + 1, "exact"), ["x"]
    return place


def test_forced_place_takes_the_only_rival_that_leaves_room():
    place = _fake([[10, 20, 30], [20, 30], [30]])
    placed = forced_place(place, 0, 3, 0, [10, 20, 30])
    assert placed is not None and placed[0].start == 10


def test_forced_place_refuses_when_the_rest_can_go_several_ways():
    place = _fake([[10, 20, 30], [20, 30]])  # A at 10 leaves B two places; A at 20 leaves one
    assert forced_place(place, 0, 2, 0, [10, 20, 30]) is None


def test_forced_place_gives_up_past_its_budget():
    place = _fake([[10, 20, 30], [20, 30], [30]])
    assert forced_place(place, 0, 3, 0, [10, 20, 30], budget=[2]) is None


NOTES = ["// Run starts the server.", "// Note: this blocks the calling goroutine undefinitelly.", "func Run() {}", "",
         "// RunTLS starts the TLS server.", "// Note: this blocks the calling goroutine undefinitelly.", "func RunTLS() {}",
         "", "// RunUnix starts the unix socket server.", "// Note: this blocks the calling goroutine undefinitelly.",
         "func RunUnix() {}"]


def test_sections_editing_one_comment_three_times_land_in_order():
    # Each section is the same lone changed line, with no line of the original in it: an edited
    # copy of three comment lines alike, one per section in file order (floating.py's rival runs).
    fixed = "// Note: this blocks the calling goroutine indefinitely."
    m = merge_lazy(NOTES, ["// ... existing code ...", fixed] * 3 + ["// ... existing code ..."])
    assert m.refused_reason is None
    assert m.lines == [fixed if "undefinitelly" in line else line for line in NOTES]


def test_one_section_editing_one_of_three_alike_comments_stays_ambiguous():
    fixed = "// Note: this blocks the calling goroutine indefinitely."
    m = merge_lazy(NOTES, ["// ... existing code ...", fixed, "// ... existing code ..."])
    assert m.lines is None and "matches 3 places" in m.refused_reason
