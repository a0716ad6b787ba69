"""`fastapply eval --retry`: play the planner once on every refusal and count the second try.

For each row the instant merge refuses, the retry reads the refusal's own `options` (refusal.py),
keeps those that agree with what the planner meant, applies the first of them to the snippet
(revise.py) and merges again. "What the planner meant" is the row's `expected` file, used only to
choose between the options the refusal offers, as a planner knows its own intent (`agrees`,
evaluation/agreement.py: the revised sections are runs of the expected file, markers stand where it
has unshown original lines, and the revision reads as meant).

Every agreeing option is applied (a planner adds all the context it knows is true), unless two
edit the same snippet line; where the whole does not read as meant, the options that do not on their
own are left out and the rest chosen again; a marker-only option at the snippet's start and one at
its end are also tried as one, first (neither agrees alone where the file goes on on both sides).
A row with no agreeing option stays refused ("no option"). The options are those every surface
reports, in reading order (merge/instant.py `ordered_refusal`: those whose revision merges first, and
options that answer the refusal the revision meets next as well, refuse/chained.py). `second_shown` is
the same planner reading only the first `MAX_SHOWN` (12) of them, which is what an MCP answer spells
out for an agent; `second` reads them all, as a program reading the refusal's JSON can. A retry that
writes a wrong file means the refusal offered a wrong option: `summarise` counts those first (and the
wrong files of both tries by shape, evaluation/shapes.py), then tables each refusal kind by what its
retry came to (`WHY`: right, wrong, refused again, no option agrees, no option offered).

This module knows refusals, snippets and outcomes; it does not know how the merge decides.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import replace
from typing import Callable, Sequence

from fastapply.evaluation.agreement import agrees
from fastapply.evaluation.pointing import unplaced
from fastapply.evaluation.shapes import shape_counts, shape_words, wrong_shape
from fastapply.merge.refuse.ranking import MAX_SHOWN
from fastapply.merge.refuse.refusal import Edit, Option, Refusal
from fastapply.merge.refuse.revise import revise


def choose(refusal: Refusal | None, snippet: str, expected: str, original: str | None = None) -> Option | None:
    """The refusal's options that agree with the planner's intent, as one option (a planner adds
    all the context it knows is true): each agreeing option in turn, unless it edits a line an
    earlier one edits, kept only while the whole still agrees. Whether the whole reads as meant
    (agreement.py, `reads`: another option may pin what one leaves to a reading) is asked of the whole:
    where it does not, the options that do not on their own are left out and the rest chosen again.
    None when no option agrees."""
    if refusal is None:
        return None
    lines = snippet.splitlines()
    content = [k + 1 for k, line in enumerate(lines) if line.strip()]
    head, tail = (content[0], content[-1] + 1) if content else (1, 1)
    # markers at an open edge first: the file goes on there or not, whatever else the revision adds
    ordered = sorted(_with_both_edges(refusal.options, head, tail),
                     key=lambda o: not any(_edge_marker(e, head, tail) for e in o.edits))
    ordered = [o for o in ordered if agrees(o, snippet, expected, original, reads=False)]
    while ordered:
        chosen = _gather(ordered, snippet, expected, original, head, tail)
        whole = chosen[0] if len(chosen) == 1 else _joined(chosen, head, tail)
        if original is None or agrees(whole, snippet, expected, original):
            return whole
        misread = [o for o in chosen if not agrees(o, snippet, expected, original)]
        if not misread:
            return None
        ordered = [o for o in ordered if o not in misread]
    return None


def _with_both_edges(options: Sequence[Option], head: int, tail: int) -> list[Option]:
    """The options, and first the one that joins a marker-only option at the snippet's start with
    one at its end, where the refusal offers both apart: once one edge has a marker, the other
    unmarked edge claims the file's start or end, so neither agrees alone where the file goes on
    at both (a planner who knows the file goes on on both sides adds both markers)."""
    only = [o for o in options if o.edits and all(_edge_marker(e, head, tail) for e in o.edits)]
    lead = next((o for o in only if all(e.at <= head for e in o.edits)), None)
    trail = next((o for o in only if all(e.at >= tail for e in o.edits)), None)
    if lead is None or trail is None:
        return list(options)
    both = _joined([lead, trail], head, tail)
    return [both] + [o for o in options if o != both]


def _gather(ordered: list[Option], snippet: str, expected: str, original: str | None,
            head: int, tail: int) -> list[Option]:
    """The agreeing options in turn, unless one edits a line an earlier one edits, kept only while
    the whole still agrees (as one reading aside: `choose` asks that of the whole)."""
    chosen: list[Option] = []
    used: set[int] = set()
    for option in ordered:
        edge = {e for e in option.edits if _edge_marker(e, head, tail)}
        spots = {e.at if e.at is not None else e.start for e in option.edits if e not in edge}
        spots |= {k for e in option.edits if e.start is not None for k in range(e.start, e.end + 1)}
        if spots & used:
            continue
        if chosen and not agrees(_joined(chosen + [option], head, tail), snippet, expected, original, reads=False):
            continue
        chosen.append(option)
        used |= spots
    return chosen


def _edge_marker(edit: Edit, head: int, tail: int) -> bool:
    """A marker put before the snippet's first content line or after its last one."""
    return edit.action == "marker" and (edit.at <= head or edit.at >= tail)


