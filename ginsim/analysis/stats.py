"""From the hand log to the figures of METRICS.md, with pandas.

The log is read one chunk file at a time and reduced to sums per (pairing, side), so
memory stays flat however many hands a run holds. Every figure and interval is then a
function of those sums: rates with Wilson intervals, points per hand with a ratio
estimator's standard error over clusters (a deal pair with duplicate deals, a game or a
game pair in game mode, a hand otherwise), and Bradley-Terry ratings (used on game wins by
ginsim.analysis.ratings).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ginsim.runfolder.records import OUTCOME_CODE, PairingRecord, outcome_codes, read_chunk

Z95 = 1.959963984540054
_CODE = OUTCOME_CODE

SUM_FIELDS = (
    "hands",
    "wins",
    "losses",
    "points_for",
    "points_against",
    "knocks",  # non-gin knocks
    "undercuts_suffered",
    "undercuts_made",
    "gins",
    "draws",
    "forfeits",
    "knock_deadwood",
    "turns",
    "games",
    "games_won",
)
CLUSTER_FIELDS = ("clusters", "c_n", "c_s", "c_ss", "c_sn", "c_nn")

RATE_FIGURES = ("win_rate", "knock_rate", "gin_rate", "undercut_rate", "undercuts_made_rate", "draw_rate")
"""Per-strategy figures with Wilson intervals (METRICS.md)."""

LOG_COLUMNS = [
    "pairing",
    "deal",
    "seat_a",
    "outcome",
    "knocker",
    "winner",
    "points",
    "knocker_deadwood",
    "turns",
    "game_end",
    "game_winner",
    "forfeit_seat",
    "forfeit_reason",
]


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion; (nan, nan) when n is 0."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def chunk_sums(df: pd.DataFrame) -> tuple[dict[tuple[int, int], dict[str, float]], dict[tuple[int, int], list[str]]]:
    """Reduce one chunk of the log to sums per (pairing, side); side 0 is the pairing's
    first strategy. Also the forfeit reasons per (pairing, side)."""
    out: dict[tuple[int, int], dict[str, float]] = {}
    reasons: dict[tuple[int, int], list[str]] = {}
    if df.empty:
        return out, reasons
    code = outcome_codes(df["outcome"])
    seat_a = df["seat_a"].to_numpy(dtype=np.int16)
    knocker = df["knocker"].to_numpy(dtype=np.int16)
    winner = df["winner"].to_numpy(dtype=np.int16)
    points = df["points"].to_numpy(dtype=np.int64)
    kdw = df["knocker_deadwood"].to_numpy(dtype=np.int64)
    turns = df["turns"].to_numpy(dtype=np.int64)
    game_end = df["game_end"].to_numpy(dtype=bool)
    game_winner = df["game_winner"].to_numpy(dtype=np.int16)
    fseat = df["forfeit_seat"].to_numpy(dtype=np.int16)
    pairing = df["pairing"].to_numpy(dtype=np.int64)
    deal = df["deal"].to_numpy(dtype=np.int64)
    nongin = (code == _CODE["knock"]) | (code == _CODE["undercut"])
    undercut = code == _CODE["undercut"]
    gin = (code == _CODE["gin"]) | (code == _CODE["big_gin"])
    draw = code == _CODE["draw"]
    forfeit = code == _CODE["forfeit"]
    for p in np.unique(pairing):
        in_p = pairing == p
        for side in (0, 1):
            seat = seat_a[in_p] if side == 0 else 1 - seat_a[in_p]
            w = winner[in_p]
            k = knocker[in_p]
            won = w == seat
            lost = (w >= 0) & (w != seat)
            mine_nongin = nongin[in_p] & (k == seat)
            pts = points[in_p]
            net = np.where(won, pts, 0) - np.where(lost, pts, 0)
            ge = game_end[in_p]
            gw = game_winner[in_p]
            sums = {
                "hands": float(in_p.sum()),
                "wins": float(won.sum()),
                "losses": float(lost.sum()),
                "points_for": float(pts[won].sum()),
                "points_against": float(pts[lost].sum()),
                "knocks": float(mine_nongin.sum()),
                "undercuts_suffered": float((undercut[in_p] & (k == seat)).sum()),
                "undercuts_made": float((undercut[in_p] & (k >= 0) & (k != seat)).sum()),
                "gins": float((gin[in_p] & (k == seat)).sum()),
                "draws": float(draw[in_p].sum()),
                "forfeits": float((forfeit[in_p] & (fseat[in_p] == seat)).sum()),
                "knock_deadwood": float(kdw[in_p][mine_nongin].sum()),
                "turns": float(turns[in_p].sum()),
                "games": float(ge.sum()),
                "games_won": float((ge & (gw == seat)).sum()),
            }
            # clusters: every hand of one deal index (both copies of a duplicate deal,
            # all hands of a game or game pair) sits in one chunk
            _, inverse = np.unique(deal[in_p], return_inverse=True)
            c_n = np.bincount(inverse).astype(np.float64)
            c_s = np.bincount(inverse, weights=net.astype(np.float64))
            sums.update(
                clusters=float(len(c_n)),
                c_n=float(c_n.sum()),
                c_s=float(c_s.sum()),
                c_ss=float((c_s * c_s).sum()),
                c_sn=float((c_s * c_n).sum()),
                c_nn=float((c_n * c_n).sum()),
            )
            out[(int(p), side)] = sums
            mine = forfeit[in_p] & (fseat[in_p] == seat)
            if mine.any():
                texts = df["forfeit_reason"].to_numpy(dtype=object)[in_p][mine]
                reasons[(int(p), side)] = list(dict.fromkeys(str(t) for t in texts))[:3]
    return out, reasons


def add_sums(total: dict[tuple[int, int], dict[str, float]], part: dict[tuple[int, int], dict[str, float]]) -> None:
    for key, sums in part.items():
        acc = total.setdefault(key, dict.fromkeys(SUM_FIELDS + CLUSTER_FIELDS, 0.0))
        for name, value in sums.items():
            acc[name] += value


def figures(s: dict[str, float]) -> dict[str, float]:
    """METRICS.md per-strategy figures (and intervals) from one side's sums."""
    n = s["hands"]
    out: dict[str, float] = {"hands": int(n)}

    def rate(name: str, num: float, den: float) -> None:
        out[name] = num / den if den > 0 else math.nan
        out[f"{name}_lo"], out[f"{name}_hi"] = wilson(num, den)

    rate("win_rate", s["wins"], n)
    pph = (s["points_for"] - s["points_against"]) / n if n > 0 else math.nan
    half = Z95 * points_se(s)
    out["points_per_hand"] = pph
    out["points_per_hand_lo"] = pph - half
    out["points_per_hand_hi"] = pph + half
    rate("knock_rate", s["knocks"], n)
    rate("gin_rate", s["gins"], n)
    rate("undercut_rate", s["undercuts_suffered"], s["knocks"])
    rate("undercuts_made_rate", s["undercuts_made"], n)
    rate("draw_rate", s["draws"], n)
    out["mean_knock_deadwood"] = s["knock_deadwood"] / s["knocks"] if s["knocks"] > 0 else math.nan
    out["mean_turns"] = s["turns"] / n if n > 0 else math.nan
    if s["games"] > 0:
        out["games"] = int(s["games"])
        rate("game_win_rate", s["games_won"], s["games"])
    out["forfeits"] = int(s["forfeits"])
    return out


