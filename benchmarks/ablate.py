"""Ablation of the instant merge's rules: turn one rule off at a time and count what changes.

Usage (from the repository root, with the tree on the path):

    PYTHONPATH=$PWD python benchmarks/ablate.py SET.jsonl [SET.jsonl ...] [--only NAME,NAME]
        [--jobs 2] [--cache DIR] [--json OUT.json] [--list]

Each switch in `SWITCHES` turns one rule off by monkeypatching it inside a worker process, never
by a flag in the product: a tie-breaker returns "no decision" (None), an exemption returns False,
a guard returns None (passes), a settling rule declines (None), a refusal exit or a write exit of
`decide.two_readings.two_readings` is skipped (its `if` reads `if False:` in a recompiled copy of the
function). A patch replaces the function in every `fastapply` module that holds it, so
`from x import f` copies are switched too. For each switch it runs the instant merge over the
sets and prints right / wrong / refused per set and the delta against the baseline: rows that
became right (+right), became wrong (+wrong), became refused (+refused), and the transitions the
team decides on: wrong -> refused (wrong files the rule makes), right -> refused (right files the
rule buys), right/refused -> wrong (wrong files the rule prevents). It prints no row content.

The baseline (outcome per row, and which switches each row reached) is cached per set under
--cache, keyed by the set's bytes, the merge package's source and the switches; a switch reruns
only the rows that reached it (`_track`: where the rule returned something else than its off
value, or a skipped `if`'s condition held; a rule that a row never reaches so cannot change it). Every switch runs in a fresh process (maxtasksperchild=1), at most `--jobs` (default
and cap 2) at a time.
The hash seed is pinned (PYTHONHASHSEED=0): a few refusal messages once depended on set order.

This script knows the rules' names and where they live; it does not judge them (docs/ARCHITECTURE.md
holds the measured table and the decisions).
"""

from __future__ import annotations

import __future__
import argparse
import hashlib
import importlib
import inspect
import json
import multiprocessing
import os
import pathlib
import sys
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

ROOT = pathlib.Path(__file__).resolve().parent.parent
M = "fastapply.merge."


@dataclass(frozen=True)
class Switch:
    """One rule turned off. `kind`: tie | settle | exit | exempt | reading | guard. `target`:
    "module:function" patched (or whose source is patched); `off`: what it does instead, one of
    ("return", value), ("identity", argument index), ("source", old text, new text),
    ("constant", NAME, value) (a module constant; `target` names the function that reads it)."""

    name: str
    kind: str
    target: str
    off: tuple
    protects: str = ""


def _ret(value):
    return ("return", value)


def _skip(old: str, new: str = "if False:"):
    return ("source", old, new)


