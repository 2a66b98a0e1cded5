"""One meaning for counts: ``hands`` and ``games`` count what is played per pairing, in the
CLI, experiment files and Python alike; folders of the older meaning are not resumed."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

import ginsim
from ginsim.engine.rules import Rules
from ginsim.run.describe import MatchRun
from ginsim.run.plan import plan_run
from ginsim.runfolder.integrity import run_key
from ginsim.runfolder.records import read_manifest


def test_games_count_the_games_played_with_duplicate_deals(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "m"
    r = run_cli("match", "simple", "random", "--games", "6", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["games"]) == [6, 6]
    games = pd.read_parquet(out / "games")
    assert len(games) == 6 and sorted(set(games["deal"])) == [0, 1, 2]
    assert "played: " in r.out and " and 6 games in all; 6 games to 100 per pairing (3 deals played twice" in r.out
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "- played: " in report and "and 6 games in all" in report
    assert read_manifest(out).format == 2


def test_hands_and_games_alike_in_the_plan() -> None:
    rules = Rules()
    for dup, units in ((True, 5), (False, 10)):
        h = plan_run(MatchRun("simple", "random"), rules=rules, hands=10, duplicate=dup)
        g = plan_run(MatchRun("simple", "random"), rules=rules, games=10, duplicate=dup)
        assert h.units == g.units == units


def test_an_odd_count_with_duplicate_deals_is_rounded_up_and_said(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "odd"
    r = run_cli("match", "simple", "random", "--games", "5", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0
    assert "note: duplicate deals come in pairs: playing 6 games per pairing" in r.err
    assert read_manifest(out).games == 6


def test_python_and_experiment_files_count_alike(tmp_path: Path) -> None:
    run = ginsim.match("simple", "random", games=4, jobs=1, out=tmp_path / "py")
    assert list(run.summary["games"]) == [4, 4]
    assert "4 games per pairing" in repr(run)
    exp = tmp_path / "e.toml"
    exp.write_text('kind = "match"\na = "simple"\nb = "random"\ngames = 4\n', encoding="utf-8")
    folder = ginsim.launch.run_experiment(exp, out=tmp_path / "toml", jobs=1, quiet=True, plots=False)
    assert list(pd.read_csv(folder / "summary.csv")["games"]) == [4, 4]


def test_a_folder_of_the_older_meaning_is_not_resumed(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "old"
    r = run_cli("match", "simple", "random", "--games", "4", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0
    data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    del data["format"]  # as format 1 wrote it: games = 2 deals, each played twice
    data["games"] = data["identity"]["games"] = 2
    (out / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    for f in (out / "checksums").iterdir():  # the chunks' records name the run by its identity
        record = json.loads(f.read_text(encoding="utf-8"))
        record["run"] = run_key(data["identity"])
        f.write_text(json.dumps(record), encoding="utf-8")
    m = read_manifest(out)
    assert m.format == 1 and m.units == 2 and m.games_played == 4  # still read as it was meant
    r = run_cli("report", str(out))
    assert r.code == 0 and "4 games to 100 per pairing (2 deals played twice" in r.out
    r = run_cli("match", "simple", "random", "--games", "4", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 2
    line = r.err.strip()
    assert "\n" not in line and "--games counted deals" in line and "cannot be resumed: use another --out" in line
