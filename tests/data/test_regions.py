"""Region-level, instruction-only and planner-set examples made from (before, after) pairs."""

import random
from collections import Counter

from fastapply.data import regions
from fastapply.data.planner_snippets import STYLES

FUNCS = [f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(40)]
BEFORE = "import os\n\n\n" + "".join(FUNCS)
AFTER = BEFORE.replace("    y = x + 20\n", "    y = x + 20\n    y *= 2\n")


def test_window_example_is_the_enclosing_definition_and_splices_back():
    ex = regions.window_example(BEFORE, AFTER, "# ... existing code ...\n    y *= 2\n", "double it")
    assert ex["original"] == "def f20(x):\n    y = x + 20\n    return y\n"
    assert ex["expected"] == "def f20(x):\n    y = x + 20\n    y *= 2\n    return y\n"
    start, end = ex["window"]
    lines = BEFORE.split("\n")
    # Splicing the expected window into the untouched head and tail gives the real after-file.
    assert "\n".join(lines[:start]) + "\n" + ex["expected"] + "\n".join(lines[end:]) == AFTER


def test_no_window_for_an_unchanged_file_or_one_changed_everywhere():
    assert regions.window_example(BEFORE, BEFORE, "x", None) is None
    everywhere = BEFORE.replace("return y", "return -y")
    assert regions.window_example(BEFORE, everywhere, "x", None) is None


def test_instruction_only_hides_the_deletion_and_keeps_the_other_change():
    after = AFTER.replace("def f30(x):\n    y = x + 30\n    return y\n\n\n", "")
    ex = regions.instruction_only(BEFORE, after, "Remove f30 and double f20", "python", random.Random(1))
    assert ex is not None and ex["expected"] == after and ex["instruction"].startswith("Remove")
    assert "y *= 2" in ex["snippet"]
    assert "def f30(x):" not in ex["snippet"] and "y = x + 30" not in ex["snippet"]
    # A subject that does not state the deletion gives no example: the edit would be unknowable.
    assert regions.instruction_only(BEFORE, after, "Double f20", "python", random.Random(1)) is None


def test_planner_rows_cycle_through_every_style_deterministically():
    pairs = [{"id": f"p{i}", "repo": "r", "path": "m.py", "language": "python", "before": BEFORE,
              "after": BEFORE.replace(f"x + {i}\n", f"x - {i}\n"), "subject": "s"} for i in range(20)]
    rows = regions.planner_rows(pairs, 14, seed=3)
    assert [r["snippet_style"] for r in rows] == [f"gen-{s}" for s in STYLES] * 2
    assert rows == regions.planner_rows(pairs, 14, seed=3)
    assert all(r["original"] == BEFORE and r["expected"] != BEFORE for r in rows)


def test_planner_rows_per_repo_caps_each_repository():
    pairs = [{"id": f"p{i}", "repo": "big" if i < 16 else "small", "path": "m.py", "language": "python",
              "before": BEFORE, "after": BEFORE.replace(f"x + {i}\n", f"x - {i}\n"), "subject": "s"}
             for i in range(20)]
    rows = regions.planner_rows(pairs, 20, seed=3, per_repo=3)
    assert Counter(r["repo"] for r in rows) == {"big": 3, "small": 3}
    assert len(regions.planner_rows(pairs, 20, seed=3)) == 20
