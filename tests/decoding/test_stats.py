"""DecodeStats: rates from counts, the dict and the summary line, and zero-time safety."""

from fastapply.decoding.stats import DecodeStats


def test_rates_and_dict():
    s = DecodeStats(prompt_tokens=100, completion_tokens=50, accepted_prediction_tokens=40,
                    rejected_prediction_tokens=7, forward_passes=5, total_s=2.0, output_chars=300)
    assert s.tokens_per_s == 25.0 and s.chars_per_s == 150.0 and s.accepted_fraction == 0.8
    d = s.as_dict()
    assert d["tokens_per_s"] == 25.0 and d["chars_per_s"] == 150.0 and d["accepted_fraction"] == 0.8
    assert d["rejected_prediction_tokens"] == 7 and d["forward_passes"] == 5
    line = s.summary_line()
    assert "50 tokens (40 accepted, 7 rejected draft tokens) in 5 passes" in line and "150 chars/s" in line


def test_nothing_measured_yet_divides_by_nothing():
    s = DecodeStats()
    assert (s.tokens_per_s, s.chars_per_s, s.accepted_fraction) == (0.0, 0.0, 0.0)
