"""What every chart of ginsim shares: sizes, titles that fit, figure names and axis labels,
hatching for cells beyond the colour scale. No pyplot state: each chart is a ``Figure`` of
its own (or the caller's axes)."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

DPI = 100
CHARTS_DIR = "charts"
SWEEP_FIGURES = ("points_per_hand", "win_rate", "undercut_rate", "game_win_rate", "points_per_game")
FIGURE_NAMES = {
    "points_per_hand": "Points per hand",
    "win_rate": "Hand win rate",
    "undercut_rate": "Undercut rate (share of its knocks undercut)",
    "game_win_rate": "Game win rate",
    "points_per_game": "Points per game (with end-of-game bonuses)",
}
Y_LABELS = {
    "points_per_hand": "points per hand (scored − conceded)",
    "win_rate": "hands won (% of hands)",
    "undercut_rate": "knocks undercut (% of its knocks)",
    "game_win_rate": "games won (% of games)",
    "points_per_game": "points per game (total − opponent's total)",
}
PARAM_UNITS = {"knock_at": "deadwood points"}
CELL: dict[str, Any] = {"ha": "center", "va": "center"}


def font(n: int) -> float:
    """Text size for a chart of ``n`` rows or columns: smaller as the field grows."""
    return float(np.clip(12 - 0.35 * n, 8, 11))


def new_figure(ax: Axes | None, size: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax  # type: ignore[return-value]
    fig = Figure(figsize=size, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def title(ax: Axes, what: str, played: str) -> None:
    """The title over the axes, its second line wrapped so that it stays inside the figure:
    the title is centred on the axes, which long tick labels on the left (or a colour bar on
    the right) push off the figure's centre."""
    fig = ax.figure
    labels = ax.get_yticklabels()
    size = labels[0].get_fontsize() if labels else 9.0
    left = 0.6 + label_width([t.get_text() for t in labels]) * float(size) / 9.0
    right = 0.3 + (1.3 if len(fig.axes) > 1 else 0.0)  # type: ignore[union-attr]
    spec = ax.get_subplotspec()  # in a caller's grid of charts the axes has a column or a few
    share = 1.0 if spec is None else (spec.colspan.stop - spec.colspan.start) / spec.get_gridspec().ncols
    room = fig.get_figwidth() * share - abs(left - right) - 0.3  # type: ignore[union-attr]
    width = max(30, int(room * 10.5))
    text = what + ("\n" + textwrap.fill(played, width) if played else "")
    ax.set_title(text, fontsize=10.5)
    if share < 1:  # a column of a caller's grid: the axis label wraps to it too
        label = ax.get_xlabel()
        ax.set_xlabel("\n".join(textwrap.fill(line, width) for line in label.split("\n")) if label else "")


def label_width(labels: list[str]) -> float:
    """Inches the longest tick label needs (rough: 0.075 in per character at 9 pt)."""
    return 0.075 * max((len(s) for s in labels), default=4)


def hatch(ax: Axes, cells: np.ndarray) -> None:
    """Hatch the cells (row, column) whose value lies beyond the colour scale."""
    from matplotlib.patches import Rectangle

    for i, j in zip(*np.nonzero(cells), strict=True):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="//", edgecolor="#ffffff80", lw=0))
