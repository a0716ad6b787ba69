"""apply_edit / stream_edit: (original, snippet, instruction) -> the updated file, with statistics.

The strategy ladder: "auto" tries the instant merge (merge/instant.py, milliseconds, refuses
rather than guesses) and, when it refuses, the model path, handing the refused merge's best
candidate to the model as its first draft (where the candidate is right, the model verifies it at
prefill speed).

The model path: `rewrite/edit.py` prepares the prompt and the drafts and starts the one running
decode (`rewrite/decode.py`); this module streams the answer's file body as tokens are accepted,
converted back to the original's line endings and final-newline convention, and runs the guards
(merge/guards.py `check_answer`) on the finished answer: a model answer that fails one is not
`complete`, and says which guard refused it.

A chat model (`--model openai:URL#MODEL`, backends/openai_chat.py) takes the model path's place
with one chat completion for the same text (the window, else the whole file); its answer's file
body comes back through the same splice and the same guards, and what needs token log-probabilities
(ranking the readings of `_undecided`) refuses rather than guesses, as for `remote:`.

`stream_edit` returns an `EditStream`: iterate it for text deltas; afterwards `.result` holds the
`ApplyResult`. `apply_edit` consumes one. Models are loaded once per process (models.py).

This module wires the text layer to the token layer; it holds no decoding logic of its own.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable, Iterator

from fastapply import models
from fastapply.decoding.engine import ChunkPolicy
from fastapply.decoding.sampling import SamplingParams
from fastapply.decoding.stats import DecodeStats
from fastapply.errors import InputError, MissingExtraError, RemoteError
from fastapply.merge.gate import answer_checks, guards, intent
from fastapply.merge.text import syntax
from fastapply.merge.instant import MergeResult, instant_merge, ordered_refusal
from fastapply.merge.refuse.refusal import Refusal
from fastapply.rewrite import prompts, readings
from fastapply.rewrite.decode import Finished
from fastapply.rewrite.edit import PreparedEdit, check_inputs, prepare, start_edit
from fastapply.rewrite.window import choose_window, split_around, strip_edge_markers

STRATEGIES = ("auto", "instant", "model")


@dataclass
class ApplyResult:
    text: str  # the updated file, in the original's conventions ("" when the instant path refused alone)
    path: str  # "instant" | "model"
    complete: bool  # a trustworthy whole file: merged, or a closed model answer that passed every guard
    stats: DecodeStats | None = None
    model: str | None = None
    refused_reason: str | None = None  # why the instant path did not merge, when it was tried
    refusal: Refusal | None = None  # the same as data: kind, lines, fix, options (merge/refuse/refusal.py)
    method: str | None = None  # instant path: "lazy" | "search_replace" | "diff" | "definition"
    rung: str | None = None  # instant path: the ladder rung that matched
    draft: str | None = None  # model path: "original", or "candidate+original" when the refused merge was the first
    # draft, or "ranked" when it wrote the better of the refusal's two readings without generating
    guard: str | None = None  # model path: the guard that refused the answer (merge/guards.py), or "closed"
    guard_reason: str | None = None  # why, in words a user can act on
    window: tuple[int, int] | None = None  # model path: the original lines [start, end) it rewrote, None = all
    margin: float | None = None  # model path: how far (nats) the better of the refusal's two readings led when ranked

    @property
    def guarded(self) -> bool:
        """The model answered but its answer failed a guard: `text` is a candidate, not a result."""
        return self.guard is not None

    def summary_line(self) -> str:
        if self.path == "instant":
            if not self.complete:
                return f"path=instant refused: {self.refused_reason}"
            took = self.stats.total_s * 1000 if self.stats else 0.0
            return f"path=instant ({self.method}, {self.rung}) in {took:.1f} ms"
        why = f" (instant path refused: {self.refused_reason})" if self.refused_reason else ""
        if self.guard and self.guard != "closed":
            why += f"; answer refused by the {self.guard} guard: {self.guard_reason}"
        where = f" window=lines {self.window[0] + 1}-{self.window[1]}" if self.window else ""
        return f"path=model model={self.model} draft={self.draft}{where}{why}: {self.stats.summary_line() if self.stats else ''}"


def _elides(snippet: str, original: str) -> bool:
    """True when the snippet marks elided code (`... existing code ...`), so the code it does not
    show stays: only then may the model rewrite a window and the rest be kept as it is."""
    from fastapply.merge.align.lazy import has_markers

    return has_markers(prompts.to_lf(snippet).split("\n"), prompts.to_lf(original).split("\n"))


class EditStream:
    """Iterate for the updated file's text as it is produced; `.result` is set at the end.

    strategy "auto" tries the instant merge and falls back to the model (with the refused merge's
    candidate as the first draft); "instant" never loads a model; "model" skips the merge.
    """

    def __init__(
        self,
        original: str,
        snippet: str,
        instruction: str | None = None,
        *,
        strategy: str = "auto",
        model: str | None = None,
        language: str | None = None,
        path: str | None = None,
        temperature: float = 0.0,
        top_p: float = 1.0,
        seed: int | None = None,
        max_tokens: int | None = None,
        draft: str = "speculative",
        chunk: ChunkPolicy = ChunkPolicy(),
        on_progress: Callable[[DecodeStats], None] | None = None,
        loaded=None,
        loader: Callable[[], object] | None = None,
        merge: MergeResult | None = None,
        merge_s: float = 0.0,
    ):
        """`loaded` is a model from models.load; else `loader()` or models.load(model) is called,
        only when the model path runs. `merge` (with its time `merge_s`) is the instant merge's
        result when the caller already ran it (the server runs it off its model worker)."""
        if strategy not in STRATEGIES:
            raise InputError(f"unknown strategy {strategy!r}; expected one of {', '.join(STRATEGIES)}")
        check_inputs(original, snippet)
        self.strategy = strategy
        self.original, self.snippet, self.instruction = original, snippet, instruction
        self.language = syntax.normalize_language(language) or syntax.detect_language(path, original)
        self.result: ApplyResult | None = None
        self.merge: MergeResult | None = None
        self.prepared: PreparedEdit | None = None
        self._running = None  # the model's running decode (rewrite/decode.py), when the model path runs
        self.ranked: readings.RankedReading | None = None  # the refusal's two readings ranked, when they were
        self.chat = False  # the model is a chat model (text in, text out: backends/openai_chat.py)
        if strategy != "model":
            if merge is None:
                t0 = time.perf_counter()
                merge = instant_merge(original, snippet, language=language, path=path, instruction=instruction)
                merge_s = time.perf_counter() - t0
            refusal = getattr(merge, "refusal", None)
            # a snippet only its planner can fix (label lines, which a model would copy into the file):
            # its refusal is the answer for auto too
            final = strategy == "instant" or (refusal is not None and bool(refusal.detail.get("labels")))
            if not merge.merged and final and refusal is not None:
                # the answer is this refusal: its options in the order a planner should read them
                merge = replace(merge, refusal=ordered_refusal(original, snippet, merge.refusal, language=language,
                                                               path=path, instruction=instruction))
            self.merge, self._merge_s = merge, merge_s
            if self.merge.merged or final:
                return
        candidate = self.merge.candidate if self.merge is not None else None
        self._conv = prompts.conventions(original)
        self._frame = ("", "")  # the original's text before and after the window the model rewrites
        self._window_text = ""  # the original's text inside that window (the seam check compares with it)
        self.window = None
        model_original = original
        if self.merge is not None and strategy == "auto" and _elides(snippet, original):
            # the instant merge knows where it is unsure: the model rewrites only that window (only
            # for a snippet with markers: a marker-free one may be the whole file, whose changes
            # outside any window the splice would silently drop)
            lf = prompts.normalise(original)
            self.window = choose_window(lf.split("\n")[:-1], getattr(self.merge, "regions", ()))
            if self.window is not None:
                head, model_original, tail = split_around(lf, self.window)
                self._frame = (head, tail)
                self._window_text = model_original
                wanted = prompts.normalise(candidate) if candidate else ""
                fits = wanted.startswith(head) and wanted.endswith(tail) and len(wanted) >= len(head) + len(tail)
                candidate = wanted[len(head) : len(wanted) - len(tail)] if fits else None
        if loaded is None:
            try:
                loaded = loader() if loader is not None else models.load(model)
            except MissingExtraError as exc:
                if self.merge is None:
                    raise
                # a core install: say why the model was needed (the snippet may be fixable instead)
                raise MissingExtraError(f"the instant merge refused ({self.merge.refused_reason}), so {exc}") from None
        self.loaded = loaded
        self.chat = callable(getattr(loaded, "start_chat_edit", None))
        if self.chat:
            # a chat model (backends/openai_chat.py): our prompt for the same window, one request;
            # its answer comes back as text to the same splice and guards below (_model)
            self.draft_label = "prediction" if draft == "speculative" else "none"
            self._running = loaded.start_chat_edit(
                model_original, snippet, instruction, predict=draft == "speculative",
                sampling=SamplingParams(temperature=temperature, top_p=top_p, seed=seed),
                max_tokens=max_tokens, on_progress=on_progress,
            )
            return
        if self.merge is not None and strategy == "auto" and getattr(self.merge, "choice", None) in readings.RANKED_CHOICES:
            # a choice between two complete readings: score both, write the clear winner (rewrite/readings.py)
            self.ranked = readings.rank_readings(loaded, original, snippet, instruction, self.merge.alternatives,
                                                 self.merge.regions, self.language)
            if self.ranked is not None and self.ranked.text is not None:
                return
        self.prepared = prepare(self.loaded, model_original, snippet, instruction, max_tokens, candidate)
        self.draft_label = "candidate+original" if len(self.prepared.drafts) > 1 else "original"
        self._running = start_edit(
            self.loaded, self.prepared, draft=draft,
            sampling=SamplingParams(temperature=temperature, top_p=top_p, seed=seed),
            chunk=chunk, on_progress=on_progress,
        )

    def __iter__(self) -> Iterator[str]:
        if self._running is not None:
            yield from self._model()
        elif self.ranked is not None and self.ranked.text is not None:
            yield from self._ranked()
        else:
            yield from self._instant()

    def _ranked(self) -> Iterator[str]:
        """The better of the refusal's two readings, taken by its clear margin (no generation)."""
        r = self.ranked
        stats = DecodeStats(prompt_tokens=r.prompt_tokens, forward_passes=3, total_s=self._merge_s + r.seconds,
                            output_chars=len(r.text), finish_reason="stop")
        self.result = ApplyResult(
            text=r.text, path="model", complete=True, stats=stats, model=self.loaded.name,
            refused_reason=self.merge.refused_reason, refusal=getattr(self.merge, "refusal", None), method=self.merge.method,
            rung=self.merge.rung, draft="ranked", window=r.window, margin=r.margin,
        )
        yield r.text

    def _instant(self) -> Iterator[str]:
        m = self.merge
        stats = DecodeStats(total_s=self._merge_s, output_chars=len(m.text or ""), finish_reason="stop" if m.merged else "")
        self.result = ApplyResult(
            text=m.text or "", path="instant", complete=m.merged, stats=stats,
            refused_reason=m.refused_reason, refusal=getattr(m, "refusal", None), method=m.method, rung=m.rung,
        )
        if m.merged and m.text:
            yield m.text

    def _model(self) -> Iterator[str]:
        conv = self._conv
        head, tail = self._frame
        sent = ""  # restored text already yielded
        body = head
        finished: Finished | None = None
        for item in self._running:
            if isinstance(item, Finished):
                finished = item
                break
            body += item
            if self.window or conv.mixed is not None:
                continue  # a window answer is spliced whole at the end (its edge markers dropped); a file
                # mixing line endings gets each line's own back by a diff of the whole answer
            # hold back a final newline until we know whether the file ends here
            ready = prompts.restore(body if conv.final_newline or tail else body.rstrip("\n"), conv)
            if len(ready) > len(sent) and ready.startswith(sent):
                yield ready[len(sent) :]
                sent = ready
        answer = strip_edge_markers(finished.text) if self.window else finished.text
        final = prompts.restore(head + answer + tail, conv)
        if final.startswith(sent) and len(final) > len(sent):
            yield final[len(sent) :]
        stats = finished.stats
        # characters the model wrote (the window's, when it rewrote one): Cursor's rewritten chars/s
        stats.output_chars = len(finished.text) if self.window else len(final)
        if finished.stop_string == prompts.ANSWER_SUFFIX:
            # The answer is a whole file written by a model: it passes the instant merge's guards
            # (and the answer-only ones) before anyone may write it.
            seam = answer_checks.check_seam(self._window_text, answer, tail) if self.window else None
            failure = guards.GuardFailure("duplicates", seam) if seam else guards.check_answer(
                prompts.to_lf(self.original), prompts.to_lf(self.snippet), prompts.to_lf(final),
                language=self.language)
            if failure is None:  # the instruction only ever refuses (merge/gate/intent.py)
                kept = intent.check_removals(self.original, final, self.instruction)
                failure = guards.GuardFailure("intent", kept.sentence) if kept is not None else None
        else:
            failure = guards.GuardFailure("closed", "the model did not close its answer (max tokens or the context ran out)")
        if failure is None:
            t0 = time.perf_counter()
            failure = self._undecided(final)
            stats.total_s += time.perf_counter() - t0  # the ranking it may run is part of the edit's latency
        self.result = ApplyResult(
            text=final,
            path="model",
            complete=failure is None,
            guard=failure.guard if failure else None,
            guard_reason=failure.reason if failure else None,
            stats=stats,
            model=self.loaded.name,
            refused_reason=self.merge.refused_reason if self.merge is not None else None,
            refusal=getattr(self.merge, "refusal", None),
            draft=self.draft_label,
            window=(self.window.start, self.window.end) if self.window else None,
            margin=self.ranked.margin if self.ranked is not None else None,
        )

    def _undecided(self, final: str) -> guards.GuardFailure | None:
        """Refuse an answer that is one of the two readings the instant merge could not choose
        between ("readings": the joint and the greedy placement give different files) unless ranking
        both (rewrite/readings.py) prefers it by `readings.MARGIN` nats. The answer then made that
        choice by greedy decoding alone, and measured over 34 such refusals (benchmarks/
        rank_readings.py) the model preferred the wrong reading in 9 where one was right (a wrong
        twin function edited, held-out seed 61). Doubts (a new line or a changed one) are left to the
        model: there its preference was right in all 10 rankings where a reading was right."""
        m = self.merge
        if m is None or getattr(m, "choice", None) != "readings" or len(m.alternatives) < 2:
            return None
        same = lambda text: prompts.normalise(prompts.without_bom(text)).rstrip("\n")  # noqa: E731
        picks = [k for k, alt in enumerate(m.alternatives) if same(alt) == same(final)]
        if not picks:
            return None  # the model wrote something else: the other guards judged it
        try:
            ranked = readings.rank_readings(self.loaded, self.original, self.snippet, self.instruction,
                                            m.alternatives, m.regions, self.language)
        except RemoteError:  # a remote server returns greedy choices only, a chat model text: nothing to rank with
            return guards.GuardFailure("undecided", "the answer is one of the two ways the instant merge could "
                                       "place the snippet, and a remote model cannot rank them; include more "
                                       "unchanged lines around each change")
        if ranked is not None and ranked.text is not None and ranked.best == picks[0]:
            self.ranked = ranked  # its margin is reported with the answer
            return None
        why = (f"ranking both gives it a margin of {ranked.margin:.1f} nats, under {readings.MARGIN:.0f}"
               if ranked is not None and ranked.best == picks[0] else
               "ranking both prefers the other one" if ranked is not None else "only it passes the answer guards")
        return guards.GuardFailure("undecided", f"the answer is one of the two ways the instant merge could place "
                                   f"the snippet, chosen without a clear margin ({why}); include more unchanged "
                                   "lines around each change")


def stream_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> EditStream:
    """Start an edit; iterate the returned stream for text, then read `.result`."""
    return EditStream(original, snippet, instruction, **kwargs)


def apply_edit(original: str, snippet: str, instruction: str | None = None, **kwargs) -> ApplyResult:
    """Apply an edit and return the whole result (see EditStream for the options)."""
    stream = EditStream(original, snippet, instruction, **kwargs)
    for _ in stream:
        pass
    assert stream.result is not None
    return stream.result
