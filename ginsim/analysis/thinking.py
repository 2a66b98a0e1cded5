"""Thinking time per decision (docs/METRICS.md): each strategy's mean and 99th-percentile
wall time per decision, from the histograms the workers keep (ginsim.runfolder.timing), per
summary row and per strategy over all its pairings. Machine-dependent: another machine,
another load, other numbers; the figures of play never depend on them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from ginsim.runfolder.records import PairingRecord, read_timing, summarize_timing

THINK_COLUMNS = ("think_decisions", "think_mean_us", "think_p99_us")
NOTE = "machine-dependent: wall time on the machine that played, under its load at the time"


def add_thinking(summary: pd.DataFrame, files: list[Path], pairings: list[PairingRecord]) -> pd.DataFrame:
    """``summary`` with THINK_COLUMNS for each row (its strategy's decisions against that
    opponent); NaN where nothing was timed (the fast path, tournament mode)."""
    timing = read_timing(files)
    if not timing or summary.empty or "pairing" not in summary:
        return summary
    by_index = {p.index: p for p in pairings}
    values: dict[str, list[float]] = {name: [] for name in THINK_COLUMNS}
    for pairing, strategy in zip(summary["pairing"], summary["strategy"], strict=True):
        p = by_index.get(int(pairing))
        side = 0 if p is not None and strategy == p.label_a else 1
        rows = timing.get((int(pairing), side))
        figures = summarize_timing(rows) if rows is not None else dict.fromkeys(THINK_COLUMNS, math.nan)
        for name in THINK_COLUMNS:
            values[name].append(figures[name])
    out = summary.copy()
    for name in THINK_COLUMNS:
        out[name] = values[name]
    return out


def thinking_table(files: list[Path], pairings: list[PairingRecord]) -> pd.DataFrame | None:
    """One row per timed strategy over all its pairings: decisions, mean and 99th-percentile
    microseconds per decision (slowest first); None when nothing was timed."""
    timing = read_timing(files)
    merged: dict[str, np.ndarray] = {}
    for p in pairings:
        for side, label in ((0, p.label_a), (1, p.label_b)):
            rows = timing.get((p.index, side))
            if rows is None:
                continue
            if label in merged:
                both = merged[label]
                both[:-1] += rows[:-1]
                both[-1] = max(both[-1], rows[-1])
            else:
                merged[label] = rows.copy()
    if not merged:
        return None
    table = pd.DataFrame([{"strategy": label, **summarize_timing(rows)} for label, rows in merged.items()])
    return table.sort_values("think_mean_us", ascending=False, ignore_index=True)
