"""A run folder nobody can silently corrupt, and a runner that cleans up after itself.

Chunk checksums and plan checks, the manifest checked as a whole, the folder lock,
SIGTERM/SIGKILL/killed workers, atomic writes and environment failures (a full or
read-only tmpfs, when this machine lets the tests mount one), bounds, escaping."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.runs import hand_log

from ginsim.analysis.format import md_code, md_text
from ginsim.engine.rules import MAX_HAND_BONUS, MAX_TARGET_SCORE, Rules
from ginsim.errors import RunError
from ginsim.run.describe import MatchRun
from ginsim.run.plan import MAX_COUNT, plan_run
from ginsim.runfolder import chunks, lock
from ginsim.runfolder.chunks import chunk_files, scan_chunks
from ginsim.runfolder.integrity import sum_path
from ginsim.runfolder.records import read_manifest

SMALL = ["match", "simple", "random", "--hands", "40", "--chunk", "5", "-q", "--no-plots", "--jobs", "1"]
"""4 chunks of 5 deals (10 hands each)."""
LONG = ["match", "simple", "random", "--hands", "20000", "--chunk", "20", "-q", "--no-plots", "--jobs", "2"]
"""500 chunks: long enough that a signal lands part-way."""


@pytest.fixture
def small_run(tmp_path: Path, run_cli) -> Path:
    out = tmp_path / "run"
    r = run_cli(*SMALL, "--out", str(out))
    assert r.code == 0, r.err
    return out


def _fresh_checks() -> None:
    chunks._VERIFIED.clear()


# -- chunk integrity -------------------------------------------------------------------------
def test_every_byte_flip_in_a_chunk_is_detected_and_the_chunk_replayed(small_run: Path, run_cli) -> None:
    before = hand_log(small_run)
    victim = chunk_files(small_run)[1]
    good = victim.read_bytes()
    for pos in range(0, len(good), max(1, len(good) // 40)):
        bad = bytearray(good)
        bad[pos] ^= 0x01
        victim.write_bytes(bytes(bad))
        _fresh_checks()
        scan = scan_chunks(small_run)
        assert [p for p, _ in scan.damaged] == [victim], pos
        assert victim not in scan.good
    r = run_cli("report", str(small_run))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert victim.name in r.err and "damaged" in r.err
    r = run_cli(*SMALL, "--out", str(small_run))  # resume: named, deleted, played again
    assert r.code == 0, r.err
    assert victim.name in r.err and "playing it again" in r.err
    assert victim.read_bytes() == good
    pd.testing.assert_frame_equal(hand_log(small_run), before)


def test_a_truncated_chunk_is_named_and_replayed(small_run: Path, run_cli) -> None:
    victim = chunk_files(small_run)[2]
    good = victim.read_bytes()
    victim.write_bytes(good[: len(good) // 2])
    r = run_cli("report", str(small_run))
    assert r.code == 2 and victim.name in r.err
    assert run_cli(*SMALL, "--out", str(small_run)).code == 0
    assert victim.read_bytes() == good


def test_a_copied_chunk_is_ignored_with_a_warning(small_run: Path, run_cli) -> None:
    first = chunk_files(small_run)[3]
    shutil.copy(first, first.with_name("p0000-c000003 copy.parquet"))
    shutil.copy(first, first.with_name("p0000-c000009.parquet"))  # outside the plan (4 chunks)
    r = run_cli("report", str(small_run))
    assert r.code == 0, r.err
    assert "p0000-c000003 copy.parquet: not a chunk of this run's plan, ignored" in r.err
    assert "p0000-c000009.parquet" in r.err
    summary = pd.read_csv(small_run / "summary.csv")
    assert set(summary["hands"]) == {40}  # not 50
    r = run_cli(*SMALL, "--out", str(small_run))
    assert r.code == 0 and "copy.parquet" in r.err and "ignored" in r.err


def test_a_chunk_of_another_run_is_refused(tmp_path: Path, run_cli) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    assert run_cli(*SMALL, "--out", str(a)).code == 0
    assert run_cli(*SMALL, "--seed", "5", "--out", str(b)).code == 0
    before = hand_log(a)
    target = chunk_files(a)[1]
    shutil.copy(chunk_files(b)[1], target)  # over a chunk: its checksum no longer matches
    _fresh_checks()
    assert [p for p, _ in scan_chunks(a).damaged] == [target]
    shutil.copy(sum_path(chunk_files(b)[1]), sum_path(target))  # with its record: of another run
    shutil.copy(chunk_files(b)[1], target)
    _fresh_checks()
    (path, why), *_ = scan_chunks(a).damaged
    assert path == target and "another run" in why
    assert run_cli(*SMALL, "--out", str(a)).code == 0
    pd.testing.assert_frame_equal(hand_log(a), before)


def test_a_parquet_of_another_table_is_not_a_chunk(small_run: Path) -> None:
    victim = chunk_files(small_run)[0]
    pq.write_table(pa.table({"x": [1, 2, 3]}), victim)
    _fresh_checks()
    (path, why), *_ = scan_chunks(small_run).damaged
    assert path == victim and "checksum" in why


def test_a_chunk_without_its_checksum_record_is_not_counted(small_run: Path, run_cli) -> None:
    victim = chunk_files(small_run)[0]
    sum_path(victim).unlink()
    _fresh_checks()
    (path, why), *_ = scan_chunks(small_run).damaged
    assert path == victim and "no checksum record" in why
    assert run_cli(*SMALL, "--out", str(small_run)).code == 0
    assert victim in chunk_files(small_run)


# -- the manifest as a whole -----------------------------------------------------------------
def _edit_manifest(folder: Path, edit) -> None:
    path = folder / "manifest.json"
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))


def test_a_manifest_with_a_and_b_swapped_is_refused(small_run: Path, run_cli) -> None:
    def swap(m):
        p = m["pairings"][0]
        p["a"], p["b"], p["label_a"], p["label_b"] = p["b"], p["a"], p["label_b"], p["label_a"]

    _edit_manifest(small_run, swap)
    r = run_cli("report", str(small_run))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "pairings[0]: differs from identity in a, b, label_a, label_b" in r.err


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda m: m.pop("seed"), "seed: missing"),
        (lambda m: m.update(seed="7"), "seed: expected int"),
        (lambda m: m.update(hands=400), "hands: 400 here, 40 in identity"),
        (lambda m: m.update(chunks=9), "chunks: 9 where the plan makes 4"),
        (lambda m: m["pairings"][0].pop("label_a"), "pairings[0].label_a: missing"),
        (lambda m: m["strategies"][0].update(parameters=3), "strategies[0].parameters: expected dict"),
        (lambda m: m["pairings"].append(5), "pairings[1]: expected an object"),
    ],
)
def test_a_bad_manifest_is_one_line(small_run: Path, run_cli, edit, words) -> None:
    _edit_manifest(small_run, edit)
    r = run_cli("report", str(small_run))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert words in r.err


# -- the lock --------------------------------------------------------------------------------
def test_a_second_run_on_a_locked_folder_is_refused(small_run: Path, run_cli) -> None:
    held = lock.acquire(small_run)
    try:
        r = run_cli(*SMALL, "--out", str(small_run))
        assert r.code == 2 and len(r.err.strip().splitlines()) == 1
        assert "in use by another ginsim run" in r.err and f"pid {os.getpid()}" in r.err
        r = run_cli("report", str(small_run))  # a reader reads what is finished, and says so
        assert r.code == 0 and "a run is still writing it" in r.err
    finally:
        held.release()
    assert run_cli(*SMALL, "--out", str(small_run)).code == 0
    assert not (small_run / lock.LOCK).exists()


def test_a_stale_lock_of_a_dead_process_is_taken_over(small_run: Path, run_cli) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    import socket

    info = {"pid": dead.pid, "host": socket.gethostname(), "since": "then"}
    (small_run / lock.LOCK).write_text(json.dumps(info))
    assert lock.holder(small_run) is None
    r = run_cli(*SMALL, "--out", str(small_run))
    assert r.code == 0, r.err


def _start(args: list[str], out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ginsim", *args, "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def _wait_for_chunks(out: Path, n: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if (out / "hands").is_dir() and len(list((out / "hands").glob("*.parquet"))) >= n:
            return
        time.sleep(0.05)
    raise AssertionError("the run did not get going")


def test_two_concurrent_runs_one_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = _start(LONG, out)
    try:
        _wait_for_chunks(out, 2, first)
        second = subprocess.run(
            [sys.executable, "-m", "ginsim", *LONG, "--out", str(out)], capture_output=True, text=True, timeout=60
        )
        assert second.returncode == 2 and len(second.stderr.strip().splitlines()) == 1
        assert f"pid {first.pid}" in second.stderr
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()


# -- signals, orphans, killed workers ----------------------------------------------------------
def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(d.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.add(c)
            todo.append(c)
    return out


def _alive(pids: set[int]) -> set[int]:
    live = set()
    for p in pids:
        try:
            state = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            live.add(p)
    return live


def _gone_within(pids: set[int], seconds: float) -> set[int]:
    deadline = time.time() + seconds
    while time.time() < deadline and _alive(pids):
        time.sleep(0.1)
    return _alive(pids)


def _workers(proc: subprocess.Popen[bytes]) -> set[int]:
    deadline = time.time() + 30
    while time.time() < deadline:
        kids = _descendants(proc.pid)
        if len(kids) >= 2:
            return kids
        time.sleep(0.05)
    raise AssertionError("no worker processes")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_sigterm_is_an_interruption_and_leaves_no_orphans(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(LONG, out)
    _wait_for_chunks(out, 3, proc)
    workers = _workers(proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 130 and len(lines) == 1 and "interrupted" in lines[0] and "resume" in lines[0], err
    assert read_manifest(out).status == "interrupted"
    assert not _gone_within(workers, 10)
    r = subprocess.run([sys.executable, "-m", "ginsim", *LONG, "--out", str(out)], capture_output=True, timeout=300)
    assert r.returncode == 0 and read_manifest(out).status == "complete"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_sigkill_of_the_main_process_leaves_no_orphans(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(LONG, out)
    _wait_for_chunks(out, 3, proc)
    workers = _workers(proc)
    os.kill(proc.pid, signal.SIGKILL)  # the main process only, as the OOM killer would
    proc.wait()
    assert not _gone_within(workers, 30), "worker processes outlived their parent"
    assert lock.holder(out) is None  # the kernel dropped the lock with its holder


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_a_killed_worker_is_a_one_line_resumable_failure(tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = _start(LONG, out)
    _wait_for_chunks(out, 3, proc)
    victim = min(p for p in _workers(proc) if b"resource_tracker" not in Path(f"/proc/{p}/cmdline").read_bytes())
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "a worker process died" in lines[0], err
    assert read_manifest(out).status == "failed"
    assert not _gone_within(_descendants(proc.pid), 30)


def test_ctrl_c_exits_130_during_play_and_during_charts(tmp_path: Path, run_cli, monkeypatch) -> None:
    import ginsim.analysis.plots
    import ginsim.run.runner

    def interrupt(*_a, **_k):
        raise KeyboardInterrupt

    out = tmp_path / "run"
    with monkeypatch.context() as m:
        m.setattr(ginsim.run.runner, "write_chunk", interrupt)
        r = run_cli(*SMALL, "--out", str(out))
    assert r.code == 130 and len(r.err.strip().splitlines()) == 1 and "interrupted" in r.err
    assert read_manifest(out).status == "interrupted"
    with monkeypatch.context() as m:
        m.setattr(ginsim.analysis.plots, "_draw_all", interrupt)
        r = run_cli(*[a for a in SMALL if a != "--no-plots"], "--out", str(out))
    assert r.code == 130 and r.err.strip() == "ginsim: interrupted"


# -- environment failures: a small tmpfs -------------------------------------------------------
@pytest.fixture
def tmpfs(tmp_path: Path):
    d = tmp_path / "tmpfs"
    d.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(d)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    yield d
    subprocess.run(["umount", "-l", str(d)], capture_output=True)


def _remount(d: Path, opts: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{opts}", str(d)], check=True, capture_output=True)


def test_a_full_disk_is_one_line_and_the_folder_resumable(tmpfs: Path, run_cli) -> None:
    out = tmpfs / "run"
    args = ["match", "simple", "random", "--hands", "4000", "--chunk", "10", "-q", "--no-plots", "--jobs", "1"]
    r = run_cli(*args, "--out", str(out))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "the disk is full" in r.err, r.err
    assert "Traceback" not in r.err
    assert not list(out.rglob("*.tmp-*"))
    _remount(tmpfs, "size=50m")
    r = run_cli(*args, "--out", str(out))
    assert r.code == 0, r.err
    assert read_manifest(out).status == "complete"
    assert pd.read_csv(out / "summary.csv")["hands"].tolist() == [4000, 4000]


def test_a_read_only_folder_is_one_line(tmpfs: Path, run_cli) -> None:
    out = tmpfs / "run"
    assert run_cli(*SMALL, "--out", str(out)).code == 0
    report = (out / "report.md").read_bytes()
    _remount(tmpfs, "ro")
    try:
        for args in (["report", str(out)], ["plot", str(out)], [*SMALL, "--out", str(out)]):
            r = run_cli(*args)
            assert r.code == 2 and len(r.err.strip().splitlines()) == 1, r.err
            assert "read-only" in r.err and "Traceback" not in r.err
    finally:
        _remount(tmpfs, "rw")
    assert (out / "report.md").read_bytes() == report
    assert run_cli(*SMALL, "--out", str(out)).code == 0


def test_a_path_too_long_is_one_line(tmp_path: Path, run_cli) -> None:
    out = tmp_path / ("x" * 300)
    r = run_cli(*SMALL, "--out", str(out))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "too long" in r.err


def test_a_failed_dask_connection_leaves_no_run_folder(tmp_path: Path, run_cli) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    r = run_cli(*SMALL[:-2], "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", str(out))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert not out.exists()


# -- bounds ----------------------------------------------------------------------------------
def test_rule_bounds_keep_every_value_inside_the_log_columns() -> None:
    int16 = 2**15 - 1
    worst_hand = 2 * (98 + MAX_HAND_BONUS)  # deadwood difference plus a bonus, doubled by spades (R30)
    assert worst_hand <= int16
    assert MAX_TARGET_SCORE + worst_hand + MAX_HAND_BONUS <= int16  # a running score, boxes at once (R31)
    Rules(gin_bonus=MAX_HAND_BONUS, target_score=MAX_TARGET_SCORE)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rule", "gin_bonus=40000"], "gin_bonus must be 0..1000"),
        (["--rule", "target_score=40000"], "target_score must be 1..10000"),
        (["--rule", "time_per_hand=inf"], "time_per_hand must be a number of seconds > 0"),
        (["--rule", "time_per_hand=nan"], "time_per_hand must be a number of seconds > 0"),
        (["--hands", "99999999999999999999"], "at most 1,000,000,000 per pairing"),
    ],
)
def test_out_of_bounds_values_are_refused_up_front(tmp_path: Path, run_cli, args, words) -> None:
    out = tmp_path / "run"
    r = run_cli("match", "simple", "random", *args, "-q", "--out", str(out))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and words in r.err, r.err
    assert not out.exists()


def test_the_largest_bonus_runs_to_the_end(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "run"
    rules = ["--rule", "gin_bonus=1000", "--rule", "undercut_bonus=1000", "--rule", "target_score=3000"]
    r = run_cli("match", "simple", "random", "--games", "2", *rules, "-q", "--no-plots", "--out", str(out))
    assert r.code == 0, r.err
    df = hand_log(out)
    assert df["points"].max() > 1000 and df[["score_0", "score_1"]].max().max() > 1000


def test_the_chunk_plan_is_lazy() -> None:
    tracemalloc.start()
    plan = plan_run(MatchRun("simple", "random"), rules=Rules(), hands=MAX_COUNT, chunk=1)
    chunks = plan.chunks()
    assert len(chunks) == MAX_COUNT // 2
    assert chunks[-1] == (0, MAX_COUNT // 2 - 1, MAX_COUNT // 2 - 1, MAX_COUNT // 2)
    assert list(zip(range(3), chunks, strict=False))[2][1] == (0, 2, 2, 3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 5_000_000  # a list of 5e8 chunks would take tens of gigabytes


def test_a_sweep_refuses_duplicate_values(tmp_path: Path, run_cli) -> None:
    r = run_cli("sweep", "threshold", "--param", "knock_at=3,5,3", "--vs", "simple", "--out", str(tmp_path / "s"))
    assert r.code == 2 and "listed twice" in r.err
    r = run_cli("sweep", "threshold", "--param", "knock_at=3,4", "--vs", "simple", "--vs", "simple")
    assert r.code == 2 and "listed twice" in r.err


def test_jobs_above_the_core_count_are_capped_with_a_note(tmp_path: Path, run_cli) -> None:
    out = tmp_path / "run"
    cores = os.cpu_count() or 1
    args = [a for a in SMALL if a not in ("-q",)]
    args[args.index("--jobs") + 1] = str(cores + 14)
    r = run_cli(*args, "--out", str(out))
    assert r.code == 0, r.err
    assert f"--jobs {cores + 14} is more than the {cores} cores" in r.err
    assert read_manifest(out).jobs == cores


# -- strategy text in report.md --------------------------------------------------------------
def test_markdown_escaping() -> None:
    assert md_code("simple") == "`simple`"
    assert md_code("a|b\nc") == "`a\\|b c`"
    assert md_code("x`y") == "`` x`y ``"
    text = md_text("boom\n| *x* <script>")
    assert "\n" not in text and "<" not in text and "\\|" in text and "\\*x\\*" in text


def test_a_forfeit_reason_cannot_break_the_report(tmp_path: Path, run_cli) -> None:
    plugin = tmp_path / "evil.py"
    plugin.write_text(
        "from ginsim import Strategy\n"
        "class Evil(Strategy):\n"
        "    name = 'evil'\n"
        "    def take_upcard(self, view):\n"
        "        return False\n"
        "    def discard(self, view):\n"
        "        raise RuntimeError('a | b\\n\\n# heading <img src=x> `code` $x$')\n"
    )
    out = tmp_path / "run"
    r = run_cli("match", f"{plugin}:Evil", "simple", "--hands", "4", "-q", "--jobs", "1", "--out", str(out))
    assert r.code == 0, r.err
    report = (out / "report.md").read_text()
    assert "\n# heading" not in report and "<img" not in report
    lines = report.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("| strategy | opponent |"))
    header = lines[at]
    table = lines[at : lines.index("", at)]  # the summary table, down to its blank line
    rows = [line for line in table if line.startswith("| `evil`")]  # its own name labels it
    cells = lambda line: len(line.replace("\\|", "").split("|"))  # noqa: E731
    assert rows and all(cells(row) == cells(header) for row in rows)


def test_run_error_is_a_value_error() -> None:
    assert issubclass(RunError, ValueError)
