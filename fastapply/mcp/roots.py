"""Which files the MCP `edit_file` tool may touch: only regular files under the configured roots.

`Roots(["/repo", ...])` resolves each root to its real path once. `Roots.resolve(target_file)`
turns what an agent sent into a `Target` (the real path to read and write, the root it lies in,
and the path relative to that root for diffs), or raises `PathRejected` with a one-line reason:

- a relative path is taken relative to the first root where it exists (else the first root);
- an absolute path must lie inside a root;
- the real path (every symlink followed, `..` collapsed) must lie inside a root, so `../x`, an
  absolute path elsewhere and a symlink (file or directory) pointing out of the root are refused;
- it must be a regular file (not a directory, FIFO or device), or not exist yet with its parent
  directory inside the root;
- a path the filesystem cannot hold (over 4,096 characters, a component too long, a lone
  surrogate) is refused with its reason, quoted at most 80 characters long.

Writes go to the real path, so a symlink inside the root is edited through, never replaced by a
file. A file swapped for a symlink between the check and the write is not defended against: the
roots guard an agent's mistakes, not a hostile local user.

This module knows paths; it knows nothing about edits or MCP.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from fastapply.errors import InputError


MAX_PATH_CHARS = 4096  # PATH_MAX on Linux: a longer target_file names nothing


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate (which JSON can carry and UTF-8 cannot), or None."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as exc:
        return exc.start


def shown_path(target_file: str) -> str:
    """A path as a message may quote it: at most 80 characters."""
    return target_file if len(target_file) <= 80 else f"{target_file[:60]}... ({len(target_file)} characters)"


class PathRejected(InputError):
    """The target path lies outside every root, or is not a regular file."""


@dataclass(frozen=True)
class Target:
    path: Path  # the real path: read and written
    root: Path  # the real root it lies in
    exists: bool

    @property
    def relative(self) -> str:
        return self.path.relative_to(self.root).as_posix()


class Roots:
    def __init__(self, roots: Iterable[str | os.PathLike]):
        resolved = []
        for root in roots:
            real = Path(os.path.realpath(Path(root).expanduser()))
            if not real.is_dir():
                raise InputError(f"root {root} is not a directory")
            resolved.append(real)
        if not resolved:
            raise InputError("at least one root directory is needed")
        self.roots: tuple[Path, ...] = tuple(dict.fromkeys(resolved))

    def __repr__(self) -> str:
        return f"Roots({[str(r) for r in self.roots]})"

    def _containing(self, real: Path) -> Path | None:
        for root in self.roots:
            if real == root or real.is_relative_to(root):
                return root
        return None

    def resolve(self, target_file: str) -> Target:
        if not isinstance(target_file, str) or not target_file.strip():
            raise PathRejected("target_file is empty: give a path relative to the project root")
        if "\x00" in target_file:
            raise PathRejected("target_file contains a NUL byte")
        bad = lone_surrogate(target_file)
        if bad is not None:
            raise PathRejected(f"target_file is not valid Unicode (a lone surrogate at character {bad})")
        if len(target_file) > MAX_PATH_CHARS:
            raise PathRejected(f"target_file is {len(target_file)} characters long, over the limit of "
                               f"{MAX_PATH_CHARS}: give the path of a file in the project")
        try:
            return self._resolve(target_file)
        except (OSError, ValueError) as exc:  # a name too long for the filesystem, a path it cannot hold
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise PathRejected(f"{shown_path(target_file)}: {reason}") from None

    def _resolve(self, target_file: str) -> Target:
        given = Path(target_file.strip()).expanduser()
        if given.is_absolute():
            candidates = [given]
        else:
            candidates = [root / given for root in self.roots]
            existing = [c for c in candidates if os.path.lexists(c)]
            candidates = existing[:1] or candidates[:1]
        full = candidates[0]
        real = Path(os.path.realpath(full))
        root = self._containing(real)
        if root is None:
            where = " (it is a symlink pointing there)" if real != Path(os.path.abspath(full)) else ""
            raise PathRejected(
                f"{target_file} resolves to {real}{where}, outside the allowed root(s) "
                f"{', '.join(str(r) for r in self.roots)}"
            )
        if real == root:
            raise PathRejected(f"{target_file} is the root directory itself, not a file")
        if real.exists():
            if not real.is_file():
                kind = "a directory" if real.is_dir() else "not a regular file"
                raise PathRejected(f"{target_file} is {kind}; only regular files can be edited")
            return Target(real, root, True)
        if os.path.lexists(full):
            raise PathRejected(f"{target_file} is a broken symlink")
        if not real.parent.is_dir():
            raise PathRejected(f"{target_file}: the directory {real.parent.relative_to(root)} does not exist")
        return Target(real, root, False)
