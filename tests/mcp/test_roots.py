"""Which paths the edit_file tool may touch."""

import os

import pytest

from fastapply.errors import InputError
from fastapply.mcp.roots import PathRejected, Roots


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("x = 1\n")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret\n")
    return root, outside


def test_relative_and_absolute_paths_inside_the_root(tree):
    root, _ = tree
    roots = Roots([root])
    t = roots.resolve("pkg/a.py")
    assert t.exists and t.path == (root / "pkg" / "a.py").resolve() and t.relative == "pkg/a.py"
    assert roots.resolve(str(root / "pkg" / "a.py")).relative == "pkg/a.py"
    assert roots.resolve("pkg/../pkg/a.py").relative == "pkg/a.py"  # `..` that stays inside is fine
    new = roots.resolve("pkg/new.py")
    assert not new.exists and new.relative == "pkg/new.py"


@pytest.mark.parametrize("escape", ["../secret.txt", "pkg/../../secret.txt", "ABSOLUTE"])
def test_paths_out_of_the_root_are_refused(tree, escape):
    root, outside = tree
    target = str(outside) if escape == "ABSOLUTE" else escape
    with pytest.raises(PathRejected, match="outside the allowed root"):
        Roots([root]).resolve(target)


def test_symlinks_out_of_the_root_are_refused_and_links_inside_resolve_to_their_target(tree):
    root, outside = tree
    os.symlink(outside, root / "link.txt")
    os.symlink(outside.parent, root / "linkdir")
    with pytest.raises(PathRejected, match="symlink"):
        Roots([root]).resolve("link.txt")
    with pytest.raises(PathRejected, match="outside"):
        Roots([root]).resolve("linkdir/secret.txt")
    os.symlink(root / "pkg" / "a.py", root / "alias.py")
    t = Roots([root]).resolve("alias.py")
    assert t.path == (root / "pkg" / "a.py").resolve()  # written through, the link stays a link


def test_not_regular_files_and_bad_names_are_refused(tree):
    root, _ = tree
    roots = Roots([root])
    os.mkfifo(root / "pipe")
    for name, reason in [("pkg", "directory"), ("pipe", "not a regular file"), ("", "empty"),
                         ("a\x00b", "NUL"), ("nodir/x.py", "does not exist"), (".", "root directory")]:
        with pytest.raises(PathRejected, match=reason):
            roots.resolve(name)
    os.symlink(root / "gone.py", root / "dangling.py")
    with pytest.raises(PathRejected, match="broken symlink"):
        roots.resolve("dangling.py")


def test_several_roots(tree, tmp_path):
    root, _ = tree
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.py").write_text("y = 2\n")
    roots = Roots([root, other])
    assert roots.resolve("b.py").root == other.resolve()  # relative: the root where it exists
    assert roots.resolve("c.py").root == root.resolve()  # a new file: the first root
    assert roots.resolve(str(other / "b.py")).relative == "b.py"
    with pytest.raises(InputError, match="not a directory"):
        Roots([tmp_path / "missing"])
