"""R08-R12: the deal, the first turn and a normal turn,
each proved by rule id with explicit hands (support.rulebook has the seat convention
and deck layout)."""

from __future__ import annotations

import pytest
from support.deals import (
    Script,
    StockDrawer,
    apply,
    make_deck,
    mask,
)
from support.rulebook import (
    DEALER,
    DEFAULT,
    NONDEALER,
    play,
)

from ginsim import (
    IllegalMoveError,
    Rules,
    parse_card,
)
from ginsim.engine.cards import CARD_NAMES
from ginsim.engine.playhand import Hand
from ginsim.engine.view import DISCARD, DRAW, OFFER
from ginsim.run.seeding import deck_for

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
