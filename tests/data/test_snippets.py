"""Snippet synthesis round-trips: every snippet, merged by the reference merger, gives the real after."""

import gzip
import json
import random
from pathlib import Path

import pytest

from fastapply.data.reference_merge import is_marker, reference_merge
from fastapply.data.snippets import synthesise

PAIRS = Path(__file__).resolve().parents[3] / "shared" / "data" / "train-pairs.jsonl.gz"

BEFORE = """import os


def load(path):
    with open(path) as fh:
        return fh.read()


def save(path, text):
    with open(path, "w") as fh:
        fh.write(text)


class Store:
    def __init__(self, root):
        self.root = root

    def get(self, key):
        return load(os.path.join(self.root, key))

    def put(self, key, value):
        save(os.path.join(self.root, key), value)
"""
AFTER = BEFORE.replace("        return fh.read()\n", "        return fh.read().strip()\n").replace(
    "    def put(self, key, value):\n", "    def put(self, key, value):\n        assert key\n"
)


@pytest.mark.parametrize("style", ["context", "block", "search_replace"])
@pytest.mark.parametrize("seed", range(4))
def test_styles_round_trip_on_a_fixed_pair(style, seed):
    snip = synthesise(BEFORE, AFTER, "python", style, random.Random(seed))
    assert snip is not None and snip.style == style
    assert reference_merge(BEFORE, snip.text) == AFTER
    if style != "search_replace":
        assert any(is_marker(l) for l in snip.text.splitlines())
        assert "fh.read().strip()" in snip.text and "assert key" in snip.text


def test_block_style_shows_the_enclosing_definition():
    snip = synthesise(BEFORE, AFTER, "python", "block", random.Random(0))
    assert "def load(path):" in snip.text and "def put(self, key, value):" in snip.text


def test_noop_snippet_changes_nothing():
    snip = synthesise(BEFORE, BEFORE, "javascript", "noop", random.Random(3))
    assert snip is not None and reference_merge(BEFORE, snip.text) == BEFORE
    assert "// ..." in snip.text


@pytest.mark.skipif(not PAIRS.is_file(), reason="shared training pairs not present")
def test_round_trip_on_real_pairs():
    rows = []
    with gzip.open(PAIRS, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i % 25 == 0:
                rows.append(json.loads(line))
    rng = random.Random(0)
    made = 0
    for r in rows:
        for style in ("context", "block", "search_replace"):
            snip = synthesise(r["before"], r["after"], r["language"], style, rng)
            if snip is not None:
                made += 1
                assert reference_merge(r["before"], snip.text) == r["after"], (r["id"], style)
    assert made >= 0.9 * 3 * len(rows)


def test_markers_are_written_as_comments_of_the_language():
    from fastapply.data.snippets import comment_prefix

    assert comment_prefix("python") == "#" and comment_prefix("lua") == "--" and comment_prefix("go") == "//"
