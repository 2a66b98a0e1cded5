"""Grids (several --param make the Cartesian grid, drawn as a heatmap over two) and
gauntlets (one candidate against each of a list), from the CLI, Python and experiment files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import ginsim
from ginsim.launch import run_experiment
from ginsim.runfolder.records import RunKind, read_manifest

SMALL = ["--hands", "20", "--jobs", "1"]


def test_a_two_by_three_grid_plays_six_configurations_and_draws_its_heatmap(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "grid"
    r = run_cli(
        "sweep", "aware", "--param", "late_knock_at=2,6", "--param", "late_turn=10:20:5", "--vs", "simple",
        *SMALL, "--out", str(out),
    )  # fmt: skip
    assert r.code == 0, r.err
    m = read_manifest(out)
    assert len(m.pairings) == 6 and m.param == "late_knock_at,late_turn"
    assert [p.value for p in m.pairings] == [[2, 10], [2, 15], [2, 20], [6, 10], [6, 15], [6, 20]]
    summary = pd.read_csv(out / "summary.csv")
    swept = summary[summary["param"].notna()]
    assert list(swept["late_knock_at"]) == [2, 2, 2, 6, 6, 6]
    assert list(swept["late_turn"]) == [10, 15, 20, 10, 15, 20]
    assert (out / "charts" / "grid_points_per_hand.png").is_file()
    assert not list((out / "charts").glob("sweep_*"))  # no line chart over a joined value
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| late_knock_at | late_turn | points_per_hand |" in report
    assert "charts/grid_points_per_hand.png" in report


def test_more_than_two_parameters_make_a_table(tmp_path: Path) -> None:
    grid = {"late_knock_at": [2, 6], "late_turn": [10, 20], "knock_at": [8, 10]}
    run = ginsim.sweep("aware", grid, vs="simple", hands=10, jobs=1, out=tmp_path / "g3")
    assert len(run.manifest.pairings) == 8
    assert not [c for c in run.charts if c.startswith(("grid_", "sweep_"))]
    assert "| late_knock_at | late_turn | knock_at | points_per_hand |" in run.report()


def test_a_parameter_given_twice_is_one_line(run_cli) -> None:
    r = run_cli("sweep", "threshold", "--param", "knock_at=1,2", "--param", "knock_at=3", "--vs", "simple", *SMALL)
    assert r.code == 2
    assert r.err.strip() == "ginsim: error: --param 'knock_at' is given twice (one --param per parameter)"


def test_one_param_keeps_its_sweep(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "one"
    r = run_cli("sweep", "threshold", "--param", "knock_at=2,6", "--vs", "simple", *SMALL, "--out", str(out))
    assert r.code == 0, r.err
    assert [p.value for p in read_manifest(out).pairings] == [2, 6]
    assert (out / "charts" / "sweep_points_per_hand.png").is_file()


def test_gauntlet_plays_the_candidate_against_each_opponent(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "gauntlet"
    r = run_cli("gauntlet", "threshold:knock_at=6", "--vs", "simple", "random", *SMALL, "--out", str(out))
    assert r.code == 0, r.err
    m = read_manifest(out)
    assert m.kind == RunKind.GAUNTLET
    assert [(p.label_a, p.label_b) for p in m.pairings] == [
        ("threshold:knock_at=6", "simple"),
        ("threshold:knock_at=6", "random"),
    ]
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## Gauntlet of `threshold:knock_at=6`" in report
    assert "charts/gauntlet_points_per_hand.png" in report
    assert (out / "charts" / "gauntlet_points_per_hand.png").is_file()
    body = r.out.split("\n\n")[1]  # the candidate's rows only
    assert "simple  " in body and "random  " in body and "\nsimple" not in body


def test_gauntlet_from_python_equals_the_cli(run_cli, tmp_path: Path) -> None:
    run = ginsim.gauntlet("threshold:knock_at=6", vs=["simple", "random"], hands=20, jobs=1, out=tmp_path / "py")
    r = run_cli("gauntlet", "threshold:knock_at=6", "simple", "random", *SMALL, "--out", str(tmp_path / "cli"))
    assert r.code == 0
    cli = pd.read_csv(tmp_path / "cli" / "summary.csv")
    cols = ["strategy", "opponent", "hands", "points_per_hand", "win_rate"]
    pd.testing.assert_frame_equal(run.summary[cols], cli[cols], check_dtype=False)


def test_experiment_files_take_grids_and_gauntlets(tmp_path: Path) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(
        'kind = "sweep"\nstrategy = "aware"\nvs = ["simple"]\nhands = 10\n'
        'params = { late_knock_at = [2, 6], late_turn = "10:20:10" }\n',
        encoding="utf-8",
    )
    folder = run_experiment(grid, out=tmp_path / "g", jobs=1, quiet=True, plots=False)
    assert [p.value for p in read_manifest(folder).pairings] == [[2, 10], [2, 20], [6, 10], [6, 20]]
    gauntlet = tmp_path / "gauntlet.toml"
    gauntlet.write_text('kind = "gauntlet"\ncandidate = "simple"\nvs = ["random", "threshold"]\nhands = 10\n')
    folder = run_experiment(gauntlet, out=tmp_path / "t", jobs=1, quiet=True, plots=False)
    assert [p.label_b for p in read_manifest(folder).pairings] == ["random", "threshold"]


def test_experiment_file_grid_mistakes_name_the_key(run_cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('kind = "sweep"\nstrategy = "threshold"\nvs = ["simple"]\nhands = 10\nparams = { nope = [1, 2] }\n')
    r = run_cli("run", str(bad))
    assert r.code == 2 and "key 'params': threshold has no parameter 'nope'" in r.err
