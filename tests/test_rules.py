"""Each rule of RULES.md (R01-R26) proved by id, with explicit hands.

Seat convention in most tests: ``dealer=1``, so seat 0 is the non-dealer and moves first.
Decks are built with ``helpers.make_deck`` (R08 layout: non-dealer deck[0,2,..,18],
dealer deck[1,3,..,19], upcard deck[20], stock deck[21:], deck[21] drawn first).
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import math
import random
import time
import types
from dataclasses import FrozenInstanceError

import pytest
from helpers import (
    Recorder,
    Script,
    StockDrawer,
    apply,
    make_deck,
    mask,
    names,
    random_move,
)

from ginsim import (
    CardError,
    GinsimError,
    IllegalMoveError,
    Rules,
    RulesError,
    best_layoff,
    best_melds,
    deadwood,
    load_rules_file,
    parse_card,
    parse_cards,
    parse_spec,
    play_game,
    play_hand,
    tables_for,
    to_mask,
)
from ginsim.engine import play as engine_module
from ginsim.engine.cards import CARD_NAMES, RANK_OF, SUIT_OF, VALUE_OF, cards_list, format_card
from ginsim.engine.game import next_dealer
from ginsim.engine.hand import forfeit_points
from ginsim.engine.play import Hand, HandResult
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, DRAW, LAYOFF, OFFER, OVER, PlayerView
from ginsim.run.seeding import deck_for, game_deal_seed

DEFAULT = Rules()
TABLES = tables_for(None)


def play(deck, nondealer, dealer_strategy, dealer=1, rules=DEFAULT, log=None, seeds=(1, 2)):
    """Play one hand with strategies given by role (non-dealer, dealer)."""
    strategies = [None, None]
    strategies[1 - dealer] = nondealer
    strategies[dealer] = dealer_strategy
    return play_hand(rules, strategies, deck, dealer, seeds=seeds, log=log)


def simple() -> Strategy:
    return parse_spec("simple").build()


def rand() -> Strategy:
    return parse_spec("random").build()


# -- reference implementations (slow, obviously correct) ----------------------------


def all_melds(hand: int, max_run_length: int | None = None) -> list[int]:
    """Every group (3 or 4 of a rank) and run (3+ consecutive of a suit) inside ``hand``."""
    cards = cards_list(hand)
    out = []
    for rank in range(13):
        same = [c for c in cards if RANK_OF[c] == rank]
        for n in (3, 4):
            for combo in itertools.combinations(same, n):
                out.append(sum(1 << c for c in combo))
    for suit in range(4):
        for start in range(13):
            for end in range(start + 3, 14):
                if max_run_length is not None and end - start > max_run_length:
                    break
                run = [suit * 13 + r for r in range(start, end)]
                if all(hand >> c & 1 for c in run):
                    out.append(sum(1 << c for c in run))
                else:
                    break
    return out


def value(m: int) -> int:
    return sum(VALUE_OF[c] for c in cards_list(m))


def brute_deadwood(hand: int, max_run_length: int | None = None) -> int:
    """Least deadwood over every set of disjoint melds (R06, R07), by exhaustive search."""
    melds = all_melds(hand, max_run_length)

    def best(rest: int, start: int) -> int:
        b = value(rest)
        for i in range(start, len(melds)):
            m = melds[i]
            if m & rest == m:
                b = min(b, best(rest & ~m, i + 1))
        return b

    return best(hand, 0)


def brute_layable(laid: int, knocker_melds, max_run_length: int | None = None) -> bool:
    """Can every card of ``laid`` go onto the knocker's melds at once (R17)? Tries every
    assignment of cards to melds: a group of 3 takes at most one card of its rank; a run
    takes cards of its suit so that run + cards are consecutive (within the length limit)."""
    cards = cards_list(laid)
    options = []
    for c in cards:
        opts = []
        for i, m in enumerate(knocker_melds):
            mc = cards_list(m)
            is_group = len({RANK_OF[x] for x in mc}) == 1
            if is_group and len(mc) == 3 and RANK_OF[mc[0]] == RANK_OF[c]:
                opts.append(i)
            if not is_group and SUIT_OF[mc[0]] == SUIT_OF[c]:
                opts.append(i)
        if not opts:
            return False
        options.append(opts)
    for assignment in itertools.product(*options):
        ok = True
        for i, m in enumerate(knocker_melds):
            got = [c for c, a in zip(cards, assignment, strict=True) if a == i]
            if not got:
                continue
            mc = cards_list(m)
            if len({RANK_OF[x] for x in mc}) == 1:
                ok = len(got) == 1
            else:
                ranks = sorted(RANK_OF[x] for x in mc + got)
                ok = ranks == list(range(ranks[0], ranks[0] + len(ranks)))
                if max_run_length is not None and len(ranks) > max_run_length:
                    ok = False
            if not ok:
                break
        if ok:
            return True
    return False


def brute_layoff_deadwood(defender: int, knocker_melds, max_run_length: int | None = None) -> int:
    """The defender's least deadwood over all lay-off sets and own melds together."""

    def fits(c: int, m: int) -> bool:
        mc = cards_list(m)
        is_group = len({RANK_OF[x] for x in mc}) == 1
        if is_group:
            return len(mc) == 3 and RANK_OF[c] == RANK_OF[mc[0]]
        return SUIT_OF[c] == SUIT_OF[mc[0]]

    candidates = [c for c in cards_list(defender) if any(fits(c, m) for m in knocker_melds)]
    best = brute_deadwood(defender, max_run_length)
    for n in range(1, len(candidates) + 1):
        for combo in itertools.combinations(candidates, n):
            laid = sum(1 << c for c in combo)
            if brute_layable(laid, knocker_melds, max_run_length):
                best = min(best, brute_deadwood(defender & ~laid, max_run_length))
    return best


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


# == Deal and first turn ==================================================================


