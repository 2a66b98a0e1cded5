"""A run folder's charts: ``chart_makers`` picks the charts for the run's kind and
``draw_all`` writes them to ``DIR/charts/``, drawn from its stats and the hand log's counts
(never by playing). The charts themselves are drawn in ``ginsim.analysis.statcharts``,
``ginsim.analysis.logcharts`` and ``ginsim.analysis.gridcharts``; the numbers the charts of
the hand log show are counted in ``ginsim.analysis.logcounts``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ginsim.analysis.chartbase import CHARTS_DIR, DPI, SWEEP_FIGURES
from ginsim.analysis.format import describe_run
from ginsim.analysis.gridcharts import grid_makers
from ginsim.analysis.logcharts import knock_deadwood_chart, outcome_chart, turns_chart
from ginsim.analysis.logcounts import ALL, read_log_counts
from ginsim.analysis.statcharts import heatmap, ratings_chart, sprt_chart, sweep_chart
from ginsim.analysis.tables import Analysis, grid_params, matrix
from ginsim.runfolder.atomic import make_dir, write_atomic
from ginsim.runfolder.records import Manifest

_STEMS = ("heatmap_", "ratings", "sweep_", "grid_", "gauntlet_", "outcomes", "turns", "knock_deadwood", "sprt")


def strategy_order(manifest: Manifest) -> list[str]:
    """Strategies in reading order: each pairing's first side, then the second sides."""
    ps = manifest.pairings
    return list(dict.fromkeys([p.label_a for p in ps] + [p.label_b for p in ps]))


def sweep_rows(a: Analysis) -> pd.DataFrame:
    """The swept strategy's rows of the summary (one per value and opponent)."""
    s = a.summary
    if "param" not in s:
        return s.iloc[0:0]
    return s[s["param"].astype(str) == str(a.manifest.param)]


def save(fig: Figure, folder: Path, stem: str, svg: bool = False) -> list[Path]:
    """Write one figure as ``stem.png`` (and ``stem.svg``) in ``folder``."""
    paths = [folder / f"{stem}.png"]
    if svg:
        paths.append(folder / f"{stem}.svg")
    for p in paths:
        write_atomic(p, lambda tmp, p=p: fig.savefig(tmp, dpi=DPI, format=p.suffix[1:]))
    return paths


def chart_makers(analysis: Analysis) -> dict[str, Callable[[Axes | None], Figure]]:
    """Every chart a run folder has, by name (the file stem under ``DIR/charts/``): each
    draws the chart on the given axes (a new figure when None) and returns the figure."""
    a = analysis
    m = a.manifest
    if a.summary.empty:
        return {}
    played = describe_run(m, a.complete)
    makers: dict[str, Callable[[Axes | None], Figure]] = {}
    if m.kind == "roundrobin":
        figures = ["points_per_hand", "win_rate"]
        if "game_win_rate" in a.summary:
            figures.insert(0, "game_win_rate")
        for figure in figures:
            makers[f"heatmap_{figure}"] = partial(_ax_last, heatmap, matrix(a, figure), figure, played)
        if a.ratings is not None and not a.ratings.empty:
            makers["ratings"] = partial(_ax_last, ratings_chart, a.ratings, played)
    makers.update(grid_makers(a, played))  # a grid's heatmaps, a gauntlet's chart
    if m.kind == "sweep" and not grid_params(m):
        rows = sweep_rows(a)
        for figure in SWEEP_FIGURES:
            if figure in rows and rows[figure].notna().any():
                makers[f"sweep_{figure}"] = partial(_ax_last, sweep_chart, rows, str(m.param), figure, played)
    counts = read_log_counts(a.folder, m.pairings, a.digest)
    order = strategy_order(m)
    makers["outcomes"] = partial(_ax_last, outcome_chart, counts.frame("outcomes", order), played)
    makers["turns"] = partial(_ax_last, turns_chart, counts.frame("turns", [ALL, *order]), played)
    makers["knock_deadwood"] = partial(_ax_last, knock_deadwood_chart, counts.frame("deadwood", order), played)
    if a.sprt is not None and m.stopped:
        makers["sprt"] = partial(_ax_last, sprt_chart, a.sprt, m.stopped, played)
    return makers


def _ax_last(chart: Callable[..., Figure], *args: Any) -> Figure:
    """``chart(*data, ax=ax)`` where the axes come last in ``args``."""
    *data, ax = args
    return chart(*data, ax=ax)


def draw_all(analysis: Analysis, svg: bool = False) -> list[Path]:
    """Every chart of a run folder into ``DIR/charts/`` (replacing the old ones, each
    written atomically); returns the files written. Text from strategies (names,
    parameter values) is drawn as it is: ``$`` never starts mathtext."""
    with rc_context({"text.parse_math": False}):
        return _draw_all(analysis, svg)


def _draw_all(a: Analysis, svg: bool) -> list[Path]:
    out = a.folder / CHARTS_DIR
    make_dir(out)

    def clear() -> None:  # only once the new charts are drawn: a failure keeps the old ones
        for old in [*out.glob("*.png"), *out.glob("*.svg")]:
            if old.stem.startswith(_STEMS):
                old.unlink()

    charts = [(stem, make(None)) for stem, make in chart_makers(a).items()]
    clear()
    written: list[Path] = []
    for stem, fig in charts:
        written += save(fig, out, stem, svg)
    return written
