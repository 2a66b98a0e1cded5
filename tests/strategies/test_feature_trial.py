"""``feature_trial.py``: a labelling run's rows lengthened by a trial's columns and the head
fitted with and without them on held-out decisions; and the trial of the ninth attempt, the
kept hand two draws ahead, checked against the plain double loop of draws; and the diagnostic
player that hands one kind of decision to the teacher."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from ginsim.strategies.learned import HEADS
from support.training import training_module

from ginsim import tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.run.seeding import deck_for


@pytest.mark.parametrize("max_run", [None, 3])
def test_two_draws_matches_the_plain_double_loop(max_run: int | None) -> None:
    two = training_module("two_draws")
    flat = tables_for(max_run).flat
    rand = random.Random(11)
    for _ in range(60):
        cards = rand.sample(range(52), 10 + rand.choice([3, 12, 25]))
        rest = sum(1 << c for c in cards[:10])
        pool = sum(1 << c for c in cards[10:])
        q = [rand.choice([0.05, 0.3, 0.7, 1.0]) for _ in range(52)]
        limit = rand.choice([0, 5, 10])
        fast = two.two_draws(flat, rest, pool, q, limit)
        assert fast == pytest.approx(two.plain_two_draws(flat, rest, pool, q, limit), rel=1e-9, abs=1e-9)


def test_a_trial_lengthens_the_head_rows_and_compares_held_out_fits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = tmp_path / "labels"
    args = ["--seed", "8", "--games", "2", "--presets", "default", "--opponents", "simple", "--teacher", "samples=8"]
    assert training_module("train_learned").main([*args, "--shares", "1", "--out-dir", str(labels)]) == 0
    capsys.readouterr()
    trial = training_module("feature_trial")
    columns = str(Path(trial.__file__).with_name("two_draws.py")) + ":columns"
    out = tmp_path / "trial"
    assert trial.main(["--records", str(labels), "--columns", columns, "--out-dir", str(out), "--hidden", "0"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["columns"], x["head"]) for x in lines] == [("without", "linear"), ("with", "linear")]
    assert all(x["decisions"][0] > 0 and x["decisions"][1] > 0 for x in lines)
    assert all(0.0 <= x["held_out_agreement"] <= 1.0 and x["held_out_log_likelihood"] <= 0.0 for x in lines)
    with np.load(labels / "records-default-0.npz") as a, np.load(out / "0" / "records-default-0.npz") as b:
        width = len(HEADS["discard"])
        assert b["discard.rows"].shape[1] == width + 3
        assert np.array_equal(a["discard.rows"], b["discard.rows"][:, :width])
        assert np.array_equal(a["knock.rows"], b["knock.rows"]) and np.array_equal(a["take.rows"], b["take.rows"])


def test_a_bad_columns_function_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trial = training_module("feature_trial")
    for bad in ("nocolon", f"{tmp_path}/missing.py:columns", "json:no_such_function"):
        assert trial.main(["--records", str(tmp_path), "--columns", bad, "--out-dir", str(tmp_path / "o")]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("feature_trial: ")


@pytest.mark.parametrize("kind", ["discard", "take", "knock"])
def test_the_mixed_player_hands_one_kind_of_decision_to_the_teacher(kind: str) -> None:
    mixed = training_module("mixed_player")
    rules = preset_rules("default")
    for h in range(3):
        me = mixed.Mixed(**{kind: "teacher"}, teacher="samples=4")
        seats = [me, parse_spec("simple").build()]
        result = play_hand(rules, seats, deck_for(60 + h), h % 2, (0, 0), (h, h + 1))
        assert result.outcome != "forfeit"
    with pytest.raises(ValueError, match="discard must be one of"):
        mixed.Mixed(discard="nobody")
