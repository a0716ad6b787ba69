"""Presenting eval results: a fixed-width summary table, a markdown report with breakdowns, and a
PNG chart of accuracy against speed (up and to the right is better).

This module knows the shape of `run_eval`'s results, nothing about how they were measured.
"""

from __future__ import annotations

import os
from typing import Iterable, Sequence

from fastapply.evaluation.shapes import shape_words


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{1000 * x:.1f} ms"


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def _fixed(rows: list[Sequence[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


def summary_table(results: Sequence[dict]) -> str:
    """One row per strategy: right / wrong / refused, then where the files came from and speed."""
    header = ("strategy", "n", "right", "wrong", "refused", "exact", "instant", "model r/w/g", "accepted",
              "median", "chars/s")
    lines = [header]
    for res in results:
        s = res["summary"]
        lines.append((
            res["strategy"], str(s["n"]), str(s["right"]), str(s["wrong"]), str(s["refused"]),
            _pct(s.get("exact_rate")), str(s.get("instant_written", 0)),
            f"{s.get('model_right', 0)}/{s.get('model_wrong', 0)}/{s.get('model_guarded', 0)} of {s.get('model_runs', 0)}",
            _pct(s.get("accepted_fraction")), _ms(s.get("median_latency_s")), _rate(s.get("chars_per_s")),
        ))
    return _fixed(lines)


def breakdown_table(result: dict, name: str) -> str:
    """right / wrong / refused per group of one breakdown (language, snippet_style, regions)."""
    lines = [(name, "n", "right", "wrong", "refused")]
    for key, g in result["breakdowns"][name].items():
        lines.append((key, str(g["n"]), str(g["right"]), str(g["wrong"]), str(g["refused"])))
    return _fixed(lines)


def _md_table(rows: Iterable[Sequence[str]], header: Sequence[str]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def write_chart(results: Sequence[dict], path: str) -> None:
    """Right rate against speed (chars/s, log scale): up and to the right is better."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    for res in results:
        s = res["summary"]
        speed = max(s.get("chars_per_s") or 0.0, 1e-3)
        right = 100 * s.get("right_rate", 0.0)
        ax.scatter([speed], [right], s=60)
        ax.annotate(f"{res['strategy']} ({s['wrong']} wrong)", (speed, right), textcoords="offset points", xytext=(6, 4))
    ax.set_xscale("log")
    ax.set_xlabel("speed: output chars per second of latency (log)")
    ax.set_ylabel("right (%)")
    ax.set_ylim(0, 105)
    ax.set_title("accuracy vs speed (up and right is better)")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_report(results: Sequence[dict], out_dir: str, data_path: str | None = None) -> str:
    """Write `report.md` and `accuracy_vs_speed.png` into `out_dir`; return the report path."""
    os.makedirs(out_dir, exist_ok=True)
    chart = "accuracy_vs_speed.png"
    write_chart(results, os.path.join(out_dir, chart))
    parts = ["# fastapply eval report", ""]
    if data_path:
        parts += [f"Data: `{data_path}`", ""]
    parts += ["right: a file written and equal to the real commit; wrong: a file written that is not; "
              "refused: nothing written.", ""]
    parts += ["```", summary_table(results), "```", "", f"![accuracy vs speed]({chart})", ""]
    for res in results:
        title = res["strategy"] + (f" ({res['model']})" if res.get("model") else "")
        parts += [f"## {title}", ""]
        for name, groups in res["breakdowns"].items():
            parts += [f"### by {name.replace('_', ' ')}", ""]
            parts.append(_md_table(
                [(k, g["n"], g["right"], g["wrong"], g["refused"], _ms(g.get("median_latency_s"))) for k, g in groups.items()],
                (name, "n", "right", "wrong", "refused", "median latency")))
            parts.append("")
        if res.get("refusals"):
            parts += ["### why nothing was written", ""]
            parts.append(_md_table([(n, reason.replace("|", "\\|")) for reason, n in res["refusals"]], ("count", "reason")))
            parts.append("")
        wrong = [f"- `{r['id']}` ({r['path']}, {r['snippet_style']}, {r.get('wrong_shape')})"
                 for r in res["examples"] if r["outcome"] == "wrong"]
        if wrong:
            shapes = shape_words(res.get("wrong_shapes") or ())
            parts += ["### wrong files", "", f"By shape (evaluation/shapes.py): {shapes}.", ""] + wrong + [""]
    path = os.path.join(out_dir, "report.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(parts))
    return path
