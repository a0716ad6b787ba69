"""textio: exact reads (BOM kept, size limits before reading) and atomic writes that respect the file:
symlinks followed, hard links refused, mode/owner/group kept, umask for new files, the original
untouched by any failure."""

from __future__ import annotations

import io
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from fastapply import textio
from fastapply.errors import InputError


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


# -- reading ---------------------------------------------------------------------------------------


def test_read_text_keeps_a_bom_and_line_endings(tmp_path):
    p = tmp_path / "a.py"
    p.write_bytes(b"\xef\xbb\xbfx = 1\r\ny = 2\r\n")
    assert textio.read_text(p) == "\ufeffx = 1\r\ny = 2\r\n"


def test_size_limit_is_checked_before_reading(tmp_path, monkeypatch):
    p = tmp_path / "big.py"
    p.write_bytes(b"x" * 101)
    monkeypatch.setattr(textio, "read_at_most", lambda *a: pytest.fail("read a file over the limit"))
    with pytest.raises(InputError, match=r"big.py is 101 bytes, over the limit of 100 bytes \(raise the limit with --max"):
        textio.read_text(p, max_bytes=100, limit_option="--max-file-bytes")


def test_size_limit_on_standard_input_reads_at_most_limit_plus_one(monkeypatch):
    stream = io.BytesIO(b"y" * 10_000)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    with pytest.raises(InputError, match="more than 100 bytes"):
        textio.read_text("-", "snippet", max_bytes=100)
    assert stream.tell() == 101
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y" * 100)))
    assert textio.read_text("-", "snippet", max_bytes=100) == "y" * 100


