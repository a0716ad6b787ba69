"""Real edits in Ruby, Lua, PHP, Go, Rust and C++: file pairs between the versions Debian's suites ship.

The foreign sets of `foreign_releases.py` come from PyPI and npm, so they hold Python, JavaScript and
TypeScript (and a little C, C++ and Rust). `planner-dev2.jsonl` shows that the languages beyond those
are where the instant merge is weakest, and no other set we can read or hold out has them. Debian's
archive is one registry this machine reaches that carries such sources: binary packages of Ruby gems,
Lua and PHP libraries, Go and Rust crates and header-only C++ libraries install their source files.
Each suite (bullseye, bookworm, trixie, forky, sid) lists in `Packages.xz` the version it ships; for
each package below, the distinct upstream versions, oldest suite first, are downloaded, unpacked and
mined like two releases (`fastapply.data.pairs.mine_releases`). (The mirror serves every suite's `.deb`
but not older suites' upstream tarballs, hence binary packages; Java and C# ship compiled, so they are
not here.) Two groups, split by package, never mixed: `d` (held out:
report its aggregates only) and `e` (readable: read its rows, look for the categories it shows).

    python benchmarks/debian_releases.py --group e -o runs/debian-e.pairs.jsonl.gz
    fastapply data planner-set runs/debian-e.pairs.jsonl.gz --seed 1 --per-repo 40 --n 700 -o runs/debian-e.jsonl
    fastapply eval --strategy instant --data runs/debian-e.jsonl

Needs Debian's archive (deb.debian.org) and `dpkg-deb`; downloads are cached in `--cache`. The suites move as Debian
updates them, so the set is the same only while they do not: each pair records its two versions in
`sha`. Not run by the tests.
"""

from __future__ import annotations

import argparse
import gzip
import lzma
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from fastapply.data.pairs import language_of  # noqa: E402
from foreign_releases import write_release_pairs  # noqa: E402  (the sibling script's writer)

MIRROR = "http://deb.debian.org/debian"
SUITES = ["bullseye", "bookworm", "trixie", "forky", "sid"]  # oldest first
ARCHES = ["all", "amd64"]

# Debian binary packages that ship their sources (Ruby gems, Lua and PHP libraries, Go and Rust
# crates, header-only C++ libraries); none is among the repositories of train-pairs, planner-dev(2),
# dev-edits or the foreign sets. Each group mixes the languages.
GROUPS = {
    "d": [  # held out
        "ruby-rack", "ruby-thor", "ruby-addressable", "ruby-mustermann", "ruby-kramdown", "ruby-tzinfo",
        "lua-penlight", "lua-argparse", "lua-luassert",
        "php-monolog", "php-league-commonmark", "php-nikic-php-parser", "php-twig",
        "golang-github-stretchr-testify-dev", "golang-github-sirupsen-logrus-dev", "golang-github-gorilla-mux-dev",
        "golang-github-urfave-cli-dev", "golang-github-pelletier-go-toml-dev",
        "librust-anyhow-dev", "librust-serde-json-dev", "librust-itertools-dev",
        "nlohmann-json3-dev", "libcli11-dev", "libpugixml-dev", "libfmt-dev",
    ],
    "e": [  # readable
        "ruby-sinatra", "ruby-i18n", "ruby-faraday", "ruby-rouge", "ruby-concurrent", "ruby-redcarpet",
        "lua-busted", "lua-say", "lua-inspect", "lua-ldoc",
        "php-guzzlehttp-psr7", "php-mustache", "php-phpseclib", "composer",
        "golang-github-google-uuid-dev", "golang-github-fatih-color-dev",
        "golang-gopkg-yaml.v3-dev", "golang-github-spf13-pflag-dev", "golang-github-mitchellh-mapstructure-dev",
        "librust-regex-syntax-dev", "librust-thiserror-dev", "librust-log-dev",
        "libspdlog-dev", "catch2", "libcxxopts-dev", "libyaml-cpp-dev",
    ],
    "f": [  # readable: more PHP and Ruby, the languages of the held-out group's wrong files
        "php-symfony-console", "php-symfony-yaml", "php-symfony-finder", "php-symfony-process",
        "php-symfony-string", "php-psr-log", "php-doctrine-inflector", "php-doctrine-lexer", "php-nesbot-carbon",
        "phpunit", "php-sebastian-diff", "php-mockery", "php-league-flysystem", "php-laminas-code",
        "ruby-rspec-core", "ruby-activesupport", "ruby-rack-test", "ruby-yard", "ruby-json", "rubocop",
    ],
}


