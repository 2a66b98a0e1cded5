"""Game figures of a game-mode run (METRICS.md): ``points_per_game`` (the strategy's
total with every end-of-game bonus minus the opponent's, per game, with a 95% interval
over games or, with duplicate deals, over game pairs), ``hands_per_game`` and
``shutouts``, from the game records that ginsim.runfolder.records keeps beside the hand log."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ginsim.analysis.stats import Z95, points_se
from ginsim.runfolder.records import read_games


def game_figures(games: pd.DataFrame) -> dict[tuple[int, int], dict[str, float]]:
    """Per (pairing, side): points_per_game (with its interval), hands_per_game, shutouts
    won. Side 0 is the pairing's first strategy; the clusters are the game ids (a game, or
    both seatings of a duplicate game pair)."""
    out: dict[tuple[int, int], dict[str, float]] = {}
    if games.empty:
        return out
    pairing = games["pairing"].to_numpy(dtype=np.int64)
    seat_a = games["seat_a"].to_numpy(dtype=np.int64)
    t0 = games["total_0"].to_numpy(dtype=np.float64)
    t1 = games["total_1"].to_numpy(dtype=np.float64)
    winner = games["winner"].to_numpy(dtype=np.int64)
    shutout = games["shutout"].to_numpy(dtype=bool)
    hands = games["hands"].to_numpy(dtype=np.float64)
    deal = games["deal"].to_numpy(dtype=np.int64)
    for p in np.unique(pairing):
        in_p = pairing == p
        for side in (0, 1):
            seat = seat_a[in_p] if side == 0 else 1 - seat_a[in_p]
            net = np.where(seat == 0, t0[in_p] - t1[in_p], t1[in_p] - t0[in_p])
            _, inverse = np.unique(deal[in_p], return_inverse=True)
            c_n = np.bincount(inverse).astype(np.float64)
            c_s = np.bincount(inverse, weights=net)
            n = float(c_n.sum())
            ppg = float(net.sum()) / n
            clusters = {"clusters": len(c_n), "c_n": float(c_n.sum()), "c_s": float(c_s.sum())}
            clusters.update(c_ss=float((c_s * c_s).sum()), c_sn=float((c_s * c_n).sum()), c_nn=float((c_n * c_n).sum()))
            half = Z95 * points_se(clusters)  # the ratio estimator over game clusters
            out[(int(p), side)] = {
                "points_per_game": ppg,
                "points_per_game_lo": ppg - half,
                "points_per_game_hi": ppg + half,
                "hands_per_game": float(hands[in_p].mean()),
                "shutouts": float((shutout[in_p] & (winner[in_p] == seat)).sum()),
            }
    return out


def add_game_figures(summary: pd.DataFrame, hand_files: list[Path]) -> pd.DataFrame:
    """The summary with points_per_game, hands_per_game and shutouts for game runs."""
    if summary.empty or "pairing" not in summary:
        return summary
    figs = game_figures(read_games(hand_files))
    if not figs:
        return summary
    summary = summary.copy()
    side = _sides(summary)
    for name in ("points_per_game", "points_per_game_lo", "points_per_game_hi", "hands_per_game", "shutouts"):
        values: list[Any] = []
        for p, s in zip(summary["pairing"], side, strict=True):
            f = figs.get((int(p), s))
            values.append(f[name] if f else math.nan)
        summary[name] = values
    summary["shutouts"] = summary["shutouts"].fillna(0).astype(int)
    return summary


def _sides(summary: pd.DataFrame) -> list[int]:
    """Each summary row's side: the first row of a pairing is side 0, the next side 1."""
    seen: dict[int, int] = {}
    out = []
    for p in summary["pairing"]:
        k = int(p)
        out.append(seen.get(k, 0))
        seen[k] = seen.get(k, 0) + 1
    return out
