"""textio: exact reads (BOM kept, size limits before reading) and atomic writes that respect the file:
symlinks followed, hard links refused, mode/owner/group kept, umask for new files, the original
untouched by any failure."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fastapply import tempfiles, textio
from fastapply.errors import InputError, ReadOnlyError


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


def anonymous_links_here(directory: Path) -> bool:
    """Whether this machine can give an O_TMPFILE file a name (else atomic_write uses mkstemp)."""
    if not hasattr(os, "O_TMPFILE"):
        return False
    try:
        temp = tempfiles.open_temp(directory, "probe")
    except OSError:
        return False
    try:
        if temp.path is not None:
            return False
        temp.publish()
        return True
    except tempfiles.CannotLink:
        return False
    finally:
        temp.discard()


@pytest.fixture(params=["anonymous", "named"])
def temp_kind(request, monkeypatch, tmp_path):
    """Each write test runs on both temporary files: O_TMPFILE linked at the end, and mkstemp's."""
    if request.param == "anonymous" and not anonymous_links_here(tmp_path):
        pytest.skip("this machine cannot name an O_TMPFILE file")
    monkeypatch.setattr(tempfiles, "anonymous_temps", request.param == "anonymous")
    return request.param


def test_in_place_on_a_symlink_edits_the_target_and_keeps_the_link(tmp_path, temp_kind):
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


def test_a_chain_of_links_and_a_dangling_link(tmp_path, temp_kind):
    target = tmp_path / "code.py"
    target.write_text("old\n")
    (tmp_path / "b.py").symlink_to("code.py")
    (tmp_path / "a.py").symlink_to("b.py")
    textio.atomic_write(tmp_path / "a.py", "new\n")
    assert target.read_text() == "new\n" and (tmp_path / "a.py").is_symlink() and (tmp_path / "b.py").is_symlink()
    (tmp_path / "out.py").symlink_to("created.py")  # -o through a dangling link creates what it names
    textio.atomic_write(tmp_path / "out.py", "made\n")
    assert (tmp_path / "out.py").is_symlink() and (tmp_path / "created.py").read_text() == "made\n"


def test_a_hard_linked_file_is_refused_and_both_names_untouched(tmp_path, temp_kind):
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
def test_mode_is_kept(tmp_path, temp_kind, mode):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, mode)
    textio.atomic_write(p, "new\n")
    assert p.read_text() == "new\n" and stat.S_IMODE(p.stat().st_mode) == mode


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_files_get_the_usual_umask_permissions(tmp_path, temp_kind, umask, expected):
    old = os.umask(umask)
    try:
        textio.atomic_write(tmp_path / "new.py", "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.py").stat().st_mode) == expected
    assert textio.current_umask() == old


def test_owner_and_group_are_copied_before_the_mode(tmp_path, temp_kind, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, 0o754)
    st = p.stat()
    calls = []
    real_fchmod = os.fchmod
    monkeypatch.setattr(os, "fchown", lambda fd, uid, gid: calls.append(("chown", uid, gid)))
    monkeypatch.setattr(os, "fchmod", lambda fd, mode: (calls.append(("chmod", mode)), real_fchmod(fd, mode)))
    textio.atomic_write(p, "new\n")
    assert calls == [("chown", st.st_uid, st.st_gid), ("chmod", 0o754)]
    assert stat.S_IMODE(p.stat().st_mode) == 0o754


def test_when_the_owner_cannot_be_kept_the_group_still_is(tmp_path, temp_kind, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    st = p.stat()
    calls = []

    def chown(fd, uid, gid):
        calls.append((uid, gid))
        if uid != -1:
            raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", chown)
    textio.atomic_write(p, "new\n")
    assert calls == [(st.st_uid, st.st_gid), (-1, st.st_gid)] and p.read_text() == "new\n"


def test_the_file_and_then_its_directory_are_fsynced(tmp_path, temp_kind, monkeypatch):
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


@pytest.mark.parametrize("step", ["encode", "write", "fsync", "fchmod", "link", "replace"])
def test_a_failure_at_any_step_leaves_the_original_untouched(tmp_path, monkeypatch, step, temp_kind):
    p = tmp_path / "a.py"
    p.write_bytes(b"old\r\n")
    os.chmod(p, 0o644)
    before = p.stat()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    text = "new\n"
    if step == "encode":
        text = _Exploding("new\n")
    elif step == "link":
        if temp_kind == "named":
            pytest.skip("a named temporary file is not linked")
        monkeypatch.setattr(tempfiles, "_link_fd", boom)
    else:
        monkeypatch.setattr(os, step, boom)
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


# -- temporary files: none left by a killed run, stale ones swept (issue 18 item 9) -------------------

KILLED_WRITER = """
import os, sys, time
from fastapply import tempfiles, textio
tempfiles.anonymous_temps = sys.argv[2] == "anonymous"
def stall(fd):
    print("writing", flush=True)
    time.sleep(60)
os.fsync = stall
textio.atomic_write(sys.argv[1], "new\\n" * 100_000)
"""


def test_a_run_killed_while_writing_leaves_no_temporary_file(tmp_path):
    """kill -9 while the temporary file is written (stalled at its fsync): the O_TMPFILE file has
    no name, so nothing is left beside the original (a mkstemp file used to stay, full size, 0600)."""
    if not anonymous_links_here(tmp_path):
        pytest.skip("this machine cannot name an O_TMPFILE file (atomic_write sweeps the named ones instead)")
    p = tmp_path / "a.py"
    p.write_text("old\n")
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([repo, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(p), "anonymous"], stdout=subprocess.PIPE,
                            text=True, env=env)
    try:
        assert proc.stdout.readline() == "writing\n"
        assert names(tmp_path) == ["a.py"]  # mid-write: no name at all
    finally:
        proc.kill()
        proc.wait(30)
    assert names(tmp_path) == ["a.py"] and p.read_text() == "old\n"


def test_an_anonymous_temporary_file_is_named_only_just_before_the_rename(tmp_path, monkeypatch, temp_kind):
    if temp_kind == "named":
        pytest.skip("a mkstemp file has its name from the start")
    p = tmp_path / "a.py"
    p.write_text("old\n")
    seen = {}
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (seen.setdefault("fsync", names(tmp_path)), real_fsync(fd)))
    monkeypatch.setattr(os, "replace", lambda a, b: (seen.setdefault("replace", names(tmp_path)), real_replace(a, b)))
    textio.atomic_write(p, "new\n")
    assert seen["fsync"] == ["a.py"]
    (named,) = [n for n in seen["replace"] if n != "a.py"]
    assert tempfiles.temp_pattern("a.py").match(named)
    assert names(tmp_path) == ["a.py"] and p.read_text() == "new\n"


