"""Build training examples from real file pairs: balance, synthesise snippets, check, dedup, split.

    pairs --(size bound, small-file downsampling, per-path cap)--> chosen pairs
          --(one snippet per pair in a drawn style; a few no-op "copy" examples;
             optionally windowed planner-style and instruction-only examples, regions.py)--> examples
          --(reference merge == after, dedup, token bound)--> examples
          --(split by repository)--> train / heldout

Every random choice is drawn from a generator seeded by (seed, pair identity), so the output is
deterministic for a seed and does not depend on the order of the input. Examples are rendered with
the one prompt definition the apply path uses (`fastapply.rewrite.prompts`): `prompt` ends with
ANSWER_PREFIX and `answer` is `answer_text(expected)`; the trainer appends the `<|im_end|>` token.

This module knows pairs, snippets and the prompt format; it knows nothing about training.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fastapply.rewrite import prompts
from fastapply.data.reference_merge import MergeRefused, reference_merge
from fastapply.data.snippets import synthesise

DEFAULT_STYLES = {"context": 0.45, "block": 0.40, "search_replace": 0.15}


@dataclass
class BuildConfig:
    seed: int = 0
    max_lines: int = 200  # files longer than this (before or after) are skipped
    small_lines: int = 100  # files shorter than this are "small" ...
    small_keep: float = 0.5  # ... and kept with this probability
    per_path: int = 3  # at most this many pairs per (repo, path)
    per_repo: int | None = None  # at most this many pairs per repository (balances languages)
    styles: dict = field(default_factory=lambda: dict(DEFAULT_STYLES))
    noop_rate: float = 0.05  # extra "the edit changes nothing" examples, per chosen pair
    drop_instruction: float = 0.25  # share of examples shown without the commit subject
    heldout_repos: tuple = ("BurntSushi/ripgrep",)
    max_heldout: int = 60
    max_tokens: int | None = 2048  # prompt + answer + end token; needs a tokenizer
    max_examples: int | None = None  # cap on training examples, after shuffling
    windows: float = 0.0  # share of pairs also made a windowed, planner-style example (regions.py)
    instruction_only: float = 0.0  # share of eligible pairs also made an instruction-only deletion example


def _rng(seed: int, *parts: str) -> random.Random:
    h = hashlib.sha256("\x1f".join([str(seed), *parts]).encode()).hexdigest()
    return random.Random(int(h[:16], 16))


def _key(*texts: str) -> str:
    return hashlib.sha256("\x1e".join(texts).encode()).hexdigest()[:20]


def _n_lines(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def select_pairs(pairs: list[dict], cfg: BuildConfig) -> list[dict]:
    """Size bound, small-file downsampling and the per-path cap; deterministic for cfg.seed."""
    kept = []
    for p in pairs:
        lines = max(_n_lines(p["before"]), _n_lines(p["after"]))
        if lines > cfg.max_lines or p["before"] == p["after"]:
            continue
        if lines < cfg.small_lines and _rng(cfg.seed, "small", _key(p["repo"], p["path"], p["before"], p["after"])).random() >= cfg.small_keep:
            continue
        kept.append(p)
    by_path: dict[tuple, list[dict]] = {}
    for p in kept:
        by_path.setdefault((p["repo"], p["path"]), []).append(p)
    out = []
    for (repo, path), group in sorted(by_path.items()):
        group = sorted(group, key=lambda p: _key(p["before"], p["after"]))
        _rng(cfg.seed, "cap", repo, path).shuffle(group)
        out.extend(group[: cfg.per_path])
    if cfg.per_repo is not None:
        by_repo: dict[str, list[dict]] = {}
        for p in out:
            by_repo.setdefault(p["repo"], []).append(p)
        out = []
        for repo, group in sorted(by_repo.items()):
            _rng(cfg.seed, "repo-cap", repo).shuffle(group)
            out.extend(group[: cfg.per_repo])
    return out


def _pick_style(rng: random.Random, styles: dict) -> str:
    names = sorted(styles)
    return rng.choices(names, weights=[styles[n] for n in names])[0]


def make_examples(pairs: list[dict], cfg: BuildConfig) -> tuple[list[dict], Counter]:
    """One checked example per pair (falling back to the context style), plus no-op examples."""
    from fastapply import progress

    stats: Counter = Counter()
    examples = []
    seen = set()
    shown = progress.bar(len(pairs), "data build")
    for p in pairs:
        shown.update()
        pid = _key(p["repo"], p["path"], p["before"], p["after"])
        rng = _rng(cfg.seed, "example", pid)
        style = _pick_style(rng, cfg.styles)
        snip = synthesise(p["before"], p["after"], p["language"], style, rng)
        if snip is None and style != "context":
            stats[f"fallback_{style}"] += 1
            snip = synthesise(p["before"], p["after"], p["language"], "context", rng)
        jobs = []
        if snip is None:
            stats["dropped_no_snippet"] += 1
        else:
            jobs.append((snip, p["after"], p.get("subject")))
        if rng.random() < cfg.noop_rate:
            noop = synthesise(p["before"], p["before"], p["language"], "noop", rng)
            if noop is not None:
                jobs.append((noop, p["before"], None))
        examples.extend(_region_examples(p, cfg, rng, seen, stats))
        for s, expected, subject in jobs:
            # the oracle, once more, on exactly what is written
            try:
                ok = reference_merge(p["before"], s.text) == expected
            except MergeRefused:
                ok = False
            if not ok:
                stats["dropped_not_exact"] += 1
                continue
            instruction = subject if subject and rng.random() >= cfg.drop_instruction else None
            k = _key(p["before"], s.text)
            if k in seen:
                stats["dropped_duplicate"] += 1
                continue
            seen.add(k)
            examples.append(_row(p, s.style, p["before"], s.text, instruction, expected, n_sections=s.n_sections))
    shown.close()
    return examples, stats


def _region_examples(p: dict, cfg: BuildConfig, rng: random.Random, seen: set, stats: Counter) -> list[dict]:
    """The model path's new jobs for one pair (issue 10): a window of the file rewritten for a
    planner-style snippet, and a deletion stated only in the instruction. Their expected text
    comes from the real commit, so there is no reference-merge check: a planner snippet may be
    one the instant merge refuses, which is the point."""
    from fastapply.data import regions
    from fastapply.data.planner_snippets import STYLES, planner_snippet

    made = []
    if cfg.windows and rng.random() < cfg.windows:
        style = rng.choice(STYLES)
        snip = planner_snippet(p["before"], p["after"], p["language"], style, rng)
        win = regions.window_example(p["before"], p["after"], snip.text, p.get("subject")) if snip else None
        if win is None:
            stats["dropped_no_window"] += 1
        else:
            made.append(dict(win, style=f"window-{style}"))
    if cfg.instruction_only and rng.random() < cfg.instruction_only:
        ex = regions.instruction_only(p["before"], p["after"], p.get("subject"), p["language"], rng)
        if ex is not None:
            made.append(ex)
    out = []
    for ex in made:
        k = _key(ex["original"], ex["snippet"])
        if k in seen:
            stats["dropped_duplicate"] += 1
            continue
        seen.add(k)
        stats[f"made_{ex['style'].split('-')[0]}"] += 1
        out.append(_row(p, ex["style"], ex["original"], ex["snippet"], ex["instruction"], ex["expected"],
                        window=ex.get("window")))
    return out


def _row(p: dict, style: str, original: str, snippet: str, instruction: str | None, expected: str, **extra) -> dict:
    """One training example of pair `p`, in the shape `render` and the trainer read."""
    return {
        "id": f"{p['repo']}@{str(p.get('sha', ''))[:10]}:{p['path']}:{style}",
        "repo": p["repo"], "path": p["path"], "language": p["language"], "style": style,
        "original": original, "snippet": snippet, "instruction": instruction, "expected": expected,
        "original_lines": _n_lines(original), **extra,
    }


def render(example: dict, tokenizer) -> dict:
    """Add the prompt/answer text (the one shared format) and their token counts."""
    prompt = prompts.render_prompt(tokenizer, example["original"], example["snippet"], example["instruction"])
    answer = prompts.answer_text(example["expected"])
    out = dict(example, prompt=prompt, answer=answer)
    if tokenizer is not None:
        out["prompt_tokens"] = len(tokenizer.encode(prompt, add_special_tokens=False))
        out["answer_tokens"] = len(tokenizer.encode(answer, add_special_tokens=False)) + 1  # + <|im_end|>
    return out


def split_by_repo(examples: list[dict], heldout_repos) -> tuple[list[dict], list[dict]]:
    held = set(heldout_repos)
    return [e for e in examples if e["repo"] not in held], [e for e in examples if e["repo"] in held]


def build(pairs: list[dict], cfg: BuildConfig, tokenizer=None) -> dict:
    """Return {"train": [...], "heldout": [...], "stats": {...}}; deterministic for cfg.seed."""
    chosen = select_pairs(pairs, cfg)
    examples, stats = make_examples(chosen, cfg)
    if tokenizer is not None:
        examples = [render(e, tokenizer) for e in examples]
        if cfg.max_tokens:
            before = len(examples)
            examples = [e for e in examples if e["prompt_tokens"] + e["answer_tokens"] <= cfg.max_tokens]
            stats["dropped_too_long"] += before - len(examples)
    train, heldout = split_by_repo(examples, cfg.heldout_repos)
    train.sort(key=lambda e: _key(e["id"], e["snippet"]))
    _rng(cfg.seed, "shuffle").shuffle(train)
    heldout.sort(key=lambda e: _key(e["id"], e["snippet"]))
    _rng(cfg.seed, "heldout").shuffle(heldout)
    if cfg.max_examples is not None:
        train = train[: cfg.max_examples]
    heldout = heldout[: cfg.max_heldout]
    return {"train": train, "heldout": heldout, "stats": summarise(pairs, chosen, train, heldout, stats, cfg)}


def summarise(pairs, chosen, train, heldout, stats: Counter, cfg: BuildConfig) -> dict:
    def describe(rows):
        d = {
            "examples": len(rows),
            "by_repo": dict(Counter(e["repo"] for e in rows).most_common()),
            "by_language": dict(Counter(e["language"] for e in rows).most_common()),
            "by_style": dict(Counter(e["style"] for e in rows).most_common()),
            "with_instruction": sum(1 for e in rows if e["instruction"]),
            "median_original_lines": sorted(e["original_lines"] for e in rows)[len(rows) // 2] if rows else 0,
        }
        if rows and "prompt_tokens" in rows[0]:
            d["prompt_tokens"] = sum(e["prompt_tokens"] for e in rows)
            d["answer_tokens"] = sum(e["answer_tokens"] for e in rows)
        return d

    return {
        "config": {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(cfg).items()},
        "pairs_in": len(pairs), "pairs_chosen": len(chosen), "counts": dict(stats),
        "train": describe(train), "heldout": describe(heldout),
    }


def write_jsonl(rows: list[dict], path: str | Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r) + "\n")


def read_jsonl(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
