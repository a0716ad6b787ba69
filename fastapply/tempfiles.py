"""The temporary file that `textio.atomic_write` fills beside its target, and the ones a killed run left.

`open_temp(directory, target_name)` returns a `Temp`, an open file descriptor to write to:
- where the platform has it (Linux, a filesystem that supports it), an `O_TMPFILE` file, which has
  no name at all while it is written: a run killed (kill -9, a power cut) before it finished
  leaves nothing behind. `Temp.publish()` links the finished file to a fresh temporary name
  (`linkat` with AT_EMPTY_PATH, else through /proc/self/fd; linkat cannot replace an existing
  name) just before the caller renames that name over the target, so a name exists only for the
  microseconds between the two calls. Where that link is refused (`CannotLink`: an older kernel
  without CAP_DAC_READ_SEARCH and /proc across mounts), the caller writes again with
  `open_temp(..., anonymous=False)` and turns `anonymous_temps` off for the process;
- elsewhere, `mkstemp`: the same name pattern from the start.
Every temporary name is `.NAME.XXXXXXXX.fastapply-tmp` (NAME the target's file name, 8 characters
of mkstemp's alphabet), mode 0600 until the caller sets the target's mode.

`sweep_stale(directory, target_name)` removes what a killed run left beside that target: names of
exactly that pattern for that target, regular files with one link, owned by this user, unmodified
for `STALE_AFTER_S` seconds (a run that is still writing touches its file). Nothing else goes:
not another target's, another user's, a symbolic link, a younger file.

It knows file descriptors and names; nothing about text, modes or edits.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

TEMP_SUFFIX = ".fastapply-tmp"
STALE_AFTER_S = 10 * 60
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_"  # mkstemp's, so both kinds share one pattern
_PROC_FD = Path("/proc/self/fd")
_NO_TMPFILE = (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL)  # kernel or filesystem without O_TMPFILE
anonymous_temps = hasattr(os, "O_TMPFILE")  # off once linking one failed here; tests turn it off too


def temp_name(target_name: str) -> str:
    return f".{target_name}.{''.join(secrets.choice(_ALPHABET) for _ in range(8))}{TEMP_SUFFIX}"


def temp_pattern(target_name: str) -> re.Pattern:
    """The names `temp_name(target_name)` and mkstemp give, and nothing else."""
    return re.compile(rf"\.{re.escape(target_name)}\.[{_ALPHABET}]{{8}}{re.escape(TEMP_SUFFIX)}\Z")


_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000
_LIBC: list = []  # the C library, loaded on the first link ([None] where it cannot be)


def _libc():
    if not _LIBC:
        try:
            import ctypes

            _LIBC.append(ctypes.CDLL(None, use_errno=True))
        except (OSError, ImportError):
            _LIBC.append(None)
    return _LIBC[0]


def _link_fd(fd: int, name: Path) -> None:
    """Give the anonymous file `fd` the name `name`: linkat(fd, "", AT_EMPTY_PATH) (any user since
    Linux 6.10, with CAP_DAC_READ_SEARCH before), else linkat through /proc/self/fd with
    AT_SYMLINK_FOLLOW (which some mount set-ups refuse with EXDEV). Raises OSError."""
    libc = _libc()
    if libc is not None and getattr(libc, "linkat", None) is not None:
        import ctypes

        if libc.linkat(fd, b"", _AT_FDCWD, os.fsencode(name), _AT_EMPTY_PATH) == 0:
            return
        code = ctypes.get_errno()
        if code == errno.EEXIST:
            raise FileExistsError(code, os.strerror(code), str(name))
    os.link(_PROC_FD / str(fd), name, follow_symlinks=True)


class CannotLink(OSError):
    """This platform gives an O_TMPFILE file no name: the caller writes a named temporary instead."""


@dataclass
class Temp:
    fd: int
    directory: Path
    target_name: str
    path: Path | None  # its name; None while it is anonymous (O_TMPFILE)

    def publish(self) -> Path:
        """The finished file's temporary name, linking an anonymous file to one now (raises
        `CannotLink` when the platform cannot)."""
        for _ in range(100):
            if self.path is not None:
                return self.path
            name = self.directory / temp_name(self.target_name)
            try:
                _link_fd(self.fd, name)
            except FileExistsError:
                continue  # one of 37**8 names taken (another run's): draw again
            except OSError as exc:
                if exc.errno in (errno.EXDEV, errno.EPERM, errno.EACCES, errno.ENOENT, errno.EOPNOTSUPP, errno.EINVAL):
                    raise CannotLink(exc.errno, exc.strerror) from None
                raise
            self.path = name
        raise FileExistsError(errno.EEXIST, "no free temporary name", str(self.directory))

    def renamed(self) -> None:
        """The name was renamed over the target: nothing of ours to remove any more."""
        self.path = None

    def close(self) -> None:
        if self.fd >= 0:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = -1

    def discard(self) -> None:
        """After a failure: close (an anonymous file vanishes) and remove the name if there is one."""
        self.close()
        if self.path is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            self.path = None


def open_temp(directory: Path, target_name: str, *, anonymous: bool = True) -> Temp:
    """A new empty temporary file in `directory` for `target_name`, anonymous where possible."""
    if anonymous and anonymous_temps:
        try:
            fd = os.open(directory, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o600)
            return Temp(fd, Path(directory), target_name, None)
        except OSError as exc:
            if exc.errno not in _NO_TMPFILE:
                raise
    fd, name = tempfile.mkstemp(prefix=f".{target_name}.", suffix=TEMP_SUFFIX, dir=directory)
    return Temp(fd, Path(directory), target_name, Path(name))


def sweep_stale(directory: Path, target_name: str, *, older_than: float = STALE_AFTER_S,
                now: float | None = None) -> list[str]:
    """Remove the temporary files a killed run left for `target_name` (see the module docstring);
    return their names. Best effort: what cannot be listed or removed stays."""
    pattern = temp_pattern(target_name)
    now = time.time() if now is None else now
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    removed: list[str] = []
    try:
        entries = [e for e in os.scandir(directory) if pattern.match(e.name)]
    except OSError:
        return removed
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if (not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or (uid is not None and st.st_uid != uid)
                or now - st.st_mtime < older_than):
            continue
        try:
            os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            pass
    return removed
