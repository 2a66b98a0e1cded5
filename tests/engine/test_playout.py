"""ginsim.engine.playout: its helpers against brute force, and whole play-outs against the engine.

A play-out is a hand played by two fixed policies without the engine; here the engine
plays the same policies (as strategies) from the same deals, and every hand must end with
the same points.
"""

from __future__ import annotations

import itertools
import random

import pytest
from support import reference as ref
from support.playouts import assert_playouts_match_the_engine

from ginsim.engine.cards import FULL_DECK, melds_with
from ginsim.engine.melds import tables_for
from ginsim.engine.playout import (
    Policy,
    deal_hidden,
    discard_with_outs,
    least_discard,
    outs_mask,
    playout,
    score_knock,
    shuffled_stock,
)
from ginsim.engine.rules import Rules
from ginsim.run.seeding import deck_for


def random_hand(rng: random.Random, n: int, exclude: int = 0) -> int:
    cards = [c for c in range(52) if not exclude >> c & 1]
    return ref.mask_of(rng.sample(cards, n))


def test_outs_and_melds_with_match_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(150):
        hand = random_hand(rng, 10)
        outs = 0
        for x in range(52):
            if hand >> x & 1:
                continue
            if any(ref.is_meld(1 << x | 1 << a | 1 << b) for a, b in itertools.combinations(ref.cards(hand), 2)):
                outs |= 1 << x
            joins = any(m >> x & 1 for m in ref.all_melds(hand | 1 << x))
            assert melds_with(x, hand) == joins, (ref.names(hand), ref.name(x))
        assert outs_mask(hand) == outs, ref.names(hand)


def test_least_discard_matches_brute_force_and_respects_the_ban() -> None:
    rng = random.Random(8)
    t = tables_for()
    for _ in range(300):
        hand = random_hand(rng, 11)
        banned = 1 << rng.choice(ref.cards(hand))
        dw, card = least_discard(t, hand, banned)
        assert not banned >> card & 1 and hand >> card & 1
        assert dw == ref.ref_deadwood(hand & ~(1 << card))
        assert dw == min(ref.ref_deadwood(hand & ~(1 << c)) for c in ref.cards(hand & ~banned))
        assert least_discard(t, hand, 0)[0] == ref.ref_best_discard(hand)[0]


def test_discard_with_outs_trades_deadwood_for_live_outs() -> None:
    t = tables_for()
    rng = random.Random(9)
    for _ in range(200):
        hand = random_hand(rng, 11)
        live = FULL_DECK & ~hand
        least = least_discard(t, hand, 0)[0]
        dw, card = discard_with_outs(t, hand, 0, live, 0.0, 6)
        assert dw == least == ref.ref_deadwood(hand & ~(1 << card))  # no weight: least deadwood
        dw, card = discard_with_outs(t, hand, 0, live, 100.0, 6)
        assert least <= dw <= least + 6
        best_outs = max(
            (outs_mask(hand & ~(1 << c)) & live).bit_count()
            for c in ref.cards(hand)
            if ref.ref_deadwood(hand & ~(1 << c)) <= least + 6
        )
        assert (outs_mask(hand & ~(1 << card)) & live).bit_count() == best_outs


def test_score_knock_matches_the_reference_scoring() -> None:
    rules = Rules(gin_bonus=25, undercut_bonus=25)
    t = tables_for()
    rng = random.Random(10)
    kinds = set()
    knocks = 0
    while knocks < 150:
        knocker = random_hand(rng, 10)
        if t.deadwood_mask(knocker) > rules.knock_limit:
            continue
        defender = random_hand(rng, 10, knocker)
        while knocks % 2 and t.deadwood_mask(defender) > 16:  # half of them low, to see undercuts
            defender = random_hand(rng, 10, knocker)
        knocks += 1
        kd = ref.ref_deadwood(knocker)
        after = ref.ref_best_layoff_fast(defender, t.best_melds_mask(knocker).melds)[0]
        if kd == 0:
            want = rules.gin_bonus + ref.ref_deadwood(defender)  # R19: no lay-offs on gin
        elif kd < after:
            want = after - kd
            kinds.add("knock")
        else:
            want = -(kd - after + rules.undercut_bonus)
            kinds.add("undercut")
        assert score_knock(rules, t, knocker, kd, defender) == want
    assert kinds == {"knock", "undercut"}
    gin = ref.parse("AC 2C 3C 4C 5H 5D 5S 9S TS JS")
    defender = ref.parse("KH KD QH QD JH JD 2D 3D 7H 8C")
    assert score_knock(rules, t, gin, 0, defender) == 25 + ref.ref_deadwood(defender)


def test_deal_hidden_deals_unseen_cards_and_can_refuse_a_knock() -> None:
    t = tables_for()
    rng = random.Random(11)
    for _ in range(200):
        known = random_hand(rng, 2)
        unseen = [c for c in range(52) if not known >> c & 1 and rng.random() < 0.7]
        cards = unseen.copy()
        opp = deal_hidden(t, cards, known, 8, 5, [0.0] * 11, rng.random)
        assert opp & known == known and opp.bit_count() == 10
        assert opp & ~known & ~ref.mask_of(unseen) == 0
        assert sorted(cards) == sorted(unseen)  # shuffled in place, nothing lost
        start = known | ref.mask_of(cards[:8])
        if t.deadwood_mask(start) > 10:
            assert t.deadwood_mask(opp) > 10  # belief 0: no improvement reaches a knock
        stock = shuffled_stock(cards, opp, rng.random)
        assert sorted(stock) == sorted(c for c in unseen if not opp >> c & 1)


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(knock_limit=7, allow_discard_of_drawn_upcard=True, gin_bonus=25, undercut_bonus=25)],
    ids=["default", "variant"],
)
@pytest.mark.parametrize(
    "policy",
    [
        Policy(late_turn=12, late_knock_at=4),
        Policy(late_turn=12, late_knock_at=4, opp_late_turn=9, opp_late_knock_at=1),
    ],
    ids=["eager-opponent", "waiting-opponent"],
)
def test_playouts_end_as_the_engine_plays_the_same_policies(rules: Rules, policy: Policy) -> None:
    assert_playouts_match_the_engine(rules, policy)


def test_a_playout_with_two_cards_left_is_a_draw() -> None:
    rules = Rules()
    t = tables_for()
    deck = deck_for(3)
    me, opp = ref.mask_of(deck[0:20:2]), ref.mask_of(deck[1:20:2])
    assert playout(rules, t, Policy(), me, opp, [deck[20]], [deck[21], deck[22]], 30) == 0
