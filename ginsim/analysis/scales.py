"""Colour and axis scales that one outlier strategy cannot flatten.

A strategy far weaker (or stronger) than the rest, ``random`` in the built-in
round-robin, would set a chart's scale by itself and leave every cell that matters near
white. Each chart therefore scales to the cells without the one strategy whose removal
shrinks the scale the most, when that removal shrinks it by at least ``FACTOR``; the
outlier's cells beyond the scale are clipped to its end and marked (hatched cells, a cut
bar), and the chart's legend says so."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FACTOR = 2.0
"""An outlier must stretch the scale at least this many times over the rest's own scale."""


@dataclass(frozen=True)
class Scale:
    """A chart scale: ``limit`` (the span or top it uses) and the strategy (index) whose
    cells were left out of it, or None when no strategy stood out."""

    limit: float
    outlier: int | None = None


def _pick(full: float, without: list[float]) -> Scale:
    """The scale from the full extent and the extent without each strategy."""
    if len(without) < 3 or not np.isfinite(full) or full <= 0:
        return Scale(full)
    i = int(np.argmin(without))
    rest = without[i]
    if np.isfinite(rest) and rest > 0 and full >= FACTOR * rest:
        return Scale(rest, i)
    return Scale(full)


def _max(values: np.ndarray) -> float:
    finite = values[np.isfinite(values)]
    return float(finite.max()) if finite.size else 0.0


def matrix_scale(values: np.ndarray, centre: float) -> Scale:
    """The half-span of a pairwise matrix's diverging colours (strategy i is row and
    column i): the largest |cell − centre| outside the outlier's row and column."""
    dev = np.abs(values - centre)
    n = dev.shape[0]
    without = []
    for i in range(n):
        keep = np.ones(n, dtype=bool)
        keep[i] = False
        without.append(_max(dev[np.ix_(keep, keep)]))
    return _pick(_max(dev), without)


def rows_scale(values: np.ndarray) -> Scale:
    """The top of a sequential colour scale over a table with one row per strategy: the
    largest cell outside the outlier's row."""
    without = [_max(np.delete(values, i, axis=0)) for i in range(values.shape[0])]
    return _pick(_max(values), without)


def bars_scale(values: np.ndarray) -> Scale:
    """The range of a bar chart with one bar per strategy: the spread of the bars
    (max − min, zero included) without the outlier bar."""

    def spread(v: np.ndarray) -> float:
        v = v[np.isfinite(v)]
        return float(max(v.max(initial=0.0), 0.0) - min(v.min(initial=0.0), 0.0)) if v.size else 0.0

    without = [spread(np.delete(values, i)) for i in range(len(values))]
    return _pick(spread(values), without)