SWITCHES: list[Switch] = [
    # tie-breakers between equal places of a section with no anchor (align/lazy.py calls them in turn)
    Switch("pinned", "tie", M + "align.ties:pinned_place", _ret(None), "rival places settled by a changed line's old form"),
    Switch("enclosed", "tie", M + "align.ties:enclosed_place", _ret(None), "rival places settled by blocks the previous section left open"),
    Switch("twins", "tie", M + "align.lazy:_twin_free", _ret(None), "rival places settled by the one reading without a pasted twin"),
    Switch("doubt-settled-elsewhere", "settle", M + "align.doubts:settled_reading", _ret(None), "a new/changed-line doubt the snippet settles by the same change elsewhere"),
    # settled readings (decide/)
    Switch("relanded", "settle", M + "decide.settled:relanded", _ret(None), "a new definition laid over the end of the one above, inserted whole"),
    Switch("doubt-by-repeats", "settle", M + "decide.settled:doubt_by_repeats", _ret(None), "a doubt whose new-line reading repeats its neighbour, read as a change"),
    Switch("exit-replaced", "settle", M + "decide.settled:exit_replaced", _ret(None), "a new exit laid after the kept old one, read as replacing it"),
    Switch("doubt-by-unindented", "settle", M + "decide.settled:new_reading_unindented", _ret(False), "a doubt whose new-line reading leaves an opener without an indented body, read as a change"),
    Switch("settled-by-imports", "settle", M + "decide.two_readings:_settled_by_imports", _ret(None), "the reading that deletes a block whose imports the snippet removed"),
    Switch("final-block-refusal", "exit", M + "decide.two_readings:differ_by_final_block", _ret(False), "refuse readings that differ by a short final block"),
    Switch("moved-run-veto", "exit", M + "decide.two_readings:shown_run_kept_twice", _ret(False), "veto of keeps-context when a shown run is kept twice"),
    # exits of decide.two_readings.two_readings
    Switch("unchanged-loses", "exit", M + "decide.two_readings:_unchanged_loses", ("identity", (1, 2)), "a reading that changes nothing loses to one that changes"),
    Switch("honour-diff-lines", "exit", M + "decide.two_readings:_honour_diff_lines", ("identity", 0), "a reading whose counts disagree with the +/- lines does not merge"),
    Switch("twin-joint", "exit", M + "decide.two_readings:_decide", _skip("if verdicts == [True, False] and lost[0] <= lost[1]:"), "both merge, only greedy pasted a twin: joint written"),
    Switch("twin-greedy", "exit", M + "decide.two_readings:_decide", _skip("if verdicts == [False, True] and not (lost[0] == 0 < lost[1]):"), "both merge, only joint pasted a twin: greedy written"),
    Switch("keeps-context", "exit", M + "decide.two_readings:_keeps_context", _ret(None), "both paste twins: the one not copying shown context written"),
    Switch("blank-lines-only", "exit", M + "decide.two_readings:_decide", _skip("if verdicts == [True, True] and _without_blanks(joint.text) == _without_blanks(old.text):"), "readings differing in blank lines only: joint written"),
    Switch("deletes-less", "exit", M + "decide.two_readings:_decide", _skip("if abs(kept[0] - kept[1]) >= 3:"), "readings differing by >= 3 unreplaced deletions: the one deleting less written"),
    Switch("doubted-agreement-refusal", "exit", M + "decide.two_readings:_decide", _skip("if joint_merge.doubted and joint.candidate == old.text:"), "greedy alone agreeing with a doubted joint reading: refused"),
    Switch("greedy-alone", "exit", M + "decide.two_readings:_decide", _skip("if unshown is None:"), "greedy reading alone written when its strict checks pass"),
    Switch("greedy-alone-head-check", "guard", M + "gate.guards:check_unconfirmed", _skip("or check_head_dropped(original, result, snippet)", ""), "greedy alone (and a settled reading): the file head above an unmarked start kept"),
    Switch("greedy-alone-split-check", "guard", M + "gate.guards:check_unconfirmed", _skip("or check_definition_split(original, result, snippet))", ")"), "greedy alone (and a settled reading): a definition not split by a new one"),
    Switch("joint-alone", "exit", M + "decide.two_readings:_decide", _skip("if copied is None:"), "joint reading alone written when it copies no line"),
    Switch("joint-alone-copied-check", "guard", M + "decide.two_readings:_decide", _skip("copied = _copied(orig, joint.text, snip_lines, diff_snippet)", "copied = None"), "joint alone: no distinctive line copied"),
    # readings besides the two lazy ones
    Switch("literal-hunks", "reading", M + "snippet.sections:as_hunks", _ret(None), "a lazy snippet's +/- lines read literally as hunks first"),
    Switch("renamed-headers", "reading", M + "snippet.renames:find_renames", _ret([]), "a renamed header placed as the one it replaces"),
    Switch("implied-end-marker", "reading", M + "snippet.sections:close_open_end", ("identity", 0), "a snippet ending on an opener read as if a marker followed"),
    Switch("by-name", "reading", M + "instant:_by_name", ("identity", 4), "whole definitions between markers replaced by name"),
    Switch("excerpt", "reading", M + "decide.excerpt:read_excerpt", ("refuse",), "a marker-free excerpt read with a marker at each end"),
    # edge rules of the joint placement (align/)
    Switch("split-run", "tie", M + "align.edges:_check_split_run", _ret(None), "an edge closing far away when an adjacent pair of lines is right there"),
    Switch("rival-doubt", "guard", M + "align.edges:_rival", _ret(None), "a pure insertion doubted when a rival reading changes the line inside its match"),
    Switch("new-sibling", "settle", M + "align.edge_edits:new_sibling", _ret(False), "whole blocks after a closed block are new, however alike the next header"),
    Switch("rewritten-by", "settle", M + "align.edge_edits:rewritten_by", _ret(False), "one original line rewritten as a block"),
    Switch("new-siblings-at", "settle", M + "align.edge_edits:new_siblings_at", _ret(False), "inserted sibling blocks at an edge are new (no doubt, no sibling spacing)"),
    Switch("inside-block", "tie", M + "align.lazy:inside_block", ("identity", 0), "a section opening a block it never closes stays inside it"),
    Switch("blank-only", "settle", M + "align.blank_edges:blank_only", _ret(False), "blank lines alone above the first section: it starts at line 1"),
    Switch("excerpt-edge-holds", "settle", M + "decide.excerpt:edge_holds", _ret(False), "an excerpt's loose end settled by the merged file continuing the original"),
    Switch("excerpt-edited-pin", "settle", M + "decide.excerpt:edited_pin", _ret(False), "an excerpt end pinned by an edited copy of a unique line"),
    Switch("edited-block", "reading", M + "align.floating:edited_block", _ret(None), "a section with no matched line placed as an edited copy of one run"),
    Switch("replaces-gap", "settle", M + "align.doubts:replaces_gap", _ret(False), "a changed run bracketed line for line read as replacing the gap"),
    Switch("edited-runs", "tie", M + "align.floating:edited_runs", _ret([]), "rival runs a lone edited section pairs with, for the tie-breakers"),
    Switch("keyword-twins", "tie", M + "align.edges:_keyword_twins", _ret(0), "edge candidates scored down for new lines twinning the adjacent keywords"),
    Switch("duplicates-score", "tie", M + "align.edges:_duplicates", _ret(0), "edge candidates scored down for new lines repeating nearby ones"),
    Switch("blank-separation", "settle", M + "align.blank_edges:blank_separation", _ret(0), "new lines inserted beyond the blank lines separating blocks"),
    Switch("bare-declaration", "settle", M + "align.edge_edits:bare_declaration", _ret(False), "a declaration without its initializer is an edit of the full one"),
    Switch("inner-deletions", "guard", M + "align.lazy:check_inner_deletions", _ret(None), "a section dropping many lines between two anchors refused"),
    # the greedy reading's own rules (align/greedy_locate.py)
    Switch("greedy-own-block", "settle", M + "align.greedy_locate:_own_block_inserted", _ret(False), "a new block closing on generic lines inserted, not closed over the original"),
    Switch("greedy-head-before-tail", "settle", M + "align.greedy_locate:_head_before_tail", _ret(None), "an ambiguous section with an open end placed by its head before its tail"),
    Switch("greedy-insertions-check", "guard", M + "align.greedy_locate:_check_insertions", _ret(None), "inserted lines alike to the ones they sit beside refused"),
    # exemptions from guards
    Switch("new-blocks", "exempt", M + "gate.copies:copies_in_new_blocks", _ret(False), "copies inside a new block shown whole pass the copied-lines guard"),
    Switch("changed-twins", "exempt", M + "gate.copies:copies_replace_changed_lines", _ret(False), "a changed line equal to one elsewhere passes the copied-lines guard"),
    Switch("shown-blocks", "exempt", M + "gate.shown_whole:deletion_in_shown_block", _ret(False), "a short deletion inside a block shown whole is shown"),
    Switch("rewrites", "exempt", M + "gate.shown_whole:inside_rewritten_definition", _ret(False), "lines removed inside a definition shown whole are shown"),
    Switch("shown-by-neighbours", "exempt", M + "gate.snippet_checks:_deletion_shown_by_neighbours", _ret(False), "a short deletion whose two neighbours the snippet shows adjacent"),
    Switch("idiom-copies", "exempt", M + "gate.snippet_checks:check_copied_lines", ("constant", "REPEATED_NEW_LINES", 0), "one or two new lines repeating an idiom the file repeats"),
    Switch("diff-counts-agree", "exempt", M + "decide.settled:copied", ("source", "if diff_snippet and sections.diff_counts_agree(", "if False and sections.diff_counts_agree("), "a reading agreeing with the +/- counts passes the copied-lines guard"),
]

