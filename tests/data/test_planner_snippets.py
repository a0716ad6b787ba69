"""Planner-style snippets: the generator's styles, and the instant merge on real pairs.

The property (issue 9): on a planner-style snippet the instant merge is right or refuses. Real
pairs still show a few wrong merges (listed in the merge helper's report, mostly blank lines kept
around markers and moved blocks), so the real-data test bounds the wrong rate and sets a minimum
right rate; both can fail.
"""

import gzip
import json
import os
import random
from pathlib import Path

import pytest

from fastapply.data.planner_snippets import STYLES, planner_snippet
from fastapply.merge.instant import instant_merge

BEFORE = "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    x = 2\n    return x\n\n\ndef c():\n    return 3\n"
AFTER = BEFORE.replace("    x = 2\n", "    x = 20\n")
PAIRS = str(Path(__file__).resolve().parents[3] / "shared" / "data" / "train-pairs.jsonl.gz")


@pytest.mark.parametrize("style", STYLES)
def test_every_style_makes_a_snippet_that_merges_right_or_refuses(style):
    snippet = planner_snippet(BEFORE, AFTER, "python", style, random.Random(1))
    assert snippet is not None and snippet.expected == AFTER
    assert "x = 20" in snippet.text
    result = instant_merge(BEFORE, snippet.text, path="m.py")
    assert not result.merged or result.text == AFTER, (style, snippet.text)


def test_style_shapes():
    rng = random.Random(1)
    diff = planner_snippet(BEFORE, AFTER, "python", "diff_in_lazy", rng).text
    assert "-    x = 2" in diff and "+    x = 20" in diff and "@@" in diff
    bare = planner_snippet(BEFORE, AFTER, "python", "missing_edges", rng).text
    assert not bare.startswith("#") and not bare.rstrip().endswith("...")
    assert planner_snippet(BEFORE, BEFORE, "python", "agent", rng) is None
    with pytest.raises(ValueError):
        planner_snippet(BEFORE, AFTER, "python", "poem", rng)


@pytest.mark.skipif(not os.path.exists(PAIRS), reason="shared training pairs not present")
def test_real_pairs_merge_right_or_refuse():
    rng = random.Random(0)
    rows = []
    with gzip.open(PAIRS, "rt") as handle:
        for line in handle:
            row = json.loads(line)
            # The merge keeps the original's final newline; pairs that change it cannot be expressed.
            if row["before"].count("\n") < 600 and row["before"].endswith("\n") == row["after"].endswith("\n"):
                rows.append(row)
            if len(rows) == 60:
                break
    right = wrong = total = 0
    for row in rows:
        for style in STYLES:
            snippet = planner_snippet(row["before"], row["after"], row["language"] or "", style, rng)
            if snippet is None:
                continue
            result = instant_merge(row["before"], snippet.text, path=row["path"])
            total += 1
            right += result.merged and result.text == row["after"]
            wrong += result.merged and result.text != row["after"]
    assert total >= 300
    assert wrong <= 0.015 * total, f"{wrong} wrong of {total}"  # measured: 2 of 420 (6 before this round)
    assert right >= 0.78 * total, f"only {right} right of {total}"  # measured: 347 of 420 (310 before)