def _joined(options: list[Option], head: int, tail: int) -> Option:
    """The options as one, their edits in order, except that a marker at the snippet's start
    goes before, and one at its end after, anything else put at the same line (the marker is
    the edge; lines added there are inside it)."""
    edits = [e for o in options for e in o.edits]
    rank = lambda e: (-1 if e.at <= head else 1) if _edge_marker(e, head, tail) else 0
    return Option("; ".join(o.says for o in options), tuple(sorted(edits, key=rank)))


Merge = Callable[[dict, str], "object"]  # (example, snippet) -> a MergeResult (instant_merge's)


def _instant(example: dict, snippet: str):
    from fastapply.merge.instant import instant_merge

    return instant_merge(example["original"], snippet, language=example.get("language"), path=example.get("path"),
                         instruction=example.get("instruction"))


def _outcome(result, expected: str) -> str:
    if not result.merged:
        return "refused"
    return "right" if _same(result.text, expected) else "wrong"


def retry_example(example: dict, merge: Merge = _instant) -> dict:
    """One row: the first try, and for a refusal the option chosen and the second try; also the
    second try of an agent that reads only the options an MCP answer spells out (`second_shown`)."""
    from fastapply.evaluation.scoring import example_language, snippet_style

    row = {"id": example.get("id"), "style": snippet_style(example), "language": example_language(example)}
    first = merge(example, example["snippet"])
    row["first"] = row["second"] = row["second_shown"] = _outcome(first, example["expected"])
    if first.merged:
        if row["first"] == "wrong":
            row["first_shape"] = wrong_shape(example["original"], example["expected"], first.text)
        return row
    refusal = first.refusal
    row["unplaced"] = bool(unplaced(refusal.sentence if refusal is not None else "", example["original"].splitlines()))
    if refusal is not None and refusal.options:  # as every surface reports it: the options in reading order
        from fastapply.merge.instant import ordered_refusal

        refusal = ordered_refusal(example["original"], example["snippet"], refusal, language=example.get("language"),
                                  path=example.get("path"), instruction=example.get("instruction"))
    row["kind"] = refusal.kind if refusal is not None else None
    row["options"] = len(refusal.options) if refusal is not None else 0
    option = choose(refusal, example["snippet"], example["expected"], example["original"])
    row["option"] = option.says if option is not None else None
    row["why"] = "no option offered" if not row["options"] else "no option agrees"
    if option is not None:
        second = None
        try:
            second = merge(example, revise(example["snippet"], option))
            row["second"] = _outcome(second, example["expected"])
            if row["second"] == "wrong":
                row["second_shape"] = wrong_shape(example["original"], example["expected"], second.text)
        except ValueError:
            row["second"] = "refused"
        row["why"] = row["second"] if row["second"] != "refused" else "refused again"
        again = getattr(second, "refusal", None)
        if again is not None:
            row["second_kind"] = again.kind
            row["same_sentence"] = again.sentence == refusal.sentence if refusal is not None else False
    row["second_shown"] = _shown_try(example, refusal, option, row["second"], merge)
    return row


