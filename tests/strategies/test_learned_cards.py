"""``learned``'s card values: a model file's card value (a network over the cards kept, the
card let go and what the seat has seen) is added to the discard values of the heads it
belongs to - the cheap heads' where undercuts are cheap, the other heads' elsewhere - and
nowhere else; ``card_value.py ship`` writes a network into a model file beside the heads of a
preset, which then plays there as ``card_value_player.Valued`` plays the network; a card
value that does not fit is refused with one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from ginsim.strategies.learned import (
    CARD_NUMBERS,
    CARD_SETS,
    CARDS,
    CHEAP,
    CHEAP_CARDS,
    CHEAP_MODEL,
    MODEL,
    Learned,
    card_numbers,
    card_sets,
    discard_rows,
    read_model,
)
from support.runs import ginsim_subprocess
from support.training import fresh_network, training_module

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
        names, sets, np.zeros(len(names)), np.full(len(names), 30.0), rng.normal(size=(width, h1)),
        rng.normal(size=h1) * 0.1, rng.normal(size=(h1, h2)) * 0.3, np.zeros(h2), rng.normal(size=h2) * 60.0, 0.5,
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
        value = self.cheap_cards if view.rules.undercut_bonus <= 10 else self.cards
        for i, card in enumerate(cards):
            want = head[i]
            if value is not None:
                masks = [view.hand & ~(1 << card), 1 << card, *card_sets(view)]
                want += reference_card_value(value, masks, card_numbers(view, ctx, rows[i]))
            assert values[i] == pytest.approx(want, rel=1e-9, abs=1e-9)
        _Checker.checked += len(cards)
        return super().discard(view)


@pytest.mark.parametrize(
    ("key", "rules_name", "adds"),
    [
        (CHEAP_CARDS, "default", True), (CHEAP_CARDS, "classic", True), (CHEAP_CARDS, "eaai", False),
        (CARDS, "eaai", True), (CARDS, "palace", True), (CARDS, "modern", True), (CARDS, "default", False),
    ],
)  # fmt: skip
def test_a_card_value_is_added_where_its_heads_play(tmp_path: Path, key: str, rules_name: str, adds: bool) -> None:
    path, plain = tmp_path / "cards.npz", tmp_path / "plain.npz"
    save_heads(path, BOTH, cards={key: _value(1)})
    save_heads(plain, BOTH)
    _Checker.checked = 0
    same = [
        _moves(_Checker(model=str(path)), rules_name, h) == _moves(Learned(model=str(plain)), rules_name, h)
        for h in range(6)
    ]
    assert _Checker.checked > 30
    assert all(same) is not adds  # a value that weighs this much moves some discards, only where it plays


def test_without_cheap_heads_the_card_value_plays_under_every_rule_set(tmp_path: Path) -> None:
    path, plain = tmp_path / "cards.npz", tmp_path / "plain.npz"
    save_heads(path, MODEL, cards={CARDS: _value(1).scaled(3.0)})
    save_heads(plain, MODEL)
    model = read_model(path)[0]
    assert model.cheap is model.heads and model.cheap_cards is model.cards is not None
    for rules_name in ("default", "eaai"):
        _Checker.checked = 0
        moves = [_moves(_Checker(model=str(path)), rules_name, h) for h in range(6)]
        assert _Checker.checked > 30
        assert moves != [_moves(Learned(model=str(plain)), rules_name, h) for h in range(6)]


@pytest.mark.parametrize(("preset", "other"), [("default", "eaai"), ("eaai", "default")])
def test_a_shipped_network_plays_as_the_file_strategy_plays_it(tmp_path: Path, preset: str, other: str) -> None:
    cv = training_module("card_value")
    player = training_module("card_value_player")
    base, net_path, out = tmp_path / "base.npz", tmp_path / "v.npz", tmp_path / "out.npz"
    save_heads(base, BOTH, {"seed": 3}, cards={CHEAP_CARDS: _value(4)} if preset == "eaai" else None)
    width = cv.WIDTH - cv.MASKS * 52
    net = cv.ValueNet.fresh(np.zeros(width), np.ones(width), 16, np.random.default_rng(2))
    cv.save_value(net_path, net, {"samples": 10, "hidden": 16, "epochs": 1, "seed": 2})
    argv = ["ship", "--model", str(base), "--value", str(net_path), "--weight", "30", "--out", str(out)]
    assert cv.main([*argv, "--preset", preset]) == 0
    model, meta = read_model(out)
    prefix = "" if preset == "default" else CARDS + "."
    assert meta[prefix + "card_weight"] == 30.0 and meta[prefix + "card_seed"] == 2.0 and meta["seed"] == 3.0
    shipped, plain = parse_spec(f"learned:model={out}"), parse_spec(f"learned:model={base}")
    valued = f"{player.__file__}:Valued:value={net_path},weight=30"
    moved = 0
    for h in range(6):
        mine = _moves(shipped.build(), preset, h)
        assert mine == _moves(parse_spec(valued).build(), preset, h)
        moved += mine != _moves(plain.build(), preset, h)
        assert _moves(shipped.build(), other, h) == _moves(plain.build(), other, h)  # the other value is kept
    assert moved > 0
    assert model.cheap_cards is not None and (model.cards is not None) is (preset == "eaai")


def test_a_card_value_that_does_not_fit_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.npz"
    save_heads(other, BOTH, cards={CARDS: _value(1, names=CARD_NUMBERS[:-1])})
    with pytest.raises(ModelFileError, match="not trained on these numbers"):
        read_model(other)
    alone = tmp_path / "alone.npz"
    save_heads(alone, MODEL, cards={CHEAP_CARDS: _value(1)})
    with pytest.raises(ModelFileError, match="needs cheap heads"):
        read_model(alone)
    sets = tmp_path / "sets.npz"
    save_heads(sets, BOTH, cards={CARDS: _value(1, sets=CARD_SETS - 1)})
    with pytest.raises(ModelFileError, match="card sets"):
        read_model(sets)
    res = ginsim_subprocess("match", f"learned:model={other}", "simple", "--games", "2", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not trained on these numbers" in res.stderr


def test_ship_refuses_cheap_rules_for_a_model_without_cheap_heads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cv = training_module("card_value")
    plain, net_path = tmp_path / "plain.npz", tmp_path / "v.npz"
    save_heads(plain, MODEL)
    fresh_network(net_path, hidden=4, seed=2)
    out = tmp_path / "out.npz"
    for argv, said in (
        (["ship", "--model", str(plain), "--value", str(net_path), "--weight", "4", "--out", str(out)], "cheap heads"),
        (["ship", "--value", str(net_path), "--weight", "0", "--out", str(out)], "--weight"),
        (["ship", "--value", str(plain), "--weight", "4", "--out", str(out)], "value network"),
        (["ship", "--value", str(net_path), "--weight", "4", "--preset", "nope", "--out", str(out)], "nope"),
    ):
        assert cv.main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err
    assert not out.exists()
    argv = ["ship", "--model", str(plain), "--value", str(net_path), "--weight", "4", "--preset", "eaai"]
    assert cv.main([*argv, "--out", str(out)]) == 0  # beside the heads that play there
    model = read_model(out)[0]
    assert model.cards is not None and model.cheap_cards is model.cards
