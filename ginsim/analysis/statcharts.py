"""The charts of a run's statistics: the pairwise heatmap, the ratings, a sweep's lines and the
sequential test's trace. Each takes its data and an optional ``ax`` and returns the Figure."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from ginsim.analysis.chartbase import (
    CELL,
    FIGURE_NAMES,
    PARAM_UNITS,
    Y_LABELS,
    font,
    hatch,
    label_width,
    new_figure,
    title,
)
from ginsim.analysis.scales import bars_scale, matrix_scale


def heatmap(matrix: pd.DataFrame, figure: str, played: str = "", ax: Axes | None = None) -> Figure:
    """Pairwise matrix (cell row A, column B: A's figure against B), diverging colours
    centred on even (0 points, 50%), every cell annotated."""
    names = [str(n) for n in matrix.index]
    n = len(names)
    side = 2.6 + 0.62 * n + label_width(names)
    fig, ax = new_figure(ax, (min(18.0, max(6.0, side + 1.2)), min(16.0, max(4.8, side))))
    values = matrix.to_numpy(dtype=float)
    rate = figure.endswith("rate")
    centre = 0.5 if rate else 0.0
    scale = matrix_scale(values, centre)  # robust to one outlier strategy (ginsim.analysis.scales)
    span = scale.limit or (0.5 if rate else 1.0)
    img = ax.imshow(values, cmap="RdBu", vmin=centre - span, vmax=centre + span, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    clipped = np.isfinite(values) & (np.abs(values - centre) > span * (1 + 1e-9))
    hatch(ax, clipped)
    fs = font(n)
    ax.set_xticks(range(n), labels=names, rotation=35, ha="right", rotation_mode="anchor", fontsize=fs)
    ax.set_yticks(range(n), labels=names, fontsize=fs)
    for i in range(n):
        for j in range(n):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            text = (f"{100 * v:.1f}%" if n <= 6 else f"{100 * v:.0f}%") if rate else f"{v:+.2f}"
            color = "white" if abs(v - centre) / span > 0.6 else "black"
            ax.text(j, i, text, **CELL, fontsize=max(7.0, fs - 1), color=color)
    bar = fig.colorbar(img, ax=ax, shrink=0.8, extend="both" if clipped.any() else "neither")
    label = Y_LABELS[figure] + " of the row strategy"
    if clipped.any() and scale.outlier is not None:
        label += f"\n(scaled without {names[scale.outlier]}; hatched cells lie beyond it)"
    bar.set_label(label)
    if rate:
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    title(ax, f"{FIGURE_NAMES[figure]}, row strategy against column strategy", played)
    return fig


def ratings_chart(ratings: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Ratings as points with 95% intervals (best on top), on an axis scaled to the field
    without an outlier strategy (its marker sits at the edge, labelled with its value);
    zero as the ratings define it (ginsim.analysis.ratings), a dotted line the median."""
    names = [str(s) for s in ratings["strategy"]]
    n = len(names)
    fig, ax = new_figure(ax, (max(7.0, 5.0 + label_width(names)), max(3.6, 2.1 + 0.42 * n)))
    r = ratings["rating"].to_numpy(dtype=float)
    lo, hi = ratings["rating_lo"].to_numpy(dtype=float), ratings["rating_hi"].to_numpy(dtype=float)
    games = "games_won" in ratings
    y = np.arange(n)[::-1]
    scale = bars_scale(r)
    keep = np.ones(n, dtype=bool)
    if scale.outlier is not None:
        keep[scale.outlier] = False
    left = min(0.0, float(np.nanmin(lo[keep])))
    right = max(0.0, float(np.nanmax(hi[keep])))
    pad = 0.12 * ((right - left) or 1.0)
    left, right = left - pad, right + pad
    colors = np.where(r >= 0, "#2171b5", "#cb181d")
    for yi, v, a, b, c, inside in zip(y, r, lo, hi, colors, keep, strict=True):
        if inside:
            ax.errorbar(v, yi, xerr=[[v - a], [b - v]], fmt="o", color=c, ecolor="#333333", capsize=4, ms=7)
            ax.text(b, yi, f"  {v:+.0f}" if games else f"  {v:+.2f}", va="center", ha="left", fontsize=9)
        else:  # the outlier: a cut marker at the edge, with its value
            edge = left if v < left else right
            ax.plot(edge, yi, marker="<" if v < left else ">", color=c, ms=10, clip_on=False)
            text = f"{v:+.0f}" if games else f"{v:+.2f}"
            ax.text(
                edge, yi, f"  {text} (off the scale)  ", va="center", ha="left" if v < left else "right", fontsize=9
            )
    ax.set_yticks(y, labels=names, fontsize=font(n))
    ax.axvline(0, color="black", linewidth=0.8)
    median = float(np.median(r))
    ax.axvline(median, color="#737373", linewidth=0.9, linestyle=":")
    ax.set_xlim(left, right * 1.15 if right > 0 else right)
    unit = "Elo scale from game wins" if games else "points per hand"
    mid = f"{median:+.0f}" if games else f"{median:+.2f}"
    incl = f" ({names[scale.outlier]} included)" if scale.outlier is not None else ""
    zero = "the field's precision-weighted mean" if games else f"mean of all {n} ratings{incl}"
    ax.set_xlabel(
        f"rating ({unit}) with 95% interval\n0 = {zero}; dotted line = median ({mid})\n"
        "overlapping intervals do not mean level: see the head-to-head table"
    )
    what = "Bradley–Terry ratings from game wins" if games else "Ratings from points per hand (least squares)"
    title(ax, what, played)
    return fig


def sweep_chart(rows: pd.DataFrame, param: str, figure: str, played: str = "", ax: Axes | None = None) -> Figure:
    """One figure of the swept strategy against the parameter value: a line per opponent
    with its 95% band. ``rows`` has columns opponent, value, figure, figure_lo, figure_hi."""
    fig, ax = new_figure(ax, (8.0, 5.0))
    numeric = pd.to_numeric(rows["value"], errors="coerce")
    categorical = bool(numeric.isna().any())
    order = list(dict.fromkeys(str(v) for v in rows["value"]))
    for opp, part in rows.groupby("opponent", sort=False):
        x = (
            np.array([order.index(str(v)) for v in part["value"]], dtype=float)
            if categorical
            else pd.to_numeric(part["value"]).to_numpy(dtype=float)
        )
        y = part[figure].to_numpy(dtype=float)
        (line,) = ax.plot(x, y, marker="o", markersize=4, label=str(opp))
        if f"{figure}_lo" in part:
            lo, hi = part[f"{figure}_lo"].to_numpy(dtype=float), part[f"{figure}_hi"].to_numpy(dtype=float)
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.2, linewidth=0)
    if figure != "undercut_rate":
        ax.axhline(0.5 if figure.endswith("rate") else 0.0, color="#555555", linewidth=0.8, linestyle="--")
    if figure.endswith("rate"):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if categorical:
        ax.set_xticks(range(len(order)), labels=order)
    elif len(order) <= 16:
        ax.set_xticks(sorted({float(v) for v in numeric}))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(12))
    unit = PARAM_UNITS.get(param)
    ax.set_xlabel(f"{param}" + (f" ({unit})" if unit else ""))
    ax.set_ylabel(Y_LABELS[figure])
    ax.grid(alpha=0.3)
    ax.legend(title="opponent", fontsize=9, title_fontsize=9)
    title(ax, f"{FIGURE_NAMES[figure]} against {param}, 95% bands", played)
    return fig


