"""Real edits from repositories the merge was never tuned on: file pairs between consecutive releases.

The generated planner-style sets (`fastapply data planner-set --seed N`) all draw from the same 2,995
commits of six repositories, so a new seed shares about 88% of its commits (and about 21% of its rows,
snippet and all) with the sets the rules were tuned on: it measures a new sampling of snippets, not new
code. This script builds pairs from packages on PyPI (sdists) and npm (tarballs) instead: for each
package, the last `--releases` consecutive final releases, and between each two the code files that
changed by a few lines (`fastapply data mine-releases`). Two groups, split by repository, never mixed:
`a` (readable: read its rows, tune on it) and `b` (held out: report its aggregates only).

    python benchmarks/foreign_releases.py --group a -o runs/foreign-a.pairs.jsonl.gz
    fastapply data planner-set runs/foreign-a.pairs.jsonl.gz --seed 1 --per-repo 40 -o runs/foreign-a.jsonl
    fastapply eval --strategy instant --data runs/foreign-a.jsonl

Needs the PyPI and npm registries (and `npm` on PATH for the npm packages); downloads are cached in
`--cache`; `--before` (default the day this was written) keeps the set the same when packages release again.
Not run by the tests.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapply.data.pairs import mine_releases  # noqa: E402

# (registry, package, repository name recorded in each pair): none of them is among the repositories of
# train-pairs (express, requests, flask, gin, got, ripgrep), planner-dev(2) or dev-edits
GROUPS = {
    "a": [
        ("pypi", "attrs", "python-attrs/attrs"), ("pypi", "httpx", "encode/httpx"), ("pypi", "rich", "Textualize/rich"),
        ("pypi", "packaging", "pypa/packaging"), ("pypi", "pluggy", "pytest-dev/pluggy"),
        ("pypi", "jinja2", "pallets/jinja"), ("pypi", "markupsafe", "pallets/markupsafe"),
        ("pypi", "orjson", "ijl/orjson"), ("pypi", "tomli", "hukkin/tomli"), ("pypi", "structlog", "hynek/structlog"),
        ("npm", "koa", "koajs/koa"), ("npm", "ws", "websockets/ws"), ("npm", "qs", "ljharb/qs"),
        ("npm", "semver", "npm/node-semver"), ("npm", "rxjs", "ReactiveX/rxjs"), ("npm", "fp-ts", "gcanti/fp-ts"),
    ],
    "b": [
        ("pypi", "urllib3", "urllib3/urllib3"), ("pypi", "anyio", "agronholm/anyio"), ("pypi", "h11", "python-hyper/h11"),
        ("pypi", "marshmallow", "marshmallow-code/marshmallow"), ("pypi", "wrapt", "GrahamDumpleton/wrapt"),
        ("pypi", "pydantic-core", "pydantic/pydantic-core"), ("pypi", "more-itertools", "more-itertools/more-itertools"),
        ("pypi", "isort", "PyCQA/isort"), ("pypi", "typer", "fastapi/typer"), ("pypi", "msgpack", "msgpack/msgpack-python"),
        ("npm", "node-fetch", "node-fetch/node-fetch"), ("npm", "debug", "debug-js/debug"), ("npm", "yargs", "yargs/yargs"),
        ("npm", "io-ts", "gcanti/io-ts"), ("npm", "chalk", "chalk/chalk"), ("npm", "body-parser", "expressjs/body-parser"),
    ],
    # held out too, and with C, C++ and Rust sources beside the Python (added in the fourteenth session)
    "c": [
        ("pypi", "tqdm", "tqdm/tqdm"), ("pypi", "pyparsing", "pyparsing/pyparsing"), ("pypi", "tenacity", "jd/tenacity"),
        ("pypi", "cachetools", "tkem/cachetools"), ("pypi", "sqlparse", "andialbrecht/sqlparse"),
        ("pypi", "toolz", "pytoolz/toolz"), ("pypi", "simplejson", "simplejson/simplejson"),
        ("pypi", "ujson", "ultrajson/ultrajson"), ("pypi", "pybind11", "pybind/pybind11"),
        ("pypi", "greenlet", "python-greenlet/greenlet"), ("pypi", "rpds-py", "crate-py/rpds"),
        ("pypi", "humanize", "python-humanize/humanize"),
        ("npm", "commander", "tj/commander.js"), ("npm", "zod", "colinhacks/zod"), ("npm", "uuid", "uuidjs/uuid"),
        ("npm", "dotenv", "motdotla/dotenv"), ("npm", "minimatch", "isaacs/minimatch"), ("npm", "immer", "immerjs/immer"),
        ("npm", "lru-cache", "isaacs/node-lru-cache"), ("npm", "ky", "sindresorhus/ky"),
    ],
}
_FINAL = re.compile(r"^\d+(\.\d+)*$")
CONFIG = {"json", "yaml", "toml"}  # version bumps and settings, not code: left out


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


def pypi_releases(package: str, cache: Path, count: int, before: str) -> list[tuple[str, Path]]:
    """The last `count` final releases with an sdist uploaded before `before` (an ISO date), downloaded:
    [(version, path)], oldest first."""
    api = f"https://pypi.org/pypi/{package}/json"
    with urllib.request.urlopen(api, timeout=60) as r:
        info = json.load(r)
    found = []
    for version, files in info["releases"].items():
        sdist = next((f for f in files if f["packagetype"] == "sdist" and f["filename"].endswith((".tar.gz", ".zip"))),
                     None)
        if (_FINAL.match(version) and sdist is not None and not sdist.get("yanked")
                and sdist.get("upload_time_iso_8601", "") < before):
            found.append((version, sdist))
    found.sort(key=lambda v: _key(v[0]))
    out = []
    for version, sdist in found[-count:]:
        path = cache / sdist["filename"]
        if not path.exists():
            urllib.request.urlretrieve(urllib.parse.urljoin(api, sdist["url"]), path)  # a mirror's may be relative
        out.append((version, path))
    return out


def npm_releases(package: str, cache: Path, count: int, before: str) -> list[tuple[str, Path]]:
    """The last `count` final releases published before `before` (an ISO date), packed by `npm pack`:
    [(version, path)], oldest first."""
    times = json.loads(subprocess.run(["npm", "view", package, "time", "--json"], capture_output=True,
                                      check=True, text=True).stdout)
    versions = sorted((v for v, t in times.items() if _FINAL.match(v) and t < before), key=_key)[-count:]
    out = []
    for version in versions:
        name = f"{package.replace('@', '').replace('/', '-')}-{version}.tgz"
        if not (cache / name).exists():
            subprocess.run(["npm", "pack", f"{package}@{version}", "--pack-destination", str(cache)],
                           capture_output=True, check=True)
        out.append((version, cache / name))
    return out


def write_release_pairs(fh, releases: list[tuple[str, Path]], repo: str, max_changed: int) -> int:
    """Write to `fh` (JSONL) the code-file pairs of each two consecutive `releases` [(version, path)],
    config files left out, each pair's `sha` naming its two versions; how many were written."""
    n = 0
    for (old_v, old), (new_v, new) in zip(releases, releases[1:]):
        for pair in mine_releases(old, new, repo_name=repo, max_changed=max_changed):
            if pair["language"] in CONFIG:
                continue
            pair["sha"] = f"{old_v}..{new_v}"
            fh.write(json.dumps(pair) + "\n")
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--group", choices=sorted(GROUPS), required=True)
    ap.add_argument("-o", "--out", required=True, help="pairs JSONL(.gz)")
    ap.add_argument("--cache", default="runs/releases", help="where the releases are downloaded")
    ap.add_argument("--releases", type=int, default=6, help="consecutive releases per package")
    ap.add_argument("--max-changed", type=int, default=40)
    ap.add_argument("--before", default="2026-11-27", help="only releases published before this date (ISO), so that "
                    "the set is the same tomorrow")
    args = ap.parse_args(argv)
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    opener = gzip.open if args.out.endswith(".gz") else open
    total = 0
    with opener(args.out, "wt", encoding="utf-8") as fh:
        for registry, package, repo in GROUPS[args.group]:
            try:
                releases = (pypi_releases if registry == "pypi" else npm_releases)(package, cache, args.releases, args.before)
            except (OSError, subprocess.CalledProcessError, ValueError, KeyError) as exc:
                print(f"{package}: skipped ({type(exc).__name__}: {exc})", file=sys.stderr)
                continue
            n = write_release_pairs(fh, releases, repo, args.max_changed)
            print(f"{package}: {len(releases)} releases, {n} pairs", file=sys.stderr)
            total += n
    print(f"{total} pairs written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
