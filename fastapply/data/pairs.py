"""Real (before, after) file pairs: read the shared JSONL(.gz), or mine them from a local git repository
or from two releases of a package.

A pair is a dict with `repo, path, language, subject, before, after` (plus `sha` when known). Mining
walks `git log` for non-merge commits that change exactly one code file (docs may change alongside),
and takes the file at the parent and at the commit with `git show`; files outside the size bounds,
binary or non-UTF-8 files, and whitespace-only changes are skipped. `mine_releases` pairs the code
files two releases of one package both hold (directories, or .tar.gz/.tgz/.zip archives as PyPI and
npm ship them, read in memory) where they differ by a few lines, under the same bounds: a source of
real edits from repositories the merge was never tuned on, without their git history.

This module knows files and git; it knows nothing about snippets or models.
"""

from __future__ import annotations

import difflib
import gzip
import json
import subprocess
import sys
import tarfile
import zipfile
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
        return _text(_git(repo_dir, "show", f"{rev}:{path}"))
    except subprocess.CalledProcessError:
        return None


def _text(data: bytes) -> str | None:
    """A file's bytes as text, or None for a binary (NUL bytes) or non-UTF-8 file."""
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


def _release_files(where: str | Path) -> dict[str, str]:
    """The UTF-8 code files of a release (a directory or an archive), by path below its top folder."""
    where = Path(where)
    raw: dict[str, bytes] = {}
    try:
        if where.is_dir():
            raw = {str(f.relative_to(where)): f.read_bytes() for f in where.rglob("*") if f.is_file()
                   and language_of(f.name) is not None}
        elif zipfile.is_zipfile(where):
            with zipfile.ZipFile(where) as z:
                raw = {i.filename.split("/", 1)[-1]: z.read(i) for i in z.infolist()
                       if not i.is_dir() and "/" in i.filename and language_of(i.filename) is not None}
        elif where.is_file() and tarfile.is_tarfile(where):
            with tarfile.open(where) as t:
                for m in t.getmembers():
                    if m.isfile() and "/" in m.name and language_of(m.name) is not None:
                        raw[m.name.split("/", 1)[1]] = t.extractfile(m).read()
        else:
            raise InputError(f"not a directory or a .tar.gz/.tgz/.zip archive: {where}")
    except (OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        raise InputError(f"cannot read {where}: {exc}") from None
    return {path: text for path, data in raw.items() if (text := _text(data)) is not None}


def _line_endings(text: str) -> str:
    """"crlf", "lf" or "mixed" (a file without line breaks counts as "lf")."""
    crlf = text.count("\r\n")
    return "lf" if not crlf else "crlf" if crlf == text.count("\n") else "mixed"


def mine_releases(old: str | Path, new: str | Path, *, repo_name: str, subject: str | None = None,
                  min_lines: int = 20, max_lines: int = 400, max_changed: int = 120) -> Iterator[dict]:
    """Yield a pair for each code file both releases hold that differs between them, with
    2..`max_changed` lines added and deleted and both versions within the line bounds; whitespace-only
    changes are skipped, and so are pairs whose line endings change or mix CRLF and LF. Paths are
    relative to each release's top folder (`pkg-1.0/` in an sdist, `package/` in an npm tarball).
    `subject`, when given, is every pair's instruction."""
    before_files, after_files = _release_files(old), _release_files(new)
    for path in sorted(before_files.keys() & after_files.keys()):
        before, after = before_files[path], after_files[path]
        if before == after or "".join(before.split()) == "".join(after.split()):
            continue
        if not all(min_lines <= t.count("\n") + 1 <= max_lines for t in (before, after)):
            continue
        endings = {_line_endings(before), _line_endings(after)}
        if len(endings) > 1 or "mixed" in endings:
            continue  # a change of line endings (or a file mixing them) is a reformat no snippet carries
        changed = sum(1 for line in difflib.unified_diff(before.splitlines(), after.splitlines(), n=0, lineterm="")
                      if line[:1] in "+-" and line[:3] not in ("+++", "---"))
        if not 2 <= changed <= max_changed:
            continue
        yield {"repo": repo_name, "path": path, "language": language_of(path), "subject": subject,
               "before": before, "after": after}


def write_pairs(rows, path: str | Path) -> int:
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    n = 0
    with opener(path, "wt", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
            n += 1
    return n
