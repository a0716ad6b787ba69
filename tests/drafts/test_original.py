"""Resync cases for the aligner, on hand-written token arrays (one comment per case).

Tokens are small ints; the prompt is [100] so the output starts at context index 1.
"""

from fastapply.drafts.original import OriginalDraft

P = [100]


def step(aligner, output, k=4):
    return aligner.propose(P + output, k)


def test_follows_the_draft_from_the_start():
    # unchanged file: propose from position 0, then from where the output has got to
    a = OriginalDraft([1, 2, 3, 4, 5, 6, 7, 8])
    a.begin(P)
    assert step(a, [1]) == [2, 3, 4, 5]
    assert step(a, [1, 2, 3]) == [4, 5, 6, 7]
    assert a.home == 3


def test_no_proposal_while_diverged_then_resync_after_an_insertion():
    # draft a b c d e f g h; output inserts X Y after c, then rejoins at d
    a = OriginalDraft([1, 2, 3, 4, 5, 6, 7, 8], min_anchor_tokens=3, min_anchor_weight=3)
    a.begin(P)
    assert step(a, [1, 2, 3, 90]) == []  # diverged at cursor 3
    assert step(a, [1, 2, 3, 90, 91, 4]) == []  # "91 4" is not a 3-token anchor yet
    assert step(a, [1, 2, 3, 90, 91, 4, 5, 6]) == [7, 8]  # "4 5 6" anchors at 6
    assert a.cursor == 6 and a.resyncs == 1


def test_resync_after_a_deletion_skips_ahead():
    # output drops c d e: rejoins at f g h
    a = OriginalDraft([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], min_anchor_tokens=3, min_anchor_weight=3)
    a.begin(P)
    assert step(a, [1, 2, 6, 7, 8]) == [9, 10]


def test_light_anchor_is_refused():
    # "}" "\\n" "\\n" (weight 0 each) occurs in the draft but must not re-synchronise
    draft = [1, 50, 51, 51, 2, 3, 50, 51, 51, 4]
    weights = [3, 0, 0, 0, 3, 3, 0, 0, 0, 3]
    a = OriginalDraft(draft, weights=weights, min_anchor_tokens=3, min_anchor_weight=4)
    a.begin(P)
    assert step(a, [1, 50, 51, 51, 77, 50, 51, 51]) == []  # only weightless anchors exist
    # once the output shows real code again the anchor carries weight
    assert step(a, [1, 50, 51, 51, 77, 50, 51, 51, 2, 3, 50]) == [51, 51, 4]  # "2 3 50" weighs 6


def test_prefers_the_nearest_anchor_at_or_after_home():
    # the pattern "7 8 9" occurs twice; after confirmed progress to position 5, the later one wins
    draft = [7, 8, 9, 1, 2, 3, 4, 7, 8, 9, 5, 6]
    a = OriginalDraft(draft, min_anchor_tokens=3, min_anchor_weight=3)
    a.begin(P)
    out = [7, 8, 9, 1, 2, 3]  # confirmed up to position 6
    assert step(a, out) == [4, 7, 8, 9]
    out += [55, 7, 8, 9]  # an edit replaced 4, then the output shows the repeated pattern
    assert step(a, out) == [5, 6]


def test_falls_back_to_an_anchor_before_home_when_none_after():
    # the model repeats code it already wrote: the only anchor lies behind the cursor
    draft = [10, 11, 12, 13, 14, 15, 16]
    a = OriginalDraft(draft, min_anchor_tokens=3, min_anchor_weight=3)
    a.begin(P)
    out = [10, 11, 12, 13, 14, 15]
    assert step(a, out) == [16]
    out += [99, 11, 12, 13]  # diverged, then rewrote an earlier part
    assert step(a, out) == [14, 15, 16]


def test_end_of_draft_proposes_nothing_but_stays_synced():
    a = OriginalDraft([1, 2, 3])
    a.begin(P)
    assert step(a, [1, 2, 3]) == []
    assert a.synced


def test_begin_resets_state_between_generations():
    a = OriginalDraft([1, 2, 3, 4, 5])
    a.begin(P)
    step(a, [1, 2, 9])
    assert not a.synced
    a.begin(P)
    assert a.synced and a.cursor == 0
    assert step(a, [1]) == [2, 3, 4, 5]


def test_the_longest_agreement_beats_a_nearer_short_anchor():
    # "5 6 7" repeats; the output skipped ahead (a deletion) after writing "3 4 5 6 7" from the later copy
    draft = [1, 2, 5, 6, 7, 8, 9, 3, 4, 5, 6, 7, 10, 11]
    a = OriginalDraft(draft, min_anchor_tokens=3, min_anchor_weight=3)
    a.begin(P)
    assert step(a, [1, 2]) == [5, 6, 7, 8]
    out = [1, 2, 3, 4, 5, 6, 7]  # diverged at cursor 2; "3 4 5 6 7" matches only the later copy
    assert step(a, out) == [10, 11]
