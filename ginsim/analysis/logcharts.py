"""The charts of the hand log's counts (ginsim.analysis.logcounts): how hands ended, how long
they lasted, the deadwood at knock. Each takes its counts and an optional ``ax`` and returns the Figure."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

from ginsim.analysis.chartbase import CELL, font, hatch, label_width, new_figure, title
from ginsim.analysis.logcounts import ALL, OUTCOME_CATEGORIES
from ginsim.analysis.scales import rows_scale

OUTCOME_COLORS = ("#41ab5d", "#005a32", "#a1d99b", "#fd8d3c", "#ef3b2c", "#99000d", "#969696", "#d9f0d3", "#252525")
_DARK = {"#41ab5d", "#005a32", "#ef3b2c", "#99000d", "#252525"}  # colours that take white labels
TURN_BARS = 100  # most bars in the hand-length histogram before they group turns


def outcome_chart(counts: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """How each strategy's hands ended, from its side, as 100% stacked horizontal bars.
    ``counts``: one row per strategy, columns OUTCOME_CATEGORIES (hand counts)."""
    names = [str(s) for s in counts.index]
    n = len(names)
    own = ax is None
    fig, ax = new_figure(ax, (max(8.0, 6.0 + label_width(names)), max(3.8, 2.4 + 0.42 * n)))
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
                ax.text(li + wi / 2, yi, f"{100 * wi:.0f}%", **CELL, fontsize=8, color="white" if white else "black")
        left += w
    ax.set_yticks(y, labels=names, fontsize=font(n))
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of the strategy's hands (%)")
    if own:  # below the bars, outside the axes, where it never hides one
        fig.legend(loc="outside lower center", ncol=4, frameon=False, fontsize=9)
    else:  # on the caller's axes: below them too, never over the bars
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=4, frameon=False, fontsize=8)
    title(ax, "How each strategy's hands ended (from its side)", played)
    return fig


def turns_chart(hist: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Histogram of hand length in turns: every hand (grey bars), plus a step line per
    strategy when there are at most six and they differ (in a single pairing both sides
    played the same hands, so lines would only hide each other). Beyond ``TURN_BARS``
    lengths the bars group several turns each, so that long hands (up to the 500-turn
    cap) stay visible. ``hist``: rows ALL and strategies, columns turns 0, 1, 2, ..."""
    fig, ax = new_figure(ax, (8.0, 4.8))
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
    title(ax, "Hand length", played)
    return fig


def knock_deadwood_chart(counts: pd.DataFrame, played: str = "", ax: Axes | None = None) -> Figure:
    """Deadwood each strategy held when it knocked (0 = gin), as a share of its knocks:
    one row per strategy, one column per deadwood value, cells annotated."""
    n = len(counts)
    labels = [
        f"{k}  ({int(t):,} knock{'' if t == 1 else 's'})" for k, t in zip(counts.index, counts.sum(axis=1), strict=True)
    ]
    cols = [int(c) for c in counts.columns]
    fig, ax = new_figure(ax, (max(7.5, 2.8 + 0.42 * len(cols) + label_width(labels)), max(3.6, 2.2 + 0.45 * n)))
    total = counts.sum(axis=1).replace(0, np.nan)
    shares = counts.div(total, axis=0).to_numpy(dtype=float)
    scale = rows_scale(shares)  # robust to one outlier row (ginsim.analysis.scales)
    top = scale.limit or 1.0
    img = ax.imshow(shares, cmap="Blues", vmin=0, vmax=top, aspect="auto")
    ax.set_facecolor("#e0e0e0")
    clipped = np.isfinite(shares) & (shares > top * (1 + 1e-9))
    hatch(ax, clipped)
    fs = font(max(n, len(cols) // 2))
    for i in range(n):
        for j in range(len(cols)):
            v = shares[i, j]
            if np.isfinite(v) and v >= 0.005:
                color = "white" if v > 0.6 * top else "black"
                ax.text(j, i, f"{100 * v:.0f}", **CELL, fontsize=max(7.0, fs - 1), color=color)
    ax.set_xticks(range(len(cols)), labels=[str(c) for c in cols], fontsize=fs)
    ax.set_yticks(range(n), labels=labels, fontsize=fs)
    bar = fig.colorbar(img, ax=ax, shrink=0.8, extend="max" if clipped.any() else "neither")
    bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    where = f"\n(scaled without {counts.index[scale.outlier]}; hatched cells lie above)" if clipped.any() else ""
    bar.set_label("share of its knocks (%)" + where)
    ax.set_xlabel("deadwood when knocking (points; 0 = gin)")
    title(ax, "Deadwood at knock (cells: % of the strategy's knocks)", played)
    return fig
