"""Region-level and planner-style examples from real (before, after) pairs (issues 9 and 10).

Three products, all from `planner_snippets.planner_snippet` (the shapes real planners write):

- `planner_rows(pairs, n, seed)`: evaluation rows (`fastapply eval --data`) in every planner style,
  so the instant merge can be measured on repositories and styles beyond planner-dev.jsonl
  (`fastapply data planner-set`);
- `window_example(before, after, snippet, instruction)`: the model path's new job as a training
  example: the window of the original the pipeline would hand the model (`rewrite.window.choose_window`
  over the changed lines), the whole snippet and instruction, and the rewritten window as the answer.
  The pipeline prompts a windowed rewrite exactly this way (the window text stands in for the file);
- `instruction_only(before, after, subject, rng)`: an edit whose deletion is stated only in the
  instruction ("remove the deprecated alias"): the snippet shows the other changes and none of the
  deleted lines, the expected file has them deleted. Only for subjects that say so (remove/drop/delete).

This module knows diffs, windows and snippet styles. It does not know prompts, tokens or the merge;
`build.py` renders and checks what it makes.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Iterable

from fastapply.data.planner_snippets import STYLES, planner_snippet
from fastapply.data.snippets import _lines, changed_regions
from fastapply.rewrite.window import choose_window

_DELETES = re.compile(r"\b(remove[sd]?|delete[sd]?|drop(s|ped)?|get rid of|clean ?up)\b", re.IGNORECASE)


def _text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def planner_rows(pairs: Iterable[dict], n: int, seed: int = 0, max_lines: int = 600,
                 per_repo: int | None = None) -> list[dict]:
    """Up to `n` eval rows, styles in turn, from pairs of at most `max_lines` lines; deterministic.
    `per_repo` draws at most that many pairs of each repository, so that a set mined from several
    repositories is not one big repository's."""
    rng = random.Random(seed)
    # A commit that only adds or drops the file's final newline cannot be shown by any snippet
    # (the merge keeps the original's): such pairs would score a right merge as wrong.
    chosen = [p for p in pairs if p["before"] != p["after"] and p["before"].count("\n") <= max_lines
              and p["before"].endswith("\n") == p["after"].endswith("\n")]
    rng.shuffle(chosen)
    if per_repo is not None:
        taken: Counter = Counter()
        capped = []
        for p in chosen:
            if taken[p.get("repo")] < per_repo:
                taken[p.get("repo")] += 1
                capped.append(p)
        chosen = capped
    rows: list[dict] = []
    for p in chosen:
        if len(rows) >= n:
            break
        style = STYLES[len(rows) % len(STYLES)]
        snip = planner_snippet(p["before"], p["after"], p["language"], style, rng)
        if snip is None:
            continue
        rows.append({
            "id": f"planner-gen:{p.get('id') or p['repo'] + ':' + p['path']}:{style}",
            "repo": p.get("repo"), "path": p["path"], "language": p["language"],
            "original": p["before"], "snippet": snip.text, "expected": snip.expected,
            "instruction": p.get("subject"), "snippet_style": f"gen-{style}",
        })
    return rows


def window_example(before: str, after: str, snippet: str, instruction: str | None) -> dict | None:
    """The windowed-rewrite example for this edit, or None when the pipeline would not window it
    (no change, or the window would be most of the file: then a whole-file example serves)."""
    old, new = _lines(before), _lines(after)
    regions = changed_regions(old, new)
    if not regions:
        return None
    spans = [(i1, max(i2, i1 + 1)) for i1, i2, _, _ in regions]
    window = choose_window(old, spans)
    if window is None:
        return None
    tail = len(old) - window.end  # unchanged lines after the window, in both files
    if old[: window.start] != new[: window.start] or old[window.end :] != new[len(new) - tail :]:
        return None  # the window does not hold every change (the splice would lose one)
    return {
        "original": _text(old[window.start : window.end]),
        "snippet": snippet,
        "instruction": instruction,
        "expected": _text(new[window.start : len(new) - tail]),
        "window": [window.start, window.end],
    }


def instruction_only(before: str, after: str, subject: str | None, language: str, rng: random.Random) -> dict | None:
    """An example whose deletions the snippet does not show (see the module doc), or None."""
    if not subject or not _DELETES.search(subject):
        return None
    old, new = _lines(before), _lines(after)
    regions = changed_regions(old, new)
    deletions = [r for r in regions if r[2] == r[3]]
    if not deletions or len(deletions) == len(regions):
        return None  # nothing else to show: a snippet of markers only says nothing
    # The file as the snippet describes it: every change applied except the pure deletions.
    shown: list[str] = []
    i = 0
    for i1, i2, j1, j2 in regions:
        shown.extend(old[i:i1])
        shown.extend(old[i1:i2] if j1 == j2 else new[j1:j2])
        i = i2
    shown.extend(old[i:])
    snip = planner_snippet(before, _text(shown), language, rng.choice(("agent", "chat", "minimal")), rng)
    if snip is None:
        return None
    counts = Counter(line.strip() for line in old)
    deleted = {old[k].strip() for i1, i2, _, _ in deletions for k in range(i1, i2) if counts[old[k].strip()] == 1}
    if any(line.strip() in deleted for line in snip.text.split("\n")):
        return None  # the snippet would show a deleted line after all (one only that place has)
    return {"original": before, "snippet": snip.text, "instruction": subject, "expected": after,
            "style": f"instruction-{snip.style}"}