def sprt_chart(trace: pd.DataFrame, result: dict[str, Any], played: str = "", ax: Axes | None = None) -> Figure:
    """The SPRT's log-likelihood ratio after each chunk against hands played, between its
    bounds (``trace``: columns hands and llr; ``result``: the test's outcome)."""
    fig, ax = new_figure(ax, (8.0, 4.6))
    lower, upper = float(result["lower"]), float(result["upper"])
    hands = trace["hands"].to_numpy(dtype=float)
    llr = trace["llr"].to_numpy(dtype=float)
    right = max(float(hands.max()) if len(hands) else 0.0, 1.0)
    ax.axhspan(lower, upper, color="#f0f0f0", zorder=0)
    ax.axhline(upper, color="#2171b5", lw=1.2, ls="--")
    ax.axhline(lower, color="#cb181d", lw=1.2, ls="--")
    ax.axhline(0.0, color="#969696", lw=0.8)
    ax.text(
        0,
        upper,
        f" accept H1 (p1={result['p1']:g} points/hand): {upper:.2f}",
        va="bottom",
        ha="left",
        fontsize=9,
        color="#2171b5",
    )
    ax.text(
        0,
        lower,
        f" accept H0 (p0={result['p0']:g} points/hand): {lower:.2f}",
        va="top",
        ha="left",
        fontsize=9,
        color="#cb181d",
    )
    ax.plot(hands, llr, color="#252525", lw=1.6, marker="o" if len(hands) <= 60 else None, ms=3)
    if len(hands):
        ax.annotate(
            f"{result['decision']}\nLLR {llr[-1]:.2f} after {int(hands[-1]):,} hands",
            (hands[-1], llr[-1]),
            xytext=(-8, 0),
            textcoords="offset points",
            ha="right",
            va="center",
            fontsize=9,
        )
    span = max(upper - lower, float(np.abs(llr).max()) if len(llr) else 0.0)
    ax.set_ylim(
        min(lower, float(llr.min()) if len(llr) else lower) - 0.15 * span,
        max(upper, float(llr.max()) if len(llr) else upper) + 0.15 * span,
    )
    ax.set_xlim(0, right * 1.02)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))
    ax.set_xlabel("hands played (deal pairs × 2, chunks in order)")
    ax.set_ylabel("log-likelihood ratio (H1 vs H0)")
    title(ax, f"Sequential test (SPRT {result.get('hypotheses', '')})", played)
    return fig
