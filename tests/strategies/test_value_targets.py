"""``value_targets.py``: what a card value may be fitted on besides a hand's points. The chance
to win a game from each score agrees with a slow value iteration that plays hands with no
points as hands, and a hand's equity target is the table's difference, scaled to the points'
spread; the TD(lambda) targets agree with a slow hand-by-hand recursion; ``card_value.py fit
--target equity|td`` fits on them and refuses a bad setting in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from support.training import fresh_network, training_module

from ginsim.engine.rules import preset_rules


def _slow_table(points: list[int], target: int) -> np.ndarray:
    """Value iteration over every score, each hand drawn from ``points`` as it is (a hand
    with no points is played and changes nothing), until nothing moves."""
    e = np.full((target, target), 0.5)

    def at(a: int, b: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return float(e[a, b])

    for _ in range(10_000):
        new = np.array(
            [
                [np.mean([at(a + max(x, 0), b + max(-x, 0)) for x in points]) for b in range(target)]
                for a in range(target)
            ]
        )
        if np.max(np.abs(new - e)) < 1e-12:
            break
        e = new
    return e


def _samples(points: list[float], scores: list[tuple[int, int]], target: int) -> tuple[np.ndarray, np.ndarray]:
    nums = np.zeros((len(points), 36), dtype=np.float32)
    nums[:, 4] = [a / target for a, _ in scores]
    nums[:, 5] = [b / target for _, b in scores]
    return nums, np.array(points, dtype=np.float32)


def test_the_table_is_the_chance_to_reach_the_target_first() -> None:
    eq = training_module("value_targets")
    hands = [3, 3, 5, -2, -4, 0, 0, 7, -1]
    e = eq.table(np.array(hands, dtype=float), 12)
    assert e.shape == (12, 12)
    assert np.allclose(e, _slow_table(hands, 12), atol=1e-9)
    assert e[0, 0] > 0.5  # these hands favour the seat
    assert np.all(np.diff(e, axis=0) >= -1e-12) and np.all(np.diff(e, axis=1) <= 1e-12)  # more points help


def test_with_even_hands_each_side_wins_as_the_other_loses() -> None:
    eq = training_module("value_targets")
    e = eq.table(np.array([4, -4, 10, -10, 25, -25], dtype=float), 30)
    assert np.allclose(e + e.T, 1.0) and e[0, 0] == pytest.approx(0.5)


def test_a_hands_target_is_its_change_of_the_chance_scaled_to_the_points_spread() -> None:
    eq = training_module("value_targets")
    rules = preset_rules("default")
    target = rules.target_score
    points = [10.0, 10.0, -20.0, 0.0, 30.0, 5.0]
    scores = [(0, 0), (0, 0), (50, 90), (40, 40), (80, 10), (10, 80)]
    nums, pts = _samples(points, scores, target)
    hands = eq.hand_points(nums, pts)
    assert list(hands) == [10.0, -20.0, 0.0, 30.0, 5.0]  # the two samples of one hand count once
    e = eq.table(hands, target)
    raw = eq.equity(nums, pts, rules, scale=1.0)
    assert raw[0] == pytest.approx(e[10, 0] - e[0, 0], abs=1e-6)
    assert raw[2] == pytest.approx(0.0 - e[50, 90], abs=1e-6)  # the opponent reached 100: lost
    assert raw[3] == 0.0  # no points, no change
    assert raw[4] == pytest.approx(1.0 - e[80, 10], abs=1e-6)  # the seat reached 100: won
    scaled = eq.equity(nums, pts, rules)
    assert float(scaled.std()) == pytest.approx(float(pts.std()), rel=1e-4)
    assert np.allclose(scaled / scaled[0], raw / raw[0], atol=1e-5)


def test_fit_target_equity_fits_the_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv = training_module("card_value")
    run = cv.collect(2, 7, 0.2, opponents=("simple",))
    samples = tmp_path / "s.npz"
    np.savez(samples, masks=run["masks"], nums=run["nums"], points=run["points"])
    out = tmp_path / "v.npz"
    argv = ["fit", "--samples", str(samples), "--hidden", "8", "--epochs", "1", "--seed", "3", "--batch", "16"]
    assert cv.main([*argv, "--target", "equity", "--out", str(out)]) == 0
    with np.load(out) as d:
        assert json.loads(str(d["meta"]))["target"] == "equity"
    capsys.readouterr()
    assert cv.main([*argv, "--target", "equity", "--preset", "nope", "--out", str(tmp_path / "w.npz")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown preset" in err
    assert not (tmp_path / "w.npz").exists()


def _slow_td(values: list[float], hands: list[list[int]], points: list[float], lam: float) -> list[float]:
    out = [0.0] * len(values)
    for members in hands:
        g = points[members[-1]]
        out[members[-1]] = g
        for i in reversed(members[:-1]):
            g = (1.0 - lam) * values[i + 1] + lam * g
            out[i] = g
    return out


def test_td_targets_follow_each_hand_back_from_its_points() -> None:
    vt = training_module("value_targets")
    rand = np.random.default_rng(5)
    points, scores, hands = [], [], []
    for h in range(40):  # hands of 1 to 6 discards, each its own points, scores and deal
        k = int(rand.integers(1, 7))
        hands.append(list(range(len(points), len(points) + k)))
        points += [float(h % 7 - 3 or 1) * (h + 1)] * k
        scores += [(h, 2 * h % 100)] * k
    nums, pts = _samples(points, scores, 100)
    nums[:, 6] = [float(i % 2) for i, m in enumerate(hands) for _ in m]
    values = rand.standard_normal(len(pts)).astype(np.float32) * 10
    assert len(vt.hand_points(nums, pts)) == len(hands)
    for lam in (0.0, 0.3, 1.0):
        got = vt.bootstrapped(values, nums, pts, lam)
        assert np.allclose(got, _slow_td(list(values), hands, points, lam), atol=1e-4)
    assert np.array_equal(vt.bootstrapped(values, nums, pts, 1.0), pts)
    with pytest.raises(ValueError, match="lam"):
        vt.bootstrapped(values, nums, pts, 1.5)


def test_fit_target_td_bootstraps_from_a_network(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv = training_module("card_value")
    run = cv.collect(1, 9, 0.2, opponents=("simple",))
    samples = tmp_path / "s.npz"
    np.savez(samples, masks=run["masks"], nums=run["nums"], points=run["points"])
    boot = fresh_network(tmp_path / "b.npz")
    argv = ["fit", "--samples", str(samples), "--hidden", "8", "--epochs", "1", "--seed", "3", "--batch", "16"]
    out = tmp_path / "v.npz"
    assert cv.main([*argv, "--target", "td", "--bootstrap", str(boot), "--lam", "0.5", "--out", str(out)]) == 0
    with np.load(out) as d:
        made = json.loads(str(d["meta"]))
    assert made["target"] == "td" and made["lam"] == 0.5
    capsys.readouterr()
    for extra, said in (
        (["--target", "td"], "--bootstrap"),
        (["--bootstrap", str(boot)], "--bootstrap"),
        (["--target", "td", "--bootstrap", str(boot), "--lam", "2"], "--lam"),
        (["--target", "td", "--bootstrap", str(samples)], "value network"),
    ):
        assert cv.main([*argv, *extra, "--out", str(tmp_path / "w.npz")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert not (tmp_path / "w.npz").exists()
