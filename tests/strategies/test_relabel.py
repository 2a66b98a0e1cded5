"""The labelling run's log of the teacher's answers: ``relabel.py`` replays it in the same
seeded games and works out the same rows (so a new feature needs no new labelling run), and
it refuses, in one line, a folder it cannot replay."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from support.training import training_module

TEACHER = ["--teacher", "samples=8", "--shares", "1", "--presets", "default,eaai"]


def _label(tmp_path: Path, opponents: str, seed: str = "21") -> Path:
    out = tmp_path / "labels"
    args = ["--seed", seed, "--games", "2", "--opponents", opponents, *TEACHER, "--out-dir", str(out)]
    assert training_module("train_learned").main(args) == 0
    return out


def test_a_replay_works_out_the_same_rows_and_keeps_the_log(tmp_path: Path) -> None:
    labels = _label(tmp_path, "simple;aware:late_turn=8,late_knock_at=0")
    again = tmp_path / "again"
    assert training_module("relabel").main(["--records", str(labels), "--out-dir", str(again)]) == 0
    files = sorted(p.name for p in labels.glob("records-*.npz"))
    assert files == sorted(p.name for p in again.glob("records-*.npz")) and len(files) == 4
    for name in files:
        with np.load(labels / name) as a, np.load(again / name) as b:
            assert a["discard.sizes"].sum() > 0 and len(a["log.seeds"]) == 2
            for key in a.files:
                if key != "seconds":
                    assert np.array_equal(a[key], b[key]), (name, key)


def test_a_game_both_seats_of_which_teach_replays_too(tmp_path: Path) -> None:
    trainer = training_module("train_learned")
    out = tmp_path / "both"
    # without --teacher an opponent ``patient`` teaches as well: two logs a game
    args = ["--seed", "5", "--games", "1", "--opponents", "patient", "--presets", "default", "--shares", "1"]
    assert trainer.main([*args, "--out-dir", str(out)]) == 0
    with np.load(out / "records-default-0.npz") as d:
        assert sorted(d["log.seats"].tolist()) == [0, 1]
    assert training_module("relabel").main(["--records", str(out), "--out-dir", str(tmp_path / "again")]) == 0
    with np.load(out / "records-default-0.npz") as a, np.load(tmp_path / "again" / "records-default-0.npz") as b:
        assert np.array_equal(a["discard.rows"], b["discard.rows"])


def test_a_log_that_the_game_does_not_follow_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    labels = _label(tmp_path, "simple")
    path = labels / "records-default-0.npz"
    with np.load(path) as d:
        arrays = {key: d[key] for key in d.files}
    arrays["log.answers"] = arrays["log.answers"].copy()
    arrays["log.answers"][: len(arrays["log.answers"]) // 2] ^= 1  # other answers: the game goes elsewhere
    np.savez_compressed(path, **arrays)
    again = tmp_path / "again"
    assert training_module("relabel").main(["--records", str(labels), "--out-dir", str(again)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("relabel: ") and "records-default-0.npz" in err[0]


def test_records_without_a_log_or_a_folder_without_records_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    relabel = training_module("relabel")
    assert relabel.main(["--records", str(tmp_path), "--out-dir", str(tmp_path / "out")]) == 2
    assert "no records files" in capsys.readouterr().err
    old = tmp_path / "old"
    old.mkdir()
    np.savez_compressed(old / "records-default-0.npz", hands=np.array(0))
    assert relabel.main(["--records", str(old), "--out-dir", str(tmp_path / "out")]) == 2
    assert "no log of the teacher's answers" in capsys.readouterr().err
    (old / "records-default-0.npz").write_bytes(b"not a records file")
    assert relabel.main(["--records", str(old), "--out-dir", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be read" in err[0]


def test_records_of_other_features_are_refused_by_the_fit(tmp_path: Path) -> None:
    labels = _label(tmp_path, "simple")
    path = labels / "records-default-0.npz"
    with np.load(path) as d:
        arrays = {key: d[key] for key in d.files}
    arrays["discard.rows"] = arrays["discard.rows"][:, :-1]
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match=r"relabel\.py"):
        training_module("labels").load_records([path])


def test_a_teacher_asked_again_agrees_with_itself_where_it_does_not_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    agreement = training_module("teacher_agreement")
    out = tmp_path / "plain"
    args = ["--seed", "23", "--games", "2", "--opponents", "simple", "--presets", "default", "--shares", "1"]
    assert training_module("train_learned").main([*args, "--teacher", "samples=0", "--out-dir", str(out)]) == 0
    capsys.readouterr()
    for every in (1, 3):
        assert agreement.main(["--records", str(out), "--teacher", "samples=0", "--every", str(every)]) == 0
        found = json.loads(capsys.readouterr().out)
        assert found["asked"] > 0 and found["same"] == found["asked"], found
        if every == 1:
            with np.load(out / "records-default-0.npz") as d:
                assert found["asked"] == len(d["discard.sizes"])
            every_one = found["asked"]
        else:
            assert 0 < found["asked"] < every_one
    # a teacher that samples, asked where the plain one answered, does not always agree
    assert agreement.main(["--records", str(out), "--teacher", "samples=4,close=8,candidates=8", "--every", "1"]) == 0
    sampled = json.loads(capsys.readouterr().out)
    assert sampled["asked"] == every_one and 0 < sampled["same"] < sampled["asked"], sampled


def test_teacher_agreement_refuses_a_bad_folder_or_teacher(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agreement = training_module("teacher_agreement")
    assert agreement.main(["--records", str(tmp_path)]) == 2
    labels = _label(tmp_path, "simple")
    assert agreement.main(["--records", str(labels), "--teacher", "samples=-1"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and "no records files" in lines[0] and "--teacher" in lines[1]
