"""The hard limit per decision (ginsim.run.hardlimit): a bot the watchdog cannot end -
stuck in C code holding the GIL, or catching the watchdog's exception - has the process
playing its chunk ended; the hand is its forfeit, the chunk goes on, and every later look
at that hand (the replay check, the forfeit's trace, ``ginsim replay``) times the same
call out instead of hanging."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from support.runs import ginsim_subprocess

from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.run.hardlimit import close_player, hard_limit
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import RESULT_COLUMNS, read_manifest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the hard limit's supervisor is Linux's")

ATTACKS = Path(__file__).resolve().parents[1] / "attacks"
LIMIT = 0.25  # seconds: the hard limit is then 1.25 s
ENDED = "the hard limit per decision; the process playing it was ended"


def _spec(cls: str) -> Any:
    return parse_spec(f"{ATTACKS / 'crashers'}.py:{cls}")


def _chunk(bot: str, deals: int = 6, mode: str = "hands") -> dict[str, np.ndarray]:
    """``deals`` duplicate deals (games) of ``bot`` against ``simple``, played by
    ``play_chunk`` as a worker would, with the same pairing key whoever plays."""
    task = ChunkTask(
        Rules(), _spec(bot), parse_spec("simple"), 0, 777, 5, mode, True, 0, deals, 0, decision_limit=LIMIT
    )
    try:
        return play_chunk(task)
    finally:
        close_player()  # as a run ends: the next chunk is played by a child forked afresh


def _children() -> set[int]:
    """This process's child processes (Linux's /proc; the test's other pools included)."""
    found: set[int] = set()
    for task in Path("/proc/self/task").glob("*"):
        with contextlib.suppress(OSError):
            found |= {int(p) for p in (task / "children").read_text().split()}
    return found


@pytest.mark.parametrize("bot", ["StuckInC", "Stubborn"])
def test_a_bot_the_watchdog_cannot_end_forfeits_only_its_stuck_hands(bot: str) -> None:
    before = _children()
    stuck = _chunk(bot)
    assert _children() <= before  # every child that played the chunk is gone, once closed
    honest = _chunk("Honest")  # the twin: the same play, never stuck
    reasons = list(stuck["forfeit_reason"])
    ended = [i for i, r in enumerate(reasons) if r]
    assert ended, "no hand of the fixture got stuck: choose other deals"
    assert len(ended) < len(reasons)  # and the chunk went on past them
    for i in ended:
        assert reasons[i] == f"discard: no answer within {hard_limit(LIMIT):g}s ({ENDED})"
        assert stuck["forfeit_seat"][i] == stuck["seat_a"][i]  # the stuck bot's own, never its victim's
    same = [i for i in range(len(reasons)) if i not in ended]
    for name in RESULT_COLUMNS:
        assert np.array_equal(stuck[name][same], honest[name][same]), name


def test_the_stuck_hand_is_timed_out_in_every_replay_of_it() -> None:
    out = _chunk("StuckInC")
    records = [json.loads(r) for r in out["forfeit_details"]]
    assert records and all(r["hard_limit_s"] == hard_limit(LIMIT) for r in records)
    assert all(r["hard_limit_call"] % 2 == 1 for r in records)  # a call's number as it began
    # traced without hanging: the record names the stuck decision and says it was not asked again
    assert all(r["decision"] == "discard" and "without reaching the strategy" in r["note"] for r in records)
    check = out["__replay_check__"][0]
    assert check.difference == ""  # the replay check played the chunk's first deal again, in time


def test_games_go_on_after_a_stuck_hand() -> None:
    out = _chunk("StuckInC", deals=2, mode="games")
    reasons = list(out["forfeit_reason"])
    ended = [i for i, r in enumerate(reasons) if r]
    assert ended and all(ENDED in reasons[i] for i in ended)
    assert all(out["game_end"][i] for i in ended)  # a forfeit ends its game ...
    assert len(set(zip(out["deal"], out["copy"], strict=True))) == 4  # ... and every game of the chunk was played


def test_the_command_runs_on_and_replays_the_stuck_hand(tmp_path: Path) -> None:
    logs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"run{jobs}"
        args = ("match", f"{ATTACKS / 'crashers'}.py:StuckInC", "simple", "--hands", "12", "--chunk", "3")
        proc = ginsim_subprocess(
            *args, "--jobs", jobs, "--decision-limit", str(LIMIT), "-q", "--no-plots", "--out", str(out)
        )
        assert proc.returncode == 0, proc.stderr
        logs.append(pd.concat([pd.read_parquet(f) for f in chunk_files(out)], ignore_index=True))
        assert read_manifest(out).reproducible is not False
    pd.testing.assert_frame_equal(logs[0], logs[1])  # the same log whatever --jobs
    stuck = logs[0].index[logs[0]["forfeit_reason"].str.contains("hard limit")]
    assert len(stuck)
    proc = ginsim_subprocess("replay", str(tmp_path / "run1"), "--hand", str(stuck[0]), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert ENDED in proc.stdout


def test_a_constructor_stuck_in_c_stops_the_run_with_one_resumable_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ("match", f"{ATTACKS / 'crashers'}.py:StuckBuilding", "simple", "--hands", "4", "--jobs", "1")
    proc = ginsim_subprocess(*args, "--decision-limit", str(LIMIT), "-q", "--no-plots", "--out", str(out))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "StuckBuilding': its constructor gave no answer within 1.25s (the hard limit)" in proc.stderr
    assert f"--out {out}" in proc.stderr


def test_a_constructor_the_watchdog_ends_is_a_forfeit() -> None:
    reasons = [r for r in _chunk("SlowBuilding", deals=1)["forfeit_reason"]]
    assert reasons and all(f"could not be built: no answer within {LIMIT:g}s" in r for r in reasons)


def test_calls_another_thread_is_in_do_not_hide_a_stuck_one() -> None:
    # a thread of this process inside a strategy's call (as ``ginsim web``'s tables wait
    # for a person) when the chunk's child is forked: the child counts calls of its own
    import threading

    from ginsim.strategies.simple import Simple

    from ginsim.engine.playhand import play_hand
    from ginsim.run.seeding import deal_seed, deck_for

    release, waiting = threading.Event(), threading.Event()

    class Waiting(Simple):
        def take_upcard(self, view: Any) -> bool:
            waiting.set()
            release.wait(60)
            return False

    thread = threading.Thread(target=play_hand, args=(Rules(), [Waiting(), Simple()], deck_for(deal_seed(1, 0)), 0))
    thread.start()
    try:
        assert waiting.wait(10)
        reasons = [r for r in _chunk("StuckInC")["forfeit_reason"] if r]
        assert reasons and all(ENDED in r for r in reasons)
    finally:
        release.set()
        thread.join(10)
