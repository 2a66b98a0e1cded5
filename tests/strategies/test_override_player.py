"""``override_player.py`` and ``checked_player.py``: ``learned`` whose close discards (and,
with ``take_margin``, close upcard decisions) are played out in ``patient``'s deals. The
model's choice stands unless the play-outs beat it by the confidence asked: with a
confidence no play-out reaches, every hand is ``learned``'s own; with the usual one, some
choices are searched and some overridden."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from support.learned import hand_moves, heads_only
from support.training import training_module

from ginsim.engine.spec import parse_spec
from ginsim.engine.view import Event


def _moves(strategy: object, preset: str, h: int) -> list[Event]:
    return hand_moves(strategy, "simple", preset, 300, h)


@pytest.mark.parametrize("preset", ["default", "eaai"])
def test_without_a_confident_playout_it_plays_as_learned(preset: str) -> None:
    override = training_module("override_player")
    for h in range(4):
        me = override.Override(
            samples=4, margin=50.0, top=6, confidence=1e9, take_margin=50.0, teacher="hunter_confidence=1e9"
        )
        assert _moves(me, preset, h) == _moves(heads_only(), preset, h)
        assert me.searched > 0 and me.overridden == 0 and me.take_overridden == 0


@pytest.mark.parametrize("preset", ["default", "eaai"])
def test_ranked_by_its_whole_values_it_plays_as_learned_with_its_card_value(preset: str) -> None:
    override = training_module("override_player")
    differs = 0
    for h in range(6):
        me = override.Override(
            samples=4, margin=50.0, top=6, confidence=1e9, take_margin=50.0, teacher="hunter_confidence=1e9", whole=1
        )
        assert _moves(me, preset, h) == _moves(parse_spec("learned").build(), preset, h)
        assert me.searched > 0 and me.overridden == 0
        differs += _moves(me, preset, h) != _moves(heads_only(), preset, h)
    assert differs > 0  # the card value moves some discards, and whole=1 plays them


def test_close_choices_are_searched_and_some_overridden() -> None:
    override = training_module("override_player")
    counts = [0, 0, 0, 0]
    for h in range(8):
        me = override.Override(samples=8, margin=50.0, top=4, confidence=0.0, take_margin=50.0)
        _moves(me, "default", h)
        for i, n in enumerate((me.searched, me.overridden, me.take_searched, me.take_overridden)):
            counts[i] += n
    assert counts[0] > counts[1] > 0 and counts[2] > counts[3] > 0, counts


def test_bad_settings_are_refused() -> None:
    override = training_module("override_player")
    for bad, match in (
        ({"samples": 1}, "samples"),
        ({"top": 1}, "top"),
        ({"margin": -1.0}, "margin"),
        ({"whole": 2}, "whole"),
    ):
        with pytest.raises(ValueError, match=match):
            override.Override(**bad)
    with pytest.raises(ValueError, match="take_margin"):
        override.Override(take_margin=-0.5)


def test_the_checked_player_without_a_confident_playout_plays_as_learned() -> None:
    checked = training_module("checked_player")
    for h in range(4):
        me = checked.LearnedChecked(samples=4, candidates=4, close=50.0, confidence=1e9)
        me.judge.hunter_confidence = 1e9
        assert _moves(me, "default", h) == _moves(heads_only(), "default", h)


def test_the_search_teaches_records_that_replay(tmp_path: Path) -> None:
    labels = tmp_path / "labels"
    args = ["--seed", "3", "--games", "2", "--presets", "default", "--opponents", "simple"]
    assert training_module("search_labels").main([*args, "--search", "samples=4", "--out-dir", str(labels)]) == 0
    with np.load(labels / "records-default-0.npz") as d:
        assert d["discard.sizes"].sum() > 0 and len(d["log.seeds"]) == 2
        assert json.loads(str(d["log.meta"]))["teacher"] == {"samples": 4}
        first = d["discard.rows"]
    again = tmp_path / "again"
    assert training_module("relabel").main(["--records", str(labels), "--out-dir", str(again)]) == 0
    with np.load(again / "records-default-0.npz") as d:
        assert np.array_equal(d["discard.rows"], first)


def test_search_labels_refuses_a_bad_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--out-dir", str(tmp_path / "x"), "--search", "samples=1"]
    assert training_module("search_labels").main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--search" in err[0] and "samples" in err[0]
    assert not (tmp_path / "x").exists()


def test_label_fit_finds_the_shipped_heads_follow_their_own_labels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = tmp_path / "labels"
    args = ["--seed", "4", "--games", "2", "--presets", "default", "--opponents", "simple", "--out-dir", str(labels)]
    # with no margin the search never runs: the teacher is the shipped model itself
    assert training_module("search_labels").main([*args, "--search", "margin=0,take_margin=0"]) == 0
    capsys.readouterr()
    fit = training_module("label_fit")
    assert fit.main(["--records", str(labels), "--steps", "20", "--tune", "20"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    fits = ("shipped", "linear", "16 units", "shipped, 20 steps more")
    assert [(r["head"], r["fit"]) for r in rows] == [(head, name) for head in ("discard", "take") for name in fits]
    for r in rows:
        assert 0.0 <= r["held_out_agreement"] <= 1.0 and r["held_out_log_likelihood"] <= 0.0
    assert all(r["held_out_agreement"] == 1.0 for r in rows if r["fit"] == "shipped")
    assert fit.main(["--records", str(tmp_path / "none")]) == 2
    assert fit.main(["--records", str(labels), "--preset", "nonsense"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


def test_the_speed_script_times_a_file_strategy_and_refuses_a_bad_one(capsys: pytest.CaptureFixture[str]) -> None:
    speed = training_module("speed")
    here = Path(speed.__file__).parent / "override_player.py"
    assert speed.main([f"{here}:Override:samples=2", "--hands", "2"]) == 0
    assert "hands/s of CPU time (default)" in capsys.readouterr().out
    for bad in (["nosuch"], ["learned", "--rules", "bogus"], [f"{here}:Override:top=1"]):
        assert speed.main([*bad, "--hands", "2"]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.strip().splitlines()) == 1, captured


def test_the_teacher_takes_several_parameters_separated_by_semicolons() -> None:
    override = training_module("override_player")
    me = parse_spec(f"{override.__file__}:Override:whole=1,teacher=hint=0.02;pass_hint=0.05").build()
    assert (me.judge.hint, me.judge.pass_hint) == (0.02, 0.05)
    plain = override.Override(whole=1)
    assert (plain.judge.hint, plain.judge.pass_hint) == (0.2, 0.5)  # patient's own, without them
