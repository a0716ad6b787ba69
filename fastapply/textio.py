"""Reading source files as text, and replacing them atomically without damaging what they are.

`read_text(path)` returns the file's text exactly (line endings and a UTF-8 BOM kept) or raises
`InputError` with a one-line reason: missing, a directory, unreadable, too big, binary (a NUL byte)
or not UTF-8. `max_bytes` is checked from a regular file's size before it is read; anything else
(standard input, a pipe, `/dev/zero`) is read up to `max_bytes + 1` bytes at most (`read_at_most`),
so a huge or endless input is refused at once.

`check_writable(path)` is the pre-flight for `atomic_write`: call it before any slow work so a file
that cannot be replaced is refused before the model runs. `atomic_write(path, text)`:
- follows a symbolic link to the file it names (the link stays a link; the target is edited);
- writes a temporary file beside that file (tempfiles.py: an anonymous O_TMPFILE file on Linux,
  named only for the microseconds before the rename, so a killed run leaves nothing; mkstemp
  elsewhere, whose leftovers later runs sweep), fsyncs it, gives it the file's mode (setuid bits
  included) and, where the OS allows, its owner and group (like `sed -i`: a file owned by someone
  else that we may write becomes ours when chown is not permitted), renames it over the file, then
  fsyncs the directory so the rename itself survives a crash;
- creates a new file with the usual permissions (0666 less the umask), not mkstemp's 0600;
- refuses a file with several hard links: an atomic rename gives this name a new inode and silently
  detaches the other names, and writing through the shared inode would not be atomic (a crash could
  leave every name truncated). Refusing keeps both promises: a file is replaced atomically or not
  at all, and no other name goes stale without the user knowing;
- refuses what is not a regular file (a device, a FIFO);
- refuses a read-only file (no write bit, or not writable by this user: `ReadOnlyError`, exit 10)
  unless `read_only_ok`: a rename in a writable directory would replace it silently, as `sed -i` does,
  and its owner marked it so it would not change.
A failure at any step removes the temporary file and leaves the original byte-identical.

It knows files and bytes, nothing about edits.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
from pathlib import Path

from fastapply import tempfiles
from fastapply.errors import HardLinkError, InputError, ReadOnlyError

def decode_text(data: bytes, label: str) -> str:
    """UTF-8 text, exactly (a BOM is kept: it is part of the file and is written back)."""
    if b"\x00" in data:
        raise InputError(f"{label} looks binary (it contains NUL bytes); only UTF-8 text can be edited")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label} is not valid UTF-8 (byte {exc.start}); convert it to UTF-8 first") from None


def _too_big(label: str, size: int | str, max_bytes: int, option: str | None) -> InputError:
    hint = f" (raise the limit with {option})" if option else ""
    return InputError(f"{label} is {size} bytes, over the limit of {max_bytes} bytes{hint}")


def read_at_most(stream, max_bytes: int | None) -> bytes:
    """Everything a binary stream holds, but never more than `max_bytes + 1` bytes of it (None: no
    limit), so a pipe or a device that never ends (`/dev/zero`) costs at most the limit."""
    if max_bytes is None:
        return stream.read()
    chunks: list[bytes] = []
    left = max_bytes + 1
    while left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_text(path: str | os.PathLike, label: str | None = None, *, max_bytes: int | None = None,
              limit_option: str | None = None) -> str:
    """The text of a file, or `-` for standard input; `max_bytes` refuses bigger inputs: a regular
    file from its size before reading it, anything else (standard input, a pipe, a device) after at
    most `max_bytes + 1` bytes (`limit_option` names the option that raises the limit)."""
    label = label or str(path)
    if str(path) == "-":
        label = label if label != "-" else "standard input"
        data = read_at_most(sys.stdin.buffer, max_bytes)
    else:
        p = Path(path)
        if not p.exists():
            raise InputError(f"{label}: no such file")
        if p.is_dir():
            raise InputError(f"{label} is a directory, not a file")
        try:
            with open(p, "rb") as fh:
                st = os.fstat(fh.fileno())
                if max_bytes is not None and stat.S_ISREG(st.st_mode) and st.st_size > max_bytes:
                    raise _too_big(label, st.st_size, max_bytes, limit_option)
                data = read_at_most(fh, max_bytes)
        except OSError as exc:
            raise InputError(f"{label}: cannot read ({exc.strerror or exc})") from None
    if max_bytes is not None and len(data) > max_bytes:  # not a regular file (a pipe), or it grew
        raise _too_big(label, f"more than {max_bytes}", max_bytes, limit_option)
    return decode_text(data, label)


def resolve_target(path: str | os.PathLike) -> Path:
    """The file a write to `path` really replaces: symbolic links followed (a dangling link names
    the file it will create)."""
    return Path(os.path.realpath(path))


def check_writable(path: str | os.PathLike, *, read_only_ok: bool = False) -> Path:
    """Refuse, with one line, a target that `atomic_write` would damage or cannot replace, or (unless
    `read_only_ok`) one its owner marked read-only; return the resolved file."""
    target = resolve_target(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{path} is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{path} is not a regular file; cannot replace it atomically (write to standard output)")
        if st.st_nlink > 1:
            raise HardLinkError(
                f"{path} has {st.st_nlink} hard links; replacing it atomically would detach the other "
                f"names, so nothing was written (write with -o and copy the result over it)", st.st_nlink
            )
        if not read_only_ok and is_read_only(target, st):
            to_you = " to you" if st.st_mode & 0o222 else ""
            raise ReadOnlyError(f"{path} is read-only{to_you} (mode {stat.S_IMODE(st.st_mode):04o}); nothing was written",
                                stat.S_IMODE(st.st_mode))
    directory = target.parent
    if not directory.is_dir():
        raise InputError(f"cannot write {path}: directory {directory} does not exist")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise InputError(f"cannot write {path}: no permission to create files in {directory}")
    return target


def is_read_only(path: Path, st: os.stat_result) -> bool:
    """No write bit at all (0444: marked read-only, even for root, who could write it), or not
    writable by this user (a rename in a writable directory would replace it all the same)."""
    return not st.st_mode & 0o222 or not os.access(path, os.W_OK)


_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    with _UMASK_LOCK:  # os.umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _copy_ownership(fd: int, st: os.stat_result) -> None:
    """Give the temporary file the original's owner and group where the OS lets us."""
    if not hasattr(os, "fchown"):
        return
    for uid, gid in ((st.st_uid, st.st_gid), (-1, st.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            return
        except PermissionError:
            continue


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # not possible on every platform (Windows): the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike, text: str, *, read_only_ok: bool = False) -> None:
    """Replace `path` (or the file its symbolic link names) with `text` (UTF-8, exactly as given:
    line endings and any BOM are the caller's) atomically, keeping mode, owner and group; a
    read-only file only when `read_only_ok`."""
    target = check_writable(path, read_only_ok=read_only_ok)
    directory = target.parent
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    data = text.encode("utf-8")
    tempfiles.sweep_stale(directory, target.name)
    try:
        _replace(path, target, data, st, anonymous=tempfiles.anonymous_temps)
    except tempfiles.CannotLink:
        tempfiles.anonymous_temps = False  # this platform cannot name an O_TMPFILE file: named ones from now on
        _replace(path, target, data, st, anonymous=False)
    _fsync_directory(directory)


def _replace(path, target: Path, data: bytes, st: os.stat_result | None, *, anonymous: bool) -> None:
    """Write `data` to a temporary file beside `target`, give it the original's owner and mode,
    rename it over `target`; any failure removes the temporary file and raises InputError (or
    `tempfiles.CannotLink`, before anything was renamed)."""
    try:
        temp = tempfiles.open_temp(target.parent, target.name, anonymous=anonymous)
    except OSError as exc:
        raise InputError(f"cannot write next to {path}: {exc.strerror or exc}") from None
    try:
        _write_all(temp.fd, data)
        os.fsync(temp.fd)
        if st is not None:
            _copy_ownership(temp.fd, st)
            os.fchmod(temp.fd, stat.S_IMODE(st.st_mode))  # after chown, which clears setuid bits
        else:
            os.fchmod(temp.fd, 0o666 & ~current_umask())
        os.replace(temp.publish(), target)
        temp.renamed()
    except BaseException as exc:
        temp.discard()
        if isinstance(exc, OSError) and not isinstance(exc, tempfiles.CannotLink):
            raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    finally:
        temp.close()