def points_se(s: dict[str, float]) -> float:
    """Standard error of points per hand: ratio estimator over clusters."""
    c = s["clusters"]
    total_n = s["c_n"]
    if c < 2 or total_n <= 0:
        return math.nan
    m = s["c_s"] / total_n
    ss = s["c_ss"] - 2 * m * s["c_sn"] + m * m * s["c_nn"]
    return math.sqrt(max(ss, 0.0) * c / (c - 1)) / total_n


def summarize(
    sums: dict[tuple[int, int], dict[str, float]],
    reasons: dict[tuple[int, int], list[str]],
    pairings: list[PairingRecord],
) -> pd.DataFrame:
    """One row per ordered (strategy, opponent) pair: METRICS.md figures."""
    rows = []
    for p in pairings:
        for side in (0, 1):
            key = (p.index, side)
            if key not in sums:
                continue
            row: dict[str, Any] = {
                "strategy": p.label_a if side == 0 else p.label_b,
                "opponent": p.label_b if side == 0 else p.label_a,
            }
            if p.param is not None:
                row["param"] = p.param if side == 0 else ""
                grid = isinstance(p.value, list)  # a grid's combination: a column per parameter too
                value = ", ".join(str(v) for v in p.value) if grid else p.value
                row["value"] = value if side == 0 else ""
                if grid:
                    for name, v in zip(p.param.split(","), p.value, strict=True):
                        row[name] = v if side == 0 else ""
            row["pairing"] = p.index
            row.update(figures(sums[key]))
            row["forfeit_reasons"] = " | ".join(reasons.get(key, []))
            rows.append(row)
    return pd.DataFrame(rows)


