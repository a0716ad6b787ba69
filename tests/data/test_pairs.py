"""Mining single-file commits from a local git repository."""

import gzip
import json
import subprocess

import pytest

from fastapply.data.pairs import mine_repo, read_pairs
from fastapply.errors import InputError


def _git(cwd, *args):
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True)


def test_mine_single_file_commits(tmp_path):
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.com")
    _git(tmp_path, "config", "user.name", "t")
    body = "".join(f"x{i} = {i}\n" for i in range(30))
    (tmp_path / "a.py").write_text(body)
    (tmp_path / "b.go").write_text("package b\n" * 25)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "initial")
    (tmp_path / "a.py").write_text(body.replace("x3 = 3", "x3 = 33"))
    (tmp_path / "NOTES.md").write_text("docs may change alongside\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "Change x3")
    (tmp_path / "a.py").write_text(body)
    (tmp_path / "b.go").write_text("package c\n" * 25)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "two code files: skipped")
    rows = list(mine_repo(tmp_path, repo_name="me/repo"))
    assert len(rows) == 1
    r = rows[0]
    assert (r["repo"], r["path"], r["language"], r["subject"]) == ("me/repo", "a.py", "python", "Change x3")
    assert "x3 = 3\n" in r["before"] and "x3 = 33\n" in r["after"]


def test_not_a_repository(tmp_path):
    with pytest.raises(InputError):
        list(mine_repo(tmp_path))


def test_partial_clone_keeps_the_commits_read_before_a_missing_object(tmp_path, capsys):
    """A snapshot without its oldest objects: git log stops there; the newer commits are mined."""
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.com")
    _git(tmp_path, "config", "user.name", "t")
    body = "".join(f"x{i} = {i}\n" for i in range(30))
    (tmp_path / "old.py").write_text("gone = 1\n" * 25)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "root")
    (tmp_path / "old.py").write_text("gone = 2\n" * 25)  # this commit's parent blob goes missing
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "old change")
    (tmp_path / "a.py").write_text(body)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "add a")
    (tmp_path / "a.py").write_text(body.replace("x3 = 3", "x3 = 33"))
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-q", "-m", "Change x3")
    blob = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD~3:old.py"], check=True,
                          capture_output=True, text=True).stdout.strip()
    (tmp_path / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    rows = list(mine_repo(tmp_path))
    assert [r["subject"] for r in rows] == ["Change x3"]
    assert "stopped early" in capsys.readouterr().err


def test_read_pairs_checks_fields(tmp_path):
    good = tmp_path / "p.jsonl.gz"
    with gzip.open(good, "wt") as fh:
        fh.write(json.dumps({"repo": "r", "path": "p.py", "language": "python", "subject": "s",
                             "before": "a\n", "after": "b\n"}) + "\n")
    assert read_pairs(good)[0]["after"] == "b\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"repo": "r"}) + "\n")
    with pytest.raises(InputError):
        read_pairs(bad)


def test_one_extension_table_for_data_and_the_instant_merge():
    """Bug: data/pairs.py labelled `.tsx` typescript while syntax.py said tsx."""
    from fastapply.data.pairs import language_of
    from fastapply.merge.text.syntax import detect_language

    for path in ("a.tsx", "b.ts", "c.py", "d.go", "e.rs", "f.jsx", "g.java", "h.lua"):
        assert language_of(path) == detect_language(path, None), path
    assert language_of("a.tsx") == "tsx"


def _release(root, top, files):
    for path, text in files.items():
        f = root / top / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root / top


def test_mine_releases_pairs_the_code_files_two_releases_change_a_little(tmp_path):
    import tarfile
    import zipfile

    from fastapply.data.pairs import mine_releases

    body = "".join(f"x{i} = {i}\n" for i in range(30))
    old = _release(tmp_path / "a", "pkg-1.0", {"src/m.py": body, "src/same.py": body, "big.py": body,
                                              "notes.txt": body, "spaces.py": body, "gone.py": body,
                                              "crlf.py": body, "mixed.py": body.replace("x0 = 0\n", "x0 = 0\r\n")})
    new = _release(tmp_path / "b", "pkg-1.1", {"src/m.py": body.replace("x3 = 3", "x3 = 33"), "src/same.py": body,
                                              "big.py": "".join(f"y{i} = {i}\n" for i in range(30)),
                                              "notes.txt": body + "more\n", "spaces.py": body.replace(" = ", "  =  "),
                                              "new.py": body, "crlf.py": body.replace("x3 = 3", "x3 = 33").replace("\n", "\r\n"),
                                              "mixed.py": body.replace("x0 = 0\n", "x0 = 0\r\n").replace("x3 = 3", "x3 = 33")})
    rows = list(mine_releases(old, new, repo_name="me/pkg", max_changed=10))
    # one small change; not the unchanged, the rewritten (60 lines changed), the non-code, the
    # whitespace-only, the deleted or the added file, nor the ones whose line endings change or mix
    # (a reformat no snippet carries)
    assert [(r["repo"], r["path"], r["language"], r["subject"]) for r in rows] == [("me/pkg", "src/m.py", "python", None)]
    assert rows[0]["before"] == body and "x3 = 33" in rows[0]["after"]
    # archives as PyPI (.tar.gz) and npm (.tgz, another top folder) ship them, and zip files
    with tarfile.open(tmp_path / "old.tar.gz", "w:gz") as t:
        t.add(old, arcname="pkg-1.0")
    with zipfile.ZipFile(tmp_path / "new.zip", "w") as z:
        for f in new.rglob("*"):
            z.write(f, "package/" + str(f.relative_to(new)))
    packed = list(mine_releases(tmp_path / "old.tar.gz", tmp_path / "new.zip", repo_name="me/pkg", max_changed=10))
    assert packed == rows
    with pytest.raises(InputError, match="not a directory or"):
        list(mine_releases(tmp_path / "missing", new, repo_name="me/pkg"))