_GUARDS = {  # module where each guard is defined: name -> what it refuses
    "gate.guards": {
        "check_markers_left": "a marker line left in the result",
        "check_changed": "a result equal to the original where the snippet may mean a change",
        "check_parses": "a result that no longer parses",
        "check_file_head": "a result starting indented where the original does not",
        "check_deletions": "far more lines deleted than the snippet shows",
        "check_head_dropped": "the file's head dropped above an unmarked start",
    },
    "gate.snippet_checks": {
        "check_diff_prefix_leak": "new lines starting with a diff prefix",
        "check_duplicated_lines": "a distinctive line pasted twice",
        "check_unshown_deletions": "a deletion next to nothing the snippet shows",
        "check_snippet_lines": "a snippet line missing or out of order",
        "check_relative_indentation": "snippet lines re-nested",
        "check_copied_lines": "a distinctive line more often than original or snippet (block kept twice)",
    },
    "gate.landing": {
        "check_definition_kept_twice": "an outer definition kept twice",
        "check_dropped_definition": "a definition the snippet calls dropped",
        "check_definition_split": "a new definition laid inside another's body",
    },
    "gate.repeats": {
        "check_name_defined_twice": "a name defined twice in one block",
        "check_stutter": "X, G, X around unshown lines",
        "check_context_opener_twice": "a context opener opened twice",
    },
    "gate.siblings": {"check_sibling_overwritten": "a sibling block's opener overwritten"},
    "gate.kept_code": {"check_marker_kept_nothing": "a marker laid over nothing where code was"},
    "gate.unreachable": {
        "check_code_after_exit": "a new exit in front of kept code",
        "check_orphaned_body": "a header removed, its body kept",
        "check_pass_added_to_body": "`pass` added to a non-empty block",
    },
    "gate.dangling": {
        "check_dangling_decorator": "a new decorator followed by a blank line",
        "check_comment_reopened": "a block comment opened inside an open one",
        "check_closer_before_deeper": "a new closer before deeper kept lines",
    },
}
SWITCHES += [Switch("guard:" + fn, "guard", M + mod + ":" + fn, _ret(None), what)
             for mod, fns in _GUARDS.items() for fn, what in fns.items()]