def _upstream(version: str) -> str:
    """`1:2.3.4-1+deb12u1` -> `2.3.4`: no epoch, no Debian revision, no repack suffix."""
    version = version.split(":", 1)[-1]
    version = version.rsplit("-", 1)[0] if "-" in version else version
    return re.sub(r"[+~](dfsg|ds|repack|really).*$", "", version)


def suite_packages(suite: str, cache: Path, wanted: set[str]) -> dict[str, tuple[str, str]]:
    """{binary package: (version, its .deb's path in the pool)} for the wanted packages of one suite."""
    found: dict[str, tuple[str, str]] = {}
    for arch in ARCHES:
        local = cache / f"Packages-{suite}-{arch}.xz"
        if not local.exists():
            urllib.request.urlretrieve(f"{MIRROR}/dists/{suite}/main/binary-{arch}/Packages.xz", local)
        for stanza in lzma.open(local, "rt", encoding="utf-8", errors="replace").read().split("\n\n"):
            fields = dict(re.findall(r"^(Package|Version|Filename): (.+)$", stanza, re.M))
            if fields.get("Package") in wanted and "Filename" in fields:
                found[fields["Package"]] = (fields["Version"], fields["Filename"])
    return found


_VERSIONED = re.compile(r"-v?\d+(\.\d+)+[^/]*(?=/)")  # gems/sinatra-3.0.5/, registry/anyhow-1.0.75/


def unpacked(pool_path: str, cache: Path) -> Path:
    """The code files of the .deb at `pool_path`, downloaded, unpacked (`dpkg-deb -x`) and laid in a
    folder of the cache under paths without the version (`gems/sinatra-3.0.5/lib` -> `gems/sinatra/lib`),
    so that two versions' files pair up: that folder."""
    deb = cache / Path(pool_path).name
    folder = cache / (deb.name + ".code")
    if not folder.exists():
        if not deb.exists():
            urllib.request.urlretrieve(f"{MIRROR}/{pool_path}", deb)
        raw = cache / (deb.name + ".raw")
        subprocess.run(["dpkg-deb", "-x", str(deb), str(raw)], check=True, capture_output=True)
        for f in raw.rglob("*"):
            if f.is_file() and not f.is_symlink() and language_of(f.name) is not None:
                target = folder / _VERSIONED.sub("", str(f.relative_to(raw)))
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(f, target)
        shutil.rmtree(raw)
        folder.mkdir(exist_ok=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", choices=sorted(GROUPS), required=True)
    ap.add_argument("-o", "--out", required=True, help="pairs JSONL(.gz)")
    ap.add_argument("--cache", default="runs/debian", help="where Packages indexes and packages are downloaded")
    ap.add_argument("--max-changed", type=int, default=40)
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    packages = GROUPS[args.group]
    by_suite = {suite: suite_packages(suite, cache, set(packages)) for suite in SUITES}
    opener = gzip.open if args.out.endswith(".gz") else open
    total = 0
    with opener(args.out, "wt", encoding="utf-8") as fh:
        for package in packages:
            releases: list[tuple[str, Path]] = []
            for suite in SUITES:
                if package not in by_suite[suite]:
                    continue
                version, pool_path = by_suite[suite][package]
                upstream = _upstream(version)
                if releases and releases[-1][0] == upstream:
                    continue
                try:
                    local = unpacked(pool_path, cache)
                except (OSError, subprocess.CalledProcessError) as exc:
                    print(f"{package} {version}: skipped ({exc})", file=sys.stderr)
                    continue
                releases.append((upstream, local))
            n = write_release_pairs(fh, releases, f"debian/{package}", args.max_changed)
            print(f"{package}: {len(releases)} versions ({', '.join(v for v, _ in releases)}), {n} pairs",
                  file=sys.stderr)
            total += n
    print(f"{total} pairs written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
