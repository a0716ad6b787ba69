"""The prompt format of the fast-apply model, and how its answer maps back to a file.

One definition, used at inference, in the draft, and (later) to render training examples:

    <|im_start|>system  SYSTEM_PROMPT
    <|im_start|>user    [<instruction>...</instruction>]  <code>ORIGINAL</code>  <update>SNIPPET</update>
    <|im_start|>assistant
    <updated-code>\n                      <- ANSWER_PREFIX, part of the prompt (the model starts on the file)
    UPDATED FILE (always ends with \n)    <- the model writes this ...
    </updated-code><|im_end|>             <- ... then this, and stops

Texts are normalised before they reach the model: a leading UTF-8 BOM is dropped, CRLF becomes LF,
and a missing final newline is added (the answer always ends its file with a newline before the
closing tag). `restore` undoes all three on the output using the original's conventions, so a CRLF
file comes back CRLF, a file without a final newline comes back without one, and a file that
started with a BOM starts with one again.

The draft for speculative edits is `answer_text(original)`: exactly what the model writes when the
edit changes nothing, tokenised as it appears in the answer.

This module knows text and chat templates; it knows nothing about models or decoding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapply.merge.text.conventions import Text, join_lines, split_text, unfence

SYSTEM_PROMPT = (
    "You are a code editing engine. You receive a file in <code> tags and an edit in <update> tags. "
    "The edit shows the changed parts of the file; comment lines such as '// ... existing code ...' "
    "stand for unchanged code that must be kept. Output the complete updated file inside "
    "<updated-code> tags, copying every unchanged line exactly."
)
ANSWER_PREFIX = "<updated-code>\n"
ANSWER_SUFFIX = "</updated-code>"
BOM = "\ufeff"


@dataclass(frozen=True)
class TextConventions:
    """What `normalise` changed, so `restore` can put it back."""

    crlf: bool  # the file's most common line ending is CRLF
    final_newline: bool
    bom: bool = False
    newline: str = ""  # "\r" for a CR-only (classic Mac) file; "" = LF or CRLF, as `crlf` says
    mixed: Text | None = field(default=None, compare=False)  # a file mixing endings: its lines and each one's ending

    @property
    def line_end(self) -> str:
        return self.newline or ("\r\n" if self.crlf else "\n")


def conventions(original: str) -> TextConventions:
    text = without_bom(original)
    split = split_text(text) if "\r" in text else None
    newline = split.newline if split is not None else "\n"
    return TextConventions(crlf=newline == "\r\n", final_newline=text.endswith(("\n", "\r")) or text == "",
                           bom=original.startswith(BOM), newline="\r" if newline == "\r" else "",
                           mixed=split if split is not None and split.endings else None)


def without_bom(text: str) -> str:
    """The text without a leading BOM (an encoding mark, not a character of the first line)."""
    return text[1:] if text.startswith(BOM) else text


def to_lf(text: str) -> str:
    """The text with no BOM and LF line endings (CRLF and a lone CR each end one line)."""
    return without_bom(text).replace("\r\n", "\n").replace("\r", "\n")


def normalise(text: str) -> str:
    """No BOM, LF line endings and exactly the text's own lines, ending with a newline."""
    text = to_lf(text)
    return text if text.endswith("\n") or text == "" else text + "\n"


def restore(body: str, conv: TextConventions) -> str:
    """Map an answer body (LF, ending with a newline) back to the original's conventions: its
    line ending (CRLF, CR or LF; in a file that mixes them, each unchanged line keeps its own),
    final newline and BOM."""
    if not conv.final_newline and body.endswith("\n"):
        body = body[:-1]
    if conv.mixed is not None:
        lines = body.split("\n")
        if conv.final_newline and lines[-1] == "" and len(lines) > 1:
            lines.pop()
        body = join_lines(lines, conv.mixed) if body else body
    elif conv.line_end != "\n":
        body = body.replace("\n", conv.line_end)
    return BOM + body if conv.bom and not body.startswith(BOM) else body


def build_messages(original: str, snippet: str, instruction: str | None = None) -> list[dict]:
    parts = []
    if instruction and instruction.strip():
        parts.append(f"<instruction>{instruction.strip()}</instruction>\n")
    parts.append(f"<code>\n{normalise(original)}</code>\n")
    parts.append(f"<update>\n{normalise(snippet)}</update>")
    return [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": "".join(parts)},
    ]


def render_prompt(tokenizer, original: str, snippet: str, instruction: str | None = None) -> str:
    """The full prompt text, ending inside the assistant turn just after ANSWER_PREFIX."""
    chat = tokenizer.apply_chat_template(
        build_messages(original, snippet, instruction), add_generation_prompt=True, tokenize=False
    )
    return chat + ANSWER_PREFIX


def answer_text(updated: str) -> str:
    """What the model writes for a given updated file (the training target; the draft for the original)."""
    return normalise(updated) + ANSWER_SUFFIX


def extract_body(answer: str) -> tuple[str, bool]:
    """The file part of the model's answer, and whether the closing tag was seen."""
    end = answer.find(ANSWER_SUFFIX)
    if end < 0:
        return answer, False
    return answer[:end], True


def chat_answer_body(content: str, original: str = "") -> tuple[str, bool | None]:
    """The file body of a chat model's reply (backends/openai_chat.py), LF line endings, ending
    with a newline; and whether the reply closed it: True when it wrote the closing tag, False when
    it opened `<updated-code>` and never closed it, None when it wrote no tags (then only the
    server's finish reason can say whether it finished).

    Between the tags when the reply has them (text around them, such as "Here is the file:", is
    dropped; a model trained on our format, as ours, writes no opening tag: its answer prefix is
    part of its prompt, which a chat endpoint cannot send), else the whole reply. A ``` fence around the body is dropped unless the original
    itself is so fenced (a Markdown file may be). Unlike our own model, which starts inside the
    answer (`ANSWER_PREFIX` is part of its prompt), a chat model writes the opening tag itself.
    """
    text = content.replace("\r\n", "\n").replace("\r", "\n")
    start = text.find(ANSWER_PREFIX.strip())
    closed: bool | None = None
    if start >= 0:
        text = text[start + len(ANSWER_PREFIX.strip()) :]
        text = text[1:] if text.startswith("\n") else text  # the newline after the opening tag
    end = text.find(ANSWER_SUFFIX)
    if end >= 0:  # (a model trained on our format, as ours, starts inside the answer: no opening tag)
        text, closed = text[:end], True
    elif start >= 0:
        closed = False
    lines = text.split("\n")
    own = normalise(original).split("\n")
    if unfence(own) == own:  # the original is not itself fenced: a fence is the reply's wrapping
        unfenced = unfence(lines)
        if len(unfenced) != len(lines):
            lines = unfenced + [""]
    body = "\n".join(lines)
    if not body.strip():
        return "", closed
    return (body if body.endswith("\n") else body + "\n"), closed
