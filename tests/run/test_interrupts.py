"""Interruptions are the user's: SIGTERM (or Ctrl-C) while a strategy thinks stops the
run as interrupted and charges nothing to the strategy, in-process and in tournament
mode; the resumed run's log is the uninterrupted run's; a run interrupted before it
wrote its manifest leaves a folder the same command starts afresh."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ginsim.runfolder.chunks import chunk_files

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"
# Sleeper thinks 2 s on its first decision of every hand: a signal lands while it thinks
ARGS = ["match", f"{ATTACKS / 'crashers'}.py:Sleeper", "simple", "--hands", "6", "--chunk", "1", "--jobs", "1"]
ARGS += ["-q", "--no-plots", "--decision-limit", "30"]


def _log(out: Path) -> pd.DataFrame:
    return pd.concat([pd.read_parquet(f) for f in chunk_files(out)], ignore_index=True)


@pytest.fixture(autouse=True)
def bots_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINSIM_BOT_USER", "root")  # this machine's Python may not be runnable by other users


@pytest.mark.parametrize("isolate", [False, True])
def test_sigterm_while_a_strategy_thinks_charges_nothing(tmp_path: Path, isolate: bool) -> None:
    extra = ["--isolate"] if isolate else []
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "ginsim", *ARGS, *extra, "--out", str(out)]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while not chunk_files(out) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)  # into the next hand's first decision, 2 s long
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=90)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "interrupted" in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    assert (_log(out)["forfeit_seat"] < 0).all()  # nothing charged to the strategy
    resumed = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    log = _log(out)
    assert len(log) == 6 and (log["forfeit_seat"] < 0).all()
    if not isolate:  # a tournament run's decks are its own secret's: compare in-process only
        whole = tmp_path / "whole"
        done = subprocess.run([*cmd[:-1], str(whole)], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        pd.testing.assert_frame_equal(log, _log(whole))


def test_a_folder_left_before_the_manifest_is_started_afresh(tmp_path: Path, run_cli: Any) -> None:
    out = tmp_path / "run"
    (out / "hands").mkdir(parents=True)
    (out / ".lock").write_text("{}")
    (out / "secret").write_bytes(b"x" * 32)
    args = ("match", "simple", "random", "--hands", "4", "--jobs", "1", "-q", "--no-plots")
    res = run_cli(*args, "--isolate", "--out", str(out))  # one job: pooled workers keep their environment
    assert res.code == 0, res.err
    assert (out / "secret").read_bytes() != b"x" * 32
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    res = run_cli("match", "simple", "random", "--hands", "4", "-q", "--no-plots", "--out", str(tmp_path / "other"))
    assert res.code == 2  # a folder holding anything else is not taken over
