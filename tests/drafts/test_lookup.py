"""Prompt lookup: longest n-gram first, most recent match, never the suffix itself."""

from fastapply.drafts.lookup import PromptLookupDraft


def test_longest_ngram_wins_over_a_more_recent_short_match():
    #        0  1  2  3  4  5  6  7  8  9
    ctx = [1, 2, 3, 4, 5, 9, 3, 8, 1, 2, 3]
    # "1 2 3" matches at 0 (followed by 4 5); "3" alone also matches at 6 (followed by 8)
    assert PromptLookupDraft(max_ngram=3).propose(ctx, 2) == [4, 5]


def test_most_recent_of_equal_matches():
    ctx = [1, 2, 7, 1, 2, 8, 1, 2]
    assert PromptLookupDraft(max_ngram=2).propose(ctx, 1) == [8]


def test_no_match_no_proposal_and_suffix_not_matched_with_itself():
    assert PromptLookupDraft(max_ngram=3).propose([1, 2, 3], 4) == []
    assert PromptLookupDraft().propose([5], 4) == []


def test_proposal_is_truncated_at_the_context_end_and_k():
    ctx = [4, 5, 6, 4]
    assert PromptLookupDraft(max_ngram=2).propose(ctx, 10) == [5, 6, 4]
    assert PromptLookupDraft(max_ngram=2).propose(ctx, 1) == [5]


def test_match_length_is_measured_beyond_max_ngram():
    ctx = [1, 2, 3, 4, 5, 6, 9, 1, 2, 3, 4, 5]
    d = PromptLookupDraft(max_ngram=2)
    assert d.propose(ctx, 1) == [6]
    assert d.match_length == 5


def test_repetitive_output_takes_a_match_with_a_full_continuation():
    # period-2 repetition: the most recent "1 2" is followed by one token only; an earlier one has 4
    ctx = [1, 2, 1, 2, 1, 2, 1, 2]
    assert PromptLookupDraft(max_ngram=2).propose(ctx, 4) == [1, 2, 1, 2]