@pytest.mark.parametrize("dealer", [0, 1])
def test_r08_deal_ten_each_upcard_and_31_in_stock(dealer):
    deck = make_deck(fill_seed=3)
    h = Hand(DEFAULT, deck, dealer=dealer)
    nd = 1 - dealer
    assert h.hands[nd] == sum(1 << deck[i] for i in range(0, 20, 2))
    assert h.hands[dealer] == sum(1 << deck[i] for i in range(1, 20, 2))
    assert h.hands[0].bit_count() == h.hands[1].bit_count() == 10
    assert h.pile == [deck[20]]
    assert h.stock_size == 31
    assert h.to_move == nd and h.phase is OFFER
    for seat in (0, 1):
        v = h.views[seat]
        assert v.hand == h.hands[seat]
        assert v.upcard == deck[20]
        assert v.discard_pile == (deck[20],)
        assert v.stock_size == 31
    apply(h, "pass; pass")
    assert h.drawn == deck[21]  # the top of the stock is deck[21]
    apply(h, f"discard {CARD_NAMES[deck[21]]}; draw")
    assert h.drawn == deck[22]


def test_r08_deck_from_seeding_decks_for_is_dealt_correctly_or_refused():
    # ginsim.run.seeding.decks_for gives decks as numpy int8 rows; a Hand given one must deal
    # 10 cards each (or refuse the deck), never a corrupt hand
    from ginsim.run.seeding import decks_for

    row = decks_for([5])[0]
    assert [int(c) for c in row] == deck_for(5)
    try:
        h = Hand(DEFAULT, row, dealer=1)
    except IllegalMoveError:
        return
    assert h.hands[0].bit_count() == h.hands[1].bit_count() == 10, "numpy deck dealt a corrupt hand"
    assert h.hands[0] == Hand(DEFAULT, deck_for(5), dealer=1).hands[0]


def test_r01_check_decks_refuses_a_chunk_holding_a_bad_deck():
    # the runner checks a chunk's decks at once and then lets the engine skip its own
    # per-hand check: a chunk with any deck that is not the 52 cards once is refused
    from ginsim.run.seeding import check_decks, decks_for

    good = decks_for([1, 2, 3])
    assert check_decks(good) is good
    for bad in (good[:, :51], good.copy()):
        if bad.shape[1] == 52:
            bad[1, 7] = bad[1, 8]  # a card twice, another missing
        with pytest.raises(ValueError, match="52 cards"):
            check_decks(bad)
    # and a deck given without ``checked`` is still checked by the engine itself
    deck = deck_for(4)
    deck[3] = deck[4]
    with pytest.raises(IllegalMoveError, match="52 cards"):
        Hand(DEFAULT, deck, dealer=0)


NONDEALER = "AS 2S 3S 6H 6D 6C 9C TC JC 5D"  # deadwood 5 (5D)
DEALER = "8H 8S 8D QD QS QH KD KS KC 5H"  # deadwood 5 (5H)


def test_r09_nondealer_takes_upcard_then_dealer_has_a_normal_turn():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "take")
    assert h.to_move == 0 and h.phase is DISCARD and h.hands[0] >> parse_card("7C") & 1
    apply(h, "discard 5D")
    assert h.to_move == 1 and h.phase is DRAW
    with pytest.raises(IllegalMoveError, match="only for the first-turn offer"):
        h.pass_upcard()  # the dealer gets no first-turn offer after a take
    apply(h, "take")  # the dealer may take the non-dealer's discard (a normal turn)
    assert h.drawn == parse_card("5D")


def test_r09_dealer_takes_the_upcard_after_the_nondealer_passes():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    log = []
    nd = Script(["pass", "draw", "2H"])
    dl = Script(["take", "5H"])
    h = Hand(DEFAULT, deck, dealer=1, log=log)
    apply(h, "pass")
    assert h.to_move == 1 and h.phase is OFFER
    with pytest.raises(IllegalMoveError):
        h.draw()  # on the offer the dealer takes or passes; no stock yet
    apply(h, "take")
    assert h.to_move == 1 and h.phase is DISCARD and h.drawn == parse_card("7C") and h.drawn_from_pile
    apply(h, "discard 5H")
    assert h.to_move == 0 and h.phase is DRAW
    assert log == [(0, "pass", parse_card("7C")), (1, "take", parse_card("7C")), (1, "discard", parse_card("5H"))]
    # the same through play_hand with scripted strategies
    log2 = []
    res = play(deck, nd, dl, log=log2, rules=DEFAULT)
    assert log2[:4] == [*log, (0, "draw", parse_card("2H"))]
    assert res.outcome == "forfeit" and res.forfeit_seat == 1  # the dealer's script ran out
    assert "script exhausted" in res.forfeit_reason


def test_r09_both_pass_then_the_nondealer_draws_from_the_stock():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    log = []
    h = Hand(DEFAULT, deck, dealer=1, log=log)
    apply(h, "pass; pass")
    assert h.to_move == 0 and h.phase is DISCARD
    assert h.drawn == parse_card("2H") and not h.drawn_from_pile
    assert h.pile == [parse_card("7C")] and h.stock_size == 30
    assert log == [(0, "pass", parse_card("7C")), (1, "pass", parse_card("7C")), (0, "draw", parse_card("2H"))]
    apply(h, "discard 2H")
    assert h.to_move == 1 and h.phase is DRAW  # then the dealer's normal turn
    apply(h, "draw")
    assert h.drawn == parse_card("3H")


@pytest.mark.parametrize("dealer", [0, 1])
def test_r09_play_hand_first_turn_order(dealer):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H 4H")
    log = []
    nd = Script(["pass", "2H", "draw", "4H"])
    dl = Script(["pass", "draw", "3H"], then=StockDrawer())
    nd.then = StockDrawer()
    play(deck, nd, dl, dealer=dealer, log=log)
    n, d = 1 - dealer, dealer
    up = parse_card("7C")
    assert log[:6] == [
        (n, "pass", up),
        (d, "pass", up),
        (n, "draw", parse_card("2H")),
        (n, "discard", parse_card("2H")),
        (d, "draw", parse_card("3H")),
        (d, "discard", parse_card("3H")),
    ]


