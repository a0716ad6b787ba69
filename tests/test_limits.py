"""limits: hard size limits, and the context lower bound that refuses an edit before tokenising it
(it must never refuse an edit that fits: checked against the real tokenizer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fastapply import limits
from fastapply.errors import ContextLengthError, InputError
from tests.fakes import FakeLoaded

FIXTURE = Path(__file__).parent / "fixtures" / "edits-small.jsonl"


def test_check_size_counts_utf8_bytes():
    limits.check_size("x" * 100, 100, "the snippet")
    limits.check_size("é" * 50, 100, "the snippet")  # 100 bytes
    with pytest.raises(InputError, match=r"the snippet is 102 bytes, over the limit of 100 bytes \(raise the limit with --max-snippet-bytes\)"):
        limits.check_size("é" * 51, 100, "the snippet", "--max-snippet-bytes")
    limits.check_size("x" * 10**6, None, "anything")


class VocabTokenizer:
    """A tokenizer that only has a vocabulary (check_fits_context must not encode)."""

    def __init__(self, vocab):
        self.vocab = vocab

    def get_vocab(self):
        return self.vocab


def loaded_with(vocab, context):
    loaded = FakeLoaded("x\n", context_length=context)
    loaded.tokenizer = VocabTokenizer(vocab)
    return loaded


def test_an_edit_beyond_the_context_is_refused_from_byte_counts():
    loaded = loaded_with({"a": 0, "abcd": 1, "Ġ": 2}, context=100)  # longest token: 4 bytes
    limits.check_fits_context(loaded, "x" * 196, "y" * 4)  # prompt 49 + 1, answer 49: 99 tokens fit
    with pytest.raises(ContextLengthError, match="at least 104 tokens"):
        limits.check_fits_context(loaded, "x" * 204, "y" * 8)  # prompt 51 + 2, answer 51
    assert loaded.extra["longest_token_bytes"] == 4


def test_max_tokens_caps_the_answer_part_and_carriage_returns_are_not_counted():
    loaded = loaded_with({"abcd": 0}, context=100)
    with pytest.raises(ContextLengthError):
        limits.check_fits_context(loaded, "x" * 240, "")  # 60 + 60
    limits.check_fits_context(loaded, "x" * 240, "", max_tokens=40)  # 60 + 40
    limits.check_fits_context(loaded, "x\r\n" * 80, "")  # 160 bytes without \r: 40 + 40


def test_no_vocabulary_means_no_early_check():
    loaded = FakeLoaded("x\n", context_length=10)  # the byte tokenizer of the fakes has no get_vocab
    limits.check_fits_context(loaded, "x" * 10_000, "y")


def test_small_edits_never_read_the_vocabulary():
    loaded = loaded_with(None, context=100)
    loaded.tokenizer.get_vocab = lambda: pytest.fail("read the vocabulary for an edit that fits at one byte a token")
    limits.check_fits_context(loaded, "x" * 45, "y" * 10)


@pytest.mark.model
def test_the_bound_never_exceeds_the_real_token_count():
    from fastapply import models

    tok = models.load("smollm2-135m-instruct").tokenizer
    longest = limits.longest_token_bytes(tok)
    assert longest is not None and 4 <= longest <= 256
    texts = [json.loads(line)["original"] for line in FIXTURE.read_text().splitlines()[:40]]
    texts += [" " * 4000, "\n" * 4000, ("\n" + " " * 80) * 50, "\t" * 999, "é" * 500, "a" * 5000, "😀" * 300, "<|im_start|>" * 50]
    for text in texts:
        real = len(tok.encode(text.replace("\r\n", "\n"), add_special_tokens=False))
        assert limits.min_tokens(text, longest) <= real, (real, text[:40])


def test_tokens_over_bounds_any_texts_and_reads_no_vocabulary_for_small_ones():
    loaded = loaded_with({"abcd": 0, "é": 1}, context=100)  # longest token: 4 bytes
    assert limits.tokens_over(loaded, ["x" * 200, "y" * 200], 99) == 100  # 50 + 50 tokens at least
    assert limits.tokens_over(loaded, ["x" * 200, "y" * 196], 99) is None  # 99 may fit
    assert limits.tokens_over(loaded, ["é" * 100], 49) == 50  # 200 UTF-8 bytes
    small = loaded_with(None, context=100)  # get_vocab would fail: not called for 99 bytes
    assert limits.tokens_over(small, ["x" * 99], 99) is None
    assert limits.tokens_over(FakeLoaded("x\n", context_length=10), ["x" * 10_000], 5) is None  # no vocabulary
