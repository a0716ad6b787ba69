"""The pipeline end to end on a fake apply model: streaming, conventions, strategies, drafts."""

import pytest

from fastapply.pipeline import apply_edit, stream_edit
from fastapply.errors import ContextLengthError, InputError
from tests.fakes import FakeLoaded

ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
SNIPPET = "def f():\n    return 10\n# ... existing code ...\n"


def test_model_path_streams_the_updated_file_and_reports_stats():
    stream = stream_edit(ORIGINAL, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED))
    pieces = list(stream)
    r = stream.result
    assert "".join(pieces) == r.text == EXPECTED
    assert len(pieces) > 1  # streamed, not one blob
    assert r.path == "model" and r.complete and r.draft == "original"
    s = r.stats
    assert s.completion_tokens == len(FakeLoaded(EXPECTED).script) and s.finish_reason == "stop"
    assert s.accepted_prediction_tokens > 0.8 * s.completion_tokens  # the edit is small
    assert s.output_chars == len(EXPECTED) and s.chars_per_s > 0


@pytest.mark.parametrize("crlf,final_newline", [(False, False), (True, True), (True, False)])
def test_line_endings_and_final_newline_follow_the_original(crlf, final_newline):
    def conv(text):
        text = text if final_newline else text.rstrip("\n")
        return text.replace("\n", "\r\n") if crlf else text

    r = apply_edit(conv(ORIGINAL), SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED))
    assert r.text == conv(EXPECTED)


def test_unchanged_file_is_accepted_almost_entirely_from_the_draft():
    r = apply_edit(ORIGINAL, ORIGINAL, strategy="model", loaded=FakeLoaded(ORIGINAL))
    assert r.text == ORIGINAL
    assert r.stats.rejected_prediction_tokens == 0
    assert r.stats.forward_passes <= 6


def test_auto_uses_the_instant_merge_without_loading_a_model():
    def no_model():
        raise AssertionError("the model must not be loaded")

    snippet = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"
    r = apply_edit(ORIGINAL, snippet, strategy="auto", loader=no_model)
    assert r.path == "instant" and r.text == EXPECTED and r.complete and r.method == "lazy"


def test_auto_answers_a_label_line_with_the_instant_refusal_without_loading_a_model():
    # a model would copy `# NEW: ...` into the file: only the planner can fix the snippet
    def no_model():
        raise AssertionError("the model must not be loaded")

    snippet = "def f():\n    # NEW: a bigger value\n    return 10\n# ... existing code ...\n"
    r = apply_edit(ORIGINAL, snippet, strategy="auto", loader=no_model)
    assert not r.complete and r.refusal.kind == "form" and r.refusal.detail == {"labels": (2,)}
    assert "remove the label line 2" in [o.says for o in r.refusal.options]
    assert r.refusal.options[0].says.startswith("remove the label line 2")  # first, chained or alone


def test_auto_falls_back_to_the_model_with_the_candidate_as_first_draft():
    # the section's anchor "return 2" appears twice: ambiguous for the instant path
    original = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 2\n"
    snippet = "# ... existing code ...\n    x = 1\n    return 3\n# ... existing code ...\n"
    expected = "def f():\n    x = 1\n    return 3\n\n\ndef g():\n    x = 1\n    return 2\n"
    r = apply_edit(original, snippet, strategy="auto", loaded=FakeLoaded(expected))
    assert r.path == "model" and r.refused_reason and r.text == expected
    assert r.draft == "candidate+original"


def test_the_refused_merges_candidate_is_drafted_first():
    """A model that writes exactly the refused merge's candidate verifies it from the draft with
    nothing rejected; with the original alone as the draft the same answer costs rejections."""
    from fastapply.merge.instant import instant_merge

    original = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 2\n"
    snippet = "# ... existing code ...\n    x = 1\n    return 3\n# ... existing code ...\n"
    candidate = instant_merge(original, snippet).candidate
    assert candidate and candidate != original
    r = apply_edit(original, snippet, strategy="auto", loaded=FakeLoaded(candidate))
    alone = apply_edit(original, snippet, strategy="model", loaded=FakeLoaded(candidate))
    assert r.text == alone.text == candidate
    assert r.draft == "candidate+original" and alone.draft == "original"
    assert r.stats.rejected_prediction_tokens == 0 < alone.stats.rejected_prediction_tokens


def test_instant_strategy_reports_a_refusal_instead_of_guessing():
    r = apply_edit("a\nb\na\nb\n", "# ... existing code ...\na\nB\n# ... existing code ...\n", strategy="instant")
    assert r.path == "instant" and not r.complete and r.refused_reason


