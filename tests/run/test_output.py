"""Output that reads right the first time: plain ``ginsim``, the
game win rate in a ``--games`` round-robin's summary, one sweep row per value and
opponent, the size line with duplicate games, METRICS.md spellings."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest


def test_plain_ginsim_prints_its_help_without_error(run_cli) -> None:
    r = run_cli()
    assert r.code == 0 and r.err == ""
    assert r.out.startswith("Usage: ginsim") and "Commands:" in r.out and "error" not in r.out
    assert r.out == run_cli("--help").out


def test_games_roundrobin_summary_shows_the_game_win_rate(run_cli, tmp_path) -> None:
    out = tmp_path / "rr"
    r = run_cli(
        "roundrobin", "simple", "random", "threshold", "--games", "6", "--jobs", "1", "--no-plots", "--out", str(out)
    )
    assert r.code == 0, r.err
    assert "game_win_rate (row against column)" in r.out
    assert r.out.index("game_win_rate (row against column)") < r.out.index("points_per_hand (row against column)")
    assert "Bradley–Terry on game wins" in r.out
    report = (out / "report.md").read_text(encoding="utf-8")
    # games count what is played: with duplicate deals, half as many deals each played twice
    assert "- size: 6 games to 100 per pairing (3 deals played twice, seats swapped)" in report
    assert "| games won | games lost |" in report


def test_sweep_prints_one_row_per_value_and_opponent(run_cli, tmp_path) -> None:
    out = tmp_path / "sw"
    args = ["sweep", "threshold", "--param", "knock_at=2:4:1", "--vs", "simple", "--hands", "20"]
    r = run_cli(*args, "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    lines = [ln for ln in r.out.splitlines() if ln.startswith("threshold") or ln.startswith("simple ")]
    assert len(lines) == 3, r.out  # knock_at 2, 3, 4 against simple; not the mirrored rows too
    assert all(ln.startswith("threshold") for ln in lines)
    header = next(ln for ln in r.out.splitlines() if ln.startswith("strategy"))
    assert "points_per_hand" in header and "points/hand" not in header


def test_report_summary_uses_metrics_names(run_cli, tmp_path) -> None:
    out = tmp_path / "m"
    r = run_cli("match", "simple", "random", "--hands", "20", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    report = (out / "report.md").read_text(encoding="utf-8")
    header = next(ln for ln in report.splitlines() if ln.startswith("| strategy | opponent |"))
    for name in ("points_per_hand", "win_rate", "mean_knock_deadwood", "mean_turns", "forfeits"):
        assert f"| {name} |" in header
    assert "points per hand |" not in header


def test_a_game_runs_report_shows_the_games_and_shutouts_played(run_cli, tmp_path) -> None:
    """report.md's summary has the games and shutouts columns summary.csv has, equal to it."""
    out = tmp_path / "g"
    r = run_cli("match", "simple", "random", "--games", "3", "--jobs", "1", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    lines = (out / "report.md").read_text(encoding="utf-8").splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("| strategy | opponent |"))
    header = [c.strip() for c in lines[i].strip("|").split("|")]
    assert "games" in header and "shutouts" in header
    summary = pd.read_csv(out / "summary.csv")
    for line, want in zip(lines[i + 2 : i + 4], summary.itertuples(), strict=True):
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[header.index("games")] == f"{want.games:,}"
        assert cells[header.index("shutouts")] == f"{want.shutouts:,}"


def test_closing_the_runner_early_leaks_no_joblib_warning() -> None:
    # what Ctrl-C does to the chunk generator: closed with finished chunks left unread
    from ginsim.run.backends import _quiet_close

    class Noisy:
        def close(self) -> None:
            warnings.warn("3 tasks have been successfully executed  but not used.", UserWarning, stacklevel=1)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _quiet_close(Noisy())  # type: ignore[arg-type]
    with pytest.warns(UserWarning):
        Noisy().close()