def test_a_pipe_is_read_only_up_to_the_limit(tmp_path):
    """A FIFO (what `<(cmd)` or a named pipe gives) is refused after limit + 1 bytes: the writer
    finds the pipe closed long before it has written its 50 MB (it used to be read whole)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    written = []

    def writer():
        with open(fifo, "wb", buffering=0) as fh:
            try:
                for _ in range(800):
                    written.append(fh.write(b"z" * 65536))
            except BrokenPipeError:
                pass

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with pytest.raises(InputError, match=r"pipe is more than 100000 bytes, over the limit of 100000 bytes"):
            textio.read_text(fifo, max_bytes=100_000)
    finally:
        thread.join(30)
    assert sum(written) < 1_000_000


def test_an_endless_device_is_refused_at_the_limit():
    with pytest.raises(InputError, match="/dev/zero is more than 4096 bytes"):
        textio.read_text("/dev/zero", max_bytes=4096)


def test_read_at_most_stops_at_limit_plus_one():
    stream = io.BytesIO(b"q" * (3 << 20))
    assert len(textio.read_at_most(stream, 2 << 20)) == (2 << 20) + 1 and stream.tell() == (2 << 20) + 1
    assert textio.read_at_most(io.BytesIO(b"abc"), 10) == b"abc" and textio.read_at_most(io.BytesIO(b"abc"), None) == b"abc"


# -- atomic writes ---------------------------------------------------------------------------------


def test_in_place_on_a_symlink_edits_the_target_and_keeps_the_link(tmp_path):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "code.py"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    link = tmp_path / "link.py"
    link.symlink_to(os.path.relpath(target, tmp_path))
    textio.atomic_write(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == os.path.relpath(target, tmp_path)
    assert target.read_text() == "new\n" and not target.is_symlink()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert names(tmp_path) == ["link.py", "real"] and names(real_dir) == ["code.py"]


def test_a_chain_of_links_and_a_dangling_link(tmp_path):
    target = tmp_path / "code.py"
    target.write_text("old\n")
    (tmp_path / "b.py").symlink_to("code.py")
    (tmp_path / "a.py").symlink_to("b.py")
    textio.atomic_write(tmp_path / "a.py", "new\n")
    assert target.read_text() == "new\n" and (tmp_path / "a.py").is_symlink() and (tmp_path / "b.py").is_symlink()
    (tmp_path / "out.py").symlink_to("created.py")  # -o through a dangling link creates what it names
    textio.atomic_write(tmp_path / "out.py", "made\n")
    assert (tmp_path / "out.py").is_symlink() and (tmp_path / "created.py").read_text() == "made\n"


def test_a_hard_linked_file_is_refused_and_both_names_untouched(tmp_path):
    a = tmp_path / "a.py"
    a.write_text("old\n")
    b = tmp_path / "b.py"
    os.link(a, b)
    with pytest.raises(InputError, match="2 hard links"):
        textio.check_writable(a)
    with pytest.raises(InputError, match="hard links"):
        textio.atomic_write(b, "new\n")
    assert a.read_text() == b.read_text() == "old\n"
    assert os.stat(a).st_ino == os.stat(b).st_ino and os.stat(a).st_nlink == 2
    assert names(tmp_path) == ["a.py", "b.py"]


@pytest.mark.parametrize("mode", [0o644, 0o755, 0o600, 0o640])
def test_mode_is_kept(tmp_path, mode):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, mode)
    textio.atomic_write(p, "new\n")
    assert p.read_text() == "new\n" and stat.S_IMODE(p.stat().st_mode) == mode


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_files_get_the_usual_umask_permissions(tmp_path, umask, expected):
    old = os.umask(umask)
    try:
        textio.atomic_write(tmp_path / "new.py", "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.py").stat().st_mode) == expected
    assert textio.current_umask() == old


def test_owner_and_group_are_copied_before_the_mode(tmp_path, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, 0o754)
    st = p.stat()
    calls = []
    real_chmod = os.chmod
    monkeypatch.setattr(os, "chown", lambda path, uid, gid: calls.append(("chown", uid, gid)))
    monkeypatch.setattr(os, "chmod", lambda path, mode: (calls.append(("chmod", mode)), real_chmod(path, mode)))
    textio.atomic_write(p, "new\n")
    assert calls == [("chown", st.st_uid, st.st_gid), ("chmod", 0o754)]


def test_when_the_owner_cannot_be_kept_the_group_still_is(tmp_path, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    st = p.stat()
    calls = []

    def chown(path, uid, gid):
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", chown)
    textio.atomic_write(p, "new\n")
    assert calls == [(st.st_uid, st.st_gid), (-1, st.st_gid)] and p.read_text() == "new\n"


def test_the_file_and_then_its_directory_are_fsynced(tmp_path, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    kinds = []
    real_fsync = os.fsync

    def fsync(fd):
        kinds.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    textio.atomic_write(p, "new\n")
    assert kinds == ["file", "dir"]


@pytest.mark.parametrize("step", ["write", "fsync", "chmod", "replace"])
def test_a_failure_at_any_step_leaves_the_original_untouched(tmp_path, monkeypatch, step):
    p = tmp_path / "a.py"
    p.write_bytes(b"old\r\n")
    os.chmod(p, 0o644)
    before = p.stat()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    if step == "write":
        text = _Exploding("new\n")
    else:
        monkeypatch.setattr(os, step, boom)
        text = "new\n"
    with pytest.raises((InputError, RuntimeError)):
        textio.atomic_write(p, text)
    assert p.read_bytes() == b"old\r\n" and p.stat().st_ino == before.st_ino
    assert names(tmp_path) == ["a.py"]  # no temporary file left behind


class _Exploding(str):
    """A text whose encoding fails half-way, as a full disk or a bug would."""

    def encode(self, *a, **k):
        raise RuntimeError("failed mid-write")


def test_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        textio.atomic_write(fifo, "x\n")
    with pytest.raises(InputError, match="is a directory"):
        textio.atomic_write(tmp_path, "x\n")
    with pytest.raises(InputError, match="does not exist"):
        textio.atomic_write(tmp_path / "missing" / "a.py", "x\n")
