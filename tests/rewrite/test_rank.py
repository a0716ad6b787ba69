"""Candidate ranking on the fake apply model: the model's own answer wins by a clear margin in any
order, the shared prefix is computed once and each candidate costs one pass over its span."""

import pytest

from fastapply.rewrite.rank import rank_candidates
from tests.fakes import FakeLoaded

ORIGINAL = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 2\n"
SNIPPET = "# ... existing code ...\n    x = 1\n    return 3\n# ... existing code ...\n"
IN_F = "def f():\n    x = 1\n    return 3\n\n\ndef g():\n    x = 1\n    return 2\n"
IN_G = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 3\n"


class CountingLoaded(FakeLoaded):
    def new_backend(self):
        backend = super().new_backend()
        self.calls = calls = []
        forward = backend.forward

        def counted(ids, rows=None):
            calls.append(len(ids))
            return forward(ids, rows=rows)

        backend.forward = counted
        return backend


@pytest.mark.parametrize("candidates,best", [([IN_F, IN_G], 0), ([IN_G, IN_F], 1)])
def test_the_models_answer_wins_clearly(candidates, best):
    loaded = CountingLoaded(IN_F)
    ranking = rank_candidates(loaded, ORIGINAL, SNIPPET, "return 3 from f", candidates)
    assert ranking.best == best and ranking.clear()
    assert ranking.margin > 20  # the fake model puts ~all its mass on its own answer
    # one pass over the prompt and the shared prefix, then one per candidate, each much shorter
    assert len(loaded.calls) == 3
    assert loaded.calls[0] >= ranking.prompt_tokens and max(loaded.calls[1:]) < 0.2 * loaded.calls[0]


def test_identical_candidates_have_no_margin():
    ranking = rank_candidates(FakeLoaded(IN_F), ORIGINAL, SNIPPET, None, [IN_F, IN_F])
    assert ranking.margin == pytest.approx(0.0) and not ranking.clear()


def test_no_candidates_is_an_error():
    with pytest.raises(ValueError):
        rank_candidates(FakeLoaded(IN_F), ORIGINAL, SNIPPET, None, [])
