"""The tournament runner: determinism across jobs and chunk sizes, resume after a kill,
folder safety, and bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from support.runs import hand_log

from ginsim.runfolder.chunks import chunk_files


def test_same_log_for_any_jobs_and_chunk_size(tmp_path, run_cli):
    base = ["match", "simple", "random", "--hands", "160", "--seed", "11", "-q", "--no-plots"]
    a = run_cli(*base, "--jobs", "1", "--chunk", "7", "--out", str(tmp_path / "a"))
    b = run_cli(*base, "--jobs", "2", "--chunk", "30", "--out", str(tmp_path / "b"))
    assert a.code == 0 and b.code == 0, a.err + b.err
    la, lb = hand_log(tmp_path / "a"), hand_log(tmp_path / "b")
    assert len(la) == 160
    pd.testing.assert_frame_equal(la, lb)
    sa = pd.read_csv(tmp_path / "a" / "summary.csv")
    sb = pd.read_csv(tmp_path / "b" / "summary.csv")
    pd.testing.assert_frame_equal(sa, sb)


def test_same_log_for_any_jobs_in_game_mode(tmp_path, run_cli):
    base = ["roundrobin", "simple", "random", "threshold:knock_at=4", "--games", "6", "--seed", "3", "-q", "--no-plots"]
    a = run_cli(*base, "--jobs", "1", "--chunk", "1", "--out", str(tmp_path / "a"))
    b = run_cli(*base, "--jobs", "2", "--chunk", "4", "--out", str(tmp_path / "b"))
    assert a.code == 0 and b.code == 0, a.err + b.err
    la, lb = hand_log(tmp_path / "a"), hand_log(tmp_path / "b")
    pd.testing.assert_frame_equal(la, lb)
    # every game ends once, with a winner who reached the target (or by forfeit)
    ends = la[la["game_end"]]
    assert len(ends) == 3 * 6  # --games counts the games played: 3 deals in both seat orders per pairing
    summary = pd.read_csv(tmp_path / "a" / "summary.csv")
    assert set(summary["games"]) == {6}
    assert (tmp_path / "a" / "ratings.csv").exists()


def test_different_seed_gives_different_deals(tmp_path, run_cli):
    for seed in ("1", "2"):
        r = run_cli(
            "match",
            "simple",
            "simple",
            "--hands",
            "20",
            "--seed",
            seed,
            "-q",
            "--no-plots",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / seed),
        )
        assert r.code == 0, r.err
    assert not hand_log(tmp_path / "1").equals(hand_log(tmp_path / "2"))


def test_duplicate_deals_swap_seats(tmp_path, run_cli):
    r = run_cli("match", "simple", "random", "--hands", "20", "-q", "--no-plots", "--jobs", "1", "--out", str(tmp_path))
    assert r.code == 0, r.err
    log = hand_log(tmp_path)
    assert sorted(log["copy"].unique()) == [0, 1]
    for _, pair in log.groupby("deal"):
        assert sorted(pair["seat_a"]) == [0, 1]
        assert pair["dealer"].nunique() == 1  # same deck, same dealer seat, strategies swapped


def test_no_duplicate_plays_each_deal_once(tmp_path, run_cli):
    r = run_cli(
        "match",
        "simple",
        "random",
        "--hands",
        "15",
        "--no-duplicate",
        "-q",
        "--no-plots",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
    )
    assert r.code == 0, r.err
    log = hand_log(tmp_path)
    assert len(log) == 15 and set(log["copy"]) == {0}


def test_odd_hands_with_duplicate_round_up(tmp_path, run_cli):
    r = run_cli("match", "simple", "random", "--hands", "11", "--no-plots", "--jobs", "1", "--out", str(tmp_path))
    assert r.code == 0
    assert "playing 12 hands" in r.err
    assert len(hand_log(tmp_path)) == 12


def test_manifest_records_the_run(tmp_path, run_cli):
    r = run_cli(
        "match",
        "threshold:knock_at=3",
        "simple",
        "--hands",
        "10",
        "--seed",
        "5",
        "--rule",
        "gin_bonus=25",
        "-q",
        "--no-plots",
        "--jobs",
        "1",
        "--out",
        str(tmp_path),
    )
    assert r.code == 0, r.err
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert m["command"].startswith("ginsim match threshold:knock_at=3 simple")
    assert m["seed"] == 5 and m["hands"] == 10 and m["duplicate"] is True
    assert m["rules"]["gin_bonus"] == 25 and m["rules_differ"] == {"gin_bonus": 25}
    assert m["status"] == "complete" and m["finished"]
    assert m["strategies"][0]["parameters"] == {"knock_at": 3}
    for key in ("ginsim", "platform", "jobs", "backend", "started"):
        assert key in m
    assert m["platform"]["engine"].startswith(("compiled", "pure Python", "partly compiled"))


SMALL_RUN = ["match", "simple", "random", "--hands", "40", "--chunk", "5", "-q", "--no-plots"]
"""A run of 4 chunks (20 deals, 5 a chunk), for the resume and partial-run tests."""


def test_rerun_resumes_and_skips_finished_chunks(tmp_path, run_cli):
    args = [*SMALL_RUN, "--jobs", "1", "--out", str(tmp_path)]
    assert run_cli(*args).code == 0
    before = {f.name: f.stat().st_mtime_ns for f in chunk_files(tmp_path)}
    victim = sorted(before)[1]
    (tmp_path / "hands" / victim).unlink()
    assert run_cli(*args).code == 0
    after = {f.name: f.stat().st_mtime_ns for f in chunk_files(tmp_path)}
    assert set(after) == set(before)
    changed = [n for n in after if after[n] != before[n]]
    assert changed == [victim]
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert m["resumed"]


def _kill_tree(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def test_each_invocation_is_a_session_and_a_rerun_with_nothing_left_keeps_jobs(tmp_path, run_cli):
    args = [*SMALL_RUN, "--out", str(tmp_path)]
    assert run_cli(*args, "--jobs", "1").code == 0
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert m["jobs"] == 1 and m["cwd"] and [s["chunks"] for s in m["sessions"]] == [4]  # 20 deals, 5 a chunk
    (tmp_path / "hands" / chunk_files(tmp_path)[0].name).unlink()
    assert run_cli(*args, "--jobs", "2").code == 0  # one chunk left: played with 2 jobs
    assert run_cli(*args, "--jobs", "1").code == 0  # nothing left: the manifest keeps jobs 2
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert [(s["jobs"], s["chunks"]) for s in m["sessions"]] == [(1, 4), (2, 1), (1, 0)]
    assert m["jobs"] == 2 and len(m["resumed"]) == 2 and m["status"] == "complete"


def test_resume_after_sigkill_gives_the_uninterrupted_log(tmp_path):
    # 150 chunks of 20 hands: long enough (a few seconds) that the kill lands part-way
    # however fast the machine; the rerun and the clean run then play the rest
    args = [
        "match",
        "simple",
        "random",
        "--hands",
        "3000",
        "--chunk",
        "20",
        "--seed",
        "9",
        "-q",
        "--no-plots",
        "--jobs",
        "2",
    ]
    killed = tmp_path / "killed"
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginsim", *args, "--out", str(killed)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline and len(chunk_files(killed)) < 4:
        time.sleep(0.05)
    _kill_tree(proc)
    done = len(chunk_files(killed))
    assert 0 < done < 150, "the run should be killed part-way"
    rerun = subprocess.run(
        [sys.executable, "-m", "ginsim", *args, "--out", str(killed)], capture_output=True, text=True, timeout=120
    )
    assert rerun.returncode == 0, rerun.stderr
    clean = subprocess.run(
        [sys.executable, "-m", "ginsim", *args, "--out", str(tmp_path / "clean")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert clean.returncode == 0, clean.stderr
    pd.testing.assert_frame_equal(hand_log(killed), hand_log(tmp_path / "clean"))
    assert not list((killed / "hands").glob("*.tmp-*"))


# -- bad input: one line, exit status 2 ------------------------------------------------------
BAD = [
    (["match", "simple", "nosuch"], "unknown strategy 'nosuch'"),
    (["match", "threshold:knock_at=11", "simple"], "knock_at"),
    (["match", "threshold:bogus=1", "simple"], "unknown parameter 'bogus'"),
    (["match", "threshold:knock_at=x", "simple"], "expects int"),
    (["match", "simple", "random", "--hands", "-5"], "--hands must be a positive"),
    (["match", "simple", "random", "--hands", "0"], "--hands must be a positive"),
    (["match", "simple", "random", "--games", "-1"], "--games must be a positive"),
    (["match", "simple", "random", "--hands", "4", "--games", "4"], "either --hands or --games"),
    (["match", "simple", "random", "--rule", "nonsense=1"], "unknown rule 'nonsense'"),
    (["match", "simple", "random", "--rule", "knock_limit=12"], "knock_limit must be 0..10"),
    (["match", "simple", "random", "--rule", "gin_bonus=25", "--rule", "gin_bonus=30"], "gin_bonus: given twice"),
    (["match", "simple", "random", "--rule", "gin_bonus"], "expected key=value"),
    (["match", "simple", "random", "--rules", "/nonexistent/rules.toml"], "cannot read it"),
    (["sweep", "threshold", "--param", "knock_at=5:1", "--vs", "simple"], "STOP is below START"),
    (["sweep", "threshold", "--param", "knock_at=a:b", "--vs", "simple"], "must be numbers"),
    (["sweep", "threshold", "--param", "knock_at", "--vs", "simple"], "expected NAME=START:STOP"),
    (["sweep", "threshold", "--param", "knock_at=0:10:0", "--vs", "simple"], "step must be positive"),
    (["sweep", "threshold", "--param", "nothere=0:3", "--vs", "simple"], "no parameter 'nothere'"),
    (["sweep", "threshold", "--param", "knock_at=0:12", "--vs", "simple"], "knock_at"),
    (["roundrobin", "simple"], "at least two strategies"),
    (["roundrobin", "simple", "random", "simple"], "listed twice"),
    (["match", "simple", "random", "--seed", "-1"], "--seed"),
    (["match", "simple", "random", "--scheduler", "tcp://x:1"], "(--scheduler) is only for the dask backend"),
    (["report", "/nonexistent/run"], "no such results folder"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(args, message, run_cli, tmp_path):
    r = run_cli(*args, "--out", str(tmp_path / "out")) if args[0] != "report" else run_cli(*args)
    assert r.code == 2
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert message in lines[0]
    assert "Traceback" not in r.err


def test_foreign_folder_is_refused_and_kept(tmp_path, run_cli):
    (tmp_path / "notes.txt").write_text("precious")
    r = run_cli("match", "simple", "random", "--hands", "4", "-q", "--out", str(tmp_path))
    assert r.code == 2 and "not a ginsim results folder" in r.err
    assert (tmp_path / "notes.txt").read_text() == "precious"
    assert not (tmp_path / "hands").exists()


def test_a_different_command_is_refused(tmp_path, run_cli):
    common = ["-q", "--no-plots", "--jobs", "1", "--out", str(tmp_path)]
    assert run_cli("match", "simple", "random", "--hands", "10", *common).code == 0
    files = {f.name: f.read_bytes() for f in chunk_files(tmp_path)}
    r = run_cli("match", "simple", "random", "--hands", "10", "--seed", "8", *common)
    assert r.code == 2 and "holds a different run" in r.err and "seed" in r.err
    r = run_cli("match", "simple", "threshold", "--hands", "10", *common)
    assert r.code == 2 and "holds a different run" in r.err
    assert {f.name: f.read_bytes() for f in chunk_files(tmp_path)} == files


def test_unreadable_manifest_is_refused(tmp_path, run_cli):
    (tmp_path / "manifest.json").write_text("{not json")
    r = run_cli("match", "simple", "random", "--hands", "4", "-q", "--out", str(tmp_path))
    assert r.code == 2 and "not a valid manifest" in r.err
    r = run_cli("report", str(tmp_path))
    assert r.code == 2 and "not a valid manifest" in r.err


def test_out_that_is_a_file_is_refused(tmp_path, run_cli):
    f = tmp_path / "file"
    f.write_text("x")
    r = run_cli("match", "simple", "random", "--hands", "4", "-q", "--out", str(f))
    assert r.code == 2 and "not a folder" in r.err


def test_report_of_a_partial_run(tmp_path, run_cli):
    args = [*SMALL_RUN, "--jobs", "1", "--out", str(tmp_path)]
    assert run_cli(*args).code == 0
    for f in chunk_files(tmp_path)[3:]:
        f.unlink()
    r = run_cli("report", str(tmp_path))
    assert r.code == 0, r.err
    assert "3/4 chunks" in r.out
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert set(summary["hands"]) == {30}
    assert "partial" in (tmp_path / "report.md").read_text()


def test_forfeits_are_counted_with_reasons(tmp_path, run_cli):
    plugin = tmp_path / "crashy.py"
    plugin.write_text(
        "from ginsim import Strategy\n"
        "class Crashy(Strategy):\n"
        "    name = 'crashy'\n"
        "    def take_upcard(self, view):\n"
        "        return False\n"
        "    def discard(self, view):\n"
        "        if view.turn > 3:\n"
        "            raise RuntimeError('out of ideas')\n"
        "        return max(view.legal_discards().bit_length() - 1, 0)\n"
    )
    out = tmp_path / "run"
    r = run_cli(
        "match", f"{plugin}:Crashy", "simple", "--hands", "20", "-q", "--no-plots", "--jobs", "2", "--out", str(out)
    )
    assert r.code == 0, r.err
    s = pd.read_csv(out / "summary.csv", keep_default_na=False)
    crashy = s[s["strategy"] == "crashy"].iloc[0]
    assert crashy["forfeits"] > 0
    assert "discard raised RuntimeError: out of ideas" in crashy["forfeit_reasons"]
    assert s[s["strategy"] == "simple"].iloc[0]["forfeits"] == 0
