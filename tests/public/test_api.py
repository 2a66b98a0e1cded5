"""The run API: ginsim.match/roundrobin/sweep/open_run and the Run they give."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest
from ginsim.strategies.threshold import Threshold

import ginsim
import ginsim.api  # the module itself (ginsim loads it lazily, on first use of ginsim.match ...)
from ginsim.errors import RulesError, RunError, StrategySpecError
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import read_chunk

matplotlib.use("Agg")


def _log(folder: Path) -> pd.DataFrame:
    return pd.concat([read_chunk(f) for f in chunk_files(folder)], ignore_index=True)


def test_match_equals_the_command(run_cli, tmp_path):
    args = ["--hands", "40", "--seed", "3", "-j", "1", "--out", str(tmp_path / "c")]
    r = run_cli("match", "threshold:knock_at=4", "random", *args)
    assert r.code == 0, r.err
    run = ginsim.match(Threshold(knock_at=4), "random", hands=40, seed=3, jobs=1, out=tmp_path / "p")
    pd.testing.assert_frame_equal(_log(tmp_path / "c"), _log(run.folder))
    cli_summary = pd.read_csv(tmp_path / "c" / "summary.csv")
    assert cli_summary.equals(pd.read_csv(run.folder / "summary.csv"))
    assert run.manifest.identity == ginsim.open_run(tmp_path / "c").manifest.identity


@pytest.mark.parametrize("rules", ["eaai", {"knock_limit": 8}, {"preset": "modern", "gin_bonus": 30}])
def test_the_command_a_python_run_records_replays_it(run_cli, tmp_path, rules):
    run = ginsim.match("aware", "simple", hands=30, seed=4, rules=rules, jobs=1, out=tmp_path / "p")
    command = run.manifest.command
    assert command.startswith("ginsim match ") and command.endswith("# from Python (ginsim.api)")
    words = shlex.split(command, comments=True)[1:]
    r = run_cli(*words, "-j", "1", "--out", str(tmp_path / "c"))
    assert r.code == 0, r.err
    replayed = ginsim.open_run(tmp_path / "c").manifest
    assert replayed.rules == run.manifest.rules and replayed.identity == run.manifest.identity
    pd.testing.assert_frame_equal(_log(tmp_path / "c"), _log(run.folder))


def test_roundrobin_and_sweep_equal_the_commands(run_cli, tmp_path):
    args = ["--hands", "20", "--seed", "5", "-j", "1", "--no-plots"]
    assert run_cli("roundrobin", "random", "simple", "threshold", *args, "--out", str(tmp_path / "rr")).code == 0
    rr = ginsim.roundrobin(["random", "simple", Threshold], hands=20, seed=5, jobs=1)
    pd.testing.assert_frame_equal(_log(tmp_path / "rr"), _log(rr.folder))
    assert rr.ratings is not None and list(rr.ratings["strategy"].sort_values()) == ["random", "simple", "threshold"]
    sweep = ["sweep", "threshold", "--param", "knock_at=2:6:2", "--vs", "simple"]
    assert run_cli(*sweep, *args, "--out", str(tmp_path / "sw")).code == 0
    for values in (range(2, 7, 2), "2:6:2", [2, 4, 6]):
        sw = ginsim.sweep("threshold", "knock_at", values, vs=["simple"], hands=20, seed=5, jobs=1)
        pd.testing.assert_frame_equal(_log(tmp_path / "sw"), _log(sw.folder))
    assert sorted(sw.hands["value"].unique()) == [2, 4, 6]
    assert set(sw.charts) >= {"sweep_points_per_hand", "outcomes"}
    sw.close()


def test_hand_log_has_names_and_points():
    with ginsim.match("simple", "random", hands=30, seed=1, jobs=1) as run:
        h = run.hands
        assert (h["strategy_a"] == "simple").all() and (h["strategy_b"] == "random").all()
        assert isinstance(h["outcome"].dtype, pd.CategoricalDtype)
        assert set(h["outcome"].cat.categories) >= {"knock", "gin", "undercut", "draw", "forfeit"}
        won_a = h["winner"] == h["seat_a"]
        assert (h.loc[won_a, "winner_name"] == "simple").all()
        assert (h["points_a"] == -h["points_b"]).all()
        assert (h.loc[won_a, "points_a"] == h.loc[won_a, "points"]).all()
        assert ((h["seat0"] == "simple") == (h["seat_a"] == 0)).all()
        # the per-strategy points agree with the summary
        pph = run.summary.set_index("strategy").loc["simple", "points_per_hand"]
        assert h["points_a"].mean() == pytest.approx(pph)
        assert "simple" in run.report()
        folder = run.folder
        assert folder.is_dir() and run.temporary
    assert not folder.exists()


def test_plot_on_own_axes_and_save(tmp_path):
    import matplotlib.pyplot as plt

    run = ginsim.match("simple", "random", hands=20, jobs=1)
    fig, (a1, a2) = plt.subplots(1, 2)
    assert run.plot("outcomes", ax=a1) is fig
    run.plot("turns", ax=a2)
    plt.close(fig)
    with pytest.raises(RunError, match="did you mean 'turns'"):
        run.plot("turn")
    kept = run.save(tmp_path / "kept")
    run.close()
    assert not run.folder.exists()
    again = ginsim.open_run(kept.folder)
    assert len(again.hands) == 20 and not again.temporary


def test_rules_forms(tmp_path):
    toml = tmp_path / "r.toml"
    toml.write_text("[rules]\nknock_limit = 5\n")
    for rules in (ginsim.Rules(knock_limit=5), {"knock_limit": 5}, toml, str(toml)):
        with ginsim.match("simple", "random", hands=2, jobs=1, rules=rules) as run:
            assert run.manifest.rules["knock_limit"] == 5
    with ginsim.match("simple", "random", hands=2, jobs=1, rules="eaai") as run:
        assert run.manifest.preset == "eaai"
    with pytest.raises(RulesError):
        ginsim.match("simple", "random", hands=2, rules={"knock_limt": 5})


class Patient(ginsim.Strategy):
    """Takes the upcard only when it melds; knocks only with gin."""

    name = "patient"

    def __init__(self, margin: int = 0) -> None:
        self.margin = margin

    def take_upcard(self, view: ginsim.PlayerView) -> bool:
        return view.upcard is not None and view.would_meld(view.upcard)

    def discard(self, view: ginsim.PlayerView) -> int:
        _, cards = view.best_discards()
        return (cards & -cards).bit_length() - 1

    def knock(self, view: ginsim.PlayerView) -> bool:
        return view.discard_deadwood <= self.margin


def test_classes_instances_and_names():
    assert ginsim.api.spec_text(Patient) == f"{__name__}:Patient"
    assert ginsim.api.spec_text(Patient(margin=3)) == f"{__name__}:Patient:margin=3"
    assert ginsim.api.spec_text(Threshold(knock_at=4)) == "threshold:knock_at=4"
    with ginsim.match(Patient(margin=2), "patient", hands=4, jobs=1) as run:
        assert run.manifest.labels == ["patient:margin=2", "patient"]
    with pytest.raises(RunError, match="a strategy is"):
        ginsim.match(42, "simple", hands=2)  # type: ignore[arg-type]


def test_main_class_runs_in_process(monkeypatch):
    class Local(Patient):
        name = "local_patient"

    Local.__module__ = "__main__"
    Local.__qualname__ = "Local"
    monkeypatch.setattr(sys.modules["__main__"], "Local", Local, raising=False)
    with pytest.raises(RunError, match="defined in __main__"):
        ginsim.match(Local, "simple", hands=2, jobs=2)
    with ginsim.match(Local, "simple", hands=4) as run:
        assert run.manifest.jobs == 1 and run.manifest.labels[0] == "local_patient"


def test_bad_names_say_did_you_mean():
    with pytest.raises(StrategySpecError, match="did you mean 'simple'"):
        ginsim.match("simpel", "random", hands=2)
    with pytest.raises(StrategySpecError, match="did you mean 'knock_at'"):
        ginsim.parse_spec("threshold:knock_a=3")
