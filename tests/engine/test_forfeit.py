"""A forfeit never pays: a forfeited hand scores for the opponent at least as
much as any legal end of the hand, and runs name the forfeiter loudly."""

from __future__ import annotations

import textwrap

import pandas as pd
import pytest

from ginsim.analysis.tables import analyze
from ginsim.engine.result import FORFEIT_DEADWOOD, forfeit_points
from ginsim.engine.rules import Rules

BOT = textwrap.dedent(
    '''
    from ginsim.strategies.simple import Simple


    class ForfeitWhenLosing(Simple):
        """simple, but it raises when the opponent knocks: it forfeits the hands it is
        about to lose instead of conceding their points."""

        def choose_layoffs(self, view):
            raise RuntimeError("not paying this one")
    '''
)


def test_forfeit_scores_more_than_any_legal_hand() -> None:
    rules = Rules()
    # the most a legal hand can score: big gin or gin bonus plus ten cards' deadwood (< 100)
    assert forfeit_points(rules) == rules.gin_bonus + FORFEIT_DEADWOOD
    big = Rules(big_gin_bonus=31, undercut_bonus=25)
    assert forfeit_points(big) == 31 + FORFEIT_DEADWOOD
    assert forfeit_points(big, multiplier=2) == 2 * (31 + FORFEIT_DEADWOOD)


@pytest.fixture
def forfeit_run(tmp_path, run_cli):
    bot = tmp_path / "forfeiter.py"
    bot.write_text(BOT, encoding="utf-8")
    out = tmp_path / "run"
    r = run_cli(
        "match", f"{bot}:ForfeitWhenLosing", "simple", "--hands", "120", "--seed", "5", "--no-plots", "--out", str(out)
    )
    assert r.code == 0, r.err
    return out, r.out


def test_forfeit_when_losing_bot_loses_points(forfeit_run) -> None:
    out, _ = forfeit_run
    summary = pd.read_csv(out / "summary.csv")
    bot = summary[summary["strategy"] == "ForfeitWhenLosing"].iloc[0]
    assert bot["forfeits"] > 0
    assert bot["points_per_hand_hi"] < 0  # clearly losing, not +6.67 as when a forfeit scored 0
    assert bot["hands"] == 120  # forfeited hands stay in N
    log = pd.concat(pd.read_parquet(f) for f in sorted((out / "hands").glob("*.parquet")))
    forfeited = log[log["outcome"].astype(str) == "forfeit"]
    assert (forfeited["points"] == forfeit_points(Rules())).all()
    assert (forfeited["winner"] != forfeited["forfeit_seat"]).all()


def test_forfeits_are_named_in_terminal_and_report(forfeit_run) -> None:
    out, text = forfeit_run
    a = analyze(out)
    [rec] = a.forfeits
    assert rec.strategy == "ForfeitWhenLosing" and rec.count == int(
        a.summary.loc[a.summary["strategy"] == "ForfeitWhenLosing", "forfeits"].iloc[0]
    )
    assert "not paying this one" in rec.first_reason
    assert f"FORFEITS: ForfeitWhenLosing forfeited {rec.count:,} hands" in text
    assert f"--hand {rec.hands[0]}" in text
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Forfeits" in report and "`ForfeitWhenLosing`" in report
    # the hand numbers are the replay's row numbers: each is a forfeit of that strategy
    log = pd.concat([pd.read_parquet(f) for f in sorted((out / "hands").glob("*.parquet"))], ignore_index=True)
    for n in rec.hands:
        assert str(log.loc[n, "outcome"]) == "forfeit"
