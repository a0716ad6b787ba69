"""FileEditor: read, apply, write atomically, diff; on any failure nothing is written."""

import os

import pytest

from fastapply.errors import InputError
from fastapply.mcp.roots import PathRejected
from fastapply.mcp.tool import EditFailed, FileEditor, advice
from tests.fakes import FakeLoaded

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
MERGEABLE = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"
# the anchor `x = 1 / return 2` appears twice: the instant merge refuses
AMBIGUOUS_ORIGINAL = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 2\n"
AMBIGUOUS_SNIPPET = "# ... existing code ...\n    x = 1\n    return 3\n# ... existing code ...\n"
AMBIGUOUS_EXPECTED = "def f():\n    x = 1\n    return 3\n\n\ndef g():\n    x = 1\n    return 2\n"


def no_model():
    raise AssertionError("the model must not be loaded")


@pytest.fixture
def project(tmp_path):
    (tmp_path / "a.py").write_text(ORIGINAL)
    (tmp_path / "b.py").write_text(AMBIGUOUS_ORIGINAL)
    return tmp_path


def test_instant_merge_writes_the_file_and_returns_the_diff(project):
    out = FileEditor([project], loader=no_model).edit("a.py", "I return 10 from f", MERGEABLE)
    assert (project / "a.py").read_text() == EXPECTED
    assert out.path == "a.py" and "-    return 1\n+    return 10\n" in out.diff and "path=instant" in out.how
    assert out.message().startswith("Applied the edit to a.py") and not out.by_model


def test_refusal_writes_nothing_and_says_what_to_add(project):
    with pytest.raises(EditFailed) as exc:
        FileEditor([project], strategy="instant").edit("b.py", "", AMBIGUOUS_SNIPPET)
    message = str(exc.value)
    # the answer is the refusal as data (kind, lines, fix), no longer a sentence and generic advice
    assert message.startswith("b.py was not changed: the edit was refused (ambiguous-place)")
    assert "matches 2 places" in message and "Fix: " in message and "file line 2 `x = 1`" in message
    assert (project / "b.py").read_text() == AMBIGUOUS_ORIGINAL
    assert sorted(p.name for p in project.iterdir()) == ["a.py", "b.py"]  # no temporary file left


def test_auto_rescues_a_refusal_with_the_model(project):
    out = FileEditor([project], loaded=FakeLoaded(AMBIGUOUS_EXPECTED)).edit("b.py", "I return 3 from f", AMBIGUOUS_SNIPPET)
    assert (project / "b.py").read_text() == AMBIGUOUS_EXPECTED
    assert "path=model" in out.how and "+    return 3" in out.diff
    assert out.by_model and "check that the diff is what you meant" in out.message()


def test_an_unfinished_model_answer_writes_nothing(project):
    editor = FileEditor([project], strategy="model", loaded=FakeLoaded(EXPECTED, close=False))
    with pytest.raises(EditFailed, match="the model did not finish the file"):
        editor.edit("a.py", "", MERGEABLE)
    assert (project / "a.py").read_text() == ORIGINAL


def test_a_model_answer_that_fails_a_guard_writes_nothing(project):
    # the answer drops g(), which the snippet neither shows nor marks as deleted
    editor = FileEditor([project], strategy="model", loaded=FakeLoaded("def f():\n    return 10\n"))
    with pytest.raises(EditFailed) as exc:
        editor.edit("a.py", "", "def f():\n    return 10\n# ... existing code ...\n")
    message = str(exc.value)
    assert "a.py was not changed: the model's answer failed the deletions guard" in message
    assert "show the unchanged lines just before and just after it" in message
    assert (project / "a.py").read_text() == ORIGINAL


def test_pipeline_errors_become_edit_failures(project):
    editor = FileEditor([project], strategy="model", loaded=FakeLoaded(EXPECTED, context_length=100))
    with pytest.raises(EditFailed, match="a.py was not changed: .*context.*smaller edits"):
        editor.edit("a.py", "", MERGEABLE)
    assert (project / "a.py").read_text() == ORIGINAL


def test_new_files_are_created_only_from_whole_content(project):
    editor = FileEditor([project], loader=no_model)
    out = editor.edit("new.py", "I add a module", "X = 1\n")
    assert out.created and (project / "new.py").read_text() == "X = 1\n" and out.diff.startswith("--- /dev/null")
    with pytest.raises(EditFailed, match="does not exist"):
        editor.edit("other.py", "", "# ... existing code ...\nY = 2\n")
    assert not (project / "other.py").exists()


