"""The analysis of a freshly played run from the chunks' parts taken as they were
written (ginsim.analysis.digest) equals the analysis read back from the folder."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from ginsim.analysis.digest import RunDigest
from ginsim.analysis.logcounts import read_log_counts
from ginsim.analysis.plots import strategy_order
from ginsim.analysis.tables import analyze
from ginsim.launch import RunSettings, finish, launch
from ginsim.run.describe import SweepRun
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import read_manifest


def _sweep(out: Path, plots: bool = True) -> Path:
    run = SweepRun("threshold", "knock_at=0,5", ("simple", "random"))
    settings = RunSettings(seed=4, hands=240, chunk=40, out=out, jobs=1, quiet=True, plots=plots)
    return launch(run, settings, echo=lambda _m: None)


def _counts_frames(folder: Path, digest: RunDigest | None) -> list[pd.DataFrame]:
    m = read_manifest(folder)
    counts = read_log_counts(folder, m.pairings, digest)
    order = strategy_order(m)
    return [
        counts.frame("outcomes", order),
        counts.frame("turns", ["all hands", *order]),
        counts.frame("deadwood", order),
    ]


def test_digest_figures_equal_the_figures_read_from_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    digests: list[RunDigest] = []
    real = RunDigest.__init__

    def keep(self: RunDigest, *args: object, **kw: object) -> None:
        real(self, *args, **kw)  # type: ignore[arg-type]
        digests.append(self)

    monkeypatch.setattr(RunDigest, "__init__", keep)
    folder = _sweep(tmp_path / "run")
    (digest,) = digests
    files = chunk_files(folder)
    assert len(digest) == len(files) > 4  # every chunk was taken as it was written
    assert all(digest.part(f, need_counts=True) is not None for f in files)
    fresh = analyze(folder, digest)
    read = analyze(folder)
    pd.testing.assert_frame_equal(fresh.summary, read.summary)
    for a, b in zip(_counts_frames(folder, digest), _counts_frames(folder, None), strict=True):
        pd.testing.assert_frame_equal(a, b)
    # a chunk file changed since it was taken is read again, not taken from the digest
    changed = files[2]
    os.utime(changed, ns=(0, 0))
    assert digest.part(changed) is None
    assert digest.part(files[1]) is not None


def test_run_with_and_without_digest_writes_the_same_tables(tmp_path: Path) -> None:
    folder = _sweep(tmp_path / "a")
    copy = tmp_path / "b"
    shutil.copytree(folder, copy)
    finish(copy, plots=True, quiet=True, svg=False)  # no digest: every chunk read back
    assert (folder / "summary.csv").read_bytes() == (copy / "summary.csv").read_bytes()
    for png in sorted((folder / "charts").glob("*.png")):
        assert png.read_bytes() == (copy / "charts" / png.name).read_bytes(), png.name


def test_a_digest_without_counts_or_with_other_labels_is_not_used_for_charts(tmp_path: Path) -> None:
    folder = _sweep(tmp_path / "run", plots=False)
    m = read_manifest(folder)
    files = chunk_files(folder)
    bare = RunDigest(m.pairings, counts=False)
    for f in files:
        bare.add(f, pq.read_table(f))
    assert bare.part(files[0]) is not None and bare.part(files[0], need_counts=True) is None
    other = RunDigest([replace(p, label_a="x") for p in m.pairings])
    for f in files:
        other.add(f, pq.read_table(f))
    for a, b in zip(_counts_frames(folder, other), _counts_frames(folder, None), strict=True):
        pd.testing.assert_frame_equal(a, b)
    broken = RunDigest(m.pairings)
    broken.add(files[0], "not a table")  # never fails the run: the chunk is read later
    assert broken.part(files[0]) is None and len(broken) == 0
