"""report.md's sections, one table each: head to head, ratings, the matrices, summary,
forfeits, thinking time, a gauntlet, a sweep and the sequential test (markdown assembles them)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginsim.analysis.captions import embed
from ginsim.analysis.format import cell, md_code, md_points, md_rate, md_table, md_text, pairwise_rows
from ginsim.analysis.ratings import GAMES_MODEL, POINTS_MODEL
from ginsim.analysis.sprt import as_float, is_points_test
from ginsim.analysis.stats import RATE_FIGURES
from ginsim.analysis.tables import Analysis, matrix
from ginsim.runfolder.records import PairingRecord

if TYPE_CHECKING:
    import pandas as pd


def pairwise_section(a: Analysis) -> list[str]:
    """The head-to-head table: each meeting with its intervals and its likelihood of superiority."""
    if a.pairwise is None or a.pairwise.empty:
        return []
    rows = pairwise_rows(a.pairwise)
    header = list(rows[0])
    body = [[md_code(r[h]) if h in ("strategy", "opponent") else r[h] for h in header] for r in rows]
    return [
        "## Head to head",
        "",
        "Each meeting, the higher-rated strategy first. `los` is the likelihood that it is the stronger of the "
        "two (docs/METRICS.md); the verdict is `ahead` or `behind` when `los` is at least 97.5% or at most "
        "2.5%, else `not apart`. This, not two rating intervals side by side, says whether two strategies "
        "are apart.",
        "",
        md_table(header, body),
        "",
    ]


def ratings_section(ratings: pd.DataFrame, charts: dict[str, str], fill: dict[str, str]) -> list[str]:
    """The ratings table (Bradley-Terry on game wins in games mode, points per hand in hand
    mode) and its chart."""
    out: list[str] = []
    games = "games_won" in ratings
    model = GAMES_MODEL if games else POINTS_MODEL
    out += ["## Ratings", "", f"Fitted to the figure that decides strength: {model} (docs/METRICS.md).", ""]
    rows = []
    for i, r in enumerate(ratings.itertuples(index=False)):
        fmt = "{:+.0f}" if games else "{:+.2f}"
        row = [str(i + 1), md_code(r.strategy), fmt.format(r.rating)]
        row.append(f"{fmt.format(r.rating_lo)} to {fmt.format(r.rating_hi)}")
        if games:
            row += [f"{int(r.games_won):,}", f"{int(r.games_lost):,}"]
        else:
            row += [f"{int(r.hands):,}", f"{r.points_per_hand:+.2f}"]
        rows.append(row)
    extra = ["games won", "games lost"] if games else ["hands", "points_per_hand against the field"]
    out += [md_table(["rank", "strategy", "rating", "95% interval", *extra], rows), ""]
    out += embed(charts, ("ratings",), fill)
    return out


def matrix_sections(a: Analysis, charts: dict[str, str], fill: dict[str, str]) -> list[str]:
    """Row-against-column tables of the pairings' game win rate (games mode), points per
    hand and win rate, each with its heatmap."""
    out: list[str] = []
    figs = [("points_per_hand", "Points per hand"), ("win_rate", "Win rate")]
    if "game_win_rate" in a.summary:
        figs.insert(0, ("game_win_rate", "Game win rate"))
    for fig, title in figs:
        mat = matrix(a, fig)
        names = list(mat.index)
        rows = []
        for n in names:
            cells = []
            for c in names:
                v = mat.loc[n, c]
                if n == c:
                    cells.append("·")
                elif fig.endswith("rate"):
                    cells.append("—" if v != v else f"{100 * v:.1f}%")
                else:
                    cells.append("—" if v != v else f"{v:+.2f}")
            rows.append([md_code(n), *cells])
        out += [f"## {title} (row against column)", "", md_table(["", *[md_code(n) for n in names]], rows), ""]
        out += embed(charts, (f"heatmap_{fig}",), fill)
    return out


def summary_section(a: Analysis) -> list[str]:
    """The summary table: one row per strategy and opponent, every figure with its interval."""
    m = a.manifest
    out: list[str] = []
    out += ["## Summary", "", "One row per strategy and opponent.", ""]
    header = ["strategy", "opponent"]
    if "value" in a.summary:
        header.append(md_text(m.param or "value"))
    played = "games" in a.summary  # games mode: the games played beside the hands
    header += ["hands", *(["games"] if played else []), "points_per_hand", *RATE_FIGURES]
    header += ["mean_knock_deadwood", "mean_turns"]
    has_games = "game_win_rate" in a.summary
    if has_games:
        header.append("game_win_rate")
    has_ppg = "points_per_game" in a.summary
    if has_ppg:
        header += ["points_per_game", "hands_per_game"]
    has_shutouts = "shutouts" in a.summary
    if has_shutouts:
        header.append("shutouts")
    header.append("forfeits")
    rows = []
    for r in a.summary.itertuples(index=False):
        row = [md_code(r.strategy), md_code(r.opponent)]
        if "value" in a.summary:
            row.append(md_text(r.value))
        row.append(f"{r.hands:,}")
        if played:
            row.append(f"{int(r.games):,}")
        row += [
            md_points(r),
            *[md_rate(r, n) for n in RATE_FIGURES],
            cell(r.mean_knock_deadwood, 2),
            cell(r.mean_turns, 2),
        ]
        if has_games:
            row.append(md_rate(r, "game_win_rate"))
        if has_ppg:
            row += [md_points(r, "points_per_game", 1), cell(r.hands_per_game, 2)]
        if has_shutouts:
            row.append(f"{int(r.shutouts):,}")
        row.append(str(r.forfeits) + (f" ({md_text(r.forfeit_reasons)})" if r.forfeits and r.forfeit_reasons else ""))
        rows.append(row)
    out += [md_table(header, rows), ""]
    return out


def forfeit_section(a: Analysis) -> list[str]:
    """Forfeits first, before any figure they move: who, how many, why, which hands."""
    if not a.forfeits:
        return []
    rows = [
        [md_code(r.strategy), f"{r.count:,}", md_text(r.first_reason), ", ".join(map(str, r.hands))] for r in a.forfeits
    ]
    return [
        "## Forfeits",
        "",
        "These strategies forfeited hands (R25/R26). Each forfeited hand is scored as the opponent's "
        "worst-case win for the forfeiter (docs/METRICS.md) and counts in every figure below. Replay one "
        f"with `ginsim replay {a.folder} --hand N`.",
        "",
        md_table(["strategy", "forfeits", "first reason", "hands (first ones)"], rows),
        "",
    ]


def thinking_section(a: Analysis) -> list[str]:
    """Each timed strategy's time per decision, marked as this machine's."""
    if a.thinking is None:
        return []
    rows = [
        [md_code(r.strategy), f"{int(r.think_decisions):,}", f"{r.think_mean_us:,.1f}", f"{r.think_p99_us:,.1f}"]
        for r in a.thinking.itertuples(index=False)
    ]
    intro = (
        "Wall time per decision (`take_upcard`, `discard`, `knock`) in microseconds, over every pairing "
        "(docs/METRICS.md). **Machine-dependent**: measured on the machine that played, under its load; "
        "the fast path's built-ins are not timed."
    )
    header = ["strategy", "decisions", "mean (µs)", "99th percentile (µs)"]
    return ["## Thinking time", "", intro, "", md_table(header, rows), ""]


def gauntlet_table(a: Analysis) -> list[str]:
    """The candidate against each opponent: its figures, one row per opponent."""
    m = a.manifest
    if not m.pairings:
        return []
    candidate = m.pairings[0].label_a
    part = a.summary[a.summary["strategy"] == candidate]
    header = ["opponent", "hands", *(["games"] if "games" in part else []), "points_per_hand", "win_rate"]
    header += ["game_win_rate"] if "game_win_rate" in part else []
    rows = []
    for r in part.itertuples(index=False):
        row = [md_code(r.opponent), f"{r.hands:,}", *([f"{int(r.games):,}"] if "games" in part else [])]
        row += [md_points(r), md_rate(r, "win_rate")]
        row += [md_rate(r, "game_win_rate")] if "game_win_rate" in part else []
        rows.append(row)
    intro = f"{md_code(candidate)} against each opponent (the opponents do not meet each other)."
    return [f"## Gauntlet of {md_code(candidate)}", "", intro, "", md_table(header, rows), ""]


def sweep_tables(a: Analysis) -> list[str]:
    """The swept strategy's figures at each value, one table per opponent."""
    m = a.manifest
    param = m.param or "value"
    names = param.split(",")  # a grid: a column per parameter
    swept = {p.label_a for p in m.pairings}
    out = [f"## Sweep of {' × '.join(md_code(n) for n in names)}", ""]
    df = a.summary[a.summary["strategy"].isin(swept)]
    for opp, part in df.groupby("opponent", sort=False):
        out += [f"Against {md_code(opp)}:", ""]
        header = [*names, "points_per_hand", "win_rate", "undercut_rate", "knock_rate", "gin_rate"]
        if "game_win_rate" in part:
            header.append("game_win_rate")
        if "points_per_game" in part:
            header.append("points_per_game")
        rows = []
        for r in part.itertuples(index=False):
            row = [
                *(md_text(v) for v in str(r.value).split(", ")),
                md_points(r),
                md_rate(r, "win_rate"),
                md_rate(r, "undercut_rate"),
                md_rate(r, "knock_rate"),
                md_rate(r, "gin_rate"),
            ]
            if "game_win_rate" in part:
                row.append(md_rate(r, "game_win_rate"))
            if "points_per_game" in part:
                row.append(md_points(r, "points_per_game", 1))
            rows.append(row)
        out += [md_table(header, rows), ""]
    return out


