"""The clock of RULES.md (R25) in real runs: a slow plugin strategy forfeits
on the clock, the run says it used one; without a clock nothing is timed and runs repeat."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from support.runs import hand_log

import ginsim.engine.playhand as engine_module

SLOW = '''
import time

from ginsim.strategies.simple import Simple


class Slow(Simple):
    """simple, thinking 0.02 s over every draw and every discard."""

    name = "slow"

    def take_upcard(self, view):
        time.sleep(0.02)
        return super().take_upcard(view)

    def discard(self, view):
        time.sleep(0.02)
        return super().discard(view)
'''


@pytest.fixture
def slow_plugin(tmp_path: Path) -> str:
    path = tmp_path / "slow_bot.py"
    path.write_text(SLOW)
    return f"{path}:Slow"


@pytest.mark.parametrize("how", ["--rule", "--rules"])
def test_a_slow_plugin_forfeits_on_the_clock(how: str, slow_plugin: str, run_cli, tmp_path: Path) -> None:
    # 0.02 s per decision: no single decision passes 0.05 s, its second turn does
    out = tmp_path / "run"
    if how == "--rule":
        clock = ["--rule", "time_per_hand=0.05"]
    else:
        (tmp_path / "rules.toml").write_text("[rules]\ntime_per_hand = 0.05\n")
        clock = ["--rules", str(tmp_path / "rules.toml")]
    r = run_cli("match", slow_plugin, "simple", "--hands", "6", "--jobs", "1", "--no-plots", *clock, "--out", str(out))
    assert r.code == 0, r.err
    log = hand_log(out)
    forfeits = log[log["outcome"] == "forfeit"]
    assert len(forfeits) >= 4  # the opponent may end a hand before the clock runs out
    slow_seat = forfeits["seat_a"]  # the plugin is the pairing's first strategy
    assert (forfeits["forfeit_seat"] == slow_seat).all() and (forfeits["winner"] == 1 - slow_seat).all()
    assert forfeits["forfeit_reason"].str.match(r"clock: used 0\.\d+s of 0\.05s for the hand").all()
    m = json.loads((out / "manifest.json").read_text())
    assert m["clock"] is True and m["rules"]["time_per_hand"] == 0.05
    summary = pd.read_csv(out / "summary.csv")
    slow_row, other = summary.iloc[0], summary.iloc[1]
    assert (slow_row["strategy"], other["strategy"]) == ("slow", "simple")  # labelled by its own name
    assert slow_row["forfeits"] == len(forfeits) and "clock" in slow_row["forfeit_reasons"]
    assert other["forfeits"] == 0
    assert "played with a clock" in (out / "report.md").read_text()
    assert "played with a clock" in r.out


def test_without_a_clock_nothing_is_timed_and_runs_repeat(
    monkeypatch: pytest.MonkeyPatch, run_cli, tmp_path: Path
) -> None:
    class CountingTime:
        calls = 0

        def perf_counter(self) -> float:
            CountingTime.calls += 1
            return 0.0

    monkeypatch.setattr(engine_module, "clock_time", CountingTime().perf_counter)
    # no decision limit: the chunks play in this very process, whose clock the test counts
    base = ["match", "simple", "random", "--hands", "40", "--seed", "4", "--jobs", "1", "-q", "--no-plots"]
    base += ["--decision-limit", "0"]
    for name in ("a", "b"):
        assert run_cli(*base, "--out", str(tmp_path / name)).code == 0
    assert CountingTime.calls == 0  # the engine never looked at the time
    pd.testing.assert_frame_equal(hand_log(tmp_path / "a"), hand_log(tmp_path / "b"))
    m = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert m["clock"] is False
    assert "played with a clock" not in (tmp_path / "a" / "report.md").read_text()
    # a clock nobody runs out of is measured but changes no move
    assert run_cli(*base, "--rule", "time_per_hand=3600", "--out", str(tmp_path / "c")).code == 0
    assert CountingTime.calls > 0
    pd.testing.assert_frame_equal(hand_log(tmp_path / "c"), hand_log(tmp_path / "a"))