def _shown_try(example: dict, refusal: Refusal | None, option: Option | None, second: str, merge: Merge) -> str:
    """The second try of a planner that reads only the options an MCP answer spells out: the first
    `MAX_SHOWN` of the refusal's, in reading order (instant.ordered_refusal): the same choice among those.
    Where that is the choice among all of them (`option`, whose second try came to `second`), it is not
    merged again."""
    if refusal is None or not refusal.options:
        return "refused"
    if len(refusal.options) > MAX_SHOWN:
        shown = refusal.options[:MAX_SHOWN]
        seen = choose(replace(refusal, options=tuple(shown)), example["snippet"], example["expected"], example["original"])
        if seen != option:
            option, second = seen, None
    if option is None:
        return "refused"
    if second is not None:
        return second
    try:
        return _outcome(merge(example, revise(example["snippet"], option)), example["expected"])
    except ValueError:
        return "refused"


WHY = ("right", "wrong", "refused again", "no option agrees", "no option offered")  # a refusal's retry, best first


def run_retry(examples: Sequence[dict], merge: Merge = _instant, progress: Callable[[str], None] | None = None) -> dict:
    """Every example's first and second try, and their summary: {"rows": [...], "summary": {...}}."""
    rows = []
    for n, example in enumerate(examples, 1):
        if not example.get("expected"):
            continue
        rows.append(retry_example(example, merge))
        if progress is not None and n % 100 == 0:
            progress(f"retry: {n}/{len(examples)}")
    return {"rows": rows, "summary": summarise(rows)}


def _same(text: str, expected: str) -> bool:
    """Right means what `fastapply eval` means (scoring.score_example): the exact file, byte for byte."""
    return text == expected


def summarise(rows: Sequence[dict]) -> dict:
    """First and second try (right / wrong / refused) overall, per style and per language; the
    refusals' kinds and how many of their sentences point at a line that locates nothing (pointing.py);
    how many refusals the retry merged right, wrong, or left refused."""
    out: dict = {"rows": len(rows)}
    out["without_option"] = sum(1 for r in rows if r["first"] == "refused" and not r.get("options"))
    for name in ("first", "second"):
        out[name] = dict(Counter(r[name] for r in rows))
    refused = [r for r in rows if r["first"] == "refused"]
    out["retry"] = dict(Counter(r["second"] for r in refused))
    out["retry"]["no option"] = sum(1 for r in refused if r.get("option") is None)
    out["retry_right_share"] = round(out["retry"].get("right", 0) / len(refused), 4) if refused else None
    out["wrong_after_retry_share"] = round(sum(1 for r in rows if r["second"] == "wrong") / len(rows), 4) if rows else None
    out["retry_wrong"] = sum(1 for r in refused if r["second"] == "wrong")
    # what the wrong files got wrong (shapes.py): the first try's, and those the retry made
    out["first_wrong_shapes"] = dict(shape_counts(rows, "first_shape"))
    out["retry_wrong_shapes"] = dict(shape_counts(refused, "second_shape"))
    # the same planner reading only the options an MCP answer spells out (ranking.MAX_SHOWN)
    shown = Counter(r.get("second_shown", r["second"]) for r in refused)
    out["retry_shown"] = {"right": shown.get("right", 0), "wrong": shown.get("wrong", 0), "refused": shown.get("refused", 0)}
    out["retry_shown_right_share"] = round(shown.get("right", 0) / len(refused), 4) if refused else None
    out["kinds"] = dict(Counter(r.get("kind") for r in refused))
    out["unplaced"] = sum(1 for r in refused if r.get("unplaced"))  # sentences pointing at a line that locates nothing
    # each refusal kind by what its retry came to (`WHY`): which kinds lack options, which options
    # do not agree, which re-applied revisions are refused again (and of those, on the same sentence)
    table = defaultdict(Counter)
    for r in refused:
        table[r.get("kind") or "?"][r.get("why", "no option agrees")] += 1
        table[r.get("kind") or "?"]["same sentence"] += bool(r.get("same_sentence"))
    out["by_kind"] = {k: dict(v) for k, v in sorted(table.items(), key=lambda x: -sum(x[1][w] for w in WHY))}
    for key in ("style", "language"):
        table: dict = defaultdict(lambda: Counter())
        for r in rows:
            table[r.get(key) or "?"][f"first_{r['first']}"] += 1
            table[r.get(key) or "?"][f"second_{r['second']}"] += 1
        out[f"by_{key}"] = {k: dict(v) for k, v in sorted(table.items())}
    return out


