"""Ranking a refusal's two readings (rewrite/readings.py) and the pipeline writing the clear winner,
on the fake apply model (it puts ~all its mass on its own answer)."""

import math

import pytest

from fastapply.merge.instant import instant_merge
from fastapply.pipeline import apply_edit
from fastapply.rewrite import readings
from tests.fakes import FakeLoaded
from tests.merge.test_alternatives import FINAL_ORIGINAL, FINAL_SNIPPET, TAIL_ORIGINAL, TAIL_SNIPPET

TWIN = instant_merge(FINAL_ORIGINAL, FINAL_SNIPPET, language="python")  # the joint and greedy readings differ


@pytest.mark.parametrize("best", [0, 1])
def test_the_reading_the_model_writes_wins_by_a_clear_margin(best):
    ranked = readings.rank_readings(FakeLoaded(TWIN.alternatives[best]), FINAL_ORIGINAL, FINAL_SNIPPET, None,
                                    TWIN.alternatives, TWIN.regions, "python")
    assert ranked.best == best and ranked.text == TWIN.alternatives[best] and ranked.margin > readings.MARGIN


FUNCS = [f"def f{i}():\n    x = {i}\n    return x\n" for i in range(6)]


def test_readings_are_scored_in_the_undecided_window_when_both_keep_the_text_around_it():
    original = "\n".join(FUNCS)
    alts = [original.replace("x = 3\n", "x = 30\n"), original.replace("x = 3\n", "x = 31\n")]
    frame, texts, window = readings.framed(original, alts, ((13, 14),))
    assert window == (12, 15) and frame == FUNCS[3]
    assert texts == [FUNCS[3].replace("x = 3", "x = 30"), FUNCS[3].replace("x = 3", "x = 31")]
    assert readings.framed(original, alts, ()) == (original, alts, None)
    moved = [alts[0], alts[1].replace("x = 0\n", "x = 9\n")]  # differs outside the window too
    assert readings.framed(original, moved, ((13, 14),)) == (original, moved, None)


def test_a_reading_that_fails_a_guard_leaves_nothing_to_rank():
    broken = TWIN.alternatives[0] + "# ... existing code ...\n"  # a leaked marker
    assert readings.rank_readings(FakeLoaded(broken), FINAL_ORIGINAL, FINAL_SNIPPET, None,
                                  (broken, TWIN.alternatives[1]), TWIN.regions, "python") is None


def test_auto_writes_the_clear_winner_of_two_readings_without_generating(monkeypatch):
    monkeypatch.setattr(readings, "RANKED_CHOICES", ("readings",))
    r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=FakeLoaded(TWIN.alternatives[1]))
    assert r.path == "model" and r.draft == "ranked" and r.complete and r.text == TWIN.alternatives[1]
    assert r.margin > readings.MARGIN and r.stats.completion_tokens == 0 and "final block" in r.refused_reason


def test_auto_generates_when_the_margin_is_not_clear(monkeypatch):
    monkeypatch.setattr(readings, "RANKED_CHOICES", ("readings",))
    monkeypatch.setattr(readings, "MARGIN", math.inf)
    r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=FakeLoaded(TWIN.alternatives[1]))
    assert r.draft != "ranked" and r.stats.completion_tokens > 0 and r.margin > 0
    assert r.text == TWIN.alternatives[1]


def test_a_choice_not_trusted_to_ranking_is_generated(monkeypatch):
    monkeypatch.setattr(readings, "RANKED_CHOICES", ("readings",))
    original, snippet = "\n".join(TAIL_ORIGINAL) + "\n", "\n".join(TAIL_SNIPPET) + "\n"
    doubt = instant_merge(original, snippet, language="python")
    assert doubt.choice == "doubt"
    r = apply_edit(original, snippet, strategy="auto", loaded=FakeLoaded(doubt.alternatives[1]))
    assert r.path == "model" and r.draft != "ranked" and r.margin is None


def test_an_answer_that_is_one_of_the_two_readings_is_written_only_with_a_clear_margin(monkeypatch):
    # auto does not rank first (RANKED_CHOICES is empty): the model generates, and its answer is
    # one of the two readings; ranking both must then prefer it by MARGIN nats
    r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=FakeLoaded(TWIN.alternatives[1]))
    assert r.path == "model" and r.draft != "ranked" and r.complete and r.guard is None
    assert r.text == TWIN.alternatives[1] and r.margin > readings.MARGIN
    monkeypatch.setattr(readings, "MARGIN", math.inf)
    r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=FakeLoaded(TWIN.alternatives[1]))
    assert not r.complete and r.guard == "undecided" and "without a clear margin" in r.guard_reason
    assert r.text == TWIN.alternatives[1]  # the candidate stays available (--force)


def test_a_doubt_answered_by_the_model_is_not_ranked(monkeypatch):
    monkeypatch.setattr(readings, "MARGIN", math.inf)
    original, snippet = "\n".join(TAIL_ORIGINAL) + "\n", "\n".join(TAIL_SNIPPET) + "\n"
    doubt = instant_merge(original, snippet, language="python")
    r = apply_edit(original, snippet, strategy="auto", loaded=FakeLoaded(doubt.alternatives[1]))
    assert r.path == "model" and r.guard != "undecided" and r.margin is None  # (the fake answers the whole
    # file where the window is asked for, which the seam guard refuses)


def test_a_model_that_cannot_rank_refuses_an_answer_that_is_one_of_the_two_readings(monkeypatch):
    # a remote server returns greedy choices only (backends/remote.py Top1Logits): no ranking, so
    # the answer that merely picked a reading is refused, with a reason, not an error
    from fastapply.errors import RemoteError

    def no_ranking(*args, **kwargs):
        raise RemoteError("greedy choices only")

    monkeypatch.setattr(readings, "rank_readings", no_ranking)
    r = apply_edit(FINAL_ORIGINAL, FINAL_SNIPPET, strategy="auto", loaded=FakeLoaded(TWIN.alternatives[1]))
    assert not r.complete and r.guard == "undecided" and "remote model cannot rank" in r.guard_reason