# == A normal turn ========================================================================


def test_r10_draw_from_stock_or_take_the_top_discard():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H 4H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; discard 2H")
    apply(h, "take")  # the dealer takes the top of the pile: 2H, not the 7C below it
    assert h.drawn == parse_card("2H") and h.pile == [parse_card("7C")]
    assert h.views[0].opp_known == mask("2H")  # the non-dealer saw the take
    apply(h, "discard 5H; draw")
    assert h.drawn == parse_card("3H")  # the stock's top
    assert h.views[1].history[-1] == (0, "draw", None)  # the dealer does not see it


def test_r11_discard_puts_the_card_on_the_pile():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass")
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        h.discard(parse_card("KC"))  # the dealer's card
    apply(h, "discard 9C")
    assert h.pile[-1] == parse_card("9C") and h.hands[0].bit_count() == 10
    assert not h.hands[0] >> parse_card("9C") & 1
    for v in h.views:
        assert v.upcard == parse_card("9C")
    assert h.views[1].opp_discards == mask("9C")


def test_r12_taken_upcard_cannot_be_discarded_the_same_turn():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "take")
    with pytest.raises(IllegalMoveError, match="R12") as err:
        h.discard(parse_card("7C"))
    assert "just taken" in str(err.value)
    assert not h.views[0].legal_discards() >> parse_card("7C") & 1
    assert h.phase is DISCARD and h.to_move == 0
    apply(h, "discard 5D")  # another card is fine
    # and on a normal turn: the dealer takes 5D and may not throw it back
    apply(h, "take")
    with pytest.raises(IllegalMoveError, match="R12"):
        h.discard(parse_card("5D"))
    apply(h, "discard 5H")


def test_r12_allow_discard_of_drawn_upcard_variant():
    rules = Rules(allow_discard_of_drawn_upcard=True)
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(rules, deck, dealer=1)
    apply(h, "take")
    assert h.views[0].legal_discards() >> parse_card("7C") & 1
    apply(h, "discard 7C")
    assert h.pile == [parse_card("7C")] and h.to_move == 1


def test_r12_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass; discard 2H; draw; discard 3H")
    assert h.pile[-2:] == [parse_card("2H"), parse_card("3H")]


def test_r12_strategy_discarding_the_taken_upcard_forfeits():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    res = play(deck, Script(["take", "7C"]), StockDrawer())
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.winner == 1
    assert res.forfeit_kind == "illegal" and "7C" in res.forfeit_reason and "R12" in res.forfeit_reason
    res = play(
        deck, Script(["take", "7C"], then=StockDrawer()), StockDrawer(), rules=Rules(allow_discard_of_drawn_upcard=True)
    )
    assert res.outcome != "forfeit"


# == R13 information hiding ==============================================================


