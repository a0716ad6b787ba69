"""Real (before, after) file pairs: read the shared JSONL(.gz), or mine them from a local git repository.

A pair is a dict with `repo, path, language, subject, before, after` (plus `sha` when known). Mining
walks `git log` for non-merge commits that change exactly one code file (docs may change alongside),
and takes the file at the parent and at the commit with `git show`; files outside the size bounds,
binary or non-UTF-8 files, and whitespace-only changes are skipped.

This module knows files and git; it knows nothing about snippets or models.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Iterator

from fastapply.errors import InputError
from fastapply.merge.text.syntax import language_from_path

FIELDS = ("repo", "path", "language", "subject", "before", "after")


def language_of(path: str) -> str | None:
    """The language of a path, from the instant merge's one extension table."""
    return language_from_path(path)


def read_pairs(path: str | Path) -> list[dict]:
    """Rows of a pairs JSONL file (gzip when the name ends with .gz); each must have FIELDS."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"pairs file not found: {path}")
    opener = gzip.open if path.suffix == ".gz" else open
    rows = []
    try:
        with opener(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                row = json.loads(line)
                missing = [f for f in FIELDS if f not in row]
                if missing:
                    raise InputError(f"{path}:{n}: a pair lacks {', '.join(missing)}")
                rows.append(row)
    except (json.JSONDecodeError, UnicodeDecodeError, OSError) as exc:
        raise InputError(f"cannot read pairs from {path}: {exc}") from None
    return rows


def _git(repo_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo_dir), *args], capture_output=True, check=True).stdout


def _show(repo_dir: Path, rev: str, path: str) -> str | None:
    try:
        data = _git(repo_dir, "show", f"{rev}:{path}")
    except subprocess.CalledProcessError:
        return None
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _history(repo_dir: Path) -> str:
    """`git log --numstat` of HEAD. A partial clone (a missing object) stops the log early: the
    commits read before it are kept, with a warning; none read is an InputError."""
    proc = subprocess.run(["git", "-C", str(repo_dir), "log", "--no-merges", "--format=%x00%H %P%x01%s",
                           "--numstat", "HEAD"], capture_output=True)
    log = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0:
        why = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        why = why[0] if why else f"git log exited {proc.returncode}"
        if "\x00" not in log:
            raise InputError(f"cannot read the history of {repo_dir}: {why}")
        print(f"warning: git log stopped early ({why}); mining the commits read before it", file=sys.stderr)
        log = log[: log.rfind("\x00")]  # the last entry may be cut off mid-numstat
    return log


def mine_repo(
    repo_dir: str | Path,
    *,
    min_lines: int = 20,
    max_lines: int = 400,
    max_changed: int = 120,
    max_commits: int | None = None,
    repo_name: str | None = None,
) -> Iterator[dict]:
    """Yield pairs from single-code-file, non-merge commits of a local git repository."""
    repo_dir = Path(repo_dir)
    try:
        _git(repo_dir, "rev-parse", "--git-dir")
    except (subprocess.CalledProcessError, FileNotFoundError):
        raise InputError(f"not a git repository (or git is missing): {repo_dir}") from None
    name = repo_name or repo_dir.resolve().name
    log = _history(repo_dir)
    seen = 0
    for entry in log.split("\x00"):
        if not entry.strip():
            continue
        head, _, rest = entry.partition("\x01")
        subject, _, numstat = rest.partition("\n")
        shas = head.split()
        if len(shas) != 2:  # root commit (no parent) or a merge
            continue
        sha, parent = shas
        code = []
        for line in numstat.strip().splitlines():
            parts = line.split("\t")
            if len(parts) != 3:
                continue
            added, deleted, path = parts
            if language_of(path) is None:
                continue
            if added == "-" or "=>" in path:  # binary or rename
                code = [None, None]
                break
            code.append((int(added), int(deleted), path))
        if len(code) != 1 or code[0] is None:
            continue
        added, deleted, path = code[0]
        if not 2 <= added + deleted <= max_changed:
            continue
        before, after = _show(repo_dir, parent, path), _show(repo_dir, sha, path)
        if before is None or after is None or before == after:
            continue
        if not all(min_lines <= t.count("\n") + 1 <= max_lines for t in (before, after)):
            continue
        if "".join(before.split()) == "".join(after.split()):
            continue
        yield {
            "repo": name, "sha": sha, "path": path, "language": language_of(path),
            "subject": subject.strip(), "before": before, "after": after,
        }
        seen += 1
        if max_commits is not None and seen >= max_commits:
            return


def write_pairs(rows, path: str | Path) -> int:
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    n = 0
    with opener(path, "wt", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
            n += 1
    return n
