"""benchmarks/ablate.py: every switch still finds its rule, and a switch changes what it should."""

import importlib.util
import multiprocessing
import pathlib
import sys

import pytest

from fastapply.merge.instant import instant_merge

_PATH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "ablate.py"


def _load():
    spec = importlib.util.spec_from_file_location("ablate", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ablate"] = module  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


ablate = _load()


def _apply(name: str) -> str | None:
    switch = next(s for s in ablate.SWITCHES if s.name == name)
    try:
        ablate.switch_off(switch)
    except SystemExit as exc:
        return str(exc)
    return None


def test_every_switch_patches_its_rule():
    """A rule renamed or rewritten breaks its switch here, not silently in a measurement."""
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(2, maxtasksperchild=1) as pool:
        errors = dict(zip((s.name for s in ablate.SWITCHES), pool.map(_apply, [s.name for s in ablate.SWITCHES], chunksize=1)))
    assert {k: v for k, v in errors.items() if v} == {}


def test_switch_names_are_unique():
    names = [s.name for s in ablate.SWITCHES]
    assert len(names) == len(set(names))


def _merged_with(name: str | None, original: str, snippet: str):
    if name:
        assert _apply(name) is None
    return instant_merge(original, snippet).text


def test_a_switch_turns_its_rule_off():
    """A marker-free excerpt merges by the excerpt reading; with `excerpt` switched off it is refused."""
    original = "".join(f"value_{i} = compute({i})\n" for i in range(12))
    snippet = "value_3 = compute(3)\nvalue_4 = compute(44)\nvalue_5 = compute(5)\n"
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        on = pool.apply(_merged_with, (None, original, snippet))
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        off = pool.apply(_merged_with, ("excerpt", original, snippet))
    assert on == original.replace("compute(4)", "compute(44)")
    assert off is None


def test_an_unknown_source_pattern_is_a_clear_error():
    switch = ablate.Switch("x", "exit", "fastapply.merge.decide.two_readings:two_readings", ("source", "no such line", ""))
    with pytest.raises(SystemExit, match="occurs 0 times"):
        ablate.switch_off(switch)


def test_the_table_reads_each_rule_from_its_side():
    counts = {k: 0 for k in ablate.COLS}
    counts.update({"right>refused": 2, "wrong>refused": 1, "+refused": 3, "+wrong": 0, "+right": 0})
    report = {"switches": {"pinned": {"kind": "tie", "target": "fastapply.merge.align.ties:pinned_place",
                                      "protects": "", "total": counts}}}
    counts.update({"right>wrong": 1, "refused>right": 1})
    row = ablate.markdown_table(report).split("\n")[2]
    assert row.startswith("| pinned | tie | `align.ties.pinned_place` |")
    # gained: 2 right it buys + 2 for a right row it keeps from turning wrong; lost: 1 wrong it
    # makes + 1 right it refuses; 1 row turns wrong without it
    assert row.endswith("| 4 | 2 | 1 |")


def test_an_unknown_switch_name_is_a_one_line_error(capsys, tmp_path):
    data = tmp_path / "set.jsonl"
    data.write_text('{"original": "a\\n", "snippet": "b\\n", "expected": "b\\n"}\n')
    assert ablate.main([str(data), "--only", "no-such-rule"]) == 2
    assert "unknown switch(es): no-such-rule" in capsys.readouterr().err


def _reached(original: str, snippet: str):
    reached: set = set()
    ablate._track(ablate.SWITCHES, reached)
    return instant_merge(original, snippet).text, sorted(reached)


def test_a_row_reaches_only_the_rules_that_could_change_it():
    """The excerpt row reaches `excerpt` (its reading is what writes it), but no guard (each passed
    it: returned its off value None) and no skipped `if` of two_readings (none held); the tracking
    leaves the result as it was."""
    original = "".join(f"value_{i} = compute({i})\n" for i in range(12))
    snippet = "value_3 = compute(3)\nvalue_4 = compute(44)\nvalue_5 = compute(5)\n"
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1, maxtasksperchild=1) as pool:
        text, reached = pool.apply(_reached, (original, snippet))
    assert text == original.replace("compute(4)", "compute(44)")
    assert "excerpt" in reached
    assert not [n for n in reached if n.startswith("guard:")]
    assert not {"deletes-less", "twin-joint", "blank-lines-only"} & set(reached)


def test_a_rule_that_raises_or_acts_on_its_arguments_is_reached():
    """A rule whose off value is None reaches a row where it raises (lazy placement refuses by
    raising) or, annotated `-> None`, wherever it is called (it acts on its arguments)."""
    import types

    module = types.ModuleType("fastapply._ablate_probe")
    exec("def raises(x):\n    raise ValueError(x)\n\n"
         "def appends(out: list, x) -> None:\n    out.append(x)\n\n"
         "def passes(x):\n    return None\n", vars(module))
    sys.modules[module.__name__] = module
    try:
        switches = [ablate.Switch(n, "guard", f"{module.__name__}:{n}", ("return", None)) for n in ("raises", "appends", "passes")]
        reached: set = set()
        ablate._track(switches, reached)
        with pytest.raises(ValueError):
            module.raises(1)
        module.appends([], 1)
        module.passes(1)
        assert reached == {"raises", "appends"}
    finally:
        del sys.modules[module.__name__]