def test_a_platform_that_cannot_link_falls_back_to_a_named_temporary_file(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfiles, "anonymous_temps", True)

    def exdev(fd, name):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(tempfiles, "_link_fd", exdev)
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, 0o640)
    textio.atomic_write(p, "new\n")
    assert p.read_text() == "new\n" and stat.S_IMODE(p.stat().st_mode) == 0o640 and names(tmp_path) == ["a.py"]
    assert tempfiles.anonymous_temps is False  # decided once for the process


def test_stale_temporary_files_of_our_own_pattern_are_swept(tmp_path, temp_kind):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    old = time.time() - tempfiles.STALE_AFTER_S - 60

    def leftover(name, *, age=old, owner=None, link=False):
        f = tmp_path / name
        if link:
            f.symlink_to("a.py")
        else:
            f.write_text("x" * 100)
            if owner is not None:
                os.chown(f, owner, -1)
        os.utime(f, (age, age), follow_symlinks=False)
        return name

    stale = leftover(".a.py.k2j_9xqz.fastapply-tmp")
    kept = [
        leftover(".a.py.abcdefgh.fastapply-tmp", age=time.time()),  # young: another run may be writing it
        leftover(".b.py.abcdefgh.fastapply-tmp"),  # another file's
        leftover(".a.py.abcdefg.fastapply-tmp"),  # not our pattern (7 characters)
        leftover(".a.py.ABCDEFGH.fastapply-tmp"),  # not mkstemp's alphabet
        leftover(".a.py.abcdefgh.fastapply-tmp.bak"),
        leftover(".a.py.symlink_.fastapply-tmp", link=True),  # a symbolic link, never ours
    ]
    if os.geteuid() == 0:
        kept.append(leftover(".a.py.otheruse.fastapply-tmp", owner=12345))  # another user's
    textio.atomic_write(p, "new\n")
    assert stale not in names(tmp_path)
    assert names(tmp_path) == sorted(["a.py", *kept]) and p.read_text() == "new\n"


def test_sweep_stale_reports_what_it_removed(tmp_path):
    (tmp_path / ".x.c.abcdefgh.fastapply-tmp").write_text("left")
    assert tempfiles.sweep_stale(tmp_path, "x.c", now=time.time() + 3600) == [".x.c.abcdefgh.fastapply-tmp"]
    assert names(tmp_path) == []
    assert tempfiles.sweep_stale(tmp_path / "missing", "x.c") == []


# -- read-only files (issue 18 item 11) ----------------------------------------------------------------


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_a_read_only_file_is_refused_unless_allowed(tmp_path, mode, temp_kind):
    p = tmp_path / "a.py"
    p.write_bytes(b"old\n")
    os.chmod(p, mode)
    before = p.stat()
    with pytest.raises(ReadOnlyError, match=rf"a.py is read-only \(mode {mode:04o}\); nothing was written") as err:
        textio.atomic_write(p, "new\n")
    assert err.value.exit_code == 10
    with pytest.raises(ReadOnlyError):
        textio.check_writable(p)
    assert p.read_bytes() == b"old\n" and p.stat().st_ino == before.st_ino and names(tmp_path) == ["a.py"]
    textio.atomic_write(p, "new\n", read_only_ok=True)
    assert p.read_text() == "new\n" and stat.S_IMODE(p.stat().st_mode) == mode


def test_a_file_this_user_cannot_write_is_read_only_to_them(tmp_path, monkeypatch):
    p = tmp_path / "a.py"
    p.write_text("old\n")
    os.chmod(p, 0o644)
    monkeypatch.setattr(os, "access", lambda path, how: not (how & os.W_OK and Path(path) == p))
    with pytest.raises(ReadOnlyError, match="read-only to you \\(mode 0644\\)"):
        textio.atomic_write(p, "new\n")
    assert p.read_text() == "old\n"
