"""Charts of a run folder, drawn from its stats and the hand log's counts (never by playing).

Every plotting function takes the data it plots and an optional ``ax`` and returns the
Figure: no pyplot state, so charts can be drawn in any process and composed by callers.
``chart_makers`` picks the charts for the run's kind; ``draw_all`` writes them to
``DIR/charts/``. The numbers the charts of the hand log show are counted in
``ginsim.analysis.logcounts``; this module only draws.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from ginsim.analysis.chartbase import CELL as _CELL  # the shared parts of every chart
from ginsim.analysis.chartbase import CHARTS_DIR, DPI, FIGURE_NAMES, PARAM_UNITS, SWEEP_FIGURES, Y_LABELS
from ginsim.analysis.chartbase import font as _font
from ginsim.analysis.chartbase import hatch as _hatch
from ginsim.analysis.chartbase import label_width as _label_width
from ginsim.analysis.chartbase import new_figure as _figure
from ginsim.analysis.chartbase import title as _title
from ginsim.analysis.format import describe_run
from ginsim.analysis.gridcharts import grid_makers
from ginsim.analysis.logcounts import ALL, OUTCOME_CATEGORIES, read_log_counts
from ginsim.analysis.scales import bars_scale, matrix_scale, rows_scale
from ginsim.analysis.tables import Analysis, grid_params, matrix
from ginsim.runfolder.atomic import make_dir, write_atomic
from ginsim.runfolder.records import Manifest

OUTCOME_COLORS = ("#41ab5d", "#005a32", "#a1d99b", "#fd8d3c", "#ef3b2c", "#99000d", "#969696", "#d9f0d3", "#252525")
_DARK = {"#41ab5d", "#005a32", "#ef3b2c", "#99000d", "#252525"}  # colours that take white labels
TURN_BARS = 100  # most bars in the hand-length histogram before they group turns
_STEMS = ("heatmap_", "ratings", "sweep_", "grid_", "gauntlet_", "outcomes", "turns", "knock_deadwood", "sprt")


# -- the plotting functions --------------------------------------------------------------------
def heatmap(matrix: pd.DataFrame, figure: str, played: str = "", ax: Axes | None = None) -> Figure:
    """Pairwise matrix (cell row A, column B: A's figure against B), diverging colours
    centred on even (0 points, 50%), every cell annotated."""
    names = [str(n) for n in matrix.index]
    n = len(names)
    side = 2.6 + 0.62 * n + _label_width(names)
    fig, ax = _figure(ax, (min(18.0, max(6.0, side + 1.2)), min(16.0, max(4.8, side))))
    values = matrix.to_numpy(dtype=float)
    rate = figure.endswith("rate")
    centre = 0.5 if rate else 0.0
    scale = matrix_scale(values, centre)  # robust to one outlier strategy (ginsim.analysis.scales)
    span = scale.limit or (0.5 if rate else 1.0)
    img = ax.imshow(values, cmap="RdBu", vmin=centre - span, vmax=centre + span, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    clipped = np.isfinite(values) & (np.abs(values - centre) > span * (1 + 1e-9))
    _hatch(ax, clipped)
    fs = _font(n)
    ax.set_xticks(range(n), labels=names, rotation=35, ha="right", rotation_mode="anchor", fontsize=fs)
    ax.set_yticks(range(n), labels=names, fontsize=fs)
    for i in range(n):
        for j in range(n):
            v = values[i, j]
            if not np.isfinite(v):
                continue
            text = (f"{100 * v:.1f}%" if n <= 6 else f"{100 * v:.0f}%") if rate else f"{v:+.2f}"
            color = "white" if abs(v - centre) / span > 0.6 else "black"
            ax.text(j, i, text, **_CELL, fontsize=max(7.0, fs - 1), color=color)
    bar = fig.colorbar(img, ax=ax, shrink=0.8, extend="both" if clipped.any() else "neither")
    label = Y_LABELS[figure] + " of the row strategy"
    if clipped.any() and scale.outlier is not None:
        label += f"\n(scaled without {names[scale.outlier]}; hatched cells lie beyond it)"
    bar.set_label(label)
    if rate:
        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("opponent (column)")
    ax.set_ylabel("strategy (row)")
    _title(ax, f"{FIGURE_NAMES[figure]}, row strategy against column strategy", played)
    return fig


def ratings_chart(ratings: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Ratings as points with 95% intervals (best on top), on an axis scaled to the field
    without an outlier strategy (its marker sits at the edge, labelled with its value);
    zero as the ratings define it (ginsim.analysis.ratings), a dotted line the median."""
    names = [str(s) for s in ratings["strategy"]]
    n = len(names)
    fig, ax = _figure(ax, (max(7.0, 5.0 + _label_width(names)), max(3.6, 2.1 + 0.42 * n)))
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
    ax.set_yticks(y, labels=names, fontsize=_font(n))
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
    _title(ax, what, played)
    return fig


def sweep_chart(rows: pd.DataFrame, param: str, figure: str, played: str = "", ax: Axes | None = None) -> Figure:
    """One figure of the swept strategy against the parameter value: a line per opponent
    with its 95% band. ``rows`` has columns opponent, value, figure, figure_lo, figure_hi."""
    fig, ax = _figure(ax, (8.0, 5.0))
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
    _title(ax, f"{FIGURE_NAMES[figure]} against {param}, 95% bands", played)
    return fig


def outcome_chart(counts: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """How each strategy's hands ended, from its side, as 100% stacked horizontal bars.
    ``counts``: one row per strategy, columns OUTCOME_CATEGORIES (hand counts)."""
    names = [str(s) for s in counts.index]
    n = len(names)
    own = ax is None
    fig, ax = _figure(ax, (max(8.0, 6.0 + _label_width(names)), max(3.8, 2.4 + 0.42 * n)))
    total = counts.sum(axis=1).replace(0, np.nan)
    shares = counts.div(total, axis=0).fillna(0.0)
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for cat, color in zip(OUTCOME_CATEGORIES, OUTCOME_COLORS, strict=True):
        if cat not in shares or not shares[cat].any():
            continue
        w = shares[cat].to_numpy(dtype=float)
        ax.barh(y, w, left=left, color=color, height=0.7, label=cat)
        for yi, li, wi in zip(y, left, w, strict=True):
            if wi >= 0.06:
                white = color in _DARK
                ax.text(li + wi / 2, yi, f"{100 * wi:.0f}%", **_CELL, fontsize=8, color="white" if white else "black")
        left += w
    ax.set_yticks(y, labels=names, fontsize=_font(n))
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of the strategy's hands (%)")
    if own:  # below the bars, outside the axes, where it never hides one
        fig.legend(loc="outside lower center", ncol=4, frameon=False, fontsize=9)
    else:  # on the caller's axes: below them too, never over the bars
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4, frameon=False, fontsize=8)
    _title(ax, "How each strategy's hands ended (from its side)", played)
    return fig


def turns_chart(hist: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Histogram of hand length in turns: every hand (grey bars), plus a step line per
    strategy when there are at most six and they differ (in a single pairing both sides
    played the same hands, so lines would only hide each other). Beyond ``TURN_BARS``
    lengths the bars group several turns each, so that long hands (up to the 500-turn
    cap) stay visible. ``hist``: rows ALL and strategies, columns turns 0, 1, 2, ..."""
    fig, ax = _figure(ax, (8.0, 4.8))
    turns = np.array(hist.columns, dtype=float)
    every = hist.loc[ALL].to_numpy(dtype=float)
    total = every.sum() or 1.0
    mean = float((turns * every).sum() / total)
    step = max(1, int(np.ceil(len(turns) / TURN_BARS)))
    if step > 1:
        groups = np.arange(len(turns)) // step
        hist = hist.T.groupby(groups).sum().T
        turns = np.array(hist.columns, dtype=float) * step + (step - 1) / 2  # bar centres
        every = hist.loc[ALL].to_numpy(dtype=float)
    edge = {"edgecolor": "white", "linewidth": 0.3}
    ax.bar(turns, every / total, width=float(step), color="#bdbdbd", **edge, label=ALL)
    others = [k for k in hist.index if k != ALL]
    shares = {k: hist.loc[k].to_numpy(dtype=float) / (hist.loc[k].sum() or 1.0) for k in others}
    alike = all(np.allclose(v, every / total) for v in shares.values())
    if 1 < len(others) <= 6 and not alike:
        for k in others:
            ax.step(turns, shares[k], where="mid", linewidth=1.3, label=str(k))
    ax.axvline(mean, color="black", linestyle="--", linewidth=0.9, label=f"mean {mean:.1f} turns")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(
        "hand length (turns: draws taken, the first-turn offer counting as one)"
        + (f"; bars of {step} turns" if step > 1 else "")
    )
    ax.set_ylabel("share of hands (%)")
    ax.legend(fontsize=8)
    _title(ax, "Hand length", played)
    return fig


def knock_deadwood_chart(counts: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Deadwood each strategy held when it knocked (0 = gin), as a share of its knocks:
    one row per strategy, one column per deadwood value, cells annotated."""
    n = len(counts)
    labels = [
        f"{k}  ({int(t):,} knock{'' if t == 1 else 's'})" for k, t in zip(counts.index, counts.sum(axis=1), strict=True)
    ]
    cols = [int(c) for c in counts.columns]
    fig, ax = _figure(ax, (max(7.5, 2.8 + 0.42 * len(cols) + _label_width(labels)), max(3.6, 2.2 + 0.45 * n)))
    total = counts.sum(axis=1).replace(0, np.nan)
    shares = counts.div(total, axis=0).to_numpy(dtype=float)
    scale = rows_scale(shares)  # robust to one outlier row (ginsim.analysis.scales)
    top = scale.limit or 1.0
    img = ax.imshow(shares, cmap="Blues", vmin=0, vmax=top, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    clipped = np.isfinite(shares) & (shares > top * (1 + 1e-9))
    _hatch(ax, clipped)
    fs = _font(max(n, len(cols) // 2))
    for i in range(n):
        for j in range(len(cols)):
            v = shares[i, j]
            if np.isfinite(v) and v >= 0.005:
                color = "white" if v > 0.6 * top else "black"
                ax.text(j, i, f"{100 * v:.0f}", **_CELL, fontsize=max(7.0, fs - 1), color=color)
    ax.set_xticks(range(len(cols)), labels=[str(c) for c in cols], fontsize=fs)
    ax.set_yticks(range(n), labels=labels, fontsize=fs)
    bar = fig.colorbar(img, ax=ax, shrink=0.8, extend="max" if clipped.any() else "neither")
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    where = f"\n(scaled without {counts.index[scale.outlier]}; hatched cells lie above)" if clipped.any() else ""
    bar.set_label("share of its knocks (%)" + where)
    ax.set_xlabel("deadwood when knocking (points; 0 = gin)")
    _title(ax, "Deadwood at knock (cells: % of the strategy's knocks)", played)
    return fig


def sprt_chart(trace: pd.DataFrame, result: dict[str, Any], played: str = "", ax: Axes | None = None) -> Figure:
    """The SPRT's log-likelihood ratio after each chunk against hands played, between its
    bounds (``trace``: columns hands and llr; ``result``: the test's outcome)."""
    fig, ax = _figure(ax, (8.0, 4.6))
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
    _title(ax, f"Sequential test (SPRT {result.get('hypotheses', '')})", played)
    return fig


# -- a run folder's charts ---------------------------------------------------------------------
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