# --------------------------------------------------------------------------- patching


def _resolve(target: str) -> tuple[Any, str, Callable]:
    mod_name, fn_name = target.split(":")
    module = importlib.import_module(mod_name)
    return module, fn_name, getattr(module, fn_name)


def _replace_everywhere(old: Callable, new: Callable) -> int:
    """Put `new` in place of `old` in every fastapply module's globals; the number of places."""
    n = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("fastapply") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is old:
                setattr(module, attr, new)
                n += 1
    return n


def _recompiled(module, fn: Callable, old: str, new: str) -> Callable:
    src = textwrap.dedent(inspect.getsource(fn))
    if src.count(old) != 1:
        raise SystemExit(f"ablate: `{old[:60]}` occurs {src.count(old)} times in {fn.__qualname__}; update the switch")
    code = compile(src.replace(old, new), inspect.getsourcefile(fn), "exec",
                   flags=__future__.annotations.compiler_flag, dont_inherit=True)
    space: dict = {}
    exec(code, vars(module), space)
    return space[fn.__name__]


def switch_off(switch: Switch) -> None:
    """Turn `switch`'s rule off in this process."""
    module, fn_name, fn = _resolve(switch.target)
    kind = switch.off[0]
    if kind == "constant":
        name, value = switch.off[1], switch.off[2]
        if not hasattr(module, name):
            raise SystemExit(f"ablate: {module.__name__} has no {name}")
        setattr(module, name, value)
        return
    if kind == "return":
        value = switch.off[1]
        new = lambda *a, **k: value  # noqa: E731
    elif kind == "identity":
        at = switch.off[1]
        new = (lambda *a, **k: tuple(a[i] for i in at)) if isinstance(at, tuple) else (lambda *a, **k: a[at])
    elif kind == "refuse":
        def new(*a, **k):
            from fastapply.merge.result import MergeResult
            return MergeResult(None, f"{switch.name} switched off", None, None, None)
    elif kind == "source":
        new = _recompiled(module, fn, switch.off[1], switch.off[2])
    else:
        raise SystemExit(f"ablate: unknown switch kind {kind}")
    if _replace_everywhere(fn, new) == 0:
        raise SystemExit(f"ablate: {switch.target} is referenced by no module")


