"""``learned``: its shipped model loads and is small, its decisions are the model's (the
batched NumPy scores agree with the slow reference on positions from real hands), and the
training script reproduces a model from a seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ginsim.strategies.learned import (
    HEADS,
    MODEL,
    MODEL_FILE,
    Learned,
    discard_rows,
    next_draw,
)
from support.learned import RowsKept, rows_of_hands
from support.training import training_module

from ginsim.engine.cards import cards_list
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.valuemodel import ModelFileError, load_heads, reference_score
from ginsim.engine.view import PlayerView
from ginsim.errors import StrategySpecError
from ginsim.run.seeding import deck_for


def test_the_shipped_model_loads_is_small_and_has_every_head() -> None:
    assert MODEL_FILE.stat().st_size < 1_000_000
    assert set(MODEL) == set(HEADS)
    for key, names in HEADS.items():
        assert MODEL[key].names == names
        assert np.isfinite(MODEL[key].w2).all()


@pytest.mark.parametrize("rules_name", ["default", "eaai"])
def test_the_models_scores_match_the_slow_reference_on_real_positions(rules_name: str) -> None:
    seen = rows_of_hands(rules_name, 6)
    assert {kind for kind, _ in seen} >= {"take", "discard"}
    for kind, rows in seen[:40]:
        fast = MODEL[kind].score(np.array(rows))
        for row, value in zip(rows, fast, strict=True):
            assert value == pytest.approx(reference_score(MODEL[kind], row), rel=1e-9, abs=1e-9)


def _slow_next_draw(learned: Learned, view: PlayerView, rest: int) -> tuple[float, float, float, float, float]:
    """``next_draw`` of the 10-card hand ``rest`` written out: every unseen card drawn in
    turn (weighed by its chance to be in the stock) and every card of the 11 tried as the
    discard; the outs are the draws that make a meld with two cards of the hand."""
    ctx = learned.context(view)
    dwm = ctx.tables.deadwood_mask
    dw = dwm(rest)
    if dw == 0:
        return 0.0, 0.0, 0.0, 1.0, 1.0
    held = [c for c in range(52) if rest >> c & 1]
    total = expect = knock = gin = gain = live = 0.0
    for c in range(52):
        if not ctx.opp.unseen >> c & 1:
            continue
        w = 1.0 - ctx.opp.p[c]
        after = min(dwm((rest | 1 << c) & ~(1 << d)) for d in [*held, c])
        total += w
        expect += w * after
        knock += w * (after <= ctx.limit)
        gin += w * (after == 0)
        melds = any(dwm(1 << c | 1 << a | 1 << b) == 0 for a in held for b in held if a < b)
        if melds:
            live += w
            gain += w * (dw - after)
    return gain, live, expect / total, knock / total, gin / total


@pytest.mark.parametrize("rules_name", ["default", "eaai"])
def test_the_next_draw_features_match_a_draw_by_draw_count(rules_name: str) -> None:
    class Check(Learned):
        checked = 0

        def discard(self, view: PlayerView) -> int:
            hand = view.hand
            for card in cards_list(hand & view.legal_discards()):
                rest = hand & ~(1 << card)
                fast = next_draw(self.context(view), rest)
                assert fast == pytest.approx(_slow_next_draw(self, view, rest), rel=1e-9, abs=1e-9)
                Check.checked += 1
            return super().discard(view)

    rules = preset_rules(rules_name)
    for h in range(4):
        play_hand(rules, [Check(), parse_spec("simple").build()], deck_for(300 + h), h % 2, (0, 0), (h, h + 1))
    assert Check.checked > 100


def test_the_discard_played_is_the_best_valued_one() -> None:
    class Check(RowsKept):
        def discard(self, view: PlayerView) -> int:
            card = super().discard(view)
            hand = view.hand
            cards, rows = discard_rows(self.context(view), hand, hand & ~view.legal_discards())
            assert card == cards[int(np.argmax(MODEL["discard"].score(np.array(rows))))]
            return card

    rules = preset_rules("eaai")
    for h in range(4):
        play_hand(rules, [Check(), parse_spec("aware").build()], deck_for(200 + h), h % 2, (0, 0), (h, h + 1))


def test_it_knocks_with_gin_whatever_the_model_says() -> None:
    class View:
        discard_deadwood = 0

    assert Learned().knock(View())  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["learned:explore=2", "learned:hunter_prior=1", "learned:model=/no/such/file.npz"])
def test_bad_parameters_are_refused(spec: str) -> None:
    with pytest.raises((StrategySpecError, ModelFileError)):
        parse_spec(spec).build()


def _trainer() -> Any:
    return training_module("train_learned")


def test_the_training_script_reproduces_its_model_from_a_seed(tmp_path: Path) -> None:
    trainer = _trainer()
    ships = []
    for run in ("a", "b"):
        ship = tmp_path / f"{run}.npz"
        args = ["--seed", "3", "--games", "1", "--shares", "1", "--out-dir", str(tmp_path / run), "--ship", str(ship)]
        assert trainer.main(args) == 0
        ships.append(load_heads(ship, HEADS)[0])
    for key in HEADS:
        assert np.array_equal(ships[0][key].w2, ships[1][key].w2)
    played = parse_spec(f"learned:model={tmp_path / 'a.npz'}").build()
    assert played.heads["discard"].w2.tolist() == ships[0]["discard"].w2.tolist()


def test_the_knock_improvement_refits_only_the_knock_head(tmp_path: Path) -> None:
    trainer = _trainer()
    distilled = tmp_path / "d.npz"
    assert (
        trainer.main(
            ["--seed", "4", "--games", "1", "--shares", "1", "--out-dir", str(tmp_path), "--ship", str(distilled)]
        )
        == 0
    )
    improve = training_module("improve_knocks")
    out = tmp_path / "i.npz"
    assert improve.main(["--model", str(distilled), "--games", "2", "--seed", "5", "--out", str(out)]) == 0
    before, after = load_heads(distilled, HEADS)[0], load_heads(out, HEADS)[0]
    for key in ("discard", "take"):
        assert np.array_equal(before[key].w2, after[key].w2)
    assert not np.array_equal(before["knock"].w2, after["knock"].w2)
