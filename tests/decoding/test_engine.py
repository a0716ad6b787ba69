"""The engine's one correctness property: whatever the draft, output == plain decoding's output.

Runs on the fake backend (no ML dependency): its logits are a pure function of the whole context, so
a wrong cache rollback or a token fed twice changes the answer.
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from fastapply.backends.fake import FakeBackend, HashRule, ScriptedRule
from fastapply.decoding.engine import ChunkPolicy, SpeculativeDecoder, generate
from fastapply.decoding.sampling import SamplingParams
from fastapply.drafts.base import LongestMatchDraft, FixedDraft, NoDraft
from fastapply.drafts.lookup import PromptLookupDraft
from fastapply.drafts.original import OriginalDraft

VOCAB = 50
EOS = 0


def naive_greedy(rule, prompt, max_tokens, stop=(EOS,)):
    """Plain greedy decoding with no cache at all: recompute the row from the whole context."""
    out = []
    while len(out) < max_tokens:
        tok = int(np.argmax(rule(tuple(prompt) + tuple(out))))
        out.append(tok)
        if tok in stop:
            break
    return out


def make_drafts(script, rng):
    """Right, wrong, empty, too long, shifted and shuffled drafts of a script."""
    wrong = [int(t) for t in rng.integers(1, VOCAB, len(script))]
    shuffled = list(script)
    rng.shuffle(shuffled)
    return {
        "right": list(script),
        "wrong": wrong,
        "empty": [],
        "too_long": list(script) + list(script),
        "shifted_left": list(script[3:]),
        "shifted_right": [7, 8, 9] + list(script),
        "shuffled": shuffled,
        "half_edited": list(script[: len(script) // 2]) + wrong[:5] + list(script[len(script) // 2 :]),
    }


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    script_len=st.integers(1, 60),
    prompt_len=st.integers(1, 12),
    max_tokens=st.integers(1, 80),
    initial=st.integers(1, 16),
)
def test_greedy_output_equals_plain_for_any_draft(seed, script_len, prompt_len, max_tokens, initial):
    rng = np.random.default_rng(seed)
    prompt = [int(t) for t in rng.integers(1, VOCAB, prompt_len)]
    script = [int(t) for t in rng.integers(1, VOCAB, script_len)] + [EOS]
    rule = ScriptedRule(prompt_len, script, VOCAB)
    expected = naive_greedy(rule, prompt, max_tokens)
    chunk = ChunkPolicy(initial=initial, minimum=1, maximum=max(initial, 32))
    for name, draft_tokens in make_drafts(script, rng).items():
        for draft in (FixedDraft(draft_tokens), OriginalDraft(draft_tokens, min_anchor_tokens=2, min_anchor_weight=2),
                      LongestMatchDraft(OriginalDraft(draft_tokens), PromptLookupDraft())):
            backend = FakeBackend(rule, VOCAB)
            tokens, stats = generate(backend, prompt, draft, max_tokens=max_tokens, stop_token_ids=[EOS], chunk=chunk)
            assert tokens == expected, (name, type(draft).__name__)
            assert stats.completion_tokens == len(tokens)
            assert stats.accepted_prediction_tokens + stats.rejected_prediction_tokens == stats.drafted_tokens


def test_right_draft_is_verified_in_few_passes_and_wrong_draft_costs_one_pass_per_token():
    prompt = [5, 6, 7]
    script = list(range(1, 40)) * 10 + [EOS]  # 391 tokens
    rule = ScriptedRule(len(prompt), script, 400)
    chunk = ChunkPolicy(initial=16, minimum=4, maximum=256)
    right, s_right = generate(FakeBackend(rule, 400), prompt, FixedDraft(script), max_tokens=1000, stop_token_ids=[EOS], chunk=chunk)
    plain, s_plain = generate(FakeBackend(rule, 400), prompt, NoDraft(), max_tokens=1000, stop_token_ids=[EOS], chunk=chunk)
    assert right == plain == script
    assert s_plain.forward_passes == len(script)  # prefill gives the first token, then one per token
    # 1 prefill + chunks 16, 32, 64, 128, 256 (each plus its bonus token) cover 391 tokens
    assert s_right.forward_passes <= 6
    # every token but the first (from prefill) and the bonus tokens came from the draft; the final
    # EOS was accepted from the draft, so the last pass had no bonus
    assert s_right.accepted_prediction_tokens == len(script) - 1 - (s_right.forward_passes - 2)
    assert s_right.rejected_prediction_tokens == 0
    wrong = [t + 1 for t in script]
    out, s_wrong = generate(FakeBackend(rule, 400), prompt, FixedDraft(wrong), max_tokens=1000, stop_token_ids=[EOS], chunk=chunk)
    assert out == script
    assert s_wrong.forward_passes == s_plain.forward_passes  # one token per pass, like plain decoding
    assert s_wrong.accepted_prediction_tokens == 0


def test_cache_holds_exactly_the_consumed_context_after_each_step():
    prompt = [3, 4]
    script = [9, 8, 7, 6, 5, 4, 3, 2, EOS]
    rule = ScriptedRule(len(prompt), script, VOCAB)
    backend = FakeBackend(rule, VOCAB)
    wrong_in_the_middle = [9, 8, 7, 1, 1, 4, 3, 2, EOS]
    decoder = SpeculativeDecoder(backend, prompt, FixedDraft(wrong_in_the_middle), max_tokens=50, stop_token_ids=[EOS])
    for _ in decoder:
        if decoder.stats.finish_reason:
            break
        # everything but the last output token is cached, nothing more
        assert backend.tokens == prompt + decoder.tokens[:-1]
    assert decoder.tokens == script


def test_max_tokens_and_stop_token_cut_inside_an_accepted_run():
    prompt = [1]
    script = [4, 5, 6, EOS, 7, 8]  # the target would go on after EOS if asked
    rule = ScriptedRule(1, script, VOCAB)
    tokens, stats = generate(FakeBackend(rule, VOCAB), prompt, FixedDraft(script), max_tokens=50, stop_token_ids=[EOS])
    assert tokens == [4, 5, 6, EOS] and stats.finish_reason == "stop"
    tokens, stats = generate(FakeBackend(rule, VOCAB), prompt, FixedDraft(script), max_tokens=2, stop_token_ids=[EOS])
    assert tokens == [4, 5] and stats.finish_reason == "length"


def test_context_length_bounds_the_output():
    prompt = [1, 2, 3]
    script = list(range(10, 40))
    rule = ScriptedRule(3, script, VOCAB)
    backend = FakeBackend(rule, VOCAB, context_length=12)
    tokens, stats = generate(backend, prompt, FixedDraft(script), max_tokens=100)
    assert tokens == script[: 12 - 3] and stats.finish_reason == "length"
    with pytest.raises(ValueError):
        generate(FakeBackend(rule, VOCAB, context_length=3), prompt, None, max_tokens=5)


# -- sampling -------------------------------------------------------------------------------------


@pytest.mark.parametrize("top_p", [1.0, 0.7])
def test_sampling_with_a_draft_reproduces_plain_sampling_for_the_same_seed(top_p):
    rule = HashRule(VOCAB, seed=3, order=2, scale=1.5)
    prompt = [1, 2, 3]
    for seed in range(20):
        params = SamplingParams(temperature=0.8, top_p=top_p, seed=seed)
        plain, _ = generate(FakeBackend(rule, VOCAB), prompt, NoDraft(), max_tokens=30, sampling=params)
        draft = [int(t) for t in np.random.default_rng(seed).integers(0, 4, 40)]  # often right: small ids
        spec, _ = generate(FakeBackend(rule, VOCAB), prompt, FixedDraft(plain[:10] + draft), max_tokens=30, sampling=params)
        assert spec == plain


def test_speculative_sampling_matches_the_exact_distribution():
    """Chi-square test of 2-token outputs against the distribution computed from the rule itself."""
    from fastapply.decoding.sampling import probabilities

    vocab = 4
    rule = HashRule(vocab, seed=11, order=2, scale=1.0)
    prompt = (1, 2)
    temperature, top_p = 1.3, 0.9
    exact = {}
    p1 = probabilities(rule(prompt), temperature, top_p)
    for a in range(vocab):
        p2 = probabilities(rule(prompt + (a,)), temperature, top_p)
        for b in range(vocab):
            exact[(a, b)] = p1[a] * p2[b]
    n = 3000
    counts = {key: 0 for key in exact}
    for seed in range(n):
        params = SamplingParams(temperature=temperature, top_p=top_p, seed=10_000 + seed)
        # a deterministic draft that is right only sometimes
        out, _ = generate(FakeBackend(rule, vocab), list(prompt), FixedDraft([0, 0, 0]), max_tokens=2, sampling=params)
        counts[tuple(out)] += 1
    chi2 = sum((counts[k] - n * p) ** 2 / (n * p) for k, p in exact.items() if p > 0)
    assert all(counts[k] == 0 for k, p in exact.items() if p == 0)  # nothing outside the nucleus
    dof = sum(1 for p in exact.values() if p > 0) - 1
    # 99.9% quantile of chi-square is below dof + 4.5 * sqrt(2 * dof) + 4 for these small dofs
    assert chi2 < dof + 4.5 * (2 * dof) ** 0.5 + 4, (chi2, dof, counts)