def format_summary(summary: dict) -> str:
    """The retry's table for the terminal: wrong files after the retry first."""
    def three(c: dict) -> str:
        return f"{c.get('right', 0)} right / {c.get('wrong', 0)} wrong / {c.get('refused', 0)} refused"

    r = summary["retry"]
    lines = [f"rows: {summary['rows']}",
             f"retry made wrong files: {summary['retry_wrong']} (wrong after retry: "
             f"{(summary['wrong_after_retry_share'] or 0) * 100:.2f}% of rows)",
             f"first try:  {three(summary['first'])}",
             "wrong files by shape (evaluation/shapes.py): first try "
             + (shape_words(summary.get("first_wrong_shapes", {})) or "none")
             + "; made by the retry " + (shape_words(summary.get("retry_wrong_shapes", {})) or "none"),
             f"second try: {three(summary['second'])}",
             f"refusals retried: {r.get('right', 0)} right, {r.get('wrong', 0)} wrong, {r.get('refused', 0)} still refused "
             f"({r.get('no option', 0)} with no agreeing option); right share "
             f"{(summary['retry_right_share'] or 0) * 100:.1f}%",
             f"as an MCP agent sees them ({MAX_SHOWN} options spelled out, the rest counted): "
             f"{summary['retry_shown']['right']} right, {summary['retry_shown']['wrong']} wrong; right share "
             f"{(summary['retry_shown_right_share'] or 0) * 100:.1f}%",
             "refusal kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["kinds"].items(), key=lambda x: -x[1])),
             f"refusal sentences pointing at a line that locates nothing (a lone `}}` or blank line, a merged file's "
             f"line number; evaluation/pointing.py): {summary.get('unplaced', 0)} of {sum(summary['kinds'].values())}"]
    if summary.get("by_kind"):
        lines.append("by refusal kind (" + " / ".join(WHY) + "; of those refused again, on the same sentence):")
        for kind, c in summary["by_kind"].items():
            lines.append(f"  {kind:<18} " + " / ".join(str(c.get(w, 0)) for w in WHY)
                         + f"; {c.get('same sentence', 0)}")
    for key in ("style", "language"):
        lines.append(f"by {key} (first right/wrong/refused -> second right/wrong/refused):")
        for name, c in summary[f"by_{key}"].items():
            lines.append(f"  {name:<16} {c.get('first_right', 0)}/{c.get('first_wrong', 0)}/{c.get('first_refused', 0)}"
                         f" -> {c.get('second_right', 0)}/{c.get('second_wrong', 0)}/{c.get('second_refused', 0)}")
    return "\n".join(lines)
