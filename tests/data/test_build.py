"""Balancing, dedup and the per-repository split are deterministic for a seed."""

import random

from fastapply.rewrite import prompts
from fastapply.data.build import BuildConfig, build, render, select_pairs


def _file(n: int, tag: str) -> str:
    return "".join(f"def f{tag}_{i}(x):\n    return x + {i}\n\n" for i in range(n // 3))


def _pairs() -> list[dict]:
    rows = []
    for r, repo in enumerate(["a/one", "b/two", "c/three"]):
        for p in range(6):
            for k in range(4):  # 4 commits on the same path
                n = 30 if p % 2 else 150  # half small files
                before = _file(n, f"{r}{p}")
                lines = before.splitlines(keepends=True)
                lines[4 + 3 * k] = lines[4 + 3 * k].replace("return", "return -")
                rows.append({"repo": repo, "path": f"m{p}.py", "language": "python",
                             "subject": f"change {k}", "before": before, "after": "".join(lines)})
    return rows


def test_same_seed_same_output_regardless_of_input_order():
    pairs = _pairs()
    cfg = BuildConfig(seed=7, per_path=2, small_keep=0.5, heldout_repos=("c/three",), max_tokens=None)
    a = build(pairs, cfg)
    shuffled = pairs[:]
    random.Random(1).shuffle(shuffled)
    b = build(shuffled, cfg)
    assert [e["snippet"] for e in a["train"]] == [e["snippet"] for e in b["train"]]
    assert [e["id"] for e in a["heldout"]] == [e["id"] for e in b["heldout"]]
    c = build(pairs, BuildConfig(seed=8, per_path=2, small_keep=0.5, heldout_repos=("c/three",), max_tokens=None))
    assert [e["snippet"] for e in a["train"]] != [e["snippet"] for e in c["train"]]


def test_split_by_repository_and_caps():
    cfg = BuildConfig(seed=0, per_path=2, small_keep=0.0, heldout_repos=("c/three",), max_tokens=None, noop_rate=0)
    out = build(_pairs(), cfg)
    assert {e["repo"] for e in out["train"]} == {"a/one", "b/two"}
    assert {e["repo"] for e in out["heldout"]} == {"c/three"}
    assert all(e["original_lines"] >= 100 for e in out["train"])  # small files all dropped at keep 0
    per_path = {}
    for e in out["train"]:
        per_path[(e["repo"], e["path"])] = per_path.get((e["repo"], e["path"]), 0) + 1
    assert max(per_path.values()) <= 2


def test_small_files_downsampled_not_dropped():
    chosen = select_pairs(_pairs(), BuildConfig(seed=0, per_path=4, small_keep=0.5))
    small = sum(1 for p in chosen if p["before"].count("\n") < 100)
    assert 0 < small < 36  # 36 small pairs in, about half kept


def test_duplicates_removed():
    pairs = _pairs()
    out = build(pairs + pairs, BuildConfig(seed=0, per_path=8, small_keep=1.0, max_tokens=None, noop_rate=0))
    keys = [(e["original"], e["snippet"]) for e in out["train"]]
    assert len(keys) == len(set(keys))


class _ChatTok:
    """A stand-in tokenizer with a ChatML template (one character = one token)."""

    def apply_chat_template(self, messages, add_generation_prompt, tokenize):
        text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
        return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")

    def encode(self, text, add_special_tokens=False):
        return list(text)


def test_examples_use_the_inference_prompt_format():
    out = build(_pairs()[:8], BuildConfig(seed=0, per_path=8, small_keep=1.0, max_tokens=None))
    e = render(out["train"][0], _ChatTok())
    assert e["prompt"] == prompts.render_prompt(_ChatTok(), e["original"], e["snippet"], e["instruction"])
    assert e["prompt"].endswith(prompts.ANSWER_PREFIX)
    assert e["answer"] == prompts.answer_text(e["expected"])