def _probe(switch: Switch) -> str:
    """The key under which the baseline records that a row reached the rule: a row that never
    reaches it keeps its outcome with the rule off, so only reached rows are rerun."""
    return switch.name


def _tracked_if(switch: Switch) -> bool:
    """A skipped `if` of a function: a row reaches it only where its condition held."""
    old = switch.off[1] if switch.off[0] == "source" else ""
    return old.startswith("if ") and old.endswith(":") and switch.off[2] == "if False:"


def _track(switches: list[Switch], reached: set) -> None:
    """Make each switch's rule add the switch's name to `reached` where turning it off could change
    the row: a `return` switch where the rule raised or returned something else than its off value (one
    annotated `-> None`, which acts on its arguments, wherever it is called), an
    `identity` switch where it returned something else than the arguments it would hand back, a
    skipped `if` where its condition held (the function is recompiled with a probe in the
    condition); any other switch where its function is called. The rules' results are unchanged."""
    by_target: dict[str, list[Switch]] = {}
    for s in switches:
        by_target.setdefault(s.target, []).append(s)
    for target, group in sorted(by_target.items()):
        module, _, fn = _resolve(target)
        ifs = [s for s in group if _tracked_if(s)]
        if ifs:
            src = textwrap.dedent(inspect.getsource(fn))
            for s in ifs:
                cond = s.off[1][len("if "):-1]
                src = src.replace(s.off[1], f"if __ablate_hit__({s.name!r}, {cond}):")
            space: dict = {}
            code = compile(src, inspect.getsourcefile(fn), "exec",
                           flags=__future__.annotations.compiler_flag, dont_inherit=True)
            module.__ablate_hit__ = lambda name, c: (c and reached.add(name)) or c
            exec(code, vars(module), space)  # the module's own globals: wrappers put there later are seen
            probed = space[fn.__name__]
        else:
            probed = fn
        rest = [s for s in group if not _tracked_if(s)]
        acts = inspect.signature(fn).return_annotation in (None, "None")  # acts by raising or on its arguments

        def wrapper(*a, _fn=probed, _rest=rest, _acts=acts, **k):
            try:
                out = _fn(*a, **k)
            except Exception:  # a rule that raises (Ambiguous, Unplaceable) does what its off value would not
                reached.update(s.name for s in _rest)
                raise
            for s in _rest:
                kind = s.off[0]
                if kind == "return":
                    changed = _acts or out != s.off[1]
                elif kind == "identity":
                    at = s.off[1]
                    changed = out != (tuple(a[i] for i in at) if isinstance(at, tuple) else a[at])
                else:
                    changed = True
                if changed:
                    reached.add(s.name)
            return out

        wrapper.__wrapped__ = fn
        _replace_everywhere(fn, wrapper)


# --------------------------------------------------------------------------- running

ROWS: dict[str, list[dict]] = {}  # set name -> rows (loaded before the workers fork)


def _outcome(row: dict) -> str:
    from fastapply.merge.instant import instant_merge

    r = instant_merge(row["original"], row["snippet"], path=row.get("path"), language=row.get("language"),
                      instruction=row.get("instruction"))  # as `fastapply eval` passes it
    return ("right" if r.text == row["expected"] else "wrong") if r.merged else "refused"