def sprt_text(s: dict[str, Any], pairing: PairingRecord | None = None) -> str:
    """The "Sequential test" section: decision, LLR and bounds, the points estimate, definitions."""
    a, b = (md_code(pairing.label_a), md_code(pairing.label_b)) if pairing else ("A", "B")
    if not is_points_test(s):
        return f"SPRT on hand wins (a run of an earlier version): **{s.get('decision')}**."
    lines = [
        f"SPRT of {a} against {b} ({s.get('hypotheses', '')}): **{s.get('decision')}** after "
        f"{s.get('hands', 0):,} hands ({s.get('pairs', 0):,} deal pairs, {s.get('chunks', 0):,} chunks).",
        "",
        f"- log-likelihood ratio {as_float(s.get('llr')):.3f}; bounds [{as_float(s.get('lower')):.3f}, "
        f"{as_float(s.get('upper')):.3f}] (ln(β/(1−α)) accepts H0, ln((1−β)/α) accepts H1)",
        f"- points per hand of {a} against {b}: {as_float(s.get('points')):+.2f} (95% "
        f"{as_float(s.get('points_lo')):+.2f} to {as_float(s.get('points_hi')):+.2f})",
        "",
        f"Definitions: a deal pair (one deck, played twice with the seats swapped) is worth {a}'s net "
        f"points per hand over its two hands (a forfeit at its forfeit points, docs/METRICS.md). H0 says "
        f"{a} nets p0 points per hand against {b}, H1 p1; the LLR is the normal-approximation generalized "
        f"SPRT of the pair values, N·(p1 − p0)·(2x̄ − p0 − p1)/(2σ̂²). Chunks are counted in order, so the "
        f"decision does not depend on `--jobs`; `sprt.csv` holds the test after each chunk.",
    ]
    return "\n".join(lines)
