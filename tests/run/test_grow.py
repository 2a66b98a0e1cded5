"""Runs that grow: a larger count extends a run folder, a new entrant joins a round-robin;
only what is new is played, and the result equals the larger run played in one go."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import read_chunk, read_games, read_manifest

Q = ["-q", "--no-plots", "--jobs", "1"]


def _log(folder: Path) -> pd.DataFrame:
    return pd.concat([read_chunk(f) for f in chunk_files(folder)], ignore_index=True)


def _files(folder: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in chunk_files(folder)}


def test_an_extended_run_equals_the_larger_run_in_one_go(run_cli, tmp_path: Path) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    base = ["match", "simple", "aware", "--seed", "5", *Q]
    assert run_cli(*base, "--hands", "60", "--chunk", "25", "--out", str(grown)).code == 0
    before = _files(grown)
    r = run_cli(*base[:-4], "--no-plots", "--jobs", "1", "--hands", "140", "--out", str(grown))
    assert r.code == 0, r.err
    assert "ginsim: growing" in r.err and "60 → 140 hands per pairing" in r.err
    after = _files(grown)
    assert {k: after[k] for k in before} == before  # the first 60 hands: the very same files
    assert run_cli(*base, "--hands", "140", "--chunk", "25", "--out", str(whole)).code == 0
    pd.testing.assert_frame_equal(_log(grown), _log(whole))  # hand for hand
    m = read_manifest(grown)
    assert m.hands == 140 and m.bounds == [30] and len(m.extensions) == 1
    assert m.extensions[0]["hands"] == [60, 140]
    assert ": 60 → 140 hands per pairing" in (grown / "report.md").read_text(encoding="utf-8")
    summary = pd.read_csv(grown / "summary.csv")
    assert list(summary["hands"]) == [140, 140]
    timed = [c for c in summary if c.startswith("think_")]  # the machine's, not the run's
    pd.testing.assert_frame_equal(summary.drop(columns=timed), pd.read_csv(whole / "summary.csv").drop(columns=timed))


def test_a_game_run_extends_too(run_cli, tmp_path: Path) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    base = ["match", "simple", "threshold:knock_at=4", *Q]
    assert run_cli(*base, "--games", "4", "--chunk", "1", "--out", str(grown)).code == 0
    assert run_cli(*base, "--games", "10", "--chunk", "1", "--out", str(grown)).code == 0
    assert run_cli(*base, "--games", "10", "--chunk", "1", "--out", str(whole)).code == 0
    pd.testing.assert_frame_equal(_log(grown), _log(whole))
    pd.testing.assert_frame_equal(read_games(chunk_files(grown)), read_games(chunk_files(whole)))


def test_a_round_robin_takes_a_new_entrant_and_plays_only_its_pairings(run_cli, tmp_path: Path) -> None:
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    three = ["random", "simple", "threshold:knock_at=5"]
    args = ["--hands", "40", *Q]
    assert run_cli("roundrobin", *three, *args, "--out", str(grown)).code == 0
    before = _files(grown)
    r = run_cli("roundrobin", *three, "aware", "--hands", "40", "--no-plots", "--jobs", "1", "--out", str(grown))
    assert r.code == 0, r.err
    assert "3 new pairings" in r.err
    after = _files(grown)
    assert {k: after[k] for k in before} == before  # the old pairings were not played again
    assert run_cli("roundrobin", *three, "aware", *args, "--out", str(whole)).code == 0
    mg, mw = read_manifest(grown), read_manifest(whole)
    labels = lambda m: {p.index: (p.label_a, p.label_b) for p in m.pairings}  # noqa: E731
    assert set(labels(mg).values()) == set(labels(mw).values())
    lg, lw = _log(grown), _log(whole)
    for index, pair in labels(mg).items():  # pairing for pairing, whatever its index
        other = next(i for i, q in labels(mw).items() if q == pair)
        a = lg[lg["pairing"] == index].drop(columns="pairing").reset_index(drop=True)
        b = lw[lw["pairing"] == other].drop(columns="pairing").reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)
    ratings = pd.read_csv(grown / "ratings.csv")
    assert set(ratings["strategy"]) == {*three, "aware"}
    assert mg.extensions[0]["pairings"] == [3, 6]
    assert ": 3 → 6 pairings" in (grown / "report.md").read_text(encoding="utf-8")


def test_a_smaller_count_or_another_seed_is_refused(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert run_cli("match", "simple", "random", "--hands", "20", *Q, "--out", str(out)).code == 0
    files = _files(out)
    r = run_cli("match", "simple", "random", "--hands", "10", *Q, "--out", str(out))
    assert r.code == 2
    assert r.err.strip() == (
        f"ginsim: error: --out {out} holds 20 hands per pairing; a run grows, never shrinks: "
        "ask for 20 or more, or use another --out"
    )
    r = run_cli("match", "simple", "random", "--hands", "40", "--seed", "2", *Q, "--out", str(out))
    assert r.code == 2 and "(differs in: seed)" in r.err and "\n" not in r.err.strip()
    r = run_cli("match", "simple", "random", "--hands", "40", "--rules", "eaai", *Q, "--out", str(out))
    assert r.code == 2 and "rules" in r.err
    r = run_cli("match", "simple", "threshold", "--hands", "40", *Q, "--out", str(out))
    assert r.code == 2 and "holds a different run" in r.err
    assert _files(out) == files
