"""report.md's charts: the caption that says what each chart shows, and the relative links
that embed the charts drawn in the run folder (so the folder can be copied anywhere)."""

from __future__ import annotations

from ginsim.analysis.format import md_code, sweep_base
from ginsim.analysis.tables import Analysis
from ginsim.runfolder.records import RunKind

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


def chart_links(a: Analysis) -> dict[str, str]:
    """The charts drawn in the run folder: file stem -> its link relative to the folder."""
    d = a.folder / "charts"
    if not d.is_dir():
        return {}
    return {p.stem: f"charts/{p.name}" for p in sorted(d.glob("*.png"))}


def embed(charts: dict[str, str], stems: tuple[str, ...], fill: dict[str, str]) -> list[str]:
    """Image links (relative, so the folder can be copied) each followed by its caption."""
    out: list[str] = []
    for stem in stems:
        if stem not in charts:
            continue
        caption = CHART_CAPTIONS.get(stem.split("__")[0], "").format(**fill)
        alt = stem.replace("_", " ")
        out += [f"![{alt}]({charts[stem]})", ""]
        if caption:
            out += [caption, ""]
    return out


def caption_values(a: Analysis) -> dict[str, str]:
    """What the captions' `{param}`, `{base}` and ``{target}`` stand for in this run."""
    m = a.manifest
    return {
        "param": " × ".join(md_code(n) for n in (m.param or "").split(",")),
        "base": md_code(sweep_base(m)) if m.kind == RunKind.SWEEP else "",
        "target": str(m.rules.get("target_score", "")),
    }
