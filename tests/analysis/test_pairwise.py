"""The head-to-head table (ginsim.analysis.pairwise, docs/METRICS.md): each meeting with
its intervals and the likelihood of superiority, which says who is apart where two
rating intervals side by side do not."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest

from ginsim.analysis.pairwise import los_games, los_points, pairwise, verdict
from ginsim.analysis.stats import CLUSTER_FIELDS, SUM_FIELDS
from ginsim.runfolder.records import PairingRecord


def _sums(hands: int, games: int, won: int, points: float) -> dict[str, float]:
    s = dict.fromkeys(SUM_FIELDS + CLUSTER_FIELDS, 0.0)
    s.update(hands=hands, games=games, games_won=won, wins=hands / 2, points_for=max(points, 0) * hands)
    s.update(points_against=max(-points, 0) * hands)
    return s


def test_los_formulas():
    assert los_games(50, 50) == 0.5 and los_games(0, 0) == 0.5
    # 58.6% of 2,000 decided games: z = (1172 - 828) / sqrt(2000)
    assert los_games(1172, 828) == pytest.approx(0.5 * (1 + math.erf(344 / math.sqrt(2000) / math.sqrt(2))))
    assert los_games(1172, 828) > 0.9999 and verdict(los_games(1172, 828)) == "ahead"
    assert verdict(los_games(536, 464)) == "ahead"  # 53.6% of 1,000: z = 2.28
    assert verdict(los_games(515, 485)) == "not apart"
    assert verdict(los_games(464, 536)) == "behind"
    assert los_points(1.0, 0.5) == pytest.approx(0.97725, abs=1e-5)
    assert los_points(0.0, 0.0) == 0.5 and los_points(2.0, 0.0) == 1.0 and math.isnan(los_points(math.nan, 1))


def test_rows_put_the_higher_rated_first_and_keep_the_meeting_in_its_own_terms():
    pairings = [PairingRecord(0, "a", "b", "a", "b"), PairingRecord(1, "b", "c", "b", "c")]
    sums = {
        (0, 0): _sums(400, 100, 30, -1.0),
        (0, 1): _sums(400, 100, 70, 1.0),
        (1, 0): _sums(400, 100, 60, 0.5),
        (1, 1): _sums(400, 100, 40, -0.5),
    }
    t = pairwise(sums, pairings, order=["b", "c", "a"], games=True)
    assert list(zip(t["strategy"], t["opponent"], strict=True)) == [("b", "c"), ("b", "a")]
    row = t.set_index("opponent").loc["a"]
    assert row["game_win_rate"] == pytest.approx(0.70) and row["games"] == 100
    assert row["los"] == pytest.approx(los_games(70, 30)) and row["verdict"] == verdict(row["los"])
    assert {"game_win_rate_lo", "game_win_rate_hi", "points_per_hand", "los"} <= set(t.columns)
    hands = pairwise(sums, pairings, order=["b", "c", "a"], games=False)
    assert "win_rate" in hands and "game_win_rate" not in hands


def test_a_round_robin_shows_the_table_in_terminal_report_csv_and_python(tmp_path, run_cli):
    import ginsim

    out = tmp_path / "rr"
    r = run_cli(
        "roundrobin",
        "random",
        "simple",
        "threshold:knock_at=7",
        "--games",
        "6",
        "-j",
        "1",
        "--no-plots",
        "--out",
        str(out),
    )
    assert r.code == 0
    assert "head to head" in r.out and "verdict" in r.out
    report = (out / "report.md").read_text()
    assert "## Head to head" in report and "| strategy | opponent | games | game_win_rate |" in report
    table = pd.read_csv(out / "pairwise.csv")
    assert len(table) == 3 and set(table["verdict"]) <= {"ahead", "behind", "not apart"}
    run = ginsim.open_run(out)
    assert run.pairwise is not None and list(run.pairwise["strategy"]) == list(table["strategy"])
    m = json.loads((out / "manifest.json").read_text())
    assert m["kind"] == "roundrobin"
    assert ginsim.open_run(out).pairwise["los"].between(0, 1).all()