def test_truncated_answer_is_marked_incomplete():
    r = apply_edit(ORIGINAL, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED, close=False), max_tokens=60)
    assert not r.complete and r.stats.finish_reason == "length"


def test_bad_inputs_raise_clear_errors():
    with pytest.raises(InputError, match="empty"):
        apply_edit(ORIGINAL, "  \n", loaded=FakeLoaded(EXPECTED))
    with pytest.raises(InputError, match="NUL"):
        apply_edit("a\x00b", SNIPPET, loaded=FakeLoaded(EXPECTED))
    with pytest.raises(InputError, match="strategy"):
        apply_edit(ORIGINAL, SNIPPET, strategy="fast", loaded=FakeLoaded(EXPECTED))
    with pytest.raises(ContextLengthError, match="context"):
        apply_edit(ORIGINAL, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED, context_length=200))


# A model answer that applies the edit but drops g() entirely: the damage the guards exist for.
DAMAGED = "def f():\n    return 10\n"


def test_a_model_answer_that_fails_a_guard_is_not_complete():
    r = apply_edit(ORIGINAL, SNIPPET, strategy="model", loaded=FakeLoaded(DAMAGED))
    assert r.text == DAMAGED and r.stats.finish_reason == "stop"  # the model did close its answer
    assert not r.complete and r.guarded and r.guard == "deletions" and "g()" in r.guard_reason
    assert "deletions guard" in r.summary_line()


HELPER = "def f():\n    a = 1\n    return a\n\n\ndef old_helper():\n    return 2\n"
HELPER_EDITED = "def f():\n    a = 10\n    return a\n\n\ndef old_helper():\n    return 2\n"
HELPER_SNIPPET = "def f():\n    a = 10\n    return a\n# ... existing code ...\n"


def test_the_instruction_refuses_a_model_answer_that_keeps_what_it_says_to_remove():
    # the answer applies the snippet but keeps old_helper, which the instruction says to delete
    said = "Change f to return 10 and remove the unused `old_helper`"
    r = apply_edit(HELPER, HELPER_SNIPPET, said, strategy="model", loaded=FakeLoaded(HELPER_EDITED))
    assert not r.complete and r.guard == "intent" and "`old_helper`" in r.guard_reason
    kept = apply_edit(HELPER, HELPER_SNIPPET, "Change f to return 10", strategy="model", loaded=FakeLoaded(HELPER_EDITED))
    assert kept.complete and kept.text == HELPER_EDITED


def test_the_instruction_refuses_an_instant_merge_that_keeps_what_it_says_to_remove():
    r = apply_edit(HELPER, HELPER_SNIPPET, "Return 10 from f and remove old_helper()", strategy="instant")
    assert not r.complete and r.refusal.kind == "unshown-deletion" and "line 6" in r.refused_reason
    assert apply_edit(HELPER, HELPER_SNIPPET, "Return 10 from f", strategy="instant").text == HELPER_EDITED


def test_auto_guards_the_model_answer_after_an_instant_refusal():
    original = "def f():\n    x = 1\n    return 2\n\n\ndef g():\n    x = 1\n    return 2\n"
    snippet = "# ... existing code ...\n    x = 1\n    return 3\n# ... existing code ...\n"
    unapplied = original  # the model copied the file and ignored the edit
    r = apply_edit(original, snippet, strategy="auto", loaded=FakeLoaded(unapplied))
    assert r.path == "model" and r.refused_reason
    assert not r.complete and r.guard == "snippet_lines" and "return 3" in r.guard_reason


def test_an_unclosed_answer_fails_the_closed_guard():
    r = apply_edit(ORIGINAL, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED, close=False), max_tokens=60)
    assert not r.complete and r.guard == "closed"


def _long_file(n_funcs=60):
    parts = [f"def func_{i}(x):\n    y = x + {i}\n    return y\n" for i in range(n_funcs)]
    return "\n\n".join(parts)


class _Refusal:
    """An instant merge refusal that says where it was unsure (as merge/instant.py reports it)."""

    merged = False
    text = None
    method = "lazy"
    rung = None
    candidate = None

    def __init__(self, regions):
        self.regions = regions
        self.refused_reason = "ambiguous"


