"""`fastapply data build`, `data planner-set`, `data patterns`, `data mine` and `data mine-releases`: argparse wiring over build.py,
regions.py, patterns.py and pairs.py.

`add_arguments(subparsers)` registers a `data` command with `build` and `mine` subcommands, each
setting `func(args) -> int`. Errors a user can cause raise `InputError` with a one-line message.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from fastapply import extras, models, options
from fastapply.errors import InputError

DEFAULT_PAIRS = "../shared/data/train-pairs.jsonl.gz"


def _style_weights(text: str) -> dict:
    from fastapply.data.snippets import STYLES

    out = {}
    for part in text.split(","):
        name, _, w = part.partition("=")
        name = name.strip()
        if name not in STYLES or name == "noop":
            raise InputError(f"unknown snippet style {name!r} (context, block, search_replace)")
        try:
            out[name] = float(w or 1)
        except ValueError:
            raise InputError(f"bad weight in --styles: {part!r}") from None
    return out


def cmd_build(args) -> int:
    from fastapply.data.build import BuildConfig, build, write_jsonl
    from fastapply.data.pairs import read_pairs

    if not args.no_tokenize:
        extras.require("model", "fastapply data build", "to count tokens; --no-tokenize needs none")
    pairs = []
    for p in args.pairs:
        pairs.extend(read_pairs(p))
    if not pairs:
        raise InputError("no pairs to build from")
    cfg = BuildConfig(
        seed=args.seed, max_lines=args.max_lines, small_lines=args.small_lines, small_keep=args.small_keep,
        per_path=args.per_path, per_repo=args.per_repo, noop_rate=args.noop_rate,
        drop_instruction=args.drop_instruction, heldout_repos=tuple(args.heldout_repo),
        max_heldout=args.max_heldout, max_tokens=args.max_tokens or None, max_examples=args.max_examples,
        windows=args.windows, instruction_only=args.instruction_only,
    )
    if args.styles:
        cfg.styles = _style_weights(args.styles)
    tokenizer = None
    if not args.no_tokenize:
        tokenizer = models.load(args.model).tokenizer
    result = build(pairs, cfg, tokenizer)
    out = Path(args.out)
    write_jsonl(result["train"], out / "train.jsonl")
    write_jsonl(result["heldout"], out / "heldout.jsonl")
    (out / "stats.json").write_text(json.dumps(result["stats"], indent=1))
    s = result["stats"]
    print(f"{s['pairs_in']} pairs -> {s['pairs_chosen']} chosen -> {s['train']['examples']} train, "
          f"{s['heldout']['examples']} held-out examples in {out}/ (stats.json)")
    return 0


def cmd_planner_set(args) -> int:
    from fastapply.data.build import write_jsonl
    from fastapply.data.pairs import read_pairs
    from fastapply.data.regions import planner_rows

    if args.n < 1:
        raise InputError("--n must be at least 1")
    pairs = []
    for p in args.pairs:
        pairs.extend(read_pairs(p))
    if args.per_repo is not None and args.per_repo < 1:
        raise InputError("--per-repo must be at least 1")
    rows = planner_rows(pairs, args.n, seed=args.seed, max_lines=args.max_lines, per_repo=args.per_repo)
    if not rows:
        raise InputError("no pair with a change to make a planner-style snippet from")
    write_jsonl(rows, args.out)
    print(f"{len(rows)} planner-style eval rows written to {args.out} "
          f"(measure: fastapply eval --data {args.out} --strategy instant)")
    return 0


def cmd_patterns(args) -> int:
    from fastapply.data.build import write_jsonl
    from fastapply.data.patterns import LANGUAGES, pattern_rows

    unknown = sorted(set(args.language or ()) - set(LANGUAGES))
    if unknown:
        raise InputError(f"unknown language(s) {', '.join(unknown)}; known: {', '.join(LANGUAGES)}")
    rows = pattern_rows(languages=tuple(args.language or LANGUAGES), seed=args.seed)
    write_jsonl(rows, args.out)
    print(f"{len(rows)} pattern eval rows written to {args.out} "
          f"(measure: fastapply eval --data {args.out} --strategy instant)")
    return 0


def cmd_mine(args) -> int:
    from fastapply.data.pairs import mine_repo

    rows = mine_repo(args.repo_dir, min_lines=args.min_lines, max_lines=args.max_lines,
                     max_changed=args.max_changed, max_commits=args.max_commits, repo_name=args.name)
    _write_pairs(rows, args.out)
    return 0


def _write_pairs(rows, out: str) -> int:
    """Pairs as JSONL to stdout (`-`) or to the file `out` (said on stderr); how many."""
    from fastapply.data.pairs import write_pairs

    if out == "-":
        n = 0
        for r in rows:
            sys.stdout.write(json.dumps(r) + "\n")
            n += 1
        return n
    n = write_pairs(rows, out)
    print(f"{n} pairs written to {out}", file=sys.stderr)
    return n


def add_arguments(subparsers) -> None:
    data = subparsers.add_parser("data", help="build training data from real edits")
    dsub = data.add_subparsers(dest="data_command", metavar="{build,planner-set,patterns,mine,mine-releases}")
    dsub.required = True

    b = dsub.add_parser("build", help="synthesise snippets from (before, after) pairs and write examples")
    b.add_argument("pairs", nargs="*", default=[DEFAULT_PAIRS], help=f"pairs JSONL(.gz) files (default {DEFAULT_PAIRS})")
    b.add_argument("-o", "--out", default="runs/data", help="output directory (train.jsonl, heldout.jsonl, stats.json)")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--max-lines", type=int, default=200)
    b.add_argument("--small-lines", type=int, default=100)
    b.add_argument("--small-keep", type=float, default=0.5)
    b.add_argument("--per-path", type=int, default=3)
    b.add_argument("--per-repo", type=int, default=None)
    b.add_argument("--noop-rate", type=float, default=0.05)
    b.add_argument("--drop-instruction", type=float, default=0.25)
    b.add_argument("--styles", default="", help="weights, e.g. context=0.45,block=0.4,search_replace=0.15")
    b.add_argument("--heldout-repo", action="append", default=None, help="repository kept out of training (repeatable)")
    b.add_argument("--max-heldout", type=int, default=60)
    b.add_argument("--max-tokens", type=int, default=3072, help="drop examples longer than this (0: no bound)")
    b.add_argument("--max-examples", type=int, default=None)
    options.add_model_arguments(b, default=models.BASE_MODEL, device=False, dtype=False,
                                model_help_text=f"model whose tokenizer counts tokens (default: {models.BASE_MODEL})")
    b.add_argument("--no-tokenize", action="store_true", help="skip token counts and the token bound")
    b.add_argument("--windows", type=float, default=0.0, metavar="RATE",
                   help="share of pairs also made a windowed rewrite example for a planner-style snippet")
    b.add_argument("--instruction-only", type=float, default=0.0, metavar="RATE",
                   help="share of pairs whose subject says remove/drop/delete made a deletion shown only in the instruction")
    b.set_defaults(func=_with_heldout_default(cmd_build))

    ps = dsub.add_parser("planner-set", help="write eval rows with planner-style snippets (every style) from pairs")
    ps.add_argument("pairs", nargs="*", default=[DEFAULT_PAIRS], help=f"pairs JSONL(.gz) files (default {DEFAULT_PAIRS})")
    ps.add_argument("-o", "--out", default="runs/planner-set.jsonl", help="eval rows JSONL")
    ps.add_argument("--n", type=int, default=700, help="rows to write (styles in turn)")
    ps.add_argument("--seed", type=int, default=7)
    ps.add_argument("--max-lines", type=int, default=600, help="skip originals longer than this")
    ps.add_argument("--per-repo", type=int, default=None, metavar="N",
                    help="at most N pairs of each repository (pairs mined from several repositories)")
    ps.set_defaults(func=cmd_planner_set)

    pt = dsub.add_parser("patterns", help="write eval rows of everyday edits in 15 languages, every planner style")
    pt.add_argument("-o", "--out", default="runs/patterns.jsonl", help="eval rows JSONL")
    pt.add_argument("--language", action="append", help="only this language (repeatable)")
    pt.add_argument("--seed", type=int, default=0)
    pt.set_defaults(func=cmd_patterns)

    m = dsub.add_parser("mine", help="mine (before, after) pairs from a local git repository")
    m.add_argument("repo_dir")
    m.add_argument("-o", "--out", default="-", help="pairs JSONL(.gz) file, or - for stdout")
    m.add_argument("--name", default=None, help="repository name recorded in each pair")
    m.add_argument("--min-lines", type=int, default=20)
    m.add_argument("--max-lines", type=int, default=400)
    m.add_argument("--max-changed", type=int, default=120)
    m.add_argument("--max-commits", type=int, default=None)
    m.set_defaults(func=cmd_mine)

    r = dsub.add_parser("mine-releases", help="mine (before, after) pairs from two releases of a package")
    r.add_argument("old", help="the earlier release: a directory or a .tar.gz/.tgz/.zip archive (PyPI sdist, npm pack)")
    r.add_argument("new", help="the later release, the same way")
    r.add_argument("--name", required=True, help="repository name recorded in each pair")
    r.add_argument("--subject", default=None, help="instruction recorded in each pair (default: none)")
    r.add_argument("-o", "--out", default="-", help="pairs JSONL(.gz) file, or - for stdout")
    r.add_argument("--min-lines", type=int, default=20)
    r.add_argument("--max-lines", type=int, default=400)
    r.add_argument("--max-changed", type=int, default=40)
    r.set_defaults(func=cmd_mine_releases)


def cmd_mine_releases(args) -> int:
    from fastapply.data.pairs import mine_releases

    rows = mine_releases(args.old, args.new, repo_name=args.name, subject=args.subject, min_lines=args.min_lines,
                         max_lines=args.max_lines, max_changed=args.max_changed)
    _write_pairs(rows, args.out)
    return 0


def _with_heldout_default(fn):
    def run(args) -> int:
        if args.heldout_repo is None:
            args.heldout_repo = ["BurntSushi/ripgrep"]
        for name in ("small_keep", "noop_rate", "drop_instruction", "windows", "instruction_only"):
            if not 0.0 <= getattr(args, name) <= 1.0:
                raise InputError(f"--{name.replace('_', '-')} must be between 0 and 1")
        return fn(args)

    return run
