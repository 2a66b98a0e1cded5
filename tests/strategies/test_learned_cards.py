"""``learned``'s card value: where its cheap heads play, a model file's card value (a network
over the cards kept, the card let go and what the seat has seen) is added to the discard
head's values, and nowhere else; ``card_value.py ship`` writes a network into a model file
that then plays as ``card_value_player.Valued`` plays the network; a card value that does
not fit is refused with one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ginsim.strategies.learned import (
    CARD_NUMBERS,
    CARD_SETS,
    CARDS,
    CHEAP,
    CHEAP_MODEL,
    MODEL,
    Learned,
    card_numbers,
    card_sets,
    discard_rows,
    read_model,
)
from support.runs import ginsim_subprocess
from support.training import training_module

from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.valuemodel import CardValue, ModelFileError, reference_card_value, save_heads
from ginsim.engine.view import Event, PlayerView
from ginsim.run.seeding import deck_for

BOTH = {**MODEL, **{CHEAP + key: head for key, head in CHEAP_MODEL.items()}}


def _value(seed: int, names: tuple[str, ...] = CARD_NUMBERS, sets: int = CARD_SETS) -> CardValue:
    rng = np.random.default_rng(seed)
    width, h1, h2 = sets * 52 + len(names), 12, 6
    return CardValue(
        names, sets, np.zeros(len(names)), np.ones(len(names)), rng.normal(size=(width, h1)),
        rng.normal(size=h1) * 0.1, rng.normal(size=(h1, h2)) * 0.3, np.zeros(h2), rng.normal(size=h2) * 20.0, 0.5,
    )  # fmt: skip


def _moves(strategy: object, rules_name: str, h: int) -> list[Event]:
    log: list[Event] = []
    seats = [strategy, parse_spec("aware").build()]
    play_hand(preset_rules(rules_name), seats, deck_for(900 + h), h % 2, (0, 0), (h, h + 1), log)
    return log


class _Checker(Learned):
    """``learned`` checking, at every discard, its values against the heads and the card value
    worked out the slow way."""

    checked = 0

    def discard(self, view: PlayerView) -> int:
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, view.hand, view.hand & ~view.legal_discards())
        values = self.discard_values(view, ctx, cards, rows)
        head = self.heads_for(view)["discard"].score(np.array(rows))
        for i, card in enumerate(cards):
            want = head[i]
            if view.rules.undercut_bonus <= 10:
                masks = [view.hand & ~(1 << card), 1 << card, *card_sets(view)]
                assert self.cards is not None
                want += reference_card_value(self.cards, masks, card_numbers(view, ctx, rows[i]))
            assert values[i] == pytest.approx(want, rel=1e-9, abs=1e-9)
        _Checker.checked += len(cards)
        return super().discard(view)


@pytest.mark.parametrize(("rules_name", "adds"), [("default", True), ("classic", True), ("eaai", False)])
def test_the_card_value_is_added_where_the_cheap_heads_play(tmp_path: Path, rules_name: str, adds: bool) -> None:
    path, plain = tmp_path / "cards.npz", tmp_path / "plain.npz"
    save_heads(path, BOTH, cards={CARDS: _value(1)})
    save_heads(plain, BOTH)
    _Checker.checked = 0
    same = [
        _moves(_Checker(model=str(path)), rules_name, h) == _moves(Learned(model=str(plain)), rules_name, h)
        for h in range(6)
    ]
    assert _Checker.checked > 30
    assert all(same) is not adds  # a value that weighs this much moves some discards, only where it plays


def test_a_shipped_network_plays_as_the_file_strategy_plays_it(tmp_path: Path) -> None:
    cv = training_module("card_value")
    player = training_module("card_value_player")
    base, net_path, out = tmp_path / "base.npz", tmp_path / "v.npz", tmp_path / "out.npz"
    save_heads(base, BOTH, {"seed": 3})
    width = cv.WIDTH - cv.MASKS * 52
    net = cv.ValueNet.fresh(np.zeros(width), np.ones(width), 16, np.random.default_rng(2))
    cv.save_value(net_path, net, {"samples": 10, "hidden": 16, "epochs": 1, "seed": 2})
    argv = ["ship", "--model", str(base), "--value", str(net_path), "--weight", "30", "--out", str(out)]
    assert cv.main(argv) == 0
    (_, _, cards), meta = read_model(out)
    assert cards is not None and meta["card_weight"] == 30.0 and meta["card_seed"] == 2.0 and meta["seed"] == 3.0
    shipped, plain = parse_spec(f"learned:model={out}"), parse_spec(f"learned:model={base}")
    valued = f"{player.__file__}:Valued:value={net_path},weight=30"
    moved = 0
    for h in range(6):
        mine = _moves(shipped.build(), "default", h)
        assert mine == _moves(parse_spec(valued).build(), "default", h)
        moved += mine != _moves(plain.build(), "default", h)
        assert _moves(shipped.build(), "eaai", h) == _moves(plain.build(), "eaai", h)
    assert moved > 0


def test_a_card_value_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    save_heads(other, BOTH, cards={CARDS: _value(1, names=CARD_NUMBERS[:-1])})
    with pytest.raises(ModelFileError, match="not trained on these numbers"):
        read_model(other)
    alone = tmp_path / "alone.npz"
    save_heads(alone, MODEL, cards={CARDS: _value(1)})
    with pytest.raises(ModelFileError, match="needs cheap heads"):
        read_model(alone)
    res = ginsim_subprocess("match", f"learned:model={other}", "simple", "--games", "2", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not trained on these numbers" in res.stderr


def test_ship_refuses_a_model_without_cheap_heads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cv = training_module("card_value")
    plain, net_path = tmp_path / "plain.npz", tmp_path / "v.npz"
    save_heads(plain, MODEL)
    width = cv.WIDTH - cv.MASKS * 52
    cv.save_value(net_path, cv.ValueNet.fresh(np.zeros(width), np.ones(width), 4, np.random.default_rng(2)), {})
    out = tmp_path / "out.npz"
    for argv, said in (
        (["ship", "--model", str(plain), "--value", str(net_path), "--weight", "4", "--out", str(out)], "cheap heads"),
        (["ship", "--value", str(net_path), "--weight", "0", "--out", str(out)], "--weight"),
        (["ship", "--value", str(plain), "--weight", "4", "--out", str(out)], "value network"),
    ):
        assert cv.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert not out.exists()
