"""Turn a run folder into its summary tables: summary.csv, ratings.csv, report.md and a
terminal digest. Reads only the manifest and the hand log; never plays a hand."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ginsim.runner import chunk_files, read_manifest
from ginsim.stats import RATE_FIGURES, bradley_terry, pairwise_wins, read_sums, summarize

SUMMARY = "summary.csv"
RATINGS = "ratings.csv"
REPORT = "report.md"
SPRT_TRACE = "sprt.csv"

FIGURE_ORDER = (
    "win_rate",
    "points_per_hand",
    "knock_rate",
    "gin_rate",
    "undercut_rate",
    "undercuts_made_rate",
    "draw_rate",
    "mean_knock_deadwood",
    "mean_turns",
    "game_win_rate",
    "points_per_game",
    "hands_per_game",
    "shutouts",
)


@dataclass
class Analysis:
    """What the stats make of a run folder."""

    folder: Path
    manifest: dict[str, Any]
    summary: pd.DataFrame
    ratings: pd.DataFrame | None
    chunks_done: int
    chunks_total: int
    sprt: pd.DataFrame | None = None  # the sequential test after each chunk (runs with --sprt)

    @property
    def complete(self) -> bool:
        return self.chunks_done >= self.chunks_total

    @property
    def names(self) -> list[str]:
        return [s["label"] for s in self.manifest["strategies"]]


def analyze(folder: Path) -> Analysis:
    """Read a (finished or partly finished) run folder and compute every figure."""
    manifest = read_manifest(folder)
    files = chunk_files(folder)
    try:
        sums, reasons = read_sums(files)
    except Exception as e:  # noqa: BLE001 - a damaged chunk file is one clear line
        from ginsim.errors import RunError

        raise RunError(f"{folder}: cannot read the hand log ({type(e).__name__}: {e})") from None
    summary = summarize(sums, reasons, manifest["pairings"])
    if manifest.get("games"):
        from ginsim.gamelog import add_game_figures

        summary = add_game_figures(summary, files)  # points_per_game (METRICS.md)
    if not summary.empty:
        summary = _ordered(summary)
    ratings = None
    if manifest["kind"] == "roundrobin" and sums:
        names = [s["label"] for s in manifest["strategies"]]
        ratings = bradley_terry(names, pairwise_wins(sums, manifest["pairings"], names))
    sprt = None
    if manifest.get("stopped"):
        from ginsim.sprt import summary_columns, trace

        sprt = trace(folder, manifest["stopped"])
        if not summary.empty:  # the test's figures go on the row of A, the tested strategy
            for name, value in summary_columns(manifest["stopped"]).items():
                summary[name] = [value] + [None] * (len(summary) - 1)
    total = int(manifest.get("chunks", len(files)))
    return Analysis(folder, manifest, summary, ratings, len(files), total, sprt)


def _ordered(summary: pd.DataFrame) -> pd.DataFrame:
    cols = ["strategy", "opponent"]
    if "param" in summary:
        cols += ["param", "value"]
    cols.append("hands")
    if "games" in summary:
        cols.append("games")
    for name in FIGURE_ORDER:
        if name not in summary:
            continue
        cols.append(name)
        if f"{name}_lo" in summary:
            cols += [f"{name}_lo", f"{name}_hi"]
    cols += ["forfeits", "forfeit_reasons"]
    cols += [c for c in summary if c.startswith("sprt_")]
    return summary[[c for c in cols if c in summary]]


def write_tables(a: Analysis) -> None:
    """summary.csv, ratings.csv (round-robins) and report.md."""
    a.summary.to_csv(a.folder / SUMMARY, index=False, float_format="%.6g")
    if a.ratings is not None:
        a.ratings.to_csv(a.folder / RATINGS, index=False, float_format="%.6g")
    if a.sprt is not None:
        a.sprt.to_csv(a.folder / SPRT_TRACE, index=False, float_format="%.6g")
    from ginsim.markdown import report_markdown

    (a.folder / REPORT).write_text(report_markdown(a), encoding="utf-8")


# -- terminal digest ----------------------------------------------------------------------
def fmt_rate(row: Any, name: str) -> str:
    v = getattr(row, name, math.nan)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    lo = getattr(row, f"{name}_lo", math.nan)
    hi = getattr(row, f"{name}_hi", math.nan)
    if isinstance(lo, float) and math.isnan(lo):
        return f"{100 * v:.1f}%"
    return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def fmt_points(row: Any, name: str = "points_per_hand") -> str:
    v = getattr(row, name)
    if isinstance(v, float) and math.isnan(v):
        return "—"
    lo, hi = getattr(row, f"{name}_lo"), getattr(row, f"{name}_hi")
    if isinstance(lo, float) and math.isnan(lo):
        return f"{v:+.2f}"
    return f"{v:+.2f} ± {(hi - lo) / 2:.2f}"


def _num(v: Any, digits: int = 2) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:.{digits}f}"


def summary_rows(a: Analysis) -> list[dict[str, str]]:
    """The summary as display strings, one dict per row."""
    rows = []
    for r in a.summary.itertuples(index=False):
        row = {"strategy": r.strategy, "opponent": r.opponent}
        if "value" in a.summary:
            row[str(r.param) or "value"] = str(r.value)
        row["hands"] = f"{r.hands:,}"
        row["points/hand"] = fmt_points(r)
        for name in RATE_FIGURES:
            row[name] = fmt_rate(r, name)
        row["knock dw"] = _num(r.mean_knock_deadwood, 1)
        row["turns"] = _num(r.mean_turns, 1)
        if "game_win_rate" in a.summary:
            row["game_win_rate"] = fmt_rate(r, "game_win_rate")
        if "points_per_game" in a.summary:
            row["points/game"] = fmt_points(r, "points_per_game")
            row["hands/game"] = _num(r.hands_per_game, 1)
        if r.forfeits:
            row["forfeits"] = str(r.forfeits)
        rows.append(row)
    return rows


def text_table(rows: list[dict[str, str]], columns: list[str] | None = None) -> str:
    if not rows:
        return "(no hands yet)"
    cols = columns or list(dict.fromkeys(k for r in rows for k in r))
    widths = {c: max(len(c), *(len(r.get(c, "")) for r in rows)) for c in cols}
    head = "  ".join(c.ljust(widths[c]) for c in cols)
    lines = [head, "  ".join("-" * widths[c] for c in cols)]
    for r in rows:
        lines.append("  ".join(r.get(c, "").ljust(widths[c]) for c in cols))
    return "\n".join(lines)


def terminal_digest(a: Analysis) -> str:
    m = a.manifest
    if m.get("status") == "stopped":
        state = f"stopped by the sequential test after {a.chunks_done} of {a.chunks_total} chunks"
    else:
        state = "complete" if a.complete else f"{a.chunks_done}/{a.chunks_total} chunks"
    out = [f"{m['kind']} in {a.folder}  ({state})"]
    if m.get("clock"):
        out.append("note: played with a clock (time_per_hand): results depend on the machine")
    if m.get("stopped"):
        from ginsim.sprt import describe

        out.append(describe(m["stopped"]))
    rows = summary_rows(a)
    if m["kind"] == "roundrobin":
        if a.ratings is not None:
            rr = [
                {
                    "rank": str(i + 1),
                    "strategy": r.strategy,
                    "rating": f"{r.rating:+.0f}",
                    "95% interval": f"[{r.rating_lo:+.0f}, {r.rating_hi:+.0f}]",
                }
                for i, r in enumerate(a.ratings.itertuples(index=False))
            ]
            out.append("\nratings (Bradley-Terry, Elo scale, mean 0)")
            out.append(text_table(rr))
        out.append("\npoints per hand (row against column)")
        out.append(matrix_text(a, "points_per_hand"))
    else:
        cols = [c for c in rows[0]] if rows else None
        keep = [c for c in (cols or []) if c not in ("undercuts_made_rate", "draw_rate", "knock dw", "turns")]
        out.append("")
        out.append(text_table(rows, keep))
    out.append(f"\nwrote {a.folder / 'summary.csv'} and {a.folder / 'report.md'}")
    return "\n".join(out)


def matrix(a: Analysis, figure: str) -> pd.DataFrame:
    """Round-robin matrix: cell (row A, column B) holds A's figure against B."""
    names = a.names
    m = pd.DataFrame(index=names, columns=names, dtype=float)
    for r in a.summary.itertuples(index=False):
        m.loc[r.strategy, r.opponent] = getattr(r, figure)
    return m


def matrix_text(a: Analysis, figure: str) -> str:
    m = matrix(a, figure)
    names = list(m.index)
    rows = []
    for n in names:
        row = {"": n}
        for c in names:
            v = m.loc[n, c]
            row[c] = "·" if n == c else ("—" if pd.isna(v) else f"{v:+.2f}")
        rows.append(row)
    return text_table(rows, ["", *names])
