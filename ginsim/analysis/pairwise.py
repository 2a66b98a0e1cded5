"""The round-robin's pairwise table: every meeting, head to head, with its interval and the
likelihood of superiority (docs/METRICS.md).

Ratings put everyone on one scale, but whether two strategies are apart is a question
about the two of them: their meeting says it directly, and more sharply than two
rating intervals laid side by side (two intervals can overlap while the difference
between the two strategies is clearly not zero). One row per pairing, the better
placed strategy of the two (by rating) first:

- game mode: ``games``, ``game_win_rate`` of the first against the second with its
  Wilson interval, ``points_per_hand`` with its interval, and ``los`` from the games won
  each way, Φ((W − L) / √(W + L)) (undecided games left out);
- hand mode: ``hands``, ``points_per_hand`` with its interval, ``win_rate`` with its
  interval, and ``los`` from the points, Φ(points_per_hand / SE);

and ``verdict``: ``ahead``, ``behind`` or ``not apart`` (``verdict``).
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ginsim.analysis.stats import Z95, figures
from ginsim.runfolder.records import PairingRecord

PAIRWISE = "pairwise.csv"
PAIRWISE_NOTE = (
    "each meeting, the higher-rated first; los: likelihood that it is the stronger of the two; "
    "apart when los is at least 97.5% or at most 2.5%"
)


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def los_games(won: float, lost: float) -> float:
    """The likelihood that the side with ``won`` wins is the stronger: Φ((W − L)/√(W + L))."""
    if won + lost <= 0:
        return 0.5
    return normal_cdf((won - lost) / math.sqrt(won + lost))


def los_points(pph: float, se: float) -> float:
    """The likelihood that the side netting ``pph`` points per hand (standard error ``se``)
    is the stronger: Φ(pph / SE)."""
    if not math.isfinite(pph):
        return math.nan
    if not (math.isfinite(se) and se > 0):
        return 1.0 if pph > 0 else 0.0 if pph < 0 else 0.5
    return normal_cdf(pph / se)


def pairwise(
    sums: dict[tuple[int, int], dict[str, float]],
    pairings: list[PairingRecord],
    order: list[str],
    games: bool,
) -> pd.DataFrame:
    """One row per pairing played (the strategy placed higher in ``order`` first)."""
    rank = {name: i for i, name in enumerate(order)}
    rows: list[dict[str, Any]] = []
    for p in pairings:
        a, b = sums.get((p.index, 0)), sums.get((p.index, 1))
        if a is None or b is None or a["hands"] <= 0:
            continue
        first, second, label_a, label_b = a, b, p.label_a, p.label_b
        if rank.get(p.label_b, 0) < rank.get(p.label_a, 0):
            first, second, label_a, label_b = b, a, p.label_b, p.label_a
        f = figures(first)
        row: dict[str, Any] = {"strategy": label_a, "opponent": label_b, "pairing": p.index, "hands": f["hands"]}
        if games:
            row["games"] = int(first["games"])
            for name in ("game_win_rate", "game_win_rate_lo", "game_win_rate_hi"):
                row[name] = f.get(name, math.nan)
        for name in ("points_per_hand", "points_per_hand_lo", "points_per_hand_hi"):
            row[name] = f[name]
        if not games:
            for name in ("win_rate", "win_rate_lo", "win_rate_hi"):
                row[name] = f[name]
        if games:
            row["los"] = los_games(first["games_won"], second["games_won"])
        else:
            se = (f["points_per_hand_hi"] - f["points_per_hand"]) / Z95
            row["los"] = los_points(f["points_per_hand"], se)
        row["verdict"] = verdict(row["los"])
        rows.append(row)
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["_a"] = out["strategy"].map(rank)
    out["_b"] = out["opponent"].map(rank)
    return out.sort_values(["_a", "_b"], ignore_index=True).drop(columns=["_a", "_b"])


def verdict(los: float) -> str:
    """How a likelihood of superiority reads: 'ahead' at 97.5% or more, 'behind' at 2.5%
    or less (a two-sided 95% test of a difference either way), else 'not apart'."""
    if not math.isfinite(los):
        return "—"
    if los >= 0.975:
        return "ahead"
    if los <= 0.025:
        return "behind"
    return "not apart"