@pytest.mark.parametrize("crlf", [False, True])
def test_auto_rewrites_only_the_undecided_window_and_splices_it_back(crlf):
    original = _long_file()
    expected = original.replace("    y = x + 30\n", "    y = x + 30\n    y *= 2\n")
    snippet = "# ... existing code ...\n    y = x + 30\n    y *= 2\n# ... existing code ...\n"
    lines = original.split("\n")
    at = lines.index("    y = x + 30")
    if crlf:
        original, expected = original.replace("\n", "\r\n"), expected.replace("\n", "\r\n")
    # the model writes the window's edited text: the window's lines, one more for the insertion
    from fastapply.rewrite.window import choose_window

    w = choose_window(lines, [(at, at + 1)])
    window_expected = "".join(line + "\n" for line in expected.replace("\r\n", "\n").split("\n")[w.start : w.end + 1])
    stream = stream_edit(original, snippet, strategy="auto", merge=_Refusal([(at, at + 1)]),
                         loaded=FakeLoaded(window_expected))
    text = "".join(stream)
    r = stream.result
    assert r.window is not None and r.window[1] - r.window[0] < 20  # not the 240-line file
    assert text == r.text == expected and r.complete, r.guard_reason
    assert r.stats.prompt_tokens < 0.3 * len(original)  # the prompt holds the window, not the file
    assert "window=lines" in r.summary_line()


def test_no_window_for_a_marker_free_snippet_that_may_be_the_whole_file():
    # Without markers nothing is elided: a window would keep the lines outside it that the snippet
    # (the whole new file) dropped. The model rewrites the whole file instead.
    original = _long_file(8)
    snippet = "".join(original.split("def func_3")[0])  # the file's head only, no markers
    at = original.split("\n").index("    y = x + 2")
    r = apply_edit(original, snippet, strategy="auto", merge=_Refusal([(at, at + 1)]), loaded=FakeLoaded(snippet))
    assert r.window is None


def test_no_window_for_the_model_strategy_or_without_regions():
    original = _long_file(5)
    r = apply_edit(original, "def func_1(x):\n    y = x + 100\n    return y\n", strategy="model",
                   loaded=FakeLoaded(original))
    assert r.window is None


def test_a_window_answer_that_runs_on_past_its_window_is_not_written():
    # The model copies on into the code after its window: spliced, that line would be doubled.
    original = _long_file()
    snippet = "# ... existing code ...\n    y = x + 30\n    y *= 2\n# ... existing code ...\n"
    lines = original.split("\n")
    at = lines.index("    y = x + 30")
    from fastapply.rewrite.window import choose_window

    w = choose_window(lines, [(at, at + 1)])
    ran_on = "".join(line + "\n" for line in lines[w.start : w.end]).replace("y = x + 30\n", "y = x + 30\n    y *= 2\n")
    ran_on += "\n\n" + lines[w.end + 2] + "\n"  # the next function's first line
    r = apply_edit(original, snippet, strategy="auto", merge=_Refusal([(at, at + 1)]), loaded=FakeLoaded(ran_on))
    assert r.window is not None and not r.complete
    assert r.guard == "duplicates" and "goes on past" in r.guard_reason


def test_auto_refuses_a_window_answer_that_drops_the_code_a_closing_marker_keeps():
    # issue 18 item 1: the instant merge cannot tell whether `return ctx.fallback` is new or replaces
    # `return ctx.default` and hands the model a window; the model's answer changes the line and
    # drops the three lines after it. Before the fix this was written as complete (exit 0).
    from fastapply.merge.instant import instant_merge
    from fastapply.rewrite.window import choose_window
    from tests.merge.gate.test_kept_code import HANDLER_5, _handlers, _replace_in_handler_5

    lines = _handlers()
    original, snippet = "\n".join(lines) + "\n", "\n".join(HANDLER_5) + "\n"
    merge = instant_merge(original, snippet)
    assert not merge.merged and merge.regions
    damaged = _replace_in_handler_5(lines, ["        return ctx.default", "    total = value * 7",
                                            "    ctx.log('handled 5', total)", "    return total"],
                                    ["        return ctx.fallback"])
    w = choose_window(lines, merge.regions)
    answer = "".join(l + "\n" for l in damaged[w.start : w.end - 3])  # the window, three lines shorter
    r = apply_edit(original, snippet, strategy="auto", merge=merge, loaded=FakeLoaded(answer))
    assert r.path == "model" and r.window is not None
    assert not r.complete and r.guard == "deletions" and "return ctx.fallback" in r.guard_reason


@pytest.mark.parametrize("original,expected", [
    ("def f():\r    return 1\r\r\rdef g():\r    return 2\r", "def f():\r    return 10\r\r\rdef g():\r    return 2\r"),
    ("def f():\r\n    return 1\n\n\ndef g():\r\n    return 2\n", "def f():\r\n    return 10\n\n\ndef g():\r\n    return 2\n"),
])
def test_the_model_path_keeps_cr_only_and_mixed_line_endings(original, expected):
    # issue 18 item 2: the answer (LF, as the model writes it) comes back in the file's own endings,
    # line by line for a mixed file; streamed text and the result agree
    stream = stream_edit(original, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED))
    text = "".join(stream)
    assert stream.result.complete, stream.result.guard_reason
    assert text == stream.result.text == expected
