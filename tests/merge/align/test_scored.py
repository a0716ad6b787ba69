"""Worked examples of the scored alignment (merge/align/scored.py): one small original and snippet per case, the
reading and margin it must give, and the judge (decide/opinion.py) wired into instant_merge."""

import time

import pytest

from fastapply.merge import instant
from fastapply.merge.decide import opinion
from fastapply.merge.align.scored import align, reading_lines

M = "# ... existing code ..."


def lines(text: str) -> list[str]:
    return text.split("\n")


def reading(original: str, snippet: str) -> list[str]:
    o, s = lines(original), lines(snippet)
    return reading_lines(align(o, s), o, s)


def test_unique_anchor_wins():
    # `b()` is unique: the change lands on the `x = 1` after it, not on the first `x = 1`,
    # and placing it at the first one is far worse (a twin of `b()` pasted there)
    original = "a()\nx = 1\nb()\nx = 1\nc()"
    snippet = f"{M}\nb()\nx = 2\n{M}"
    a = align(lines(original), lines(snippet))
    assert reading(original, snippet) == lines("a()\nx = 1\nb()\nx = 2\nc()")
    assert a.margin >= 3


def test_change_vs_insertion():
    # `total = count * 2` assigns the target `total = count` did: one line changed, not a new
    # line beside the old one; `print(total)` is new (nothing like it in the original)
    original = "def f(count):\n    total = count\n    return total"
    snippet = "def f(count):\n    total = count * 2\n    print(total)\n    return total"
    assert reading(original, snippet) == lines("def f(count):\n    total = count * 2\n    print(total)\n    return total")
    kinds = [s.kind for s in align(lines(original), lines(snippet)).steps]
    assert kinds == ["equal", "change", "insert", "equal"]


def test_two_equal_places_give_margin_zero():
    # the section `start()` / `value = 2` fits both identical blocks equally: margin 0, and the
    # two places named are the two `value = 1` lines (original lines 1 and 4, 0-based)
    original = "start()\nvalue = 1\nstop()\nstart()\nvalue = 1\nstop()"
    snippet = f"{M}\nstart()\nvalue = 2\nstop()\n{M}"
    a = align(lines(original), lines(snippet))
    assert a.margin == pytest.approx(0.0)
    assert sorted(a.places) in ([0, 3], [1, 4], [2, 5])


def test_deletion_shown_by_adjacency():
    # `open()` and `close()` shown next to each other inside one section: the two lines between
    # them are deleted; the rest of the file is kept by the markers
    original = "head()\nopen()\nlog('one')\nlog('two')\nclose()\ntail()"
    snippet = f"{M}\nopen()\nclose()\n{M}"
    assert reading(original, snippet) == lines("head()\nopen()\nclose()\ntail()")


def test_deletion_at_a_section_edge_is_never_made():
    # the snippet ends its section at `configure(...)` with a marker: `validate()` after it is kept
    # by the marker, and `prepare()` before the section's first line by the other marker
    original = "prepare()\nsetup()\nconfigure(debug=False)\nvalidate()\nrun()"
    snippet = f"{M}\nsetup()\nconfigure(debug=True)\n{M}"
    got = reading(original, snippet)
    assert got == lines("prepare()\nsetup()\nconfigure(debug=True)\nvalidate()\nrun()")
    assert align(lines(original), lines(snippet)).deleted == ()


def test_edge_line_is_matched_not_inserted():
    # the section's first line `finish(a)` exists twice; matching it (the end of the first block)
    # beats inserting it as new code at the section's edge, so the new block goes after it
    original = "def one():\n    finish(a)\n\ndef two():\n    finish(a)"
    snippet = f"{M}\ndef one():\n    finish(a)\n\ndef three():\n    report(b)\n{M}"
    got = [line for line in reading(original, snippet) if line.strip()]  # blank lines are the writer's concern
    assert got == lines("def one():\n    finish(a)\ndef three():\n    report(b)\ndef two():\n    finish(a)")


def test_weakest_line_is_a_distinctive_line_never_a_bracket():
    # margin 0 between the two `if` blocks; the least decided line (the one a refusal names) is the
    # changed statement or the header, never the lone `}` that both blocks share
    original = "if (a) {\n  go(1);\n}\nif (a) {\n  go(1);\n}"
    snippet = "// ... existing code ...\nif (a) {\n  go(2);\n}\n// ... existing code ..."
    o, s = lines(original), lines(snippet)
    a = align(o, s)
    assert a.margin == pytest.approx(0.0)
    assert s[a.snippet_index[a.weakest]].strip() in ("go(2);", "if (a) {")


