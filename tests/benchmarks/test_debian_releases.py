"""benchmarks/debian_releases.py: versions read from a suite's Packages index, paths paired across versions."""

import importlib.util
import lzma
import pathlib
import sys

_PATH = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "debian_releases.py"


def _load():
    spec = importlib.util.spec_from_file_location("debian_releases", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["debian_releases"] = module
    spec.loader.exec_module(module)
    return module


debian = _load()


def test_upstream_versions_drop_epoch_revision_and_repack_suffix():
    assert debian._upstream("1:2.3.4-1+deb12u1") == "2.3.4"
    assert debian._upstream("3.0.5-3") == "3.0.5"
    assert debian._upstream("1.1.6+dfsg-5") == "1.1.6"
    assert debian._upstream("0.9.0") == "0.9.0"  # a native package has no revision


def test_versioned_folders_pair_up_across_versions():
    gem = "usr/share/rubygems-integration/all/gems/sinatra-3.0.5/lib/sinatra/base.rb"
    crate = "usr/share/cargo/registry/anyhow-1.0.75/src/lib.rs"
    assert debian._VERSIONED.sub("", gem) == "usr/share/rubygems-integration/all/gems/sinatra/lib/sinatra/base.rb"
    assert debian._VERSIONED.sub("", crate) == "usr/share/cargo/registry/anyhow/src/lib.rs"
    assert debian._VERSIONED.sub("", "usr/share/php/Twig/Node/Node.php") == "usr/share/php/Twig/Node/Node.php"


def test_a_suites_packages_index_gives_each_wanted_package_its_version_and_file(tmp_path):
    index = ("Package: ruby-rack\nVersion: 2.2.22-0+deb12u1\nFilename: pool/main/r/ruby-rack/ruby-rack_2.2.22_all.deb\n\n"
             "Package: ruby-thor\nVersion: 1.2.1-1\nFilename: pool/main/r/ruby-thor/ruby-thor_1.2.1-1_all.deb\n\n"
             "Package: other\nVersion: 1\nFilename: pool/main/o/other/other_1_all.deb\n")
    for arch in debian.ARCHES:  # cached: nothing is downloaded
        with lzma.open(tmp_path / f"Packages-bookworm-{arch}.xz", "wt") as fh:
            fh.write(index if arch == "all" else "")
    found = debian.suite_packages("bookworm", tmp_path, {"ruby-rack", "ruby-thor", "missing"})
    assert found == {"ruby-rack": ("2.2.22-0+deb12u1", "pool/main/r/ruby-rack/ruby-rack_2.2.22_all.deb"),
                     "ruby-thor": ("1.2.1-1", "pool/main/r/ruby-thor/ruby-thor_1.2.1-1_all.deb")}


def test_the_groups_never_share_a_package():
    groups = list(debian.GROUPS.values())
    for i, a in enumerate(groups):
        for b in groups[i + 1 :]:
            assert not set(a) & set(b)
