"""In-process accidents a run survives: a bot that ignores the watchdog's signal, a
constructor that raises, a bot that changes the working folder and leaves a thread
running; a decision limit that would switch the watchdog off; text from outside that
would take over the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
from support.runs import ginsim_subprocess

from ginsim.analysis.format import text_table
from ginsim.runfolder.chunks import chunk_files

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"


def _reasons(out: Path) -> list[str]:
    return [str(r) for f in chunk_files(out) for r in pd.read_parquet(f)["forfeit_reason"]]


def _match(bot: str, out: Path, *extra: str) -> Any:
    args = ("match", f"{ATTACKS / 'crashers'}.py:{bot}", "simple", "--hands", "4", "--jobs", "1", "-q", "--no-plots")
    return ginsim_subprocess(*args, "--out", str(out), *extra, timeout=120)


def test_ignoring_the_watchdogs_signal_does_not_stop_it(tmp_path: Path) -> None:
    proc = _match("AlarmIgnorer", tmp_path / "run", "--decision-limit", "1")
    assert proc.returncode == 0, proc.stderr
    reasons = [r for r in _reasons(tmp_path / "run") if r]
    assert reasons and all("no answer within 1s" in r for r in reasons), reasons


def test_a_constructor_that_raises_is_a_forfeit(tmp_path: Path) -> None:
    proc = _match("BadConstructor", tmp_path / "run")
    assert proc.returncode == 0, proc.stderr
    reasons = _reasons(tmp_path / "run")
    assert len(reasons) == 4 and all("could not be built: RuntimeError: no more instances" in r for r in reasons)


def test_a_wandering_bot_moves_neither_the_run_nor_its_end(tmp_path: Path) -> None:
    # a relative --out, a bot that changes the working folder and leaves a thread behind
    args = ["match", f"{ATTACKS / 'crashers'}.py:Wanderer", "simple", "--hands", "4", "--chunk", "1"]
    args += ["--jobs", "1", "-q", "--no-plots", "--out", "run"]
    proc = subprocess.run([sys.executable, "-m", "ginsim", *args], cwd=tmp_path, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert len(chunk_files(tmp_path / "run")) == 2 and (tmp_path / "run" / "summary.csv").exists()


def test_a_parallel_run_ends_quietly_with_its_pool(tmp_path: Path) -> None:
    # the pool's own threads are no strategy's: the command ends as usual, without killing
    # its workers (which left loky's "leaked semlock objects" warnings on every run)
    args = ["match", "simple", "aware", "--hands", "40", "--jobs", "2", "-q", "--no-plots", "--out", "run"]
    proc = subprocess.run([sys.executable, "-m", "ginsim", *args], cwd=tmp_path, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""


def test_a_decision_limit_of_nan_is_refused(tmp_path: Path, run_cli: Any) -> None:
    res = run_cli("match", "simple", "simple", "--hands", "2", "--decision-limit", "nan", "--out", str(tmp_path / "r"))
    assert res.code == 2 and res.err.count("\n") == 1 and "--decision-limit" in res.err
    assert not (tmp_path / "r").exists()


def test_text_from_outside_stays_one_plain_line(run_cli: Any) -> None:
    res = run_cli("match", "nope\n\x1b]0;owned\x07\x1b[31m", "simple", "--hands", "2")
    assert res.code == 2 and res.err.count("\n") == 1 and "\x1b" not in res.err and "\x07" not in res.err
    table = text_table([{"strategy": "evil\n\x1b[2Jlabel", "points": "1"}])
    assert "\x1b" not in table and table.count("\n") == 2


def test_a_hard_exit_with_one_job_names_the_pairing(tmp_path: Path) -> None:
    # the chunk's own process ends; the command says which pairing, and resumes
    proc = _match("HardExit", tmp_path / "run")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "crashers.py:HardExit' vs 'simple' ended the process playing its chunk (exit status 1)" in proc.stderr
    assert "rerun the same command with --out" in proc.stderr