def _baseline_job(args) -> tuple[str, list[str], list[list[str]]]:
    set_name, switches = args
    reached: set = set()
    _track(switches, reached)
    outcomes, reach = [], []
    for row in ROWS[set_name]:
        reached.clear()
        outcomes.append(_outcome(row))
        reach.append(sorted(reached))
    return set_name, outcomes, reach


def _switch_job(args) -> tuple[str, dict[str, dict[int, str]]]:
    switch, todo = args
    switch_off(switch)
    return switch.name, {s: {i: _outcome(ROWS[s][i]) for i in idx} for s, idx in todo.items()}


def _source_key() -> str:
    h = hashlib.sha1()
    for p in sorted((ROOT / "fastapply" / "merge").rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def _delta(base: list[str], new: list[str]) -> dict[str, int]:
    pairs = list(zip(base, new))
    c = {k: new.count(k) for k in ("right", "wrong", "refused")}
    for k in ("right", "wrong", "refused"):
        c["+" + k] = sum(a != k and b == k for a, b in pairs)
    c["wrong>refused"] = sum(a == "wrong" and b == "refused" for a, b in pairs)
    c["right>refused"] = sum(a == "right" and b == "refused" for a, b in pairs)
    c["right>wrong"] = sum(a == "right" and b == "wrong" for a, b in pairs)
    c["refused>wrong"] = sum(a == "refused" and b == "wrong" for a, b in pairs)
    c["refused>right"] = sum(a == "refused" and b == "right" for a, b in pairs)
    c["wrong>right"] = sum(a == "wrong" and b == "right" for a, b in pairs)
    return c


COLS = ("right", "wrong", "refused", "+right", "+wrong", "+refused",
        "wrong>refused", "right>refused", "right>wrong", "refused>wrong", "refused>right", "wrong>right")


def gained_lost(t: dict[str, int]) -> tuple[int, int]:
    """A rule's rows gained and lost, summed over the sets (a row right with it and wrong without
    it counts twice): gained = right it buys (right with it, refused or wrong without) plus wrong
    files it prevents (refused with it, wrong without); lost = wrong files it makes (wrong with
    it, refused or right without) plus right files it refuses (refused with it, right without)."""
    gained = t["right>refused"] + 2 * t["right>wrong"] + t["refused>wrong"]
    lost = t["wrong>refused"] + 2 * t["wrong>right"] + t["refused>right"]
    return gained, lost


def markdown_table(report: dict) -> str:
    """One row per switch, from the rule's side (summed over the sets): rows gained and rows lost
    (`gained_lost`), and the rows that turn wrong without it (a rule whose removal turns none
    wrong and whose gain does not exceed its loss earns nothing here)."""
    out = ["| rule | kind | module | what it protects | rows gained | rows lost | wrong without it |",
           "|---|---|---|---|---|---|---|"]
    known = {s.name: s for s in SWITCHES}
    for name, s in report["switches"].items():
        t = s["total"]
        target = known[name].target if name in known else s["target"]
        protects = known[name].protects if name in known else s["protects"]
        module = target.split(":")[0].removeprefix("fastapply.merge.") + "." + target.split(":")[1]
        gained, lost = gained_lost(t)
        out.append(f"| {name} | {s['kind']} | `{module}` | {protects} | {gained} | {lost} "
                   f"| {t['right>wrong'] + t['refused>wrong']} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sets", nargs="*", help="jsonl sets with original, snippet, expected")
    ap.add_argument("--only", help="comma-separated switch names (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (at most 2)")
    ap.add_argument("--cache", default=str(ROOT / ".ablate-cache"), help="baseline cache folder")
    ap.add_argument("--json", help="write every switch's counts per set here")
    ap.add_argument("--list", action="store_true", help="list the switches and exit")
    ap.add_argument("--table", metavar="JSON", help="print a --json report as the markdown table and exit")
    a = ap.parse_args(argv)
    if a.table:
        try:
            print(markdown_table(json.loads(pathlib.Path(a.table).read_text())))
        except (OSError, ValueError, KeyError) as exc:
            print(f"ablate: cannot read the report {a.table}: {exc}", file=sys.stderr)
            return 2
        return 0
    if a.list:
        for s in SWITCHES:
            print(f"{s.name:34} {s.kind:8} {s.target}")
        return 0
    if not a.sets:
        ap.error("give at least one set")
    switches = SWITCHES
    if a.only:
        names = a.only.split(",")
        unknown = [n for n in names if n not in {s.name for s in SWITCHES}]
        if unknown:
            print(f"ablate: unknown switch(es): {', '.join(unknown)} (see --list)", file=sys.stderr)
            return 2
        switches = [s for s in SWITCHES if s.name in names]
    for path in a.sets:
        try:
            ROWS[path] = [json.loads(line) for line in open(path) if line.strip()]
        except (OSError, ValueError) as exc:
            print(f"ablate: cannot read {path}: {exc}", file=sys.stderr)
            return 2
    jobs = max(1, min(2, a.jobs))
    ctx = multiprocessing.get_context("fork")
    targets = [_probe(s) for s in SWITCHES]
    src = _source_key() + hashlib.sha1((" ".join(sorted(set(targets))) + inspect.getsource(_track)).encode()).hexdigest()[:6]
    cache = pathlib.Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    base: dict[str, tuple[list[str], list[list[str]]]] = {}
    todo = []
    for path in a.sets:
        key = hashlib.sha1(pathlib.Path(path).read_bytes()).hexdigest()[:12]
        f = cache / f"{pathlib.Path(path).stem}-{key}-{src}.json"
        if f.exists():
            base[path] = tuple(json.loads(f.read_text()))
        else:
            todo.append((path, SWITCHES, f))
    if todo:
        with ctx.Pool(jobs, maxtasksperchild=1) as pool:
            done = pool.map(_baseline_job, [(p, t) for p, t, _ in todo], chunksize=1)
            for (path, _, f), (_, outcomes, reach) in zip(todo, done):
                base[path] = (outcomes, reach)
                f.write_text(json.dumps([outcomes, reach]))
    name = {p: pathlib.Path(p).stem for p in a.sets}
    print("baseline: " + "; ".join(
        f"{name[p]} {b[0].count('right')}/{b[0].count('wrong')}/{b[0].count('refused')}" for p, b in base.items())
        + " (right/wrong/refused)")
    jobs_args = []
    for s in switches:
        t = _probe(s)
        jobs_args.append((s, {p: [i for i, r in enumerate(base[p][1]) if t in r] for p in a.sets}))
    report: dict[str, Any] = {"baseline": {name[p]: _delta(b[0], b[0]) for p, b in base.items()}, "switches": {}}
    print(f"{'switch':34} {'reached':>7} " + " ".join(f"{c:>13}" for c in COLS))
    with ctx.Pool(jobs, maxtasksperchild=1) as pool:
        for (s, _), (sname, changed) in zip(jobs_args, pool.imap(_switch_job, jobs_args)):
            per_set, total_new, total_base = {}, [], []
            for p in a.sets:
                new = list(base[p][0])
                for i, o in changed[p].items():
                    new[i] = o
                per_set[name[p]] = _delta(base[p][0], new)
                total_new += new
                total_base += base[p][0]
            total = _delta(total_base, total_new)
            reached = sum(len(v) for v in changed.values())
            flips = {name[p]: {i: f"{base[p][0][i]}>{o}" for i, o in changed[p].items() if o != base[p][0][i]}
                     for p in a.sets}  # row numbers only, never row content
            report["switches"][sname] = {"kind": s.kind, "target": s.target, "protects": s.protects,
                                         "reached": reached, "total": total, "sets": per_set, "flips": flips}
            print(f"{sname:34} {reached:>7} " + " ".join(f"{total[c]:>13}" for c in COLS), flush=True)
            if a.json:  # after every switch: a run stopped early keeps what it measured
                pathlib.Path(a.json).write_text(json.dumps(report, indent=1))
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":  # refusal paths may depend on set order: pin the hash seed
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)
    sys.exit(main())
