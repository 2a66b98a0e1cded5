"""Ratings follow the figure that decides strength: points per hand in hand
mode, game wins in games mode, never bare hand-win counts."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.ratings import points_ratings, ratings
from ginsim.analysis.stats import bradley_terry, chunk_sums
from ginsim.runfolder.records import PairingRecord

NAMES = ["many_small", "few_big", "plain"]
PAIRINGS = [
    PairingRecord(0, "many_small", "few_big", "many_small", "few_big"),
    PairingRecord(1, "many_small", "plain", "many_small", "plain"),
    PairingRecord(2, "few_big", "plain", "few_big", "plain"),
]


def _hand(pairing: int, deal: int, seat_a: int, a_wins: bool, points: int, outcome: str = "knock") -> dict:
    winner = seat_a if a_wins else 1 - seat_a
    return {
        "pairing": pairing,
        "deal": deal,
        "seat_a": seat_a,
        "outcome": outcome,
        "knocker": winner,
        "winner": winner,
        "points": points,
        "knocker_deadwood": 2,
        "turns": 10,
        "game_end": False,
        "game_winner": -1,
        "forfeit_seat": -1,
        "forfeit_reason": "",
    }


def _pairing(pairing: int, deals: int, a_share: float, a_points: int, b_points: int) -> list[dict]:
    """``deals`` duplicate deal pairs; A wins ``a_share`` of the hands for ``a_points``
    each, B the rest for ``b_points`` each."""
    rows = []
    wins_a = round(2 * deals * a_share)
    k = 0
    for d in range(deals):
        for seat_a in (0, 1):
            a_wins = k < wins_a
            rows.append(_hand(pairing, d, seat_a, a_wins, a_points if a_wins else b_points))
            k += 1
    return rows


def _sums(log: pd.DataFrame) -> dict:
    sums, _ = chunk_sums(log)
    return sums


def test_ratings_follow_points_where_hand_wins_disagree() -> None:
    # many_small wins 70% of its hands against few_big, each by a 3-point knock, and loses
    # the other 30% to 40-point gins: more hands, fewer points (3·0.7 − 40·0.3 = −9.9)
    rows = _pairing(0, 100, 0.7, 3, 40)
    rows += _pairing(1, 100, 0.6, 3, 10)  # many_small vs plain: 1.8 − 4.0 = −2.2
    rows += _pairing(2, 100, 0.5, 12, 8)  # few_big vs plain: 6 − 4 = +2
    sums = _sums(pd.DataFrame(rows))
    r = ratings(sums, PAIRINGS, NAMES, games=False).set_index("strategy")
    # hand wins alone would put many_small first
    wins = np.zeros((3, 3))
    for p in PAIRINGS:
        i, j = NAMES.index(p.label_a), NAMES.index(p.label_b)
        wins[i, j] += sums[(p.index, 0)]["wins"]
        wins[j, i] += sums[(p.index, 1)]["wins"]
    assert bradley_terry(NAMES, wins)["strategy"].iloc[0] == "many_small"
    # the points ratings put it last, in the order of the pairwise points
    assert list(r.sort_values("rating", ascending=False).index) == ["few_big", "plain", "many_small"]
    assert r["rating"].sum() == pytest.approx(0.0, abs=1e-9)
    # a full round-robin: rating = mean points per hand against the field (self as 0)
    assert r.loc["many_small", "rating"] == pytest.approx((-9.9 - 2.2) / 3)
    assert r.loc["few_big", "rating"] == pytest.approx((9.9 + 2.0) / 3)
    assert r.loc["few_big", "rating"] - r.loc["many_small", "rating"] == pytest.approx((9.9 + 2.0 + 9.9 + 2.2) / 3)
    assert (r["rating_lo"] < r["rating"]).all() and (r["rating"] < r["rating_hi"]).all()


def test_points_ratings_interval_by_hand() -> None:
    # two strategies, one pairing: r = ±pph/2, SE of each = SE(pph)/2
    r = points_ratings(["a", "b"], [("a", "b", 4.0, 1.0, 100)]).set_index("strategy")
    assert r.loc["a", "rating"] == pytest.approx(2.0) and r.loc["b", "rating"] == pytest.approx(-2.0)
    half = 1.959963984540054 * 0.5
    assert r.loc["a", "rating_hi"] - 2.0 == pytest.approx(half)


def test_games_mode_rates_game_wins() -> None:
    sums = {
        (0, 0): {"games_won": 30.0},
        (0, 1): {"games_won": 70.0},
        (1, 0): {"games_won": 50.0},
        (1, 1): {"games_won": 50.0},
        (2, 0): {"games_won": 80.0},
        (2, 1): {"games_won": 20.0},
    }
    r = ratings(sums, PAIRINGS, NAMES, games=True)
    assert list(r["strategy"]) == ["few_big", "many_small", "plain"]
    assert set(r.columns) >= {"games_won", "games_lost", "rating_lo", "rating_hi"}
    assert r["rating"].min() < 0 < r["rating"].max()  # zero: the precision-weighted mean (test_stats)