def test_bad_requests(project):
    editor = FileEditor([project], loader=no_model)
    with pytest.raises(EditFailed, match="empty"):
        editor.edit("a.py", "", "  \n")
    with pytest.raises(PathRejected):
        editor.edit("../a.py", "", MERGEABLE)
    with pytest.raises(InputError, match="code_edit is .* bytes, over the limit"):
        editor.edit("a.py", "", "x = 1\n" * 300_000)
    (project / "bin.dat").write_bytes(b"\x00\x01")
    with pytest.raises(InputError, match="binary"):
        editor.edit("bin.dat", "", "x\n")


def test_a_bom_is_kept_in_the_file_and_ignored_in_the_snippet(project):
    (project / "bom.py").write_text("\ufeff" + ORIGINAL)
    FileEditor([project], loader=no_model).edit("bom.py", "", "\ufeff" + MERGEABLE)
    assert (project / "bom.py").read_text() == "\ufeff" + EXPECTED


def test_unchanged_file_is_not_rewritten(project):
    before = (project / "a.py").stat().st_mtime_ns
    out = FileEditor([project], loader=no_model).edit("a.py", "", "def f():\n    return 1\n# ... existing code ...\n")
    assert out.diff == "" and "unchanged" in out.message()
    assert (project / "a.py").stat().st_mtime_ns == before


@pytest.mark.parametrize("reason,expected", [
    ("section 1 matches 3 places in the original", "exactly one place"),
    ("section 2 could not be found in the original", "Copy the unchanged context lines exactly"),
    ("far more of the original would be deleted than the snippet shows", "existing code"),
    ("the merged python file no longer parses at line 3", "whole statements"),
    ("something new", "search/replace"),
])
def test_advice_fits_the_reason(reason, expected):
    assert expected in advice(reason)


# -- input that cannot become a text file, files the agent may not replace (issue 18 items 10, 11) --


@pytest.mark.parametrize("target_file, reason", [
    ("x" * 5000, "target_file is 5000 characters long, over the limit of 4096"),
    ("a" * 300 + ".py", "(303 characters): File name too long"),
    ("\ud800.py", "target_file is not valid Unicode (a lone surrogate at character 0)"),
])
def test_a_path_the_filesystem_cannot_hold_is_refused_with_its_reason(project, target_file, reason):
    with pytest.raises(PathRejected) as exc:
        FileEditor([project], loader=no_model).edit(target_file, "", MERGEABLE)
    assert reason in str(exc.value) and len(str(exc.value)) < 200
    assert sorted(p.name for p in project.iterdir()) == ["a.py", "b.py"]


@pytest.mark.parametrize("field", ["code_edit", "instructions"])
def test_a_lone_surrogate_is_refused(project, field):
    args = {"target_file": "a.py", "instructions": "I return 10", "code_edit": MERGEABLE}
    args[field] = args[field].replace("10", "1\ud83d0")
    with pytest.raises(EditFailed, match=rf"a.py was not changed: {field} is not valid Unicode \(a lone surrogate, U\+D83D"):
        FileEditor([project], loader=no_model).edit(**args)
    assert (project / "a.py").read_text() == ORIGINAL


@pytest.mark.parametrize("target", ["a.py", "new.py"])
def test_a_nul_in_code_edit_is_refused(project, target):
    editor = FileEditor([project], strategy="model", loaded=FakeLoaded(EXPECTED.replace("10", "1\x000")))
    snippet = MERGEABLE if target == "a.py" else "x = '\x00'\n"
    with pytest.raises(EditFailed, match=f"{target} was not changed: code_edit contains a NUL character"):
        editor.edit(target, "", snippet.replace("10", "1\x000"))
    assert (project / "a.py").read_text() == ORIGINAL and not (project / "new.py").exists()


def test_a_hard_linked_file_gets_advice_an_agent_can_follow(project):
    os.link(project / "a.py", project / "other.py")
    with pytest.raises(EditFailed) as exc:
        FileEditor([project], loader=no_model).edit("a.py", "", MERGEABLE)
    message = str(exc.value)
    assert message.startswith("a.py was not changed: it has 2 hard links") and "Tell the user" in message
    assert " -o" not in message and "cp a.py a.py.copy && mv a.py.copy a.py" in message
    assert (project / "a.py").read_text() == (project / "other.py").read_text() == ORIGINAL


def test_a_read_only_file_is_refused_before_the_model_runs(project):
    os.chmod(project / "a.py", 0o444)
    with pytest.raises(EditFailed) as exc:
        FileEditor([project], strategy="model", loader=no_model).edit("a.py", "", MERGEABLE)
    message = str(exc.value)
    assert message.startswith("a.py was not changed: it is read-only (mode 0444)")
    assert "Tell the user" in message and "--force" not in message
    assert (project / "a.py").read_text() == ORIGINAL and (project / "a.py").stat().st_mode & 0o777 == 0o444


