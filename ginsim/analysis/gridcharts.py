"""The charts of a grid sweep and of a gauntlet: a heatmap of one figure over two swept
parameters (one chart per opponent), and the candidate's figure against each opponent
with its 95% interval. Drawn from the summary only."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import PercentFormatter

from ginsim.analysis.chartbase import CELL, FIGURE_NAMES, PARAM_UNITS, Y_LABELS, font, new_figure, title
from ginsim.analysis.tables import Analysis, grid_params
from ginsim.runfolder.records import RunKind

GRID_FIGURES = ("points_per_hand", "game_win_rate")
"""The figures a two-parameter grid is drawn for (the second in games mode only)."""


def _ordered(values: pd.Series) -> list[object]:
    """A parameter's distinct values, numerically when they all are numbers."""
    distinct = list(dict.fromkeys(values.tolist()))
    numeric = pd.to_numeric(pd.Series(distinct), errors="coerce")
    if not numeric.isna().any():
        return [distinct[i] for i in np.argsort(numeric.to_numpy(), kind="stable")]
    return distinct


def _axis_label(name: str) -> str:
    unit = PARAM_UNITS.get(name)
    return name + (f" ({unit})" if unit else "")


def grid_heatmap(
    rows: pd.DataFrame, names: tuple[str, str], figure: str, played: str = "", ax: Axes | None = None
) -> Figure:
    """``figure`` of the swept strategy over two parameters against one opponent: the first
    parameter's values down the rows, the second's across; each cell annotated, the best
    outlined (when one cell is); colours centred on even (0 points, 50%). ``rows``: one row per combination,
    with a column per parameter and the figure (and ``opponent``)."""
    first, second = names
    ys, xs = _ordered(rows[first]), _ordered(rows[second])
    values = np.full((len(ys), len(xs)), np.nan)
    for r in rows.to_dict("records"):
        values[ys.index(r[first]), xs.index(r[second])] = float(r[figure])
    fs = font(max(len(xs), len(ys)))
    size = (min(16.0, max(6.5, 2.8 + 0.9 * len(xs))), min(14.0, max(4.6, 2.2 + 0.6 * len(ys))))
    fig, ax = new_figure(ax, size)
    rate = figure.endswith("rate")
    centre = 0.5 if rate else 0.0
    finite = values[np.isfinite(values)]
    span = float(np.max(np.abs(finite - centre))) if finite.size else 0.0
    span = span or (0.05 if rate else 1.0)
    img = ax.imshow(values, cmap="RdBu", vmin=centre - span, vmax=centre + span, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    for i in range(len(ys)):
        for j in range(len(xs)):
            v = values[i, j]
            if np.isfinite(v):
                text = f"{100 * v:.1f}%" if rate else f"{v:+.2f}"
                color = "white" if abs(v - centre) / span > 0.6 else "black"
                ax.text(j, i, text, **CELL, fontsize=max(7.0, fs - 1), color=color)
    if finite.size and np.count_nonzero(values == np.nanmax(values)) == 1:  # a single best: outlined
        bi, bj = np.unravel_index(np.nanargmax(values), values.shape)
        ax.add_patch(Rectangle((bj - 0.5, bi - 0.5), 1, 1, fill=False, edgecolor="black", linewidth=2.2))
    ax.set_xticks(range(len(xs)), labels=[str(x) for x in xs], fontsize=fs)
    ax.set_yticks(range(len(ys)), labels=[str(y) for y in ys], fontsize=fs)
    ax.set_xlabel(_axis_label(second))
    ax.set_ylabel(_axis_label(first))
    bar = fig.colorbar(img, ax=ax, shrink=0.85)
    bar.set_label(Y_LABELS[figure])
    if rate:
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    opponent = str(rows["opponent"].iloc[0]) if len(rows) else ""
    title(ax, f"{FIGURE_NAMES[figure]} against {opponent} (the best outlined)", played)
    return fig


def gauntlet_chart(rows: pd.DataFrame, figure: str, played: str = "", ax: Axes | None = None) -> Figure:
    """The candidate's ``figure`` against each opponent, a point with its 95% interval
    per opponent (best on top), a line at even. ``rows``: the candidate's summary rows."""
    part = rows.sort_values(figure, ascending=True)
    names = [str(o) for o in part["opponent"]]
    n = len(names)
    fig, ax = new_figure(ax, (8.0, max(3.2, 1.8 + 0.45 * n)))
    y = np.arange(n)
    v = part[figure].to_numpy(dtype=float)
    lo = part.get(f"{figure}_lo", part[figure]).to_numpy(dtype=float)
    hi = part.get(f"{figure}_hi", part[figure]).to_numpy(dtype=float)
    rate = figure.endswith("rate")
    centre = 0.5 if rate else 0.0
    colors = np.where(v >= centre, "#2171b5", "#cb181d")
    for yi, vi, a, b, c in zip(y.tolist(), v, lo, hi, colors, strict=True):
        ax.errorbar(vi, yi, xerr=[[vi - a], [b - vi]], fmt="o", color=c, ecolor="#333333", capsize=4, ms=7)
        ax.text(b, yi, f"  {100 * vi:.1f}%" if rate else f"  {vi:+.2f}", va="center", ha="left", fontsize=9)
    ax.axvline(centre, color="black", linewidth=0.8)
    ax.set_yticks(y, labels=names, fontsize=font(n))
    left, right = float(np.nanmin([centre, *lo])), float(np.nanmax([centre, *hi]))
    pad = 0.15 * ((right - left) or 1.0)
    ax.set_xlim(left - pad, right + 2 * pad)
    if rate:
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(Y_LABELS[figure] + " of the candidate, with 95% interval")
    ax.set_ylabel("opponent")
    ax.grid(axis="x", alpha=0.3)
    candidate = str(rows["strategy"].iloc[0]) if len(rows) else "the candidate"
    title(ax, f"{FIGURE_NAMES[figure]} of {candidate} against each opponent", played)
    return fig


def grid_makers(a: Analysis, played: str) -> dict[str, Callable[[Axes | None], Figure]]:
    """The charts of this module a run has, by file stem: a two-parameter grid's heatmaps
    (``grid_<figure>``, with ``__vs<k>`` per opponent when there are several) and a
    gauntlet's intervals (``gauntlet_<figure>``)."""
    m = a.manifest
    makers: dict[str, Callable[[Axes | None], Figure]] = {}
    grid = grid_params(m)
    if len(grid) == 2:
        rows = a.summary[a.summary["param"].astype(str) == str(m.param)]
        opponents = list(dict.fromkeys(rows["opponent"]))
        for figure in GRID_FIGURES:
            if figure in rows and rows[figure].notna().any():
                for k, opp in enumerate(opponents):
                    stem = f"grid_{figure}" + (f"__vs{k + 1}" if len(opponents) > 1 else "")
                    part = rows[rows["opponent"] == opp]
                    makers[stem] = partial(_on, grid_heatmap, part, (grid[0], grid[1]), figure, played)
    if m.kind == RunKind.GAUNTLET and m.pairings:
        rows = a.summary[a.summary["strategy"] == m.pairings[0].label_a]
        for figure in GRID_FIGURES:
            if figure in rows and rows[figure].notna().any():
                makers[f"gauntlet_{figure}"] = partial(_on, gauntlet_chart, rows, figure, played)
    return makers


def _on(chart: Callable[..., Figure], *args: Any) -> Figure:
    """``chart(*data, ax=ax)`` where the axes come last in ``args``."""
    *data, ax = args
    return chart(*data, ax=ax)