def test_speed_on_a_20000_line_file():
    # 2,000 functions of 10 lines each; a snippet of two sections: well under half a second
    original = []
    for k in range(2000):
        original += [f"def function_{k}(a, b):", f"    x = a + {k}", "    if x > b:",
                     f"        return helper_{k}(x)", "    else:", "        return None", "", f"# note {k}", "", ""]
    snippet = [M, "def function_500(a, b):", "    x = a + 5001", "    if x > b:", M,
               "def function_1500(a, b):", "    x = a + 1500", "    y = 2", M]
    start = time.perf_counter()
    a = align(original, snippet)
    elapsed = time.perf_counter() - start
    got = reading_lines(a, original, snippet)
    assert got[5001] == "    x = a + 5001" and got[15001:15003] == ["    x = a + 1500", "    y = 2"]
    assert elapsed < 2.0  # about 0.5 s on an idle machine (1.15 s measured under a load of 7 on 2 cores); a step
    # quadratic in the file (20,000 x 20,000 cells) would not fit


def _code(got: list[str]) -> list[str]:
    return [line for line in got if line.strip()]  # blank lines are the writer's concern


def test_extended_identifier_is_a_change_not_a_new_line():
    # `APP_TEST_ENV` -> `APP_TEST_ENV_WD` at the section's last line: the words differ, their
    # parts (`app`, `test`, `env`, `wd`) mostly do not, so the line is changed, not added beside
    original = "fn main() {\n    configure();\n    set_env(\"APP_TEST_ENV\");\n    run();\n}"
    snippet = "// ... existing code ...\n    configure();\n    set_env(\"APP_TEST_ENV_WD\");\n// ... existing code ..."
    assert _code(reading(original, snippet)) == lines(
        "fn main() {\n    configure();\n    set_env(\"APP_TEST_ENV_WD\");\n    run();\n}")


def test_annotated_assignment_changes_the_plain_one():
    # `retries: Final[int] = 5` (the section's last line) assigns the target `retries = 3` does:
    # one line changed, not a new line with the old one kept by the marker after it
    original = "class Client:\n    retries = 3\n    name = 'c'\n"
    snippet = f"{M}\nclass Client:\n    retries: Final[int] = 5\n{M}"
    assert _code(reading(original, snippet)) == lines("class Client:\n    retries: Final[int] = 5\n    name = 'c'")


def test_lone_closer_matches_at_its_own_depth():
    # the snippet's first line `  end` closes `describe 'one'` (depth 2), not the `it` inside it
    # (depth 4): the new block goes after the outer `end`, not inside `describe 'one'`
    original = ("describe 'a'\n  describe 'one'\n    it 'x'\n      check(1)\n    end\n  end\n\n"
                "  describe 'two'\n    it 'y'\n      check(2)\n    end\n  end\nend")
    snippet = ("# ... existing code ...\n  end\n\n  describe 'new'\n    it 'z'\n      check(3)\n    end\n  end\n\n"
               "  describe 'two'\n# ... existing code ...")
    assert _code(reading(original, snippet)) == lines(
        "describe 'a'\n  describe 'one'\n    it 'x'\n      check(1)\n    end\n  end\n  describe 'new'\n    it 'z'\n"
        "      check(3)\n    end\n  end\n  describe 'two'\n    it 'y'\n      check(2)\n    end\n  end\nend")


def test_a_rival_that_writes_the_same_file_is_no_rival():
    # one more `render(page)` in a run of two: which copy is "the new one" changes nothing in the
    # file, so the margin is the lead over a reading that writes a different file, not 0
    original = lines("setup()\nrender(page)\nrender(page)\nteardown()\n")
    snippet = lines(f"{M}\nsetup()\nrender(page)\nrender(page)\nrender(page)\nteardown()\n{M}")
    a = align(original, snippet)
    assert a.margin > 0.01


def test_judge_refuses_only_a_confident_different_reading():
    # the change put on the first `x = 1` (the aligner places it after the unique `b()`, far ahead):
    # refused as an ambiguous place; the aligner's own file, or a tie, is never refused by the judge
    original, snippet = lines("a()\nx = 1\nb()\nx = 1\nc()"), lines(f"{M}\nb()\nx = 2\n{M}")
    wrong = lines("a()\nx = 2\nb()\nx = 1\nc()")
    refused = opinion.judge(original, snippet, wrong)
    assert refused is not None and refused.reason.refusal.kind == "ambiguous-place"
    assert refused.reading == lines("a()\nx = 1\nb()\nx = 2\nc()")
    assert refused.regions == ((1, 4),)  # the lines the two files differ over
    assert opinion.judge(original, snippet, lines("a()\nx = 1\nb()\nx = 2\nc()")) is None
    tie_original = lines("start()\nvalue = 1\nstop()\nstart()\nvalue = 1\nstop()")
    tie_snippet = lines(f"{M}\nstart()\nvalue = 2\nstop()\n{M}")
    other = lines("start()\nvalue = 1\nstop()\nstart()\nvalue = 2\nstop()")
    assert align(tie_original, tie_snippet).margin < opinion.JUDGE_MARGIN
    assert opinion.judge(tie_original, tie_snippet, other) is None