def _reachable(root):
    """Every object reachable from ``root`` by references, not entering classes, modules
    or the module globals of functions (shared code, not state)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, type | types.ModuleType | int | float | str | bytes | bool | types.NoneType):
            continue
        if isinstance(obj, types.FunctionType):
            children = list(obj.__defaults__ or ()) + list((obj.__kwdefaults__ or {}).values())
            for cell in obj.__closure__ or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    children.append(cell.cell_contents)
        elif isinstance(obj, types.BuiltinFunctionType):
            owner = obj.__self__
            children = [] if isinstance(owner, types.ModuleType) else [owner]
        else:
            children = gc.get_referents(obj)
        stack.extend(children)
    return seen


def test_r13_reference_walker_finds_hidden_references():
    # a control for the walker below: state reached through slots, closures, bound
    # methods and containers is found
    deck = make_deck()
    h = Hand(DEFAULT, deck, dealer=1)

    class Holder:
        __slots__ = ("ref",)

        def __init__(self, ref):
            self.ref = ref

    def closure():
        return h

    assert id(h) in _reachable(Holder([{"k": (closure,)}]))
    assert id(deck) in _reachable(Holder(deck.append))
    assert id(h.views[0].history) in _reachable(h.views[0].history.append)
    assert id(h.views[0].history) in _reachable(h.views[0])
    assert id(h.views[0].rules) in _reachable(h.views[0])


def test_r13_view_holds_no_reference_to_hand_deck_or_other_view():
    rng = random.Random(13)
    for i in range(12):
        deck = deck_for(1000 + i)
        log = []
        h = Hand(Rules(big_gin_bonus=31) if i % 2 else DEFAULT, deck, dealer=i % 2, log=log)
        for _ in range(rng.randrange(0, 40)):
            if h.phase is OVER:
                break
            random_move(h, rng)
        for seat in (0, 1):
            view = h.views[seat]
            _ = view.rng  # make the lazily built generator exist
            _ = view.best_discards() if h.phase is DISCARD and h.to_move == seat else None
            reach = _reachable(view)
            forbidden = {
                "hand": h,
                "deck": deck,
                "hands": h.hands,
                "pile": h.pile,
                "views": h.views,
                "other view": h.views[1 - seat],
                "log": log,
            }
            for what, obj in forbidden.items():
                assert id(obj) not in reach, f"seat {seat}'s view reaches the {what}"
            assert not any(isinstance(o, Hand) for o in reach.values())
            assert [o for o in reach.values() if isinstance(o, PlayerView)] == [view]


class _Walker(Strategy):
    """Plays like ``inner``, and at each decision walks its own view's references."""

    def __init__(self, inner, deck, others):
        self.inner = inner
        self.deck = deck
        self.others = others
        self.walks = 0

    def _check(self, view):
        reach = _reachable(view)
        self.walks += 1
        assert id(self.deck) not in reach
        for o in self.others:
            assert id(o) not in reach
        for o in reach.values():
            assert not isinstance(o, Hand | Strategy)
            assert not isinstance(o, PlayerView) or o is view

    def take_upcard(self, view):
        self._check(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._check(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._check(view)
        return self.inner.knock(view)


def test_r13_view_given_to_a_strategy_reaches_no_engine_state():
    deck = deck_for(77)
    opp = simple()
    me = _Walker(simple(), deck, [opp])
    me.others.append(me)
    play_hand(DEFAULT, [me, opp], deck, dealer=1, seeds=(3, 4))
    assert me.walks >= 3


def _swap_hidden(deck, opp_slots, drawn_count, rng):
    """A deck where the opponent's dealt cards are swapped with stock cards that were never
    drawn, and those undrawn stock cards are reordered."""
    new = list(deck)
    undrawn_pos = list(range(21 + drawn_count, 52))
    k = min(10, len(undrawn_pos))
    for slot, pos in zip(opp_slots[:k], rng.sample(undrawn_pos, k), strict=True):
        new[slot], new[pos] = new[pos], new[slot]
    tail = new[21 + drawn_count :]
    rng.shuffle(tail)
    new[21 + drawn_count :] = tail
    return new, k


@pytest.mark.parametrize("me_dealer", [False, True])
@pytest.mark.parametrize("spec", ["simple", "random", "threshold:knock_at=2"])
def test_r13_opponent_hidden_cards_and_stock_order_do_not_change_a_view(spec, me_dealer):
    rng = random.Random(1313)
    full_swaps = 0
    for i in range(25):
        deck = deck_for(5000 + i)
        dealer = 1 if not me_dealer else 0  # I am seat 0
        opp_slots = list(range(1, 20, 2)) if not me_dealer else list(range(0, 20, 2))
        runs = []
        decks = [deck]
        for attempt in range(3):
            me = Recorder(parse_spec(spec).build())
            log = []
            res = play_hand(DEFAULT, [me, StockDrawer()], decks[-1], dealer, seeds=(11 + i, 12 + i), log=log)
            assert res.outcome != "forfeit"
            runs.append((me.snapshots, res))
            if attempt == 0:
                drawn = sum(1 for ev in log if ev[1] == "draw")
            new, k = _swap_hidden(deck, opp_slots, drawn, rng)
            full_swaps += k == 10
            opp_old = sum(1 << deck[s] for s in opp_slots)
            opp_new = sum(1 << new[s] for s in opp_slots)
            assert opp_old != opp_new
            decks.append(new)
        first = runs[0][0]
        assert first, "the seat made no decision"
        for snaps, _res in runs[1:]:
            assert len(snaps) == len(first)
            for (what_a, a), (what_b, b) in zip(first, snaps, strict=True):
                assert what_a == what_b
                assert a == b
    if not spec.startswith("random"):
        assert full_swaps > 10  # most hands end early enough to swap all ten cards


def test_r13_opponent_stock_draws_are_hidden_and_takes_are_shown():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="2H 3H")
    h = Hand(DEFAULT, deck, dealer=1)
    apply(h, "pass; pass")
    assert h.views[0].history[-1] == (0, "draw", parse_card("2H"))
    assert h.views[1].history[-1] == (0, "draw", None)
    assert h.views[1].opp_passed == mask("7C")  # the non-dealer passed on 7C
    apply(h, "discard 2H; take")
    assert h.views[0].history[-1] == (1, "take", parse_card("2H"))
    assert h.views[0].opp_known == mask("2H")
    assert h.views[1].unseen() & h.hands[0] == h.hands[0]  # the non-dealer's hand: unseen
    apply(h, "discard 5H; draw")  # the non-dealer leaves 5H on the pile: passed on
    assert h.views[1].opp_passed & mask("5H")
    assert h.views[1].history[-1] == (0, "draw", None)


def test_r13_observe_hook_sees_only_public_events():
    class Watch(Strategy):
        def __init__(self):
            self.inner = simple()
            self.events = []

        def take_upcard(self, view):
            return self.inner.take_upcard(view)

        def discard(self, view):
            return self.inner.discard(view)

        def observe(self, view, event):
            self.events.append((view.seat, event))

    w0, w1 = Watch(), Watch()
    log = []
    play_hand(DEFAULT, [w0, w1], deck_for(131), dealer=0, log=log)
    for w, seat in ((w0, 0), (w1, 1)):
        assert w.events and all(s == seat for s, _ in w.events)
        events = [e for _, e in w.events]
        assert len(events) == len(log)
        for mine, true in zip(events, log, strict=True):
            if true[1] == "draw" and true[0] != seat:
                assert mine == (true[0], "draw", None)  # the opponent's stock card: hidden
            else:
                assert mine == true


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


LAYOFF_KNOCKER = "6S 7S 8S 2H 2D 2C JD QD KD AC"  # deadwood 1 (AC) after discarding the draw


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


BIG_GIN_HAND = "AS 2S 3S 6H 6D 6C 9C TC JC QC"  # draws KC: all 11 cards meld
BIG_GIN_DEFENDER = "8H 8S 8D QD QS QH 2D 4H 6S 7D"  # deadwood 19


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


# == End of the stock ========================================================================


def test_r23_stock_down_to_two_cards_ends_the_hand_with_no_score():
    deck = make_deck(fill_seed=23)
    log = []
    res = play(deck, StockDrawer(), StockDrawer(), log=log)
    assert res.outcome == "draw" and res.winner == -1 and res.knocker == -1 and res.points == 0
    assert res.stock_left == 2
    assert sum(1 for ev in log if ev[1] == "draw") == 29  # 31 - 2
    assert log[-1][1] == "discard"
    # the non-dealer drew the 1st, 3rd, ..., 29th card: the third-to-last
    assert [ev for ev in log if ev[1] == "draw"][-1][0] == 0
    for mode in ("alternate", "winner", "loser"):
        assert next_dealer(Rules(next_dealer=mode), 1, res) == 1
        assert next_dealer(Rules(next_dealer=mode), 0, res._replace(dealer=0)) == 0


def test_r23_the_player_who_took_the_third_to_last_card_may_still_knock():
    # the knocker keeps its dealt hand (deadwood 5) and knocks only when 2 cards are left
    deck = make_deck(nondealer=NONDEALER, dealer="8H 8S 8D QD QS QH 2D 4H 7S 7D", upcard="KC", fill_seed=4)
    knocker = StockDrawer(knock_when=lambda v: v.stock_size == 2)
    res = play(deck, knocker, StockDrawer())
    assert res.outcome == "knock" and res.knocker == 0 and res.stock_left == 2
    assert res.defender_deadwood_after == 20 and res.points == 20 - 5


def test_r23_hand_drawn_at_stock_end_via_hand():
    deck = make_deck(fill_seed=9)
    h = Hand(DEFAULT, deck, dealer=0)
    apply(h, "pass; pass")
    while h.phase is not OVER:
        apply(h, f"discard {CARD_NAMES[h.drawn]}")
        if h.phase is OVER:
            break
        assert h.stock_size > 2
        apply(h, "draw")
    assert h.result.outcome == "draw" and h.stock_size == 2
    with pytest.raises(IllegalMoveError):
        h.draw()
    with pytest.raises(IllegalMoveError):
        h.take()


class _PerHand(Strategy):
    """Plays ``first`` on the first hand of a game and ``later`` after (a hand is known by
    its new view)."""

    def __init__(self, first, later):
        self.first = first
        self.later = later
        self.views = []

    def _pick(self, view):
        if not self.views or self.views[-1] is not view:
            self.views.append(view)
        return self.first if len(self.views) == 1 else self.later

    def take_upcard(self, view):
        return self._pick(view).take_upcard(view)

    def discard(self, view):
        return self._pick(view).discard(view)

    def knock(self, view):
        return self._pick(view).knock(view)


@pytest.mark.parametrize("mode", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("first_dealer", [0, 1])
def test_r23_same_dealer_deals_again_after_a_drawn_hand_in_a_game(mode, first_dealer):
    rules = Rules(next_dealer=mode, target_score=60)
    strategies = [_PerHand(StockDrawer(), simple()), _PerHand(StockDrawer(), simple())]
    game = play_game(
        rules, strategies, lambda h: deck_for(game_deal_seed(23, 0, h)), first_dealer, lambda h: (h + 1, h + 100)
    )
    assert game.hands[0].outcome == "draw"
    assert game.hands[0].dealer == first_dealer
    assert game.hands[1].dealer == first_dealer
    assert game.scores == (0, 0) or max(game.scores) >= 60


def test_r23_play_game_with_only_drawn_hands_keeps_the_dealer():
    game = play_game(DEFAULT, [StockDrawer(), StockDrawer()], lambda h: deck_for(h), 1, lambda h: (h, h), max_hands=5)
    assert game.winner == -1 and game.scores == (0, 0) and len(game.hands) == 5
    assert all(r.outcome == "draw" and r.dealer == 1 for r in game.hands)


# == Game and clock ===========================================================================


def _result(outcome, winner, dealer, points=10):
    return HandResult(
        outcome=outcome,
        knocker=winner,
        winner=winner,
        points=points,
        knocker_deadwood=0,
        defender_deadwood_before=0,
        defender_deadwood_after=0,
        layoff_cards=0,
        turns=3,
        stock_left=20,
        dealer=dealer,
    )


@pytest.mark.parametrize(
    ("mode", "dealer", "winner", "expected"),
    [
        ("alternate", 0, 0, 1),
        ("alternate", 0, 1, 1),
        ("alternate", 1, 0, 0),
        ("alternate", 1, 1, 0),
        ("winner", 0, 0, 0),
        ("winner", 0, 1, 1),
        ("winner", 1, 0, 0),
        ("winner", 1, 1, 1),
        ("loser", 0, 0, 1),
        ("loser", 0, 1, 0),
        ("loser", 1, 0, 1),
        ("loser", 1, 1, 0),
    ],
)
def test_r24_next_dealer_rule(mode, dealer, winner, expected):
    rules = Rules(next_dealer=mode)
    assert next_dealer(rules, dealer, _result("knock", winner, dealer)) == expected
    assert next_dealer(rules, dealer, _result("undercut", winner, dealer)) == expected
    assert next_dealer(rules, dealer, _result("draw", -1, dealer, 0)) == dealer


class _ScoreSpy(Strategy):
    """Delegates to ``inner``; records view.scores and dealer at each hand's first decision."""

    def __init__(self, inner):
        self.inner = inner
        self.seen = []
        self._last = None

    def _spy(self, view):
        if view is not self._last:
            self._last = view
            self.seen.append((view.scores, view.dealer))

    def take_upcard(self, view):
        self._spy(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._spy(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._spy(view)
        return self.inner.knock(view)


@pytest.mark.parametrize("mode", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("target", [1, 50, 100, 250])
def test_r24_game_to_target_score(mode, target):
    rules = Rules(next_dealer=mode, target_score=target)
    for g in range(6):
        spies = [_ScoreSpy(simple()), _ScoreSpy(parse_spec("threshold:knock_at=5").build())]
        first = g % 2
        game = play_game(
            rules, spies, lambda h, g=g: deck_for(game_deal_seed(24, g, h)), first, lambda h: (2 * h + 1, 2 * h + 2)
        )
        assert game.first_dealer == first
        assert game.hands[0].dealer == first
        scores = [0, 0]
        dealer = first
        for i, res in enumerate(game.hands):
            assert res.dealer == dealer
            assert res.outcome != "forfeit"
            assert max(scores) < target  # no hand is dealt after the target is reached
            if res.winner >= 0:
                scores[res.winner] += res.points
            if res.outcome == "draw":
                expected = dealer
            elif mode == "alternate":
                expected = 1 - dealer
            elif mode == "winner":
                expected = res.winner
            else:
                expected = 1 - res.winner
            if i + 1 < len(game.hands):
                assert game.hands[i + 1].dealer == expected
            dealer = expected
        assert tuple(scores) == game.scores
        assert game.winner in (0, 1)
        assert game.scores[game.winner] >= target > game.scores[1 - game.winner]
        # each seat saw the scores before each hand, as (own, opponent), and the dealer:
        # its records are the expected ones of the hands where it had a decision
        running = [0, 0]
        expected = [[], []]
        for res in game.hands:
            for seat in (0, 1):
                expected[seat].append(((running[seat], running[1 - seat]), res.dealer))
            if res.winner >= 0:
                running[res.winner] += res.points
        for seat in (0, 1):
            it = iter(expected[seat])
            assert all(any(x == e for e in it) for x in spies[seat].seen), (spies[seat].seen, expected[seat])
            assert len(spies[seat].seen) >= len(game.hands) - 2


def test_r24_undecided_game_stops_at_max_hands():
    game = play_game(
        DEFAULT, [StockDrawer(), StockDrawer()], lambda h: deck_for(h + 5), 0, lambda _h: (0, 0), max_hands=3
    )
    assert game.winner == -1 and len(game.hands) == 3


class _SimClock:
    """The engine's clock in the R25 tests: time moves only when a ``_Sleeper`` "sleeps",
    so the tests decide the same on an idle or a busy machine (no wall-clock assertion)."""

    now = 0.0

    @classmethod
    def read(cls) -> float:
        return cls.now


@pytest.fixture
def sim_clock(monkeypatch):
    monkeypatch.setattr(_SimClock, "now", 0.0)
    monkeypatch.setattr(engine_module, "clock_time", _SimClock.read)
    return _SimClock


class _Sleeper(Strategy):
    """Plays like ``inner``; "sleeps" ``seconds`` (advances ``_SimClock``) at the decisions
    numbered in ``at`` (per hand, counted from 0), or at every decision when ``at`` is None."""

    def __init__(self, inner, seconds, at=(0,)):
        self.inner = inner
        self.seconds = seconds
        self.at = at
        self._view = None
        self._n = 0

    def _tick(self, view):
        if view is not self._view:
            self._view = view
            self._n = 0
        if self.at is None or self._n in self.at:
            _SimClock.now += self.seconds
        self._n += 1

    def take_upcard(self, view):
        self._tick(view)
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._tick(view)
        return self.inner.discard(view)

    def knock(self, view):
        self._tick(view)
        return self.inner.knock(view)


@pytest.mark.parametrize("slow_seat", [0, 1])
@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_runs_out_forfeits(slow_seat):
    rules = Rules(time_per_hand=0.05)
    strategies = [simple(), simple()]
    strategies[slow_seat] = _Sleeper(simple(), 0.12)
    res = play_hand(rules, strategies, deck_for(25), dealer=1, seeds=(1, 2))
    assert res.outcome == "forfeit" and res.forfeit_kind == "clock"
    assert res.forfeit_seat == slow_seat and res.winner == 1 - slow_seat
    assert res.points == forfeit_points(rules)  # a forfeit never pays
    assert "clock" in res.forfeit_reason and "0.05" in res.forfeit_reason


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_is_per_seat_and_runs_only_on_own_turns():
    # each seat thinks 0.15 s once: together 0.3 s of wall time, each under its 0.25 s
    rules = Rules(time_per_hand=0.25)
    res = play_hand(rules, [_Sleeper(simple(), 0.15), _Sleeper(simple(), 0.15)], deck_for(26), dealer=1)
    assert res.outcome != "forfeit"


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_is_per_hand_and_a_forfeit_loses_the_game():
    rules = Rules(time_per_hand=0.25, target_score=100)
    # 0.15 s per hand is under the clock, however many hands are played
    game = play_game(
        rules, [_Sleeper(simple(), 0.15), simple()], lambda h: deck_for(300 + h), 0, lambda h: (h, h), max_hands=3
    )
    assert all(r.outcome != "forfeit" for r in game.hands) and len(game.hands) >= 2
    # over the clock in a game: the slow seat loses the game at once
    game = play_game(
        Rules(time_per_hand=0.05), [simple(), _Sleeper(simple(), 0.1)], lambda h: deck_for(h), 0, lambda h: (h, h)
    )
    assert game.winner == 0 and len(game.hands) == 1
    assert game.hands[0].outcome == "forfeit" and game.hands[0].forfeit_kind == "clock"


@pytest.mark.usefixtures("sim_clock")
def test_r25_clock_counts_accumulated_thinking_time():
    # 0.04 s at each of the first three decisions: the third one passes 0.1 s
    rules = Rules(time_per_hand=0.1)
    res = play_hand(rules, [_Sleeper(simple(), 0.04, at=(0, 1, 2, 3, 4)), StockDrawer()], deck_for(27), dealer=1)
    assert res.outcome == "forfeit" and res.forfeit_kind == "clock" and res.forfeit_seat == 0


class _FakeTime:
    def __init__(self):
        self.calls = 0

    def perf_counter(self):
        self.calls += 1
        return time.perf_counter()


class _Observer(Strategy):
    """simple, with an ``observe`` hook (the engine's careful path)."""

    def __init__(self):
        self.inner = simple()
        self.events = 0

    def take_upcard(self, view):
        return self.inner.take_upcard(view)

    def discard(self, view):
        return self.inner.discard(view)

    def observe(self, view, event):
        self.events += 1


def test_r25_without_a_clock_nothing_is_measured(monkeypatch):
    fake = _FakeTime()
    monkeypatch.setattr(engine_module, "clock_time", fake.perf_counter)
    slow = _Sleeper(simple(), 0.02, at=None)
    res = play_hand(DEFAULT, [slow, simple()], deck_for(28), dealer=1)
    assert res.outcome != "forfeit"
    obs = _Observer()
    res = play_hand(DEFAULT, [obs, _Sleeper(simple(), 0.01, at=None)], deck_for(29), dealer=0)
    assert res.outcome != "forfeit" and obs.events > 0
    assert fake.calls == 0
    play_hand(Rules(time_per_hand=60), [simple(), simple()], deck_for(28), dealer=1)
    assert fake.calls > 0  # with a clock, the engine does time the strategies


# == R26 forfeits ===========================================================================


class _Raiser(Strategy):
    def __init__(self, method, inner=None):
        self.method = method
        self.inner = inner or simple()

    def _maybe(self, name):
        if name == self.method:
            raise RuntimeError(f"boom in {name}")

    def take_upcard(self, view):
        self._maybe("take_upcard")
        return self.inner.take_upcard(view)

    def discard(self, view):
        self._maybe("discard")
        return self.inner.discard(view)

    def knock(self, view):
        self._maybe("knock")
        return self.inner.knock(view)


PATHS = [DEFAULT, Rules(time_per_hand=3600.0)]
PATH_IDS = ["fast", "careful"]


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("method", ["take_upcard", "discard", "knock"])
def test_r26_strategy_that_raises_forfeits(rules, method):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH")
    raiser = _Raiser(method, Script(["take", "knock 5D"]))
    res = play(deck, raiser, simple(), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.winner == 1
    assert res.points == forfeit_points(rules, rules.hand_multiplier(parse_card("4S")))
    assert res.forfeit_kind == "raised"
    assert method in res.forfeit_reason and "RuntimeError" in res.forfeit_reason
    assert f"boom in {method}" in res.forfeit_reason


def test_r26_observe_that_raises_forfeits():
    class BadObserver(_Observer):
        def observe(self, view, event):
            raise KeyError("nope")

    res = play_hand(DEFAULT, [simple(), BadObserver()], deck_for(3), dealer=0)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "raised"
    assert "observe" in res.forfeit_reason and "KeyError" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize(
    ("moves", "kind", "words"),
    [
        (["pass", "KC"], "illegal", ["KC", "not in the hand"]),  # the dealer's card
        (["take", "4S"], "illegal", ["4S", "R12"]),
        (["pass", "7H"], "illegal", ["7H", "not in the hand"]),  # text, not a card int
        (["pass", 52], "illegal", ["52", "a discard must be a card"]),
        (["pass", True], "illegal", ["True", "a discard must be a card"]),
        (["pass", None], "illegal", ["None"]),
        (["yes"], "illegal", ["take_upcard returned 'yes'", "True or False"]),
        ([1], "illegal", ["take_upcard returned 1"]),
        ([None], "illegal", ["take_upcard returned None"]),
    ],
)
def test_r26_illegal_answers_forfeit_with_reason(rules, moves, kind, words):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")
    res = play(deck, Script(moves), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.winner == 1
    assert res.forfeit_kind == kind
    for w in words:
        assert w in res.forfeit_reason, res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", ["yes", 1, None])
def test_r26_knock_answer_that_is_not_a_bool_forfeits(rules, answer):
    class BadKnock(Script):
        def knock(self, view):
            return answer

    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")
    res = play(deck, BadKnock(["pass", "5D"]), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"
    assert f"knock returned {answer!r}" in res.forfeit_reason


def test_r26_discard_of_a_string_names_the_value():
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH 2H")

    class TextDiscard(Script):
        def discard(self, view):
            return "5D"

    res = play(deck, TextDiscard(["pass"]), Script(["pass"]))
    assert res.outcome == "forfeit" and res.forfeit_kind == "illegal"
    assert "'5D'" in res.forfeit_reason and "a discard must be a card" in res.forfeit_reason


class _Melder(Script):
    def __init__(self, moves, melds):
        super().__init__(moves)
        self.melds = melds

    def choose_melds(self, view):
        return self.melds


class _Layer(Script):
    def __init__(self, moves, layoff):
        super().__init__(moves)
        self.layoff = layoff

    def choose_layoffs(self, view):
        return self.layoff


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_illegal_melds_forfeit_the_knocker(rules):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], [mask("AS 2S 6H")]), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"
    assert "choose_melds" in res.forfeit_reason and "not a meld" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_illegal_layoff_forfeits_the_defender(rules):
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    res = play(deck, Script(["pass", "knock 9C"]), _Layer(["pass"], mask("TS")), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "illegal"
    assert "TS" in res.forfeit_reason and "laid off" in res.forfeit_reason


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
def test_r26_knocker_melds_over_the_limit_blame_the_knocker_even_when_the_defender_chooses_layoffs(rules):
    # the knocker shows no melds at all (legal melds, but deadwood 41 > 10); the defender
    # answers choose_layoffs with 0 ("lay off nothing"), which is a legal answer
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], []), _Layer(["pass"], 0), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_kind == "illegal"
    assert "knock limit" in res.forfeit_reason
    assert res.forfeit_seat == 0, f"the defender was blamed for the knocker's melds: {res.forfeit_reason!r}"


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", [5, "AS 2S 3S", object()], ids=["int", "str", "object"])
def test_r26_choose_melds_returning_a_non_list_forfeits(rules, answer):
    deck = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="7C", stock="KH")
    res = play(deck, _Melder(["pass", "knock KH"], answer), Script(["pass"]), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal"


@pytest.mark.parametrize("rules", PATHS, ids=PATH_IDS)
@pytest.mark.parametrize("answer", ["9S", [parse_card("9S")], 1.5], ids=["str", "list", "float"])
def test_r26_choose_layoffs_returning_a_non_mask_forfeits(rules, answer):
    deck = make_deck(nondealer=LAYOFF_KNOCKER, dealer="9S TS 2S 5H 5D 7C 8C 4D 4H KC", upcard="KH", stock="9C")
    res = play(deck, Script(["pass", "knock 9C"]), _Layer(["pass"], answer), rules=rules)
    assert res.outcome == "forfeit" and res.forfeit_seat == 1 and res.forfeit_kind == "illegal"


def test_r26_forfeit_loses_the_game_whatever_the_score():
    class RaiseOnSecondHand(_PerHand):
        def __init__(self):
            super().__init__(Script(["take", "knock 5D"]), _Raiser("take_upcard"))

    # hand 0: seat 0 (non-dealer) goes gin at once (+20+5); hand 1: seat 0 raises
    deck0 = make_deck(nondealer=NONDEALER, dealer=DEALER, upcard="4S", stock="KH")
    game = play_game(
        DEFAULT, [RaiseOnSecondHand(), simple()], lambda h: deck0 if h == 0 else deck_for(h), 1, lambda h: (h, h)
    )
    assert game.hands[0].outcome == "gin" and game.hands[0].winner == 0
    assert len(game.hands) == 2
    last = game.hands[1]
    assert last.outcome == "forfeit" and last.forfeit_seat == 0 and last.forfeit_kind == "raised"
    assert game.winner == 1
    # the forfeit scores for the opponent and ends the game at once
    assert game.scores == (25, forfeit_points(DEFAULT))


def test_r26_illegal_move_in_a_game_loses_the_game():
    game = play_game(DEFAULT, [simple(), Script(["maybe"])], lambda h: deck_for(h), 0, lambda h: (h, h))
    assert len(game.hands) == 1 and game.winner == 0
    assert game.hands[0].forfeit_seat == 1 and "take_upcard returned 'maybe'" in game.hands[0].forfeit_reason


def test_r26_big_gin_answer_that_is_not_a_bool():
    # a non-bool answer to take_big_gin should be treated like any other bad answer
    class BadBigGin(Script):
        def take_big_gin(self, view):
            return "yes"

    deck = make_deck(nondealer=BIG_GIN_HAND, dealer=BIG_GIN_DEFENDER, upcard="5C", stock="KC")
    res = play(deck, BadBigGin(["pass", "knock KC"]), Script(["pass"]), rules=Rules(big_gin_bonus=31))
    assert res.outcome == "forfeit" and res.forfeit_seat == 0 and res.forfeit_kind == "illegal", res


# == The Rules value ==========================================================================


def test_rules_defaults_match_rules_md():
    r = Rules()
    assert (r.knock_limit, r.gin_bonus, r.undercut_bonus, r.big_gin_bonus) == (10, 20, 10, None)
    assert (r.allow_discard_of_drawn_upcard, r.max_run_length, r.target_score) == (False, None, 100)
    assert (r.next_dealer, r.time_per_hand) == ("alternate", None)
    with pytest.raises(FrozenInstanceError):
        r.knock_limit = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("field", "bad"),
    [
        ("knock_limit", 11),
        ("knock_limit", -1),
        ("knock_limit", "5"),
        ("knock_limit", True),
        ("knock_limit", 5.0),
        ("gin_bonus", -1),
        ("gin_bonus", 2.5),
        ("undercut_bonus", -10),
        ("undercut_bonus", None),
        ("big_gin_bonus", -31),
        ("big_gin_bonus", "31"),
        ("allow_discard_of_drawn_upcard", "yes"),
        ("allow_discard_of_drawn_upcard", 1),
        ("max_run_length", 2),
        ("max_run_length", 14),
        ("max_run_length", 0),
        ("target_score", 0),
        ("target_score", -100),
        ("next_dealer", "random"),
        ("next_dealer", "Winner "),
        ("time_per_hand", 0),
        ("time_per_hand", -1.0),
        ("time_per_hand", math.nan),
        ("time_per_hand", True),
        ("time_per_hand", "10"),
    ],
)
def test_rules_bad_values_raise_rules_error_naming_the_field(field, bad):
    with pytest.raises(RulesError, match=field) as err:
        Rules(**{field: bad})
    assert isinstance(err.value, GinsimError) and isinstance(err.value, ValueError)
    with pytest.raises(RulesError, match=field):
        Rules().with_values({field: bad})


def test_rules_good_values():
    r = Rules(
        knock_limit=0,
        gin_bonus=25,
        undercut_bonus=25,
        big_gin_bonus=31,
        allow_discard_of_drawn_upcard=True,
        max_run_length=5,
        target_score=250,
        next_dealer="loser",
        time_per_hand=3,
    )
    assert r.time_per_hand == 3.0 and isinstance(r.time_per_hand, float)
    assert r.differences()["knock_limit"] == 0
    assert Rules().describe() == "default rules"
    assert "knock_limit=0" in r.describe()


def test_rules_with_values_unknown_key():
    with pytest.raises(RulesError, match="knock_limt") as err:
        Rules().with_values({"knock_limt": 5})
    assert "knock_limit" in str(err.value)  # the known keys are listed
    r = Rules().with_values({"knock_limit": 7})
    assert r.knock_limit == 7 and r.gin_bonus == 20


def test_rules_load_rules_file(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text(
        '[rules]\nknock_limit = 7\ngin_bonus = 25\nnext_dealer = "winner"\nbig_gin_bonus = 31\ntime_per_hand = 1.5\n',
        encoding="utf-8",
    )
    r = load_rules_file(p)
    assert (r.knock_limit, r.gin_bonus, r.next_dealer, r.big_gin_bonus, r.time_per_hand) == (7, 25, "winner", 31, 1.5)
    p.write_text('[rules]\nbig_gin_bonus = "none"\n', encoding="utf-8")
    assert load_rules_file(p).big_gin_bonus is None
    p.write_text("", encoding="utf-8")
    assert load_rules_file(p) == Rules()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[rules]\nknock_lim = 7\n", ["knock_lim", "unknown"]),
        ("[rules]\nknock_limit = 70\n", ["knock_limit", "70"]),
        ('[rules]\nnext_dealer = "random"\n', ["next_dealer", "random"]),
        ("[game]\nknock_limit = 7\n", ["game", "[rules]"]),
        ("knock_limit = 7\n", ["knock_limit"]),
        ("[rules\nknock_limit = 7\n", ["not valid TOML"]),
        ("rules = 5\n", ["[rules] must be a table"]),
    ],
)
def test_rules_load_rules_file_errors(tmp_path, text, words):
    p = tmp_path / "bad.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as err:
        load_rules_file(p)
    msg = str(err.value)
    assert "bad.toml" in msg
    for w in words:
        assert w in msg, msg


def test_rules_load_rules_file_missing(tmp_path):
    with pytest.raises(RulesError, match="cannot read"):
        load_rules_file(tmp_path / "nope.toml")