def read_sums(
    files: Iterable[Path],
    digest: Any = None,
) -> tuple[dict[tuple[int, int], dict[str, float]], dict[tuple[int, int], list[str]]]:
    """Sums over chunk files, read one at a time; a chunk the ``digest``
    (ginsim.analysis.digest.RunDigest) already reduced is not read again."""
    total: dict[tuple[int, int], dict[str, float]] = {}
    reasons: dict[tuple[int, int], list[str]] = {}
    for f in files:
        taken = digest.part(f) if digest is not None else None
        if taken is not None:
            part, why = taken.sums, taken.reasons
        else:
            part, why = chunk_sums(read_chunk(f, LOG_COLUMNS))
        add_sums(total, part)
        for key, texts in why.items():
            merged = list(dict.fromkeys(reasons.get(key, []) + texts))
            reasons[key] = merged[:3]
    return total, reasons


def bradley_terry(names: list[str], wins: np.ndarray, prior: float = 0.5, iterations: int = 10_000) -> pd.DataFrame:
    """Bradley-Terry ratings on the Elo scale (400*log10), with 95% intervals.

    ``wins[i, j]`` is how many hands ``names[i]`` won against ``names[j]`` (draws left
    out). Every pair that met gets ``prior`` extra wins each way, which keeps ratings
    finite when one side never won; against thousands of hands it moves nothing.

    Zero is the field's mean weighted by how precisely each rating is measured (its
    Fisher information), and each interval is that of the rating minus this zero: a
    strategy that almost never wins (or loses) is measured loosely, so it barely moves
    the zero point, and its uncertainty does not widen everyone else's interval (with a
    plain mean as zero it would, by the whole of its own)."""
    k = len(names)
    w = np.asarray(wins, dtype=float).copy()
    met = (w + w.T) > 0
    w = w + prior * met
    n = w + w.T
    p = np.ones(k)
    total_wins = w.sum(axis=1)
    for _ in range(iterations):
        denom = np.array([np.sum(n[i] / (p[i] + p), where=met[i]) if met[i].any() else 1.0 for i in range(k)])
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1), p)
        new = np.maximum(new, 1e-300)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(p))) < 1e-12:
            p = new
            break
        p = new
    theta = np.log(p)
    pi = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    info = -(n * pi * (1 - pi))
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    weight = np.diag(info).copy()
    weight = weight / weight.sum() if weight.sum() > 0 else np.full(k, 1.0 / k)
    gauge = np.eye(k) - np.outer(np.ones(k), weight)  # rating_i - the weighted mean: a contrast
    theta = gauge @ theta
    cov = gauge @ np.linalg.pinv(info) @ gauge.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    scale = 400 / math.log(10)
    rating = theta * scale
    out = pd.DataFrame(
        {
            "strategy": names,
            "rating": rating,
            "rating_lo": rating - Z95 * se * scale,
            "rating_hi": rating + Z95 * se * scale,
            "hands_won": wins.sum(axis=1),
            "hands_lost": wins.sum(axis=0),
        }
    )
    return out.sort_values("rating", ascending=False, ignore_index=True)