def test_a_refusal_with_many_options_shows_one_per_part_first_and_counts_the_rest():
    from fastapply.mcp.tool import refusal_answer
    from fastapply.merge.refuse.ranking import shown_options as ranked_options
    from fastapply.merge.refuse.refusal import Edit, Option, Refusal

    # 20 alternative pins for the section at code_edit line 2, then one for the section at line 9
    pins = [Option(f"pin place {n}", (Edit("insert", at=2, text=f"line {n}"),)) for n in range(20)]
    other = Option("pin the other section", (Edit("insert", at=9, text="other"),))
    marker = Option("add a marker at the end", (Edit("marker", at=12, text="# ..."),))
    refusal = Refusal("ambiguous-place", "section 1 matches 20 places", "pin it", options=(*pins, other, marker))
    shown, left, elsewhere = ranked_options(refusal.options, 5)
    assert other in shown and marker in shown and shown[:3] == pins[:3] and (left, elsewhere) == (17, 0)
    answer = refusal_answer("a.py", refusal, 8)
    assert "Option 8: add a marker at the end" in answer and "Option 7: pin the other section" in answer
    assert "22 options;" in answer and "14 more option(s) not shown: 14 alternative(s)" in answer
    # fewer groups than the cap's room: the cut is counted by where it falls
    _, left, elsewhere = ranked_options(tuple(Option(f"o{n}", (Edit("insert", at=n, text="x"),)) for n in range(1, 12)), 8)
    assert (left, elsewhere) == (3, 3)


def test_options_that_share_a_code_edit_line_are_one_part():
    from fastapply.merge.refuse.ranking import shown_options as ranked_options
    from fastapply.merge.refuse.refusal import Edit, Option

    a = Option("a", (Edit("insert", at=2, text="x"),))
    ab = Option("ab", (Edit("insert", at=2, text="x"), Edit("insert", at=5, text="y")))  # links line 2 and line 5
    b = Option("b", (Edit("insert", at=5, text="y"),))
    d = Option("d", (Edit("marker", at=9, text="# ..."),))
    shown, left, elsewhere = ranked_options((a, ab, b, d), 2)
    assert shown == [a, d] and (left, elsewhere) == (2, 0)


def test_an_answer_spells_out_first_the_options_that_agree_with_the_code_edits_unique_lines():
    from fastapply.mcp.tool import refusal_answer
    from fastapply.merge.refuse.refusal import Edit, Option, Refusal

    handlers = [f"def handler_{n}(request):\n    return compute(request)\n\n" for n in range(10)]
    original = "".join(handlers[:5]) + "def the_only_helper_with_this_name():\n    pass\n\n" + "".join(handlers[5:])
    # code_edit shows the helper (a line once in the file), then a change to a handler after it
    code_edit = "# ... existing code ...\ndef the_only_helper_with_this_name():\n# ... existing code ...\n    return compute(request) + 1\n"
    line_of = {n: 1 + 3 * n + (3 if n >= 5 else 0) for n in range(10)}
    places = [Option(f"add the unchanged original line {line_of[n]} above code_edit line 4",
                     (Edit("insert", at=4, text=f"def handler_{n}(request):", original_line=line_of[n]),)) for n in range(10)]
    refusal = Refusal("ambiguous-place", "section 2 matches 10 places", "pin it", options=tuple(places))
    assert "Option 1: add the unchanged original line 1 above" in refusal_answer("a.py", refusal, 8)
    answer = refusal_answer("a.py", refusal, 8, original=original, code_edit=code_edit)
    # handlers 0-4 lie above the helper: a place there contradicts the code_edit's order
    assert f"Option 1: add the unchanged original line {line_of[5]} above" in answer
    assert "Option 6: add the unchanged original line 1 above" in answer and "2 more option(s) not shown" in answer


def test_the_fix_does_not_name_again_the_options_the_answer_lists_ranked():
    from fastapply.mcp.tool import refusal_answer
    from fastapply.merge.refuse.refusal import Edit, Option, Refusal

    a = Option("add the unchanged original line 3 above snippet line 2", (Edit("insert", at=2, text="x", original_line=3),))
    b = Option("add the unchanged original line 9 above snippet line 2", (Edit("insert", at=2, text="y", original_line=9),))
    refusal = Refusal("ambiguous-place", "section 1 matches 2 places", f"pin the place you mean: {a.says}; or {b.says}",
                      options=(a, b))
    answer = refusal_answer("a.py", refusal)
    assert "Fix: pin the place you mean (the options below). Then call" in answer
    assert f"Option 1: {a.says}" in answer and f"Option 2: {b.says}" in answer
    # one option: the fix says it as it is
    alone = Refusal("ambiguous-place", "section 1 matches 2 places", f"pin the place you mean: {a.says}", options=(a,))
    assert f"Fix: pin the place you mean: {a.says}. Then call" in refusal_answer("a.py", alone)
