"""`fastapply bench`: summary arithmetic, table, JSON shape, and bad data files (no model needed)."""

import json

from fastapply import cli
from fastapply.evaluation.bench import BenchRow, format_table, summarise


def row(i, plain, lookup, spec, limit, identical=True):
    return BenchRow(
        id=f"ex{i}", prompt_tokens=100, output_tokens=50, identical=identical, plain_s=plain, lookup_s=lookup,
        spec_s=spec, limit_s=limit, accepted=40, rejected=5, forward_passes=8, chars_per_s=100.0 * i,
        speedup_vs_plain=plain / spec, speedup_vs_lookup=lookup / spec, spec_over_limit=spec / limit,
    )


def test_summary_takes_medians_and_fractions():
    rows = [row(1, 10, 4, 1, 0.5), row(2, 20, 2, 4, 1.0, identical=False), row(3, 12, 6, 2, 1.0)]
    s = summarise(rows)
    assert s["n"] == 3
    assert s["identical_fraction"] == round(2 / 3, 4)
    assert s["median_speedup_vs_plain"] == 6.0  # 10, 5, 6
    assert s["median_speedup_vs_lookup"] == 3.0  # 4, 0.5, 3
    assert s["median_spec_over_limit"] == 2.0  # 2, 4, 2
    assert s["median_chars_per_s"] == 200.0
    assert s["accepted_fraction"] == 0.8
    assert s["spec_never_slower_than_lookup_fraction"] == round(2 / 3, 4)
    table = format_table(rows, s)
    assert "ex2" in table and " NO " in table and "medians over 3" in table


def test_bench_refuses_bad_data_files(tmp_path, capsys):
    assert cli.main(["bench", "--data", str(tmp_path / "none.jsonl")]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"original": "x"}\n')
    assert cli.main(["bench", "--data", str(bad)]) == 2
    assert "snippet" in capsys.readouterr().err
    bad.write_text("not json\n")
    assert cli.main(["bench", "--data", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
