"""Reading source files as text and replacing them atomically.

`read_text(path)` returns the file's text exactly (line endings kept) or raises `InputError` with a
one-line reason: missing, a directory, unreadable, binary (a NUL byte) or not UTF-8.
`atomic_write(path, text)` writes a temporary file beside the target, flushes it to disk, copies
the target's permissions, and renames it over the target, so a reader (or a crash) sees either the
old file or the new one, never a truncated one.

It knows files and bytes, nothing about edits.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path

from fastapply.errors import InputError


def decode_text(data: bytes, label: str) -> str:
    if b"\x00" in data:
        raise InputError(f"{label} looks binary (it contains NUL bytes); only UTF-8 text can be edited")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label} is not valid UTF-8 (byte {exc.start}); convert it to UTF-8 first") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_text(path: str | os.PathLike, label: str | None = None) -> str:
    """The text of a file, or `-` for standard input."""
    label = label or str(path)
    if str(path) == "-":
        return decode_text(sys.stdin.buffer.read(), "standard input")
    p = Path(path)
    if not p.exists():
        raise InputError(f"{label}: no such file")
    if p.is_dir():
        raise InputError(f"{label} is a directory, not a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(f"{label}: cannot read ({exc.strerror or exc})") from None
    return decode_text(data, label)


def atomic_write(path: str | os.PathLike, text: str) -> None:
    """Replace `path` with `text` (UTF-8, line endings as given) atomically."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".fastapply-tmp", dir=directory)
    except OSError as exc:
        raise InputError(f"cannot write next to {target}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, stat.S_IMODE(target.stat().st_mode))
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {target}: {exc.strerror or exc}") from None
        raise
