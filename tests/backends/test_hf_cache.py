"""The transformers backend passes its KV cache the way the installed transformers wants it
(`cache=` in 5.24+; `past_key_values=` only for a model class without `cache`), with no
deprecation warning, and the cache is really used: a prompt fed in chunks gives the same logits as
fed at once. A tiny randomly initialised Llama (no download, milliseconds)."""

import warnings

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytestmark = pytest.mark.extras

from fastapply.backends.hf import HFBackend, cache_argument  # noqa: E402


@pytest.fixture(scope="module")
def tiny():
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
    return transformers.LlamaForCausalLM(config).eval()


def test_llama_takes_the_cache_as_cache(tiny):
    assert cache_argument(tiny) == "cache"


def test_a_chunked_prompt_equals_one_pass_and_warns_nothing(tiny):
    ids = [3, 14, 15, 9, 26, 5, 35, 8, 9, 7]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a deprecated argument (FutureWarning) fails here
        whole = HFBackend(tiny)
        at_once = whole.forward(ids)
        chunked = HFBackend(tiny)
        rows = [chunked.forward(ids[:4]), chunked.forward(ids[4:7]), chunked.forward(ids[7:])]
        whole.truncate(6)
        redo = whole.forward(ids[6:])
    assert chunked.n_cached == len(ids) and whole.n_cached == len(ids)
    expected = torch.stack([torch.from_numpy(at_once.row(i)) for i in range(len(ids))])
    got = torch.stack([torch.from_numpy(r.row(i)) for r in rows for i in range(len(r))])
    assert torch.allclose(got, expected, atol=1e-5)
    again = torch.stack([torch.from_numpy(redo.row(i)) for i in range(len(redo))])
    assert torch.allclose(again, expected[6:], atol=1e-5)


def test_a_model_without_a_cache_argument_gets_past_key_values():
    class Old(torch.nn.Module):
        def forward(self, input_ids=None, past_key_values=None, use_cache=None, logits_to_keep=0, **kwargs):
            raise AssertionError("not called")

    assert cache_argument(Old()) == "past_key_values"
