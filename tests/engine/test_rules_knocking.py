"""R14-R22: knocking, gin, lay-offs and scoring a hand,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import random

import pytest
from support.deals import (
    Script,
    StockDrawer,
    apply,
    make_deck,
    mask,
    names,
)
from support.rulebook import (
    BIG_GIN_DEFENDER,
    BIG_GIN_HAND,
    DEALER,
    DEFAULT,
    LAYOFF_KNOCKER,
    NONDEALER,
    TABLES,
    brute_deadwood,
    brute_layable,
    brute_layoff_deadwood,
    play,
    simple,
)

from ginsim import (
    IllegalMoveError,
    Rules,
    best_layoff,
    parse_card,
    parse_spec,
    play_hand,
)
from ginsim.engine.cards import cards_list
from ginsim.engine.playhand import Hand
from ginsim.engine.view import DISCARD
from ginsim.run.seeding import deck_for, game_deal_seed

# == Knocking and gin ======================================================================


def test_r14_knock_on_the_first_turn_after_taking_the_upcard():
    # the non-dealer takes 4S onto AS-2S-3S and knocks at once
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="2H")
    res = play(deck, Script(["take", "knock 5D"]), Script([]))
    assert res.outcome == "gin" and res.knocker == 0 and res.turns == 1


def test_r14_knock_on_the_first_turn_after_both_pass():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]))
    assert res.knocker == 0 and res.knocker_deadwood == 5 and res.turns == 1


def test_r14_dealer_knocks_on_its_first_turn():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="5S", stock="KH")
    res = play(deck, Script(["pass"]), Script(["take", "knock 5H"]))
    assert res.knocker == 1 and res.knocker_deadwood == 5


def test_r14_knock_refused_above_knock_limit_with_reason():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    h = Hand(Rules(knock_limit=4), deck, dealer=1)
    apply(h, "pass; pass")
    with pytest.raises(IllegalMoveError) as err:
        h.discard(parse_card("KH"), knock=True)
    assert isinstance(err.value, ValueError)
    msg = str(err.value)
    assert "knock" in msg and "deadwood 5" in msg and "knock limit 4" in msg
    assert h.phase is DISCARD and h.hands[0].bit_count() == 11  # nothing applied
    apply(h, "discard KH")  # the same discard without a knock is fine


def test_r14_knock_limit_boundary():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    # discarding 5D keeps KH: deadwood exactly 10
    h = Hand(Rules(), deck, dealer=1)
    apply(h, "pass; pass; knock 5D")
    assert h.show().knocker_deadwood == 10
    h = Hand(Rules(knock_limit=9), deck, dealer=1)
    apply(h, "pass; pass")
    with pytest.raises(IllegalMoveError, match="deadwood 10 is over the knock limit 9"):
        h.discard(parse_card("5D"), knock=True)
    # knock_limit=0: only gin
    h = Hand(Rules(knock_limit=0), deck, dealer=1)
    apply(h, "pass; pass")
    with pytest.raises(IllegalMoveError, match="knock limit 0"):
        h.discard(parse_card("KH"), knock=True)


def test_r14_strategy_knock_above_limit_is_never_asked_and_knocking_is_not_forced():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH 2H")
    nd = Script(["pass", "knock KH"], then=StockDrawer())
    dl = Script(["pass"], then=StockDrawer())
    res = play(deck, nd, dl, rules=Rules(knock_limit=4))
    assert nd.knock_asked == 0  # deadwood 5 > 4: no knock question, the discard stands
    assert res.outcome == "draw"
    # with knocking legal, a strategy that says no plays on
    nd = Script(["pass", "KH"], then=StockDrawer())
    res = play(deck, nd, Script(["pass"], then=StockDrawer()))
    assert nd.knock_asked >= 1 and res.outcome == "draw" and res.knocker == -1


def test_r14_no_knock_before_drawing():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH 2H")
    h = Hand(DEFAULT, deck, dealer=1)
    with pytest.raises(IllegalMoveError, match="cannot discard now"):
        h.discard(parse_card("5D"), knock=True)
    apply(h, "pass; pass; discard KH")
    with pytest.raises(IllegalMoveError, match="cannot discard now"):
        h.discard(parse_card("5H"), knock=True)


def test_r15_gin_is_a_knock_with_zero_deadwood():
    deck = make_deck(nondealer="AS 2S 3S 6H 6D 6C 9C TC JC QC", dealer=DEALER, upcard="7D", stock="KH")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock KH")
    res = h.show()
    assert res.outcome == "gin" and res.knocker_deadwood == 0 and res.winner == 0


def test_r16_knocker_shows_melds_and_never_lays_off():
    # the knocker's 5D would extend the defender's 2D-3D-4D, but the knocker never lays off
    deck = make_deck(nondealer=NONDEALER, dealer="2D 3D 4D 8H 8S 8D QS QH KS 7C", upcard="7D", stock="KH")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock KH")
    res = h.show()
    assert res.knocker_deadwood == 5
    assert res.defender_deadwood_before == res.defender_deadwood_after == 37
    assert res.outcome == "knock" and res.points == 32
    assert {frozenset(names(m)) for m in res.knocker_melds} == {
        frozenset({"AS", "2S", "3S"}),
        frozenset({"9C", "TC", "JC"}),
        frozenset({"6C", "6D", "6H"}),
    }
    assert res.layoff == 0


def test_r16_knocker_may_choose_its_melds():
    knocker = "7C 7D 7H 7S 8S 9S 2H 3H 4H AD"
    deck = make_deck(nondealer=knocker, dealer="TH TS TD QD QS QH KD KS KC 5C", upcard="QC", stock="KH")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock KH")
    snapshot = (h.phase, list(h.hands))
    with pytest.raises(IllegalMoveError, match="over the knock limit"):
        h.show(melds=[mask("7C 7D 7H 7S"), mask("2H 3H 4H")])  # 8S 9S AD left: 18
    with pytest.raises(IllegalMoveError, match="not a meld"):
        h.show(melds=[mask("7C 7D 8S")])
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        h.show(melds=[mask("KC KD KS")])
    assert (h.phase, list(h.hands)) == snapshot
    res = h.show(melds=[mask("7C 7D 7H"), mask("7S 8S 9S"), mask("2H 3H 4H")])
    assert res.knocker_deadwood == 1 and res.outcome == "knock" and res.points == 5 - 1


@pytest.mark.parametrize(
    ("defender", "laid", "before", "after"),
    [
        # a chain on a run: 9S goes on 6S-7S-8S, then TS; plus the 4th card of a group
        ("9S TS 2S 5H 5D 7C 8C 4D 4H KC", "9S TS 2S", 64, 43),
        # the chain at the low end and at both ends
        ("5S 4S 9H 9D 3C KC QC 4H JH AD", "5S 4S", 65, 56),
        ("5S 9S TS 9H 3D KC QC 4H JH AD", "5S 9S TS", 71, 47),
        # TS alone cannot go: it needs 9S first
        ("TS 5H 5D 7C 8C 4D 4H KC QC 3C", "", 66, 66),
    ],
)
def test_r17_layoff_chain_on_a_run_and_fourth_card_on_a_group(defender, laid, before, after):
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer=defender, upcard="KH", stock="9C")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock 9C")
    res = h.show()
    assert res.knocker_deadwood == 1
    assert res.defender_deadwood_before == before
    assert names(res.layoff) == (set(laid.split()) if laid else set())
    assert res.layoff_cards == len(laid.split())
    assert res.defender_deadwood_after == after
    assert res.outcome == "knock" and res.points == after - 1


def test_r17_fourth_card_on_a_group_of_three():
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="2S 5H 5D 7C 8C 4D 4H KC QC 3H", upcard="KH", stock="9C")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock 9C")
    res = h.show()
    assert names(res.layoff) == {"2S"} and res.defender_deadwood_after == res.defender_deadwood_before - 2


def test_r17_defender_choice_of_own_melds_and_layoffs_together():
    # own best melds: 9C 9D 9H 9S (deadwood TS 3C 4H 5D KS KH = 42); but keeping
    # 9C 9D 9H and laying off 9S then TS on 6S-7S-8S leaves only 32
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S 9C 9D 9H TS 3C 4H 5D KS KH", upcard="QH", stock="QC")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock QC")
    res = h.show()
    assert res.defender_deadwood_before == 42
    assert res.defender_deadwood_after == 32
    assert names(res.layoff) == {"9S", "TS"}


def test_r17_explicit_layoffs_checked():
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock 9C")
    with pytest.raises(IllegalMoveError, match="cannot all be laid off"):
        h.show(layoff=mask("TS"))  # TS without 9S
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        h.show(layoff=mask("5S"))
    res = h.show(layoff=mask("9S"))  # a legal, not optimal choice is the defender's right
    assert res.defender_deadwood_after == 64 - 9 and res.layoff_cards == 1


def test_r17_max_run_length_limits_layoffs():
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    h = Hand(Rules(max_run_length=4), deck, dealer=1)
    apply(h, "pass; pass; knock 9C")
    res = h.show()
    assert names(res.layoff) == {"9S", "2S"}  # 6S-9S is the longest run allowed
    assert res.defender_deadwood_after == 64 - 11


def test_r17_layoff_equals_brute_force_on_played_knocks():
    strategies = [simple(), parse_spec("threshold:knock_at=10").build()]
    checked = 0
    for i in range(600):
        deck = deck_for(game_deal_seed(17, 0, i))
        res = play_hand(DEFAULT, strategies, deck, i % 2, seeds=(i, i + 7))
        if res.outcome not in ("knock", "undercut"):
            continue
        d = 1 - res.knocker
        dh = res.hands[d]
        assert res.defender_deadwood_before == brute_deadwood(dh)
        assert res.defender_deadwood_after == brute_layoff_deadwood(dh, res.knocker_melds), cards_list(dh)
        assert brute_layable(res.layoff, res.knocker_melds)
        checked += 1
        if checked >= 150:
            break
    assert checked >= 100


def test_r17_best_layoff_equals_brute_force_on_constructed_positions():
    rng = random.Random(171)
    t = TABLES
    done = 0
    while done < 150:
        knocker = sum(1 << c for c in rng.sample(range(52), 10))
        melds = t.best_melds_mask(knocker)
        if melds.deadwood > 10 or not melds.melds:
            # build a knocker hand around melds instead of waiting for luck
            suit = rng.randrange(4)
            start = rng.randrange(0, 9)
            run = sum(1 << (suit * 13 + r) for r in range(start, start + rng.choice((3, 4))))
            rank = rng.randrange(13)
            group = sum(1 << (s * 13 + rank) for s in rng.sample(range(4), 3)) & ~run
            rest = [c for c in range(52) if not (run | group) >> c & 1]
            knocker = run | group | sum(1 << c for c in rng.sample(rest, 10 - (run | group).bit_count()))
            melds = t.best_melds_mask(knocker)
            if not melds.melds:
                continue
        pool = [c for c in range(52) if not knocker >> c & 1]
        defender = sum(1 << c for c in rng.sample(pool, 10))
        got, laid = best_layoff(defender, melds.melds, t)
        assert got == brute_layoff_deadwood(defender, melds.melds)
        assert brute_layable(laid, melds.melds) or laid == 0
        assert got == t.deadwood_mask(defender & ~laid)
        done += 1


def test_r18_no_layoff_after_gin():
    # KC would extend the knocker's 9C-QC run, but after gin nothing is laid off
    deck = make_deck(
        nondealer="AS 2S 3S 6H 6D 6C 9C TC JC QC", dealer="KC 8H 8S 8D QD QS QH 2D 4H 6S", upcard="7D", stock="KH"
    )
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock KH")
    with pytest.raises(IllegalMoveError, match="R18"):
        h.show(layoff=mask("KC"))  # asking for one is refused
    res = h.show()
    assert res.outcome == "gin"
    assert res.layoff == 0 and res.layoff_cards == 0
    assert res.defender_deadwood_before == res.defender_deadwood_after == 22
    assert res.points == 20 + 22


def test_r18_defender_strategy_cannot_lay_off_after_gin():
    class LayAll(Script):
        def choose_layoffs(self, view):
            return mask("KC")

    deck = make_deck(
        nondealer="AS 2S 3S 6H 6D 6C 9C TC JC QC", dealer="KC 8H 8S 8D QD QS QH 2D 4H 6S", upcard="7D", stock="KH"
    )
    res = play(deck, Script(["pass", "knock KH"]), LayAll(["pass"]))
    assert res.outcome == "gin" and res.layoff == 0 and res.points == 42


# == Scoring a hand =========================================================================


def test_r19_knocker_scores_the_difference():
    deck = make_deck(nondealer="2C 3C 4C 7D 7H 7S AH 2S 3D KS", dealer="9H 9D 9C JH QH KH 5D 6S 8S TD", upcard="5C")
    res = play(deck, Script(["take", "knock KS"]), Script([]))
    assert res.outcome == "knock"
    assert res.knocker == res.winner == 0
    assert res.knocker_deadwood == 6 and res.defender_deadwood_after == 29
    assert res.points == 23


def test_r20_undercut_on_equal_deadwood():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]))
    assert res.knocker_deadwood == 5 and res.defender_deadwood_after == 5
    assert res.outcome == "undercut"
    assert res.knocker == 0 and res.winner == 1
    assert res.points == 0 + 10


def test_r20_undercut_after_layoffs_and_bonus_variant():
    # knocker 8 (8D); defender 12 before, 3 after laying off 4S 5S on AS-2S-3S
    deck = make_deck(
        nondealer="AS 2S 3S 6H 6D 6C 9C TC JC 8D", dealer="8H 8S 8C QD QS QH 4S 5S 2D AH", upcard="7C", stock="KH"
    )
    for bonus in (10, 25, 0):
        h = Hand(Rules(undercut_bonus=bonus), deck, dealer=1)
        apply(h, "pass; pass; knock KH")
        res = h.show()
        assert (res.knocker_deadwood, res.defender_deadwood_before, res.defender_deadwood_after) == (8, 12, 3)
        assert res.outcome == "undercut" and res.winner == 1
        assert res.points == 8 - 3 + bonus


def test_r21_gin_scores_bonus_plus_defender_deadwood():
    deck = make_deck(nondealer="AS 2S 3S 6H 6D 6C 9C TC JC QC", dealer=DEALER, upcard="7D", stock="KH")
    for bonus in (20, 25):
        h = Hand(Rules(gin_bonus=bonus), deck, dealer=1)
        apply(h, "pass; pass; knock KH")
        res = h.show()
        assert res.outcome == "gin" and res.winner == 0
        assert res.points == bonus + 5


def test_r21_gin_not_undercut_even_when_defender_has_zero_deadwood():
    deck = make_deck(
        nondealer="AS 2S 3S 6H 6D 6C 9C TC JC QC", dealer="8H 8S 8D 8C QD QS QH KD KS KC", upcard="7D", stock="KH"
    )
    res = play(deck, Script(["pass", "knock KH"]), Script(["pass"]))
    assert res.defender_deadwood_after == 0
    assert res.outcome == "gin" and res.winner == 0 and res.knocker == 0
    assert res.points == 20


def test_r22_big_gin_only_when_the_bonus_is_set():
    deck = make_deck(nondealer=BIG_GIN_HAND, dealer=BIG_GIN_DEFENDER, upcard="5C", stock="KC")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass")
    assert not h.can_big_gin()
    with pytest.raises(IllegalMoveError, match="big gin is off"):
        h.big_gin()
    # the strategy is not even asked; it must discard (here: gin)
    nd = Script(["pass", "big gin"])
    res = play(deck, nd, Script(["pass"]))
    assert nd.big_gin_asked == 0
    assert res.outcome == "forfeit" and res.forfeit_seat == 0  # "big gin" is no card


def test_r22_big_gin_scores_bonus_plus_defender_deadwood():
    rules = Rules(big_gin_bonus=31)
    deck = make_deck(nondealer=BIG_GIN_HAND, dealer=BIG_GIN_DEFENDER, upcard="5C", stock="KC")
    h = Hand(rules, deck, dealer=1)
    with pytest.raises(IllegalMoveError, match="right after drawing"):
        h.big_gin()  # not before drawing
    apply(h, "pass; pass; big gin")
    res = h.result
    assert res.outcome == "big_gin" and res.winner == res.knocker == 0
    assert res.points == 31 + 19
    assert res.hands[0].bit_count() == 11 and res.layoff == 0
    # through play_hand: asked, and taken
    nd = Script(["pass", "big gin"])
    res2 = play(deck, nd, Script(["pass"]), rules=rules)
    assert nd.big_gin_asked == 1 and res2.outcome == "big_gin" and res2.points == 50
    # declined: the player may still discard and go (plain) gin
    nd = Script(["pass", "knock KC"])
    res3 = play(deck, nd, Script(["pass"]), rules=rules)
    assert nd.big_gin_asked == 1 and res3.outcome == "gin" and res3.points == 20 + 19


def test_r22_big_gin_needs_all_eleven_cards_melded():
    rules = Rules(big_gin_bonus=31)
    deck = make_deck(nondealer=BIG_GIN_HAND, dealer=BIG_GIN_DEFENDER, upcard="5C", stock="KH")
    h = Hand(rules, deck, dealer=1)
    apply(h, "pass; pass")
    assert not h.can_big_gin()
    with pytest.raises(IllegalMoveError, match="all 11 cards"):
        h.big_gin()
