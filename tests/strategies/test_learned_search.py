"""``learned``'s improvement by search (experiments/training/expert_iteration.py): a hand
rebuilt in a sampled world from a seat's view (``ginsim.rollout``, which ``learned_search``
plays out too) is the engine's own hand at that decision,
with the sampled opponent hand and stock, and the refit is reproducible from a seed."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import HEADS, MODEL_FILE, Learned
from ginsim.strategies.patient import Patient
from support.training import training_module

from ginsim.engine import rollout as rollouts
from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.valuemodel import load_heads
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for

_module = training_module


class _Checker(Learned):
    """``learned`` that rebuilds its hand in a sampled world at each discard and checks it."""

    def __init__(self) -> None:
        super().__init__()
        self.checked = 0

    def discard(self, view: PlayerView) -> int:
        rand = random.Random(view.turn)
        for opp, stock in Patient(samples=2).worlds(view, 2):
            deck = rollouts.rebuild_deck(view, opp, stock, rand.random)
            assert deck is not None and sorted(deck) == list(range(52))
            hand = rollouts.replay(view.rules, view, deck)
            mine = hand.views[view.seat]
            assert (hand.to_move, mine.hand, mine.pile_mask, mine.turn) == (
                view.seat,
                view.hand,
                view.pile_mask,
                view.turn,
            )
            assert mine.history == view.history and mine.opp_known == view.opp_known
            assert hand.hands[1 - view.seat] == opp
            assert list(reversed(hand.deck[hand.next_stock :])) == stock
            card = super().discard(view)
            rollouts.apply(hand, ("discard", card), [Learned(), Learned()], None)
            rollouts.finish(hand, [Learned(), Learned()])
            assert hand.result is not None
            self.checked += 1
        return super().discard(view)


def test_a_hand_rebuilt_in_a_sampled_world_is_the_engines_hand_at_the_decision() -> None:
    for rules_name in ("default", "eaai"):
        rules = preset_rules(rules_name)
        for h in range(3):
            checker = _Checker()
            play_hand(rules, [checker, Learned()], deck_for(100 + h), h % 2, (0, 0), (1, 2))
            assert checker.checked > 0


def test_search_refits_the_named_heads_reproducibly(tmp_path: Path) -> None:
    search = _module("expert_iteration")
    outs = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.npz"
        args = ["--model", str(MODEL_FILE), "--games", "1", "--seed", "6", "--opponent", "simple"]
        assert search.main([*args, "--worlds", "2", "--heads", "discard,knock", "--out", str(out)]) == 0
        outs.append(load_heads(out, HEADS)[0])
    shipped = load_heads(MODEL_FILE, HEADS, widen=True)[0]
    for key in HEADS:
        assert np.array_equal(outs[0][key].w2, outs[1][key].w2)
    assert np.array_equal(outs[0]["take"].w2, shipped["take"].w2)
    assert not np.array_equal(outs[0]["discard"].w2, shipped["discard"].w2)


def test_search_on_the_real_deal_plays_out_against_the_opponent_itself(tmp_path: Path) -> None:
    search = _module("expert_iteration")
    labels = tmp_path / "labels.json"
    out = tmp_path / "t.npz"
    args = ["--model", str(MODEL_FILE), "--games", "1", "--seed", "7", "--opponent", "simple", "--worlds", "2"]
    extra = ["--truth", "--own-rollouts", "simple", "--heads", "take", "--labels", str(labels), "--out", str(out)]
    assert search.main([*args, *extra]) == 0
    assert labels.exists()
    shipped, refit = load_heads(MODEL_FILE, HEADS, widen=True)[0], load_heads(out, HEADS)[0]
    assert np.array_equal(refit["discard"].w2, shipped["discard"].w2)
    assert not np.array_equal(refit["take"].w2, shipped["take"].w2)


def test_the_search_prototype_plays_legal_hands() -> None:
    player = _module("search_player").LearnedSearch(worlds=2, top=2)
    for rules_name in ("default", "eaai"):
        res = play_hand(preset_rules(rules_name), [player, Learned()], deck_for(300), 0, (0, 0), (1, 2))
        assert res.forfeit_seat == -1
