"""``ginsim run FILE --seed --rules`` overrides, summary.json, and thinking time per decision."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

import ginsim
from ginsim.runfolder.records import read_manifest
from ginsim.strategy import Strategy

TOML = 'kind = "match"\na = "simple"\nb = "random"\nhands = 20\nseed = 3\nout = "{out}"\n'


def test_run_overrides_seed_and_rules_into_folders_of_their_own(run_cli, tmp_path: Path) -> None:
    exp = tmp_path / "e.toml"
    exp.write_text(TOML.format(out=tmp_path / "base"), encoding="utf-8")
    r = run_cli("run", str(exp), "--seed", "7", "--rules", "eaai", "--jobs", "1", "-q", "--no-plots")
    assert r.code == 0, r.err
    folder = tmp_path / "base-seed7-rules-eaai"
    m = read_manifest(folder)
    assert (m.seed, m.preset) == (7, "eaai")
    assert m.command.endswith("--seed 7 --rules eaai")
    r = run_cli("run", str(exp), "--rule", "gin_bonus=30", "--jobs", "1", "-q", "--no-plots")
    assert r.code == 0, r.err
    assert read_manifest(tmp_path / "base-rules-custom").rules["gin_bonus"] == 30
    assert not (tmp_path / "base").exists()  # the file's own run is untouched


def test_a_bad_override_is_one_line(run_cli, tmp_path: Path) -> None:
    exp = tmp_path / "e.toml"
    exp.write_text(TOML.format(out=tmp_path / "base"), encoding="utf-8")
    r = run_cli("run", str(exp), "--rules", "nope", "--jobs", "1")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "nope" in r.err


def test_summary_json_holds_the_summary_and_what_was_played(tmp_path: Path) -> None:
    run = ginsim.roundrobin(["simple", "random", "threshold"], hands=20, jobs=1, out=tmp_path / "rr")
    data = json.loads((tmp_path / "rr" / "summary.json").read_text(encoding="utf-8"))
    assert data["run"]["kind"] == "roundrobin" and data["run"]["hands"] == 20 and data["run"]["complete"]
    frame = pd.DataFrame(data["summary"])
    csv = pd.read_csv(tmp_path / "rr" / "summary.csv")
    assert list(frame.columns) == list(csv.columns)
    pd.testing.assert_series_equal(frame["points_per_hand"], csv["points_per_hand"], check_exact=False)
    assert [r["strategy"] for r in data["ratings"]] == list(run.ratings["strategy"])
    assert data["thinking"] is None  # the fast path plays every pairing: nothing timed


class Counting(Strategy):
    """``simple``-like, counting its own decisions in the hands whose decisions are timed
    (its class is then ginsim's timing subclass), one byte each in the file ``tally``
    (the chunk is played in a child process: a count kept in memory would stay there)."""

    tally: Path | None = None

    def count(self) -> None:
        if type(self).__module__ == "ginsim.runfolder.timing" and Counting.tally is not None:
            with Counting.tally.open("a") as f:
                f.write("x")

    def take_upcard(self, view):  # type: ignore[no-untyped-def]
        self.count()
        return False

    def discard(self, view):  # type: ignore[no-untyped-def]
        self.count()
        mask = view.best_discards()[1]  # the discards leaving the least deadwood
        return (mask & -mask).bit_length() - 1

    def knock(self, view):  # type: ignore[no-untyped-def]
        self.count()
        return True


def test_thinking_time_counts_every_decision_and_is_marked_machine_dependent(tmp_path: Path) -> None:
    Counting.tally = tmp_path / "tally"
    Counting.tally.write_text("")
    run = ginsim.match(Counting, "simple", hands=80, jobs=1, out=tmp_path / "m")  # deals 0, 16 and 32 timed
    row = run.summary[run.summary["opponent"] == "simple"].iloc[0]
    assert row["forfeits"] == 0
    assert row["think_decisions"] == len(Counting.tally.read_text()) > 0
    assert row["think_mean_us"] > 0 and row["think_p99_us"] > 0
    data = json.loads((tmp_path / "m" / "summary.json").read_text(encoding="utf-8"))
    assert "machine-dependent" in data["thinking"]["note"]
    assert "## Thinking time" in run.report() and "**Machine-dependent**" in run.report()
    fast = ginsim.match("simple", "random", hands=20, jobs=1)
    assert math.isnan(fast.summary.get("think_mean_us", pd.Series([math.nan]))[0])
