"""experiments/training/report_table.py: a reporting table's rows pooled over seeds, from
the run folders alone."""

from __future__ import annotations

from pathlib import Path

from support.training import training_module

import ginsim
from ginsim.analysis.stats import wilson


def test_runs_of_one_command_pool_into_one_row_per_preset(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    table = training_module("report_table")
    folders, firsts = [], {}
    for rules in ("default", "eaai"):
        for seed in (11, 12):
            out = tmp_path / f"{rules}-{seed}"
            run = ginsim.match("aware", "simple", games=6, seed=seed, rules=rules, out=out, jobs=1)
            firsts.setdefault(rules, []).append(run.summary.iloc[0])
            folders.append(out)
    assert table.main([str(f) for f in folders]) == 0
    lines = capsys.readouterr().out.splitlines()[2:]
    assert len(lines) == 2
    for line, rules in zip(lines, ("default", "eaai"), strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[:4] == ["aware", "simple", rules, "12"]
        wins = sum(round(s["game_win_rate"] * s["games"]) for s in firsts[rules])
        lo, hi = wilson(wins, 12)
        assert cells[4] == f"**{100 * wins / 12:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})**"
        rules_args = "" if rules == "default" else " --rules eaai"
        assert cells[6] == f"11, 12: `ginsim match aware simple{rules_args} --games 6`"


def test_the_command_loses_only_what_differs_between_seeds() -> None:
    table = training_module("report_table")
    text = "ginsim match learned patient --games 2000 --rules eaai --seed 640201 --jobs 2 --out /x/y -q --no-plots"
    assert table.command_of(text) == "ginsim match learned patient --games 2000 --rules eaai"


def test_a_folder_that_is_not_a_run_is_one_line_and_status_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    table = training_module("report_table")
    assert table.main([str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nothing" in err[0]


def test_a_seed_given_twice_is_refused(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    table = training_module("report_table")
    ginsim.match("simple", "random", games=2, seed=5, jobs=1, out=tmp_path / "r")
    assert table.main([str(tmp_path / "r"), str(tmp_path / "r")]) == 2
    assert "seed 5 of this pairing is given twice" in capsys.readouterr().err
