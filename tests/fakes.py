"""Torch-free stand-ins for a loaded model: a byte tokenizer and a scripted "perfect" apply model.

`FakeLoaded(expected)` behaves like `models.load(...)`'s HFModel for the pipeline: its tokenizer is
byte-level (ids 0-255 are bytes, 256 = <|im_start|>, 257 = <|im_end|>), and its backend is a
`FakeBackend` whose target writes `answer_text(expected)` then <|im_end|> after the prompt (found
by the answer prefix), or a hashed token after any deviation.
"""

from __future__ import annotations

import numpy as np

from fastapply.rewrite import prompts
from fastapply.backends.fake import FakeBackend, _hash_int

IM_START, IM_END = 256, 257
VOCAB = 258
SPECIALS = {"<|im_start|>": IM_START, "<|im_end|>": IM_END}


class ByteTokenizer:
    eos_token_id = IM_END
    unk_token_id = None

    def apply_chat_template(self, messages, add_generation_prompt=True, tokenize=False):
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
        return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")

    def encode(self, text, add_special_tokens=False):
        ids, i = [], 0
        while i < len(text):
            for name, tid in SPECIALS.items():
                if text.startswith(name, i):
                    ids.append(tid)
                    i += len(name)
                    break
            else:
                ids.extend(text[i].encode("utf-8"))
                i += 1
        return ids

    def decode(self, ids, skip_special_tokens=False):
        out, buf = [], bytearray()
        for t in ids:
            if t < 256:
                buf.append(t)
                continue
            out.append(buf.decode("utf-8", errors="replace"))
            buf = bytearray()
            if not skip_special_tokens:
                out.append("<|im_start|>" if t == IM_START else "<|im_end|>")
        out.append(buf.decode("utf-8", errors="replace"))
        return "".join(out)

    def convert_tokens_to_ids(self, token):
        return SPECIALS.get(token)


class AnswerRule:
    """Writes `script` after the last answer prefix in the context."""

    def __init__(self, script, marker):
        self.script = list(script)
        self.marker = list(marker)

    def __call__(self, context):
        ctx = list(context)
        m = len(self.marker)
        # before the answer prefix (a prompt scored position by position) it writes hashed tokens
        start = next((i + m for i in range(len(ctx) - m, -1, -1) if ctx[i : i + m] == self.marker), None)
        out = ctx[start:] if start is not None else None
        if out is not None and len(out) < len(self.script) and out == self.script[: len(out)]:
            peak = self.script[len(out)]
        else:
            peak = _hash_int("off", tuple(ctx)) % 256
        row = np.zeros(VOCAB, dtype=np.float32)
        row[peak] = 10.0
        return row


class FakeLoaded:
    name = "fake-apply-model"
    device = "cpu"
    dtype = "float32"

    def __init__(self, expected: str | None, *, close: bool = True, context_length: int = 1 << 16):
        self.tokenizer = ByteTokenizer()
        answer = prompts.answer_text(expected) if expected is not None else ""
        if not close:
            answer = answer[: -len(prompts.ANSWER_SUFFIX)] + "more and more" * 50
        self.script = self.tokenizer.encode(answer) + ([IM_END] if close else [])
        self.context_length = context_length
        self.extra = {}

    def new_backend(self):
        marker = self.tokenizer.encode(prompts.ANSWER_PREFIX)
        return FakeBackend(AnswerRule(self.script, marker), VOCAB, self.context_length)
