"""prompts: what `normalise` removes (BOM, CRLF, a missing final newline) `restore` puts back, on the
text layer and through the model path (the fake model of tests/fakes.py)."""

from __future__ import annotations

import pytest

from fastapply.pipeline import apply_edit, stream_edit
from fastapply.rewrite import prompts
from tests.fakes import FakeLoaded

BOM = "\ufeff"
ORIGINAL = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
EXPECTED = "def f():\n    return 10\n\n\ndef g():\n    return 2\n"
SNIPPET = "def f():\n    return 10\n# ... existing code ...\n"


def styled(text: str, bom: bool, crlf: bool, final_newline: bool) -> str:
    if not final_newline:
        text = text.rstrip("\n")
    if crlf:
        text = text.replace("\n", "\r\n")
    return (BOM if bom else "") + text


@pytest.mark.parametrize("bom", [False, True])
@pytest.mark.parametrize("crlf", [False, True])
@pytest.mark.parametrize("final_newline", [False, True])
def test_restore_undoes_normalise(bom, crlf, final_newline):
    original = styled(ORIGINAL, bom, crlf, final_newline)
    conv = prompts.conventions(original)
    assert (conv.bom, conv.crlf, conv.final_newline) == (bom, crlf, final_newline)
    body = prompts.normalise(original)
    assert body == ORIGINAL  # what the model sees: no BOM, LF, a final newline
    assert prompts.restore(body, conv) == original
    assert prompts.answer_text(original) == ORIGINAL + prompts.ANSWER_SUFFIX  # the draft has no BOM either


def test_a_bom_only_file_and_an_answer_that_already_has_one():
    assert prompts.conventions(BOM) == prompts.TextConventions(crlf=False, final_newline=True, bom=True)
    conv = prompts.conventions(BOM + "x\n")
    assert prompts.restore(BOM + "y\n", conv) == BOM + "y\n"  # never two
    assert prompts.without_bom("x" + BOM) == "x" + BOM  # only a leading BOM is an encoding mark


@pytest.mark.parametrize("crlf", [False, True])
def test_the_model_path_keeps_the_bom_streamed_and_whole(crlf):
    original = styled(ORIGINAL, True, crlf, True)
    stream = stream_edit(original, SNIPPET, strategy="model", loaded=FakeLoaded(EXPECTED))
    pieces = list(stream)
    expected = styled(EXPECTED, True, crlf, True)
    assert "".join(pieces) == expected and pieces[0].startswith(BOM)
    assert stream.result.text == expected and stream.result.complete


def test_the_instant_path_keeps_the_bom():
    snippet = "def f():\n    return 10\n\n\ndef g():\n# ... existing code ...\n"
    r = apply_edit(BOM + ORIGINAL, snippet, strategy="instant")
    assert r.path == "instant" and r.complete and r.text == BOM + EXPECTED


# -- a chat model's reply (backends/openai_chat.py) ----------------------------------------------------

@pytest.mark.parametrize("reply,body,closed", [
    ("<updated-code>\na = 1\nb = 2\n</updated-code>", "a = 1\nb = 2\n", True),  # our format
    ("Sure, here it is:\n<updated-code>\na = 1\n</updated-code>\nAnything else?", "a = 1\n", True),  # chatter around it
    ("<updated-code>a = 1</updated-code>", "a = 1\n", True),  # no newlines at the tags: the file still ends with one
    ("a = 1\n</updated-code>", "a = 1\n", True),  # our own model: its answer prefix was in its prompt
    ("<updated-code>\n```python\na = 1\n```\n</updated-code>", "a = 1\n", True),  # a fence inside the tags
    ("```python\na = 1\nb = 2\n```\n", "a = 1\nb = 2\n", None),  # no tags: the finish reason decides
    ("a = 1\r\nb = 2", "a = 1\nb = 2\n", None),  # CRLF, no final newline: normalised as our answers are
    ("<updated-code>\na = 1\n", "a = 1\n", False),  # opened, never closed: cut off
    ("", "", None),
])
def test_a_chat_replys_file_body_and_whether_it_closed(reply, body, closed):
    assert prompts.chat_answer_body(reply) == (body, closed)


def test_a_fence_is_kept_where_the_original_file_is_itself_fenced():
    fenced = "```\nsome text\n```\n"
    assert prompts.chat_answer_body(fenced, original="```\nold text\n```\n") == (fenced, None)
    assert prompts.chat_answer_body(fenced, original="plain\n") == ("some text\n", None)
