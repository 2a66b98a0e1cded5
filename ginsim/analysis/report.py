"""The run's tables as files and as the terminal digest: summary.csv, ratings.csv,
pairwise.csv, sprt.csv, report.md (ginsim.analysis.markdown) and the text printed after a run."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from ginsim.analysis.forfeits import forfeit_lines
from ginsim.analysis.format import (
    fmt_points,
    fmt_rate,
    num,
    pairwise_rows,
    played_text,
    reproducibility_note,
    text_table,
)
from ginsim.analysis.markdown import report_markdown
from ginsim.analysis.pairwise import PAIRWISE, PAIRWISE_NOTE
from ginsim.analysis.ratings import GAMES_MODEL, POINTS_MODEL
from ginsim.analysis.sprt import describe
from ginsim.analysis.stats import RATE_FIGURES
from ginsim.analysis.tables import RATINGS, REPORT, SPRT_TRACE, SUMMARY, SUMMARY_JSON, Analysis, matrix
from ginsim.analysis.thinking import NOTE as THINK_NOTE
from ginsim.runfolder.atomic import write_atomic, write_text_atomic
from ginsim.runfolder.forfeit_files import forfeit_note
from ginsim.runfolder.records import RunKind


def write_tables(a: Analysis) -> None:
    """summary.csv, summary.json, ratings.csv and pairwise.csv (round-robins) and report.md,
    each written atomically (a failure to write is one line naming the file)."""
    tables = [(SUMMARY, a.summary), (RATINGS, a.ratings), (PAIRWISE, a.pairwise), (SPRT_TRACE, a.sprt)]
    for name, table in tables:
        if table is not None:
            write_atomic(a.folder / name, lambda tmp, t=table: t.to_csv(tmp, index=False, float_format="%.6g"))
    write_text_atomic(a.folder / SUMMARY_JSON, json.dumps(summary_json(a), indent=1, allow_nan=False) + "\n")
    write_text_atomic(a.folder / REPORT, report_markdown(a))


def _records(table: pd.DataFrame | None) -> list[dict[str, Any]] | None:
    """A table as JSON objects, one per row; a missing value is null."""
    if table is None:
        return None
    return list(json.loads(table.to_json(orient="records", double_precision=10)))


def summary_json(a: Analysis) -> dict[str, Any]:
    """summary.json: what was played (from the manifest) and the summary's rows (every
    column of summary.csv), with the ratings and head-to-head table of a round-robin;
    missing values are null."""
    m = a.manifest
    run = {
        "kind": str(m.kind),
        "status": str(m.status),
        "complete": a.complete,
        "chunks": {"done": a.chunks_done, "total": a.chunks_total},
        "strategies": m.labels,
        "seed": m.seed,
        "preset": m.preset,
        "rules_differ": m.rules_differ,
        "hands": m.hands,
        "games": m.games,
        "duplicate": m.duplicate,
        "played": played_text(m, a.summary, asked=False),
        "reproducible": m.reproducible,
        "ginsim": m.ginsim,
    }
    thinking = {"note": THINK_NOTE, "strategies": _records(a.thinking)} if a.thinking is not None else None
    tables = {"summary": _records(a.summary), "ratings": _records(a.ratings), "pairwise": _records(a.pairwise)}
    return {"run": run, **tables, "thinking": thinking}


def summary_rows(a: Analysis) -> list[dict[str, str]]:
    """The summary as display strings, one dict per row."""
    rows = []
    for r in a.summary.itertuples(index=False):
        row = {"strategy": r.strategy, "opponent": r.opponent}
        if "value" in a.summary:
            row[str(r.param) or "value"] = str(r.value)
        row["hands"] = f"{r.hands:,}"
        if "games" in a.summary:  # games mode: the games played beside the hands
            row["games"] = f"{int(r.games):,}"
        row["points_per_hand"] = fmt_points(r)
        for name in RATE_FIGURES:
            row[name] = fmt_rate(r, name)
        row["mean_knock_deadwood"] = num(r.mean_knock_deadwood, 1)
        row["mean_turns"] = num(r.mean_turns, 1)
        if "game_win_rate" in a.summary:
            row["game_win_rate"] = fmt_rate(r, "game_win_rate")
        if "points_per_game" in a.summary:
            row["points_per_game"] = fmt_points(r, "points_per_game")
            row["hands_per_game"] = num(r.hands_per_game, 1)
        if r.forfeits:
            row["forfeits"] = str(r.forfeits)
        rows.append(row)
    return rows


def terminal_digest(a: Analysis) -> str:
    m = a.manifest
    if m.status == "stopped":
        state = f"stopped by the sequential test after {a.chunks_done} of {a.chunks_total} chunks"
    else:
        state = "complete" if a.complete else f"{a.chunks_done}/{a.chunks_total} chunks"
    out = [f"{m.kind} in {a.folder}  ({state})", "played: " + played_text(m, a.summary)]
    if m.clock:
        out.append("note: played with a clock (time_per_hand): results depend on the machine")
    if note := reproducibility_note(m):
        out.append("note: " + note)
    if m.stopped:
        out.append(describe(m.stopped))
    out += forfeit_lines(a.forfeits, a.folder)
    rows = summary_rows(a)
    if m.kind == RunKind.ROUNDROBIN:
        if a.ratings is not None:
            games = "games_won" in a.ratings
            fmt = "{:+.0f}" if games else "{:+.2f}"
            rr = [
                {
                    "rank": str(i + 1),
                    "strategy": r.strategy,
                    "rating": fmt.format(r.rating),
                    "95% interval": f"[{fmt.format(r.rating_lo)}, {fmt.format(r.rating_hi)}]",
                }
                for i, r in enumerate(a.ratings.itertuples(index=False))
            ]
            out.append("\nratings (" + (GAMES_MODEL if games else POINTS_MODEL) + ")")
            out.append(text_table(rr))
        if a.pairwise is not None and not a.pairwise.empty:
            out.append("\nhead to head (" + PAIRWISE_NOTE + ")")
            out.append(text_table(pairwise_rows(a.pairwise)))
        if "game_win_rate" in a.summary:  # the figure a player at the table cares about
            out.append("\ngame_win_rate (row against column)")
            out.append(matrix_text(a, "game_win_rate"))
        out.append("\npoints_per_hand (row against column)")
        out.append(matrix_text(a, "points_per_hand"))
    else:
        if m.kind == RunKind.SWEEP and "value" in a.summary:  # the swept side only, not both mirrored rows
            rows = [row for row, v in zip(rows, a.summary["value"], strict=True) if str(v) != ""]
        if m.kind == RunKind.GAUNTLET and m.pairings:  # the candidate's side only
            rows = [row for row in rows if row["strategy"] == m.pairings[0].label_a]
        cols = [c for c in rows[0]] if rows else None
        drop = ("undercuts_made_rate", "draw_rate", "mean_knock_deadwood", "mean_turns")
        keep = [c for c in (cols or []) if c not in drop]
        out.append("")
        out.append(text_table(rows, keep))
    if a.thinking is not None:
        out.append(f"\nthinking time per decision ({THINK_NOTE})")
        out.append(text_table(thinking_rows(a.thinking)))
    if note := forfeit_note(a.folder):
        out.append(f"\n{note}")
    out.append(f"\nwrote {a.folder / 'summary.csv'}, summary.json and report.md")
    return "\n".join(out)


def thinking_rows(table: pd.DataFrame) -> list[dict[str, str]]:
    """The thinking-time table as display strings (microseconds, or ms past 10,000 µs)."""

    def t(us: float) -> str:
        return f"{us / 1000:,.1f} ms" if us >= 10_000 else f"{us:,.1f} µs"

    return [
        {"strategy": r.strategy, "decisions": f"{int(r.think_decisions):,}", "mean": t(r.think_mean_us),
         "99th percentile": t(r.think_p99_us)}
        for r in table.itertuples(index=False)
    ]  # fmt: skip


def matrix_text(a: Analysis, figure: str) -> str:
    m = matrix(a, figure)
    names = list(m.index)
    rows = []
    for n in names:
        row = {"": n}
        for c in names:
            v = m.loc[n, c]
            text = f"{100 * v:.1f}%" if figure.endswith("rate") else f"{v:+.2f}"
            row[c] = "·" if n == c else ("—" if pd.isna(v) else text)
        rows.append(row)
    return text_table(rows, ["", *names])
