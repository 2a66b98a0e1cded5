"""The Dask backend: a local cluster plays the very hand log loky plays, resumes
the same way, stays quiet, and a missing extra or a bad scheduler is one line."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pandas as pd
import pytest
from support.runs import hand_log

from ginsim.runfolder.chunks import chunk_files

pytest.importorskip("distributed", reason="the dask extra: pip install 'ginsim[dask]'")

BASE = ["match", "simple", "random", "--hands", "120", "--chunk", "10", "--seed", "5", "--no-plots"]


@pytest.fixture(scope="module")
def loky_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ginsim.cli import main

    out = tmp_path_factory.mktemp("loky") / "run"
    main([*BASE, "--jobs", "2", "-q", "--out", str(out)])  # returns normally on success
    return out


def test_local_cluster_plays_the_loky_log_and_resumes_the_same(loky_run: Path, tmp_path: Path, ginsim_proc) -> None:
    out = tmp_path / "dask"
    r = ginsim_proc(*BASE, "--jobs", "2", "--backend", "dask", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # no dask log lines, warnings or tracebacks
    assert "match in" in r.stdout and "simple" in r.stdout
    m = json.loads((out / "manifest.json").read_text())
    assert (m["backend"], m["scheduler"], m["status"]) == ("dask", None, "complete")
    pd.testing.assert_frame_equal(hand_log(out), hand_log(loky_run))
    pd.testing.assert_frame_equal(pd.read_csv(out / "summary.csv"), pd.read_csv(loky_run / "summary.csv"))
    # resume: delete two chunks, rerun on a local cluster, the same log
    files = chunk_files(out)
    files[1].unlink()
    files[-1].unlink()
    r = ginsim_proc(*BASE, "--jobs", "2", "--backend", "dask", "-q", "--out", str(out))
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert len(json.loads((out / "manifest.json").read_text())["resumed"]) == 1
    pd.testing.assert_frame_equal(hand_log(out), hand_log(loky_run))


def test_an_existing_cluster_by_its_address(loky_run: Path, tmp_path: Path, run_cli) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        r = run_cli(*BASE, "--backend", "dask", "--scheduler", address, "-q", "--out", str(tmp_path / "x"))
        assert r.code == 0, r.err
        assert len(cluster.scheduler.workers) == 2  # the run left the cluster as it found it
    m = json.loads((tmp_path / "x" / "manifest.json").read_text())
    assert (m["backend"], m["scheduler"]) == ("dask", address)
    pd.testing.assert_frame_equal(hand_log(tmp_path / "x"), hand_log(loky_run))


def test_sprt_on_dask_stops_at_the_same_chunk_quietly(tmp_path: Path, run_cli, ginsim_proc) -> None:
    args = ["match", "simple", "random", "--sprt", "p0=0,p1=2", "--chunk", "20", "--seed", "2", "--no-plots", "-q"]
    r = ginsim_proc(*args, "--jobs", "2", "--backend", "dask", "--out", str(tmp_path / "d"))
    assert r.returncode == 0 and r.stderr == "", r.stderr  # chunks cancelled past the decision: no noise
    assert run_cli(*args, "--jobs", "1", "--out", str(tmp_path / "l")).code == 0
    read = lambda name: json.loads((tmp_path / name / "manifest.json").read_text())["stopped"]  # noqa: E731
    assert read("d") == read("l") and read("d")["decision"] == "H1 accepted"
    pd.testing.assert_frame_equal(hand_log(tmp_path / "d"), hand_log(tmp_path / "l"))


def test_without_the_extra_dask_is_one_line(monkeypatch: pytest.MonkeyPatch, run_cli, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    r = run_cli(*BASE, "--backend", "dask", "-q", "--out", str(tmp_path / "x"))
    assert r.code == 2
    assert r.err == "ginsim: error: --backend dask needs dask and distributed: pip install 'ginsim[dask]'\n"
    assert not (tmp_path / "x").exists()  # checked before anything is written


def test_without_the_extra_an_existing_run_is_left_as_it_was(
    monkeypatch: pytest.MonkeyPatch, run_cli, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    assert run_cli(*BASE, "-q", "--out", str(out)).code == 0
    chunks = sorted(out.glob("hands/*.parquet"))
    chunks[-1].unlink()  # a partial run, to be resumed
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    monkeypatch.setitem(sys.modules, "distributed", None)
    r = run_cli(*BASE, "--backend", "dask", "-q", "--out", str(out))
    assert r.code == 2 and "pip install 'ginsim[dask]'" in r.err
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:{port}", "foo:bar:baz"])
def test_a_scheduler_that_cannot_be_reached_is_one_line(
    address: str, monkeypatch: pytest.MonkeyPatch, run_cli, tmp_path: Path
) -> None:
    import ginsim.run.backends

    monkeypatch.setattr(ginsim.run.backends, "CONNECT_TIMEOUT", 0.5)
    scheduler = address.format(port=_free_port())
    r = run_cli(*BASE, "--backend", "dask", "--scheduler", scheduler, "-q", "--out", str(tmp_path / "x"))
    assert r.code == 2
    assert r.err.startswith(f"ginsim: error: cannot reach the dask scheduler {scheduler}: ")
    assert r.err.count("\n") == 1


def test_scheduler_needs_the_dask_backend(run_cli, tmp_path: Path) -> None:
    r = run_cli(*BASE, "--scheduler", "tcp://127.0.0.1:8786", "--out", str(tmp_path / "x"))
    assert r.code == 2 and "(--scheduler) is only for the dask backend" in r.err


def test_a_strategy_file_missing_on_a_worker_is_one_line_naming_the_worker(
    tmp_path: Path, run_cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    from distributed import LocalCluster

    import ginsim.run.backends
    from ginsim.errors import StrategySpecError

    def worker_without_the_file(_task: object) -> object:
        raise StrategySpecError("strategy 'bot.py:Bot': no file 'bot.py'")

    monkeypatch.setattr(ginsim.run.backends, "_play", worker_without_the_file)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        r = run_cli(*BASE, "--backend", "dask", "--scheduler", cluster.scheduler_address, "-q", "--out", str(tmp_path))
    assert r.code == 2
    assert r.err.startswith("ginsim: error: on a dask worker: strategy 'bot.py:Bot': no file 'bot.py'")
    assert r.err.count("\n") == 1
