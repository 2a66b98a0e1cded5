"""R01-R07: the cards, melds and least deadwood,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import random

import pytest
from support.deals import (
    apply,
    make_deck,
    mask,
    names,
)
from support.rulebook import (
    DEFAULT,
    TABLES,
    brute_deadwood,
)

from ginsim import (
    CardError,
    IllegalMoveError,
    Rules,
    best_melds,
    deadwood,
    parse_card,
    parse_cards,
    tables_for,
    to_mask,
)
from ginsim.engine.cards import CARD_NAMES, RANK_OF, VALUE_OF, cards_list, format_card
from ginsim.engine.playhand import Hand
from ginsim.engine.view import LAYOFF

# == Cards ============================================================================


def test_r01_deck_has_52_distinct_cards():
    deck = make_deck()
    assert sorted(deck) == list(range(52))
    assert len({format_card(c) for c in range(52)}) == 52
    with pytest.raises(IllegalMoveError, match="52 cards"):
        Hand(DEFAULT, deck[:51], dealer=1)
    with pytest.raises(IllegalMoveError, match="52 cards"):
        Hand(DEFAULT, [*deck[:51], deck[0]], dealer=1)


def test_r01_rank_order_ace_low_only():
    assert deadwood("AS 2S 3S") == 0  # ace low
    assert deadwood("QS KS AS") == 21  # no Q-K-A
    assert deadwood("KS AS 2S") == 13  # no wrap-around
    assert deadwood("JH QH KH") == 0  # J < Q < K
    assert deadwood("9D TD JD") == 0  # ten sits between 9 and J
    ranks = ["AC", "2C", "9C", "TC", "JC", "QC", "KC"]
    assert [format_card(parse_card(t)) for t in ranks] == ranks
    assert [RANK_OF[parse_card(t)] for t in ranks] == [0, 1, 8, 9, 10, 11, 12]


def test_r02_card_values():
    expected = {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
    }
    for rank, v in expected.items():
        for suit in "CDHS":
            c = parse_card(rank + suit)
            assert VALUE_OF[c] == v
            assert deadwood(rank + suit) == v
    assert deadwood("AC 5D JH QS KC") == 1 + 5 + 30


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7H", "7H"),
        ("TD", "TD"),
        ("10d", "TD"),
        ("10D", "TD"),
        ("td", "TD"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("K♥", "KH"),
        ("q♦", "QD"),
        ("2♣", "2C"),
        ("as", "AS"),
        ("jc", "JC"),
        (" 9s ", "9S"),
    ],
)
def test_r03_card_text_parsing(text, expected):
    assert format_card(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["1H", "11H", "7X", "ZZ", "H7", "7", "", "10", "AHS", "0S", "7HH", "♠A"])
def test_r03_bad_card_text_names_the_token(bad):
    with pytest.raises(CardError) as err:
        parse_card(bad)
    assert repr(bad) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_r03_card_lists_and_bad_tokens_in_lists():
    assert parse_cards("7H 8H, 9h 10h") == [parse_card(t) for t in ("7H", "8H", "9H", "TH")]
    with pytest.raises(CardError, match="'QX'"):
        parse_cards("7H QX 9H")
    with pytest.raises(CardError, match="7H"):
        parse_cards("7H 7h")  # the same card twice
    with pytest.raises(CardError, match="'XX'"):
        to_mask(["7H", "XX"])
    assert to_mask("7H 8H") == (1 << parse_card("7H")) | (1 << parse_card("8H"))


# == Melds and deadwood =================================================================


def test_r04_groups_of_three_or_four():
    assert deadwood("7C 7D 7H") == 0
    assert deadwood("7C 7D 7H 7S") == 0
    assert deadwood("7C 7D") == 14  # two of a rank is no meld
    assert deadwood("7C 7D 8H") == 22  # mixed ranks
    assert TABLES.is_meld(mask("KC KD KS"))
    assert TABLES.is_meld(mask("KC KD KS KH"))
    assert not TABLES.is_meld(mask("KC KD"))
    assert not TABLES.is_meld(mask("KC KD QS"))


def test_r05_runs_of_three_or_more_in_one_suit():
    assert deadwood("4H 5H 6H") == 0
    assert deadwood("4H 5H 6H 7H 8H 9H TH JH QH KH") == 0
    assert deadwood("4H 5H 6D") == 15  # mixed suits
    assert deadwood("4H 5H 7H") == 16  # gap
    assert TABLES.is_meld(mask("AD 2D 3D 4D"))
    assert not TABLES.is_meld(mask("AD 2D 4D"))
    assert not TABLES.is_meld(mask("AD 2C 3D"))


def test_r05_max_run_length_option():
    assert deadwood("AS 2S 3S 4S") == 0
    assert deadwood("AS 2S 3S 4S", max_run_length=3) == 1  # 2S-3S-4S, AS left
    assert deadwood("AS 2S 3S 4S 5S 6S", max_run_length=3) == 0  # two runs of 3
    assert deadwood("AS 2S 3S 4S 5S 6S 7S", max_run_length=5) == 0  # 3 + 4
    long_run = mask("AS 2S 3S 4S 5S 6S")
    assert tables_for(5).is_meld(mask("AS 2S 3S 4S 5S"))
    assert not tables_for(5).is_meld(long_run)
    assert tables_for(None).is_meld(long_run)
    with pytest.raises(IllegalMoveError, match="not a meld"):
        tables_for(5).check_melds(long_run, [long_run])


def test_r05_max_run_length_limits_knocking():
    # ten spades A..T: gin without a limit; with runs of at most 3, one card stays out
    # (A, 4, 7 or T) and the least deadwood is 1
    deck = make_deck(nondealer="AS 2S 3S 4S 5S 6S 7S 8S 9S TS", upcard="KC", stock="KD")
    h = Hand(Rules(max_run_length=3, knock_limit=0), deck, dealer=1)
    apply(h, "pass; pass")
    with pytest.raises(IllegalMoveError, match="knock limit"):
        h.discard(parse_card("KD"), knock=True)
    h2 = Hand(Rules(), deck, dealer=1)
    apply(h2, "pass; pass; knock KD")
    assert h2.show().outcome == "gin"


def test_r06_a_card_is_in_one_meld_at_most():
    # 7H could finish the group or the run, not both
    assert deadwood("7C 7D 7H 8H 9H") == 14
    hand = mask("7C 7D 7H 8H 9H")
    with pytest.raises(IllegalMoveError, match="shares a card"):
        TABLES.check_melds(hand, [mask("7C 7D 7H"), mask("7H 8H 9H")])
    melds = best_melds("7C 7D 7H 8H 9H").melds
    used = 0
    for m in melds:
        assert not used & m
        used |= m


def test_r06_engine_refuses_overlapping_melds_at_the_show():
    deck = make_deck(nondealer="7C 7D 7H 7S 8H 9H 2S 3S 4S AD", dealer="KC KD KH QC QD QH JS JD JH 9C", stock="KS")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; knock KS")
    with pytest.raises(IllegalMoveError, match="shares a card"):
        h.show(melds=[mask("7C 7D 7H"), mask("7H 8H 9H"), mask("2S 3S 4S")])
    assert h.phase is LAYOFF  # refused, nothing changed


def test_r07_least_deadwood_examples():
    assert deadwood("AH 2H 3H 4H 3C 3D") == 6  # the run A-4 beats the group of 3s
    assert deadwood("5S 6S 7S 7C 7D 8S") == 14  # 5-8S run (7C 7D left) beats 7s (5S 6S 8S)
    assert deadwood("7S 8S 9S 7C 7D 7H") == 0  # 7S 8S 9S + 7C 7D 7H
    m = best_melds("AH 2H 3H 4H 3C 3D")
    assert m.deadwood == 6
    assert [names(x) for x in m.melds] == [{"AH", "2H", "3H", "4H"}]
    assert best_melds("AH 2H 3H 4H 3C 3D") == m  # deterministic


def test_r07_deadwood_equals_brute_force_on_random_hands():
    rng = random.Random(7)
    for i in range(400):
        n = 10 if i % 2 else 11
        hand = sum(1 << c for c in rng.sample(range(52), n))
        limit = (None, None, 3, 4, 5)[i % 5]
        t = tables_for(limit)
        assert t.deadwood_mask(hand) == brute_deadwood(hand, limit), (CARD_NAMES, cards_list(hand), limit)
        shown = t.best_melds_mask(hand)
        assert t.check_melds(hand, shown.melds) == shown.deadwood == brute_deadwood(hand, limit)
        assert t.best_melds_mask(hand) == shown


def test_r07_deadwood_equals_brute_force_on_dense_hands():
    # hands drawn from a few ranks and suits are full of overlapping groups and runs
    rng = random.Random(8)
    pool = [s * 13 + r for s in range(4) for r in range(2, 8)]
    for _ in range(300):
        hand = sum(1 << c for c in rng.sample(pool, 10))
        assert TABLES.deadwood_mask(hand) == brute_deadwood(hand)
