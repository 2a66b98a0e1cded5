"""``learned``'s cheap heads: where an undercut is worth 10 or less (the default and classic
presets) the shipped model's ``cheap.*`` heads play, elsewhere its other heads, so the EAAI,
modern and palace play is the play of the heads alone; a model file without cheap heads plays
its heads everywhere; the scripts that make the shipped model write and fit them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ginsim.strategies.learned import (
    CARDS,
    CHEAP,
    CHEAP_CARDS,
    CHEAP_MODEL,
    CHEAP_UNDERCUT,
    HEADS,
    MODEL,
    MODEL_FILE,
    Learned,
    read_model,
)
from support.learned import rows_of_hands
from support.training import training_module

from ginsim.engine.playhand import play_hand
from ginsim.engine.result import HandResult
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.valuemodel import ModelFileError, load_heads, reference_score, save_heads
from ginsim.run.seeding import deck_for


def _hands(rules_name: str, me: str | None, n: int = 6) -> list[HandResult]:
    """``n`` hands of ``learned`` (the shipped model, or the model file ``me``) against ``aware``."""
    rules = preset_rules(rules_name)
    spec = parse_spec("learned" if me is None else f"learned:model={me}")
    return [
        play_hand(rules, [spec.build(), parse_spec("aware").build()], deck_for(700 + h), h % 2, (0, 0), (h, h + 1))
        for h in range(n)
    ]


def test_the_shipped_model_has_cheap_heads_on_the_same_features() -> None:
    heads, cheap = read_model(MODEL_FILE)[0][:2]
    assert set(cheap) == set(HEADS)
    for key, names in HEADS.items():
        assert cheap[key].names == names == CHEAP_MODEL[key].names
        assert cheap[key].w1 is not None and heads[key].w1 is None  # a hidden layer; linear


@pytest.mark.parametrize(
    ("rules_name", "cheap"),
    [("default", True), ("classic", True), ("eaai", False), ("modern", False), ("palace", False)],
)
def test_the_cheap_heads_play_where_undercuts_cost_ten_or_less(rules_name: str, cheap: bool) -> None:
    assert (preset_rules(rules_name).undercut_bonus <= CHEAP_UNDERCUT) is cheap

    class View:
        rules = preset_rules(rules_name)

    assert Learned().heads_for(View()) is (CHEAP_MODEL if cheap else MODEL)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules_name", "which"), [("eaai", "heads"), ("palace", "heads"), ("default", "cheap")])
def test_its_play_is_the_play_of_the_heads_its_rules_choose(tmp_path: Path, rules_name: str, which: str) -> None:
    """The shipped model plays, hand for hand, as a file holding only the heads its rules
    choose; under the default rules that is not the play of the other heads."""
    heads, cheap, cards, cheap_cards = read_model(MODEL_FILE)[0]
    alone = tmp_path / "alone.npz"
    if which == "heads":  # the heads and the card value beside them
        save_heads(alone, heads, cards={CARDS: cards} if cards else None)
    else:  # the cheap heads and the card value beside them
        both = {**heads, **{CHEAP + k: h for k, h in cheap.items()}}
        save_heads(alone, both, cards={CHEAP_CARDS: cheap_cards} if cheap_cards else None)
    assert _hands(rules_name, None) == _hands(rules_name, str(alone))
    if which == "cheap":
        other = tmp_path / "other.npz"
        save_heads(other, heads)
        assert _hands(rules_name, None) != _hands(rules_name, str(other))


def test_the_hidden_layer_scores_match_the_slow_reference_on_real_positions() -> None:
    seen = rows_of_hands("default", 4, first_deck=800)
    assert {kind for kind, _ in seen} >= {"take", "discard"}
    assert CHEAP_MODEL["discard"].w1 is not None
    for kind, rows in seen[:40]:
        for row, value in zip(rows, CHEAP_MODEL[kind].score(np.array(rows)), strict=True):
            assert value == pytest.approx(reference_score(CHEAP_MODEL[kind], row), rel=1e-9, abs=1e-9)


def test_a_model_with_some_cheap_heads_but_not_all_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    save_heads(bad, {**MODEL, CHEAP + "discard": CHEAP_MODEL["discard"]})
    with pytest.raises(ModelFileError, match="some cheap heads but not all"):
        read_model(bad)
    plain = tmp_path / "plain.npz"
    save_heads(plain, MODEL)
    model = read_model(plain)[0]
    assert model.cheap is model.heads


def test_the_cheap_heads_script_writes_both_sets(tmp_path: Path) -> None:
    base, cheap = tmp_path / "base.npz", tmp_path / "cheap.npz"
    save_heads(base, MODEL, {"seed": 7})
    save_heads(cheap, CHEAP_MODEL, {"seed": 5001})
    out = tmp_path / "out.npz"
    assert training_module("cheap_heads").main([str(base), str(cheap), "--out", str(out)]) == 0
    (heads, cheap_heads, _, _), meta = read_model(out)
    for key in HEADS:
        assert np.array_equal(heads[key].w2, MODEL[key].w2)
        assert np.array_equal(cheap_heads[key].w2, CHEAP_MODEL[key].w2)
    assert meta == {"seed": 7.0, "cheap.seed": 5001.0}


def test_a_cheap_model_of_some_heads_replaces_only_those(tmp_path: Path) -> None:
    base, part, knock = tmp_path / "base.npz", tmp_path / "part.npz", tmp_path / "knock.npz"
    save_heads(base, {**MODEL, **{CHEAP + key: head for key, head in CHEAP_MODEL.items()}})
    save_heads(part, {"discard": MODEL["discard"]})  # a fit of the discard head alone
    save_heads(knock, {"knock": MODEL["knock"]})
    out = tmp_path / "out.npz"
    assert training_module("cheap_heads").main([str(base), str(part), "--out", str(out)]) == 0
    cheap_heads = read_model(out)[0][1]
    assert np.array_equal(cheap_heads["discard"].w2, MODEL["discard"].w2)
    for key in ("take", "knock"):
        assert np.array_equal(cheap_heads[key].w2, CHEAP_MODEL[key].w2)
    args = [str(base), str(part), "--knock", str(knock), "--out", str(out)]
    assert training_module("cheap_heads").main(args) == 0
    assert np.array_equal(read_model(out)[0][1]["knock"].w2, MODEL["knock"].w2)


def test_the_trainer_fits_only_the_heads_named(tmp_path: Path) -> None:
    trainer = training_module("train_learned")
    args = ["--seed", "13", "--games", "1", "--shares", "1", "--presets", "default", "--opponents", "simple"]
    ship = tmp_path / "knock.npz"
    assert (
        trainer.main(
            [*args, "--teacher", "samples=8", "--heads", "knock", "--out-dir", str(tmp_path), "--ship", str(ship)]
        )
        == 0
    )
    assert set(load_heads(ship, HEADS, required=False)[0]) == {"knock"}
    with pytest.raises(SystemExit):
        trainer.main([*args, "--heads", "knock,nothing", "--out-dir", str(tmp_path)])


def test_the_trainer_fits_on_the_records_of_several_folders(tmp_path: Path) -> None:
    trainer = training_module("train_learned")
    for run, seed in (("a", "11"), ("b", "12")):
        args = ["--seed", seed, "--games", "1", "--shares", "1", "--presets", "default", "--opponents", "simple"]
        assert trainer.main([*args, "--teacher", "samples=8", "--out-dir", str(tmp_path / run)]) == 0
    both = tmp_path / "both.npz"
    args = ["--fit-only", "--records", str(tmp_path / "a"), "--records", str(tmp_path / "b"), "--shares", "1"]
    assert trainer.main([*args, "--out-dir", str(tmp_path / "fit"), "--ship", str(both)]) == 0
    metas = [load_heads(p, HEADS)[1]["hands"] for run in "ab" for p in (tmp_path / run).glob("model-*.npz")]
    assert load_heads(both, HEADS)[1]["hands"] == sum(metas)
