"""METRICS.md figures computed on a small hand log worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ginsim.analysis.stats import bradley_terry, chunk_sums, figures, wilson

OUTCOME = {"knock", "undercut", "gin", "big_gin", "draw", "forfeit"}


def log(rows: list[dict]) -> pd.DataFrame:
    base = {
        "pairing": 0,
        "game_end": False,
        "game_winner": -1,
        "forfeit_seat": -1,
        "forfeit_reason": "",
        "knocker_deadwood": 0,
        "turns": 10,
    }
    df = pd.DataFrame([{**base, **r} for r in rows])
    assert set(df["outcome"]) <= OUTCOME
    return df


# Strategy A against B, duplicate deals: deal 0 and deal 1, each played in both seatings.
HANDS = log(
    [
        # deal 0, A in seat 0: A knocks with 3 and wins 12
        {
            "deal": 0,
            "seat_a": 0,
            "outcome": "knock",
            "knocker": 0,
            "winner": 0,
            "points": 12,
            "knocker_deadwood": 3,
            "turns": 10,
        },
        # deal 0, A in seat 1: B (seat 0) knocks with 6, A undercuts for 15
        {
            "deal": 0,
            "seat_a": 1,
            "outcome": "undercut",
            "knocker": 0,
            "winner": 1,
            "points": 15,
            "knocker_deadwood": 6,
            "turns": 8,
        },
        # deal 1, A in seat 0: B (seat 1) goes gin for 30
        {"deal": 1, "seat_a": 0, "outcome": "gin", "knocker": 1, "winner": 1, "points": 30, "turns": 14},
        # deal 1, A in seat 1: the stock runs out
        {"deal": 1, "seat_a": 1, "outcome": "draw", "knocker": -1, "winner": -1, "points": 0, "turns": 30},
    ]
)


def sides() -> tuple[dict, dict]:
    sums, _ = chunk_sums(HANDS)
    return figures(sums[(0, 0)]), figures(sums[(0, 1)])


def test_win_rate_and_points_per_hand():
    a, b = sides()
    assert a["hands"] == b["hands"] == 4
    assert a["win_rate"] == 0.5  # the knock and the undercut
    assert b["win_rate"] == 0.25  # the gin
    assert a["points_per_hand"] == pytest.approx((12 + 15 - 30) / 4)
    assert b["points_per_hand"] == pytest.approx(-a["points_per_hand"])


def test_knock_gin_undercut_draw_rates():
    a, b = sides()
    assert a["knock_rate"] == 0.25 and b["knock_rate"] == 0.25  # non-gin knocks only
    assert a["gin_rate"] == 0 and b["gin_rate"] == 0.25
    assert a["undercut_rate"] == 0.0  # its one knock was not undercut
    assert b["undercut_rate"] == 1.0  # its one knock was
    assert a["undercuts_made_rate"] == 0.25 and b["undercuts_made_rate"] == 0
    assert a["draw_rate"] == b["draw_rate"] == 0.25
    assert a["mean_knock_deadwood"] == 3 and b["mean_knock_deadwood"] == 6
    assert a["mean_turns"] == b["mean_turns"] == (10 + 8 + 14 + 30) / 4


def test_points_interval_is_over_deal_pairs():
    a, _ = sides()
    # deal-pair means of A's points: (12 + 15) / 2 = 13.5 and (-30 + 0) / 2 = -15
    pair_means = np.array([13.5, -15.0])
    se = pair_means.std(ddof=1) / math.sqrt(2)
    assert a["points_per_hand_hi"] - a["points_per_hand"] == pytest.approx(1.959963984540054 * se)
    assert a["points_per_hand"] - a["points_per_hand_lo"] == pytest.approx(1.959963984540054 * se)


def test_wilson_interval_known_values():
    lo, hi = wilson(2, 4)
    assert lo == pytest.approx(0.15004, abs=1e-4) and hi == pytest.approx(0.84996, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert math.isnan(wilson(0, 0)[0])
    a, _ = sides()
    assert (a["win_rate_lo"], a["win_rate_hi"]) == wilson(2, 4)


def test_undercut_rate_without_knocks_is_undefined():
    df = log([{"deal": 0, "seat_a": 0, "outcome": "draw", "knocker": -1, "winner": -1, "points": 0}])
    sums, _ = chunk_sums(df)
    assert math.isnan(figures(sums[(0, 0)])["undercut_rate"])
    assert math.isnan(figures(sums[(0, 0)])["mean_knock_deadwood"])


def test_forfeits_and_game_wins():
    df = log(
        [
            {"deal": 0, "seat_a": 0, "outcome": "knock", "knocker": 0, "winner": 0, "points": 60},
            {
                "deal": 0,
                "seat_a": 0,
                "outcome": "knock",
                "knocker": 0,
                "winner": 0,
                "points": 50,
                "game_end": True,
                "game_winner": 0,
            },
            {
                "deal": 1,
                "seat_a": 0,
                "outcome": "forfeit",
                "knocker": -1,
                "winner": 0,
                "points": 0,
                "forfeit_seat": 1,
                "forfeit_reason": "discard raised RuntimeError: boom",
                "game_end": True,
                "game_winner": 0,
            },
        ]
    )
    sums, reasons = chunk_sums(df)
    a, b = figures(sums[(0, 0)]), figures(sums[(0, 1)])
    assert a["games"] == 2 and a["game_win_rate"] == 1.0 and b["game_win_rate"] == 0.0
    assert b["forfeits"] == 1 and a["forfeits"] == 0
    assert reasons[(0, 1)] == ["discard raised RuntimeError: boom"]
    assert a["win_rate"] == 1.0  # a forfeited hand is won by the opponent


def test_bradley_terry_two_players():
    wins = np.array([[0, 30], [10, 0]])
    r = bradley_terry(["a", "b"], wins).set_index("strategy")
    diff = 400 * math.log10(30.5 / 10.5)  # the half-win prior each way
    assert r.loc["a", "rating"] == pytest.approx(diff / 2, abs=1e-6)
    assert r.loc["b", "rating"] == pytest.approx(-diff / 2, abs=1e-6)
    n, p = 41.0, 30.5 / 41
    se = 0.5 / math.sqrt(n * p * (1 - p)) * 400 / math.log(10)
    assert r.loc["a", "rating_hi"] - r.loc["a", "rating"] == pytest.approx(1.959963984540054 * se, rel=1e-6)


def test_bradley_terry_zero_is_the_precision_weighted_mean_and_order():
    wins = np.array([[0, 60, 90], [40, 0, 70], [10, 30, 0]])
    r = bradley_terry(["x", "y", "z"], wins).set_index("strategy").loc[["x", "y", "z"]]
    assert list(r.index) == ["x", "y", "z"]
    theta = r["rating"].to_numpy() * math.log(10) / 400
    n = (wins + wins.T) + 1.0  # games between each pair, with the half-win prior each way
    np.fill_diagonal(n, 0)
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    info = (n * p * (1 - p)).sum(axis=1)  # each rating's Fisher information: its weight
    assert float(info @ theta) == pytest.approx(0, abs=1e-6)
    assert (r["rating_lo"] < r["rating"]).all() and (r["rating"] < r["rating_hi"]).all()


def _field(elo: list[float], games: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    k = len(elo)
    wins = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            p = 1 / (1 + 10 ** (-(elo[i] - elo[j]) / 400))
            wins[i, j] = rng.binomial(games, p)
            wins[j, i] = games - wins[i, j]
    return wins


def test_a_hopeless_entrant_neither_moves_nor_widens_the_others_ratings():
    """With the plain mean as zero, one entrant that never wins (random) widened every
    other interval about fourfold; with the precision-weighted zero they stay put."""
    names = ["random", "simple", "thr7", "aware", "sampler", "patient"]
    wins = _field([-1500, 0, 60, 200, 280, 300], 2000, 1)
    full = bradley_terry(names, wins).set_index("strategy")
    without = bradley_terry(names[1:], wins[1:, 1:]).set_index("strategy")
    for name in names[1:]:
        width = full.loc[name, "rating_hi"] - full.loc[name, "rating_lo"]
        alone = without.loc[name, "rating_hi"] - without.loc[name, "rating_lo"]
        assert width == pytest.approx(alone, rel=0.1)
        assert full.loc[name, "rating"] == pytest.approx(without.loc[name, "rating"], abs=5)
    assert full.loc["random", "rating_hi"] < full.loc["simple", "rating_lo"]


def test_bradley_terry_even_field_is_flat():
    wins = np.array([[0, 50, 50], [50, 0, 50], [50, 50, 0]])
    r = bradley_terry(["x", "y", "z"], wins)
    assert np.allclose(r["rating"], 0, atol=1e-9)
