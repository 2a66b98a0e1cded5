"""report.md: the run's tables (and charts, when drawn), readable on its own.

Links are relative (``charts/...``), so the folder can be copied anywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ginsim.analysis.format import (
    cell,
    games_size,
    md_code,
    md_points,
    md_rate,
    md_table,
    md_text,
    pairwise_rows,
    played_text,
    reproducibility_note,
    sweep_base,
)
from ginsim.analysis.ratings import GAMES_MODEL, POINTS_MODEL
from ginsim.analysis.sprt import as_float, is_points_test
from ginsim.analysis.stats import RATE_FIGURES
from ginsim.analysis.tables import Analysis, matrix
from ginsim.runfolder.records import PairingRecord, RunKind, forfeit_note

if TYPE_CHECKING:
    import pandas as pd

CHART_CAPTIONS: dict[str, str] = {
    "ratings": "Each strategy's rating with its 95% interval (points per hand in hand mode, Bradley–Terry on "
    "game wins in games mode, where zero is the field's mean weighted by how precisely each rating is "
    "measured, so a hopeless entrant does not widen the others' intervals); the dotted line is the median. "
    "Intervals that do not overlap are apart, but overlapping intervals do not mean level: two strategies "
    "are compared by their meeting, in the head-to-head table below. A strategy far off the scale of the "
    "rest is drawn at the edge with its value.",
    "heatmap_points_per_hand": "Points per hand the row strategy nets against the column strategy: "
    "blue cells win points for the row, red cells lose them, white is even.",
    "heatmap_win_rate": "Share of hands the row strategy scores in against the column strategy: "
    "blue above 50%, red below.",
    "heatmap_game_win_rate": "Share of games to {target} the row strategy won against the column strategy: "
    "blue above 50%, red below; the figure a player at the table cares about.",
    "sweep_points_per_hand": "Points per hand of {base} at each value of {param}, one line per opponent "
    "with its 95% band: the highest point is the best setting against that opponent.",
    "sweep_win_rate": "Share of hands {base} scores in at each value of {param}, one line per opponent "
    "with its 95% band (winning more hands is not the same as winning more points).",
    "sweep_undercut_rate": "Share of {base}'s knocks that the opponent undercut at each value of {param}, "
    "with 95% bands; no point where it never knocked short of gin.",
    "sweep_game_win_rate": "Share of games to {target} that {base} won at each value of {param}, "
    "one line per opponent with its 95% band: what a player at the table cares about.",
    "grid_points_per_hand": "Points per hand of {base} over every combination of {param}, against one "
    "opponent: blue cells win points, red lose them; the best combination is outlined (compare its interval "
    "in the table above before trusting a small difference).",
    "grid_game_win_rate": "Share of games to {target} {base} won over every combination of {param}, against "
    "one opponent; the best combination is outlined.",
    "gauntlet_points_per_hand": "Points per hand of the candidate against each opponent with its 95% "
    "interval: right of the line it wins points.",
    "gauntlet_game_win_rate": "Share of games to {target} the candidate won against each opponent, with "
    "95% intervals: right of 50% it wins more often than not.",
    "sweep_points_per_game": "Points per game of {base} at each value of {param} (its total with the "
    "end-of-game bonuses minus the opponent's), one line per opponent with its 95% band.",
    "outcomes": "How each strategy's hands ended, seen from its side: greens are hands it scored (knock, "
    "gin, undercutting the opponent), oranges and reds hands it lost, grey draws.",
    "turns": "How long hands last: the share of hands that ended after each number of turns (draws taken), "
    "all hands as grey bars (grouping a few turns each when hands run long) and, when up to six strategies "
    "played different hands, one line each.",
    "knock_deadwood": "The deadwood each strategy held when it knocked (0 is gin), as a share of its knocks: "
    "a strategy that waits for a better hand sits further left.",
    "sprt": "The sequential test's log-likelihood ratio after each chunk, against the hands played: the run "
    "stops when the line leaves the band, above it accepting H1 (the first strategy nets p1 points per "
    "hand), below it accepting H0 (p0).",
}
"""Chart file stem -> the sentence that says what it shows; `{param}`, `{base}` and
``{target}`` are filled from the run (the stems are those ginsim.analysis.plots writes)."""

SWEEP_CHARTS = (
    "sweep_points_per_hand",
    "sweep_win_rate",
    "sweep_undercut_rate",
    "sweep_game_win_rate",
    "sweep_points_per_game",
)


def header_lines(a: Analysis) -> list[str]:
    m = a.manifest
    if m.status == "stopped" and m.stopped:
        size = f"at most {m.hands:,} hands; the sequential test stopped the run after {m.stopped['hands']:,}"
    elif m.hands is not None:
        size = f"{m.hands:,} hands per pairing"
    else:
        size = games_size(m)
    dup = "duplicate deals (each deck played twice, seats swapped)" if m.duplicate else "single deals"
    if m.games is not None and m.duplicate:
        dup = "duplicate deals"
    rules = ", ".join(f"{k}={v}" for k, v in (m.rules_differ or {}).items()) or "default rules (RULES.md)"
    lines = [
        f"# ginsim {m.kind}",
        "",
        f"- command: {md_code(m.command or '(library call)')}",
        f"- strategies: {', '.join(md_code(s.label) for s in m.strategies)}",
        f"- size: {size}, {dup}, master seed {m.seed}",
        f"- played: {played_text(m, a.summary, asked=False)}",
        f"- rules: {rules}",
        f"- status: {m.status}, {a.chunks_done} of {a.chunks_total} chunks"
        + (
            " (the sequential test decided: figures cover the hands it used)"
            if m.status == "stopped"
            else ""
            if a.complete
            else " (partial: figures cover the finished chunks only)"
        ),
        f"- ginsim {m.ginsim}, started {m.started}, finished {m.finished or '—'}",
    ]
    for e in m.extensions:  # a run that grew (ginsim.run.grow)
        counts = e.get(m.mode, [])
        grew = (
            f"{counts[0]:,} → {counts[1]:,} {m.mode} per pairing" if len(counts) == 2 and counts[0] != counts[1] else ""
        )
        pairs = e.get("pairings", [])
        if len(pairs) == 2 and pairs[0] != pairs[1]:
            grew += ("; " if grew else "") + f"{pairs[0]} → {pairs[1]} pairings"
        lines.append(f"- grown on {e.get('at', '?')}: {grew or 'resumed'}")
    if m.clock:
        lines.append("- **played with a clock** (`time_per_hand`): results depend on the machine that ran them")
    if note := reproducibility_note(m):
        lines.append(f"- **{md_text(note)}**")
    return lines


def _pairwise_section(a: Analysis) -> list[str]:
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


def report_markdown(a: Analysis) -> str:
    """The whole report.md of an analysed run."""
    m = a.manifest
    out = header_lines(a)
    out += [
        "",
        "Figures are defined in METRICS.md; intervals are 95% (Wilson for rates; mean ± 1.96·SE",
        "for points per hand, the SE over deal pairs with duplicate deals).",
        "",
    ]
    if note := forfeit_note(a.folder):  # tracebacks of the forfeits (ginsim.runfolder.forfeit_records)
        out += [f"**Forfeits.** {note.replace(str(a.folder) + '/', '')}.", ""]
    charts = _charts(a)
    fill = _caption_values(a)
    out += _forfeit_section(a)
    if m.stopped:
        out += ["## Sequential test", "", _sprt_text(m.stopped, (m.pairings or [None])[0]), ""]
        out += _embed(charts, ("sprt",), fill)
    if a.ratings is not None:
        out += _ratings_section(a.ratings, charts, fill)
        out += _pairwise_section(a)
        out += _matrix_sections(a, charts, fill)
    if m.kind == RunKind.SWEEP:
        out += _sweep_tables(a)
        out += _embed(charts, SWEEP_CHARTS, fill)
        out += _embed(charts, tuple(c for c in charts if c.startswith("grid_")), fill)
    if m.kind == RunKind.GAUNTLET:
        out += _gauntlet_table(a)
        out += _embed(charts, tuple(c for c in charts if c.startswith("gauntlet_")), fill)
    out += _summary_section(a)
    out += _embed(charts, ("outcomes", "knock_deadwood", "turns"), fill)
    out += _thinking_section(a)
    out += [
        "Files: `summary.csv` (these figures, intervals as `<name>_lo`/`<name>_hi`), "
        + ("`ratings.csv`, `pairwise.csv`, " if a.ratings is not None else "")
        + ("`sprt.csv` (the sequential test after each chunk), " if m.stopped else "")
        + "`manifest.json` (what was played and how), `hands/*.parquet` (the hand log).",
        "",
    ]
    return "\n".join(out)


def _ratings_section(ratings: pd.DataFrame, charts: dict[str, str], fill: dict[str, str]) -> list[str]:
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
    out += _embed(charts, ("ratings",), fill)
    return out


def _matrix_sections(a: Analysis, charts: dict[str, str], fill: dict[str, str]) -> list[str]:
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
        out += _embed(charts, (f"heatmap_{fig}",), fill)
    return out


def _summary_section(a: Analysis) -> list[str]:
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


def _forfeit_section(a: Analysis) -> list[str]:
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


def _thinking_section(a: Analysis) -> list[str]:
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


def _gauntlet_table(a: Analysis) -> list[str]:
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


def _sweep_tables(a: Analysis) -> list[str]:
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


def _sprt_text(s: dict[str, Any], pairing: PairingRecord | None = None) -> str:
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


def _charts(a: Analysis) -> dict[str, str]:
    d = a.folder / "charts"
    if not d.is_dir():
        return {}
    return {p.stem: f"charts/{p.name}" for p in sorted(d.glob("*.png"))}


def _embed(charts: dict[str, str], stems: tuple[str, ...], fill: dict[str, str]) -> list[str]:
    """Image links (relative, so the folder can be copied) each followed by its caption."""
    out = []
    for stem in stems:
        if stem not in charts:
            continue
        caption = CHART_CAPTIONS.get(stem.split("__")[0], "").format(**fill)
        alt = stem.replace("_", " ")
        out += [f"![{alt}]({charts[stem]})", ""]
        if caption:
            out += [caption, ""]
    return out


def _caption_values(a: Analysis) -> dict[str, str]:
    """What the captions' `{param}`, `{base}` and ``{target}`` stand for in this run."""
    m = a.manifest
    return {
        "param": " × ".join(md_code(n) for n in (m.param or "").split(",")),
        "base": md_code(sweep_base(m)) if m.kind == RunKind.SWEEP else "",
        "target": str(m.rules.get("target_score", "")),
    }
