"""Round-robin ratings on the figure that decides strength (docs/METRICS.md).

- Hand mode: an additive model of points per hand. Each strategy i gets a rating r_i
  (in points per hand) so that r_i − r_j ≈ pph(i vs j), i's points per hand against j;
  the ratings are the least-squares fit over the pairings that were played, with the
  field's mean 0. In a full round-robin this is each strategy's mean points per hand
  against the field (itself counted as 0), so the order follows the pairwise points.
  Its interval propagates each pairing's standard error (over deal pairs with
  duplicate deals), the pairings being independent.
- Games mode: Bradley-Terry on game wins (Elo scale, 400·log10), undecided games left
  out; zero is the field's mean weighted by each rating's precision, so an entrant that
  almost never wins neither moves the others' ratings nor widens their intervals
  (ginsim.analysis.stats.bradley_terry).

Whether two strategies are apart is read from their meeting (ginsim.analysis.pairwise),
not from two rating intervals side by side.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ginsim.analysis.stats import Z95, bradley_terry, figures
from ginsim.runfolder.records import PairingRecord

POINTS_MODEL = "least squares on points per hand (rating_i − rating_j ≈ i's points per hand against j), mean 0"
GAMES_MODEL = "Bradley–Terry on game wins, Elo scale (400·log10), zero the precision-weighted mean"


def ratings(
    sums: dict[tuple[int, int], dict[str, float]], pairings: list[PairingRecord], names: list[str], games: bool
) -> pd.DataFrame:
    """The round-robin's ratings, best first: points in hand mode, game wins in games mode."""
    if games:
        out = bradley_terry(names, pairwise_games(sums, pairings, names))
        return out.rename(columns={"hands_won": "games_won", "hands_lost": "games_lost"})
    edges = []
    for p in pairings:
        s = sums.get((p.index, 0))
        if s is None or s["hands"] <= 0:
            continue
        f = figures(s)
        se = (f["points_per_hand_hi"] - f["points_per_hand"]) / Z95
        edges.append((p.label_a, p.label_b, float(f["points_per_hand"]), float(se), int(s["hands"])))
    return points_ratings(names, edges)


def points_ratings(names: list[str], edges: list[tuple[str, str, float, float, int]]) -> pd.DataFrame:
    """Least-squares ratings from ``(a, b, a's points per hand against b, its SE, hands)``
    per pairing: minimize Σ (r_a − r_b − pph)², with Σ r = 0; the covariance of r is
    M·diag(SE²)·Mᵀ with M the least-squares solution's matrix (a pairing with no SE, one
    deal pair or fewer, contributes none)."""
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    a = np.zeros((len(edges), k))
    y = np.zeros(len(edges))
    var = np.zeros(len(edges))
    played = np.zeros(k)
    for e, (na, nb, pph, se, hands) in enumerate(edges):
        a[e, idx[na]], a[e, idx[nb]] = 1.0, -1.0
        y[e] = pph
        var[e] = se * se if np.isfinite(se) else 0.0
        played[idx[na]] += hands
        played[idx[nb]] += hands
    # the minimum-norm least-squares solution has Σ r = 0 when every strategy met another
    m = np.linalg.pinv(a) if len(edges) else np.zeros((k, 0))
    r = m @ y
    r -= r.mean()
    centre = np.eye(k) - 1.0 / k
    cov = centre @ m @ np.diag(var) @ m.T @ centre.T
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    points_for = np.zeros(k)
    for na, nb, pph, _, hands in edges:
        points_for[idx[na]] += pph * hands
        points_for[idx[nb]] -= pph * hands
    out = pd.DataFrame(
        {
            "strategy": names,
            "rating": r,
            "rating_lo": r - Z95 * se,
            "rating_hi": r + Z95 * se,
            "hands": played.astype(int),
            "points_per_hand": np.divide(points_for, played, out=np.full(k, np.nan), where=played > 0),
        }
    )
    return out.sort_values("rating", ascending=False, ignore_index=True)


def pairwise_games(
    sums: dict[tuple[int, int], dict[str, float]], pairings: list[PairingRecord], names: list[str]
) -> np.ndarray:
    """wins[i, j]: games names[i] won against names[j] (undecided games left out)."""
    idx = {n: i for i, n in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for p in pairings:
        for side in (0, 1):
            s = sums.get((p.index, side))
            if s is None:
                continue
            me, opp = (p.label_a, p.label_b) if side == 0 else (p.label_b, p.label_a)
            wins[idx[me], idx[opp]] += s["games_won"]
    return wins
