"""From runs of output tokens to text deltas, safely: no half characters, no half stop strings.

`TextAssembler.feed(ids)` returns the text that is now certain. It holds back a trailing
incomplete UTF-8 sequence (a byte-level tokenizer can split one character over tokens; it decodes
as U+FFFD until complete) and any tail that could be the start of a stop string. When a stop string
appears, the text is cut before it and `stopped` is set.

Worked example (stop string "</end>"):
    feed("hello <")   -> "hello "      ("<" might start "</end>")
    feed("/e")        -> ""            ("</e" still might)
    feed("nd> more")  -> "" , stopped  (cut before "</end>")

It knows a decode function and strings, nothing about models.
"""

from __future__ import annotations

from typing import Callable, Sequence


class TextAssembler:
    def __init__(self, decode: Callable[[list[int]], str], stop_strings: Sequence[str] = ()):
        self.decode = decode
        self.stop_strings = [s for s in stop_strings if s]
        self.ids: list[int] = []
        self.text = ""  # everything emitted so far
        self.stopped = False
        self.stop_string: str | None = None
        # Incremental detokenisation (as TGI and vLLM do): decode only ids[_prefix:], and compare
        # with the decoding of ids[_prefix:_read], so each call costs the last run or two, not the
        # whole output (re-decoding everything made long plain decodes quadratic). Decoding from a
        # token before the new ones keeps tokenizers that treat a sequence's first token
        # specially (SentencePiece's leading space) exact.
        self._decoded = ""  # text of ids[:_read], complete characters only
        self._prefix = 0
        self._read = 0

    def _decode_new(self) -> str:
        """The text so far without a trailing incomplete character. The new ids are committed to
        `_decoded` when they end on a complete character; until then their complete part is
        returned without committing."""
        before = self.decode(self.ids[self._prefix : self._read])
        after = self.decode(self.ids[self._prefix :])
        if len(after) <= len(before):
            return self._decoded
        if after.endswith("\ufffd"):
            return self._decoded + after[len(before) :].rstrip("\ufffd")
        self._decoded += after[len(before) :]
        self._prefix, self._read = self._read, len(self.ids)
        return self._decoded

    def feed(self, new_ids: Sequence[int]) -> str:
        if self.stopped:
            return ""
        self.ids.extend(new_ids)
        stable = self._decode_new()  # an incomplete character decodes as U+FFFD; wait for the rest
        cut = self._find_stop(stable)
        if cut is not None:
            self.stopped = True
            return self._advance(stable[:cut])
        return self._advance(stable[: len(stable) - self._held_tail(stable)])

    def finish(self) -> str:
        """Flush what was held back (the generation ended without completing a stop string)."""
        if self.stopped:
            return ""
        rest = self.decode(self.ids[self._prefix :])[len(self.decode(self.ids[self._prefix : self._read])) :]
        return self._advance(self._decoded + rest)

    def _advance(self, upto_text: str) -> str:
        if len(upto_text) <= len(self.text):
            return ""
        delta = upto_text[len(self.text) :]
        self.text = upto_text
        return delta

    def _find_stop(self, text: str) -> int | None:
        best = None
        for s in self.stop_strings:
            i = text.find(s, max(0, len(self.text) - len(s)))
            if i >= 0 and (best is None or i < best):
                best, self.stop_string = i, s
        return best

    def _held_tail(self, text: str) -> int:
        hold = 0
        for s in self.stop_strings:
            for m in range(min(len(s) - 1, len(text)), hold, -1):
                if text.endswith(s[:m]):
                    hold = m
                    break
        return hold
