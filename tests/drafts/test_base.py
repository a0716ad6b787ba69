"""The longest-match combinator picks the source with the best evidence, ties to the first."""

from fastapply.drafts.base import LongestMatchDraft


class Source:
    def __init__(self, proposal, match_length):
        self.proposal, self.length, self.observed = proposal, match_length, []

    def begin(self, prompt_ids):
        self.match_length = 0

    def propose(self, context, k):
        self.match_length = self.length
        return self.proposal[:k]

    def observe(self, n):
        self.observed.append(n)


def test_longest_match_wins_and_only_the_winner_is_observed():
    a, b = Source([1, 2], 3), Source([7, 8], 9)
    d = LongestMatchDraft(a, b)
    d.begin([0])
    assert d.propose([0, 5], 4) == [7, 8]
    d.observe(1)
    assert b.observed == [1] and a.observed == []


def test_ties_go_to_the_first_source_and_empty_proposals_never_win():
    a, b, c = Source([1], 4), Source([2], 4), Source([], 99)
    d = LongestMatchDraft(c, a, b)
    d.begin([0])
    assert d.propose([0], 4) == [1]