def test_instant_merge_judges_joint_alone_merges(monkeypatch):
    # by default the judge is asked only about a merge that the joint reading alone placed (the
    # greedy one refused): refused with both readings; with the judge off, written
    from fastapply.merge.align import greedy
    from fastapply.merge.result import Merged
    original = "import os\n\ndef load(path):\n    data = read(path)\n    return data\n\ndef save(path, data):\n    write(path, data)\n"
    snippet = "# ... existing code ...\ndef load(path):\n    data = read(path, 'rb')\n    return data\n# ... existing code ...\n"
    both = instant.instant_merge(original, snippet)
    asked = []
    monkeypatch.setattr(opinion, "judge", lambda o, s, m, chosen=False: asked.append(m) or opinion.Opinion(
        "the snippet fits two places in the original; include more unchanged lines", ["other"], ((2, 4),)))
    assert instant.instant_merge(original, snippet).text == both.text and not asked  # both readings placed it
    monkeypatch.setattr(greedy, "merge_lazy", lambda o, s: Merged(None, "greedy refused", None))
    refused = instant.instant_merge(original, snippet)
    assert asked and not refused.merged and refused.refusal.kind == "ambiguous-place"
    assert refused.alternatives == (both.text, "other\n") and refused.regions == ((2, 4),)
    monkeypatch.setattr(opinion, "JUDGE", False)
    assert instant.instant_merge(original, snippet).text == both.text


def test_judge_names_the_line_placed_apart_and_both_places():
    # the refusal names the snippet line the two files place differently (`x = 2`, never the
    # generic `}` or a blank line the files also differ by) and the original lines of both places:
    # where the merge put it (over line 2) and where the aligner reads it (over line 4)
    original, snippet = lines("a()\nx = 1\nb()\nx = 1\nc()"), lines(f"{M}\nb()\nx = 2\n{M}")
    refused = opinion.judge(original, snippet, lines("a()\nx = 2\nb()\nx = 1\nc()"))
    assert refused.reason.startswith("`x = 2` fits two places in the original: near line 2, where the merge put it, "
                                     "and near line 4, where a scored alignment")
    gen = lines("fn a() {\n    x = 1;\n}\n\nfn b() {\n    x = 1;\n}\n")
    both = opinion._placed_apart(gen, lines("fn b() {\n    x = 2;\n}"), lines("fn a() {\n    x = 2;\n}\n\nfn b() {\n    x = 1;\n}\n"),
                                 lines("fn a() {\n    x = 1;\n}\n\nfn b() {\n    x = 2;\n}\n"))
    assert both == ("x = 2;", 1, 5)


def test_a_rival_pass_copies_the_rows_before_its_forbidden_line():
    # _margin re-aligns with one line's place ruled out; the rows before that line do not depend on it, so
    # they are copied from the unforbidden pass: the same table as a pass from scratch
    import numpy as np

    from fastapply.merge.align import line_costs as costs
    from fastapply.merge.align.scored import _forward, _items

    original = lines("a()\nx = 1\nb()\nx = 1\nc()\nx = 1\nd()")
    snippet = lines(f"{M}\nb()\nx = 2\n{M}\nd()\n{M}")
    items, _ = _items(snippet, original)
    vocab = frozenset().union(*(costs.tokens(x) for x in items if x is not None))
    O = costs.Original([costs.key(l) for l in original if l.strip()], vocab)
    unforbidden = _forward(items, O)
    j = next(k for k, x in enumerate(items) if x == "x = 2")
    for forbid in ({j: ({3}, False)}, {j: (set(), True)}, {j: ({1, 3, 5}, False)}):
        fresh, fresh_d = _forward(items, O, forbid)
        reused, reused_d = _forward(items, O, forbid, unforbidden)
        assert np.array_equal(fresh, reused)
        assert all((a is None and b is None) or np.array_equal(a, b) for a, b in zip(fresh_d, reused_d))
    assert not np.array_equal(_forward(items, O, {j: ({3}, False)})[0], unforbidden[0])  # the forbid mattered
