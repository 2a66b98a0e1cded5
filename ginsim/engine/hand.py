"""One hand of Gin Rummy as a state machine (R08-R23).

``Hand`` holds one hand's whole state and moves through explicit phases: the first-turn
offer, draw, discard (and knock), then the showdown with lay-offs and the score. Each
move is checked before it is applied, and an illegal one raises ``IllegalMoveError``
saying what and why (``verify_*`` explains a refusal, ``can_*`` asks, the move applies).
Both seats' ``PlayerView``s are written as the hand goes on; they never see this object.
This module deals the hand and plays its turns; the showdown, a forfeit and the result
are those of its base, ``HandEnd`` (ginsim.engine.handend).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Final, cast

from ginsim.engine.cards import CARD_NAMES, Card
from ginsim.engine.guard import safe_repr
from ginsim.engine.handend import HandEnd
from ginsim.engine.kernel import loop, scoring
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.result import MAX_TURNS
from ginsim.engine.rules import Rules, rule_facts
from ginsim.engine.view import DISCARD, DRAW, LAYOFF, OFFER, Event, PlayerView
from ginsim.errors import IllegalMoveError

_ALL_CARDS: Final = list(range(52))
_INT_ONLY: Final = {int}


def _checked_deck(deck: Sequence[object]) -> list[Card]:
    """A deck as a list of plain ints, or IllegalMoveError if it is not the 52 cards."""
    try:
        cards = [operator.index(c) for c in deck]  # type: ignore[call-overload,arg-type]
    except TypeError:
        raise IllegalMoveError("a deck must be a sequence of 52 card ints") from None
    if len(cards) != 52 or sorted(cards) != _ALL_CARDS:
        raise IllegalMoveError("a deck must hold each of the 52 cards (ints 0..51) exactly once")
    return cards


_ENGINE_TABLES: Final[dict[int | None, MeldTables]] = {}


def _engine_tables(max_run_length: int | None) -> MeldTables:
    """The engine's own meld tables, never handed to a strategy (``tables_for``'s are
    public: any module can import them)."""
    t = _ENGINE_TABLES.get(max_run_length)
    if t is None:
        t = _ENGINE_TABLES[max_run_length] = tables_for(max_run_length).copy()
    return t


class Hand(HandEnd):
    """One hand of Gin Rummy between seats 0 and 1, from the deal to the score."""

    __slots__ = ("rules", "deck", "pile", "to_move", "drawn", "drawn_from_pile", "log", "_offer_passes")

    rules: Rules
    deck: Sequence[Card]
    pile: list[Card]
    to_move: int
    drawn: Card | None
    drawn_from_pile: bool
    log: list[Event] | None
    _offer_passes: int

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[Card],
        dealer: int,
        scores: tuple[int, int] = (0, 0),
        seeds: tuple[int, int] = (0, 0),
        log: list[Event] | None = None,
        checked: bool = False,
    ) -> None:
        # ``checked``: the caller already knows ``deck`` is a list of the 52 card ints
        # (the runner checks whole chunks of decks at once, see seeding.check_decks)
        if not checked and (type(deck) is not list or set(map(type, deck)) != _INT_ONLY or sorted(deck) != _ALL_CARDS):
            deck = _checked_deck(deck)
        if dealer not in (0, 1):
            raise IllegalMoveError(f"dealer must be seat 0 or 1, not {dealer!r}")
        tables = _engine_tables(rules.max_run_length)
        nd = 1 - dealer
        # R08: ten cards each, one at a time from the non-dealer; the 21st is the upcard
        h_nd, h_d = loop.deal(cast(list[int], deck), 0)
        hands = [0, 0]
        hands[nd] = h_nd
        hands[dealer] = h_d
        up = deck[20]
        # R14, R29, R30: this hand's knock limit and score multiplier (Oklahoma: from the upcard)
        facts = rule_facts(rules)
        limit = facts.limits[up]
        # each view gets its own rules (built from an immutable tuple when first read) and
        # tables: a strategy that changes them changes nothing anyone else uses
        t0, t1 = tables.copy(), tables.copy()
        if dealer == 0:
            v0 = PlayerView(rules, t0, 0, 0, (scores[0], scores[1]), seeds[0], h_d, up, limit)
            v1 = PlayerView(rules, t1, 1, 0, (scores[1], scores[0]), seeds[1], h_nd, up, limit)
        else:
            v0 = PlayerView(rules, t0, 0, 1, (scores[0], scores[1]), seeds[0], h_nd, up, limit)
            v1 = PlayerView(rules, t1, 1, 1, (scores[1], scores[0]), seeds[1], h_d, up, limit)
        super().__init__(facts, limit, facts.mults[up], tables, hands, dealer, (v0, v1))
        self.rules = rules
        self.deck = deck
        self.pile = [up]
        self.to_move = nd
        self.drawn = None
        self.drawn_from_pile = False
        self.log = log
        self._offer_passes = 0

    # -- facts --------------------------------------------------------------------
    @property
    def stock_size(self) -> int:
        return 52 - self.next_stock

    @property
    def upcard(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def deadwood_after(self, card: Card) -> int:
        """The mover's deadwood if it discards ``card`` now."""
        return self.tables.deadwood_mask(self.hands[self.to_move] & ~(1 << card))

    # -- events -------------------------------------------------------------------
    def _event(self, seat: int, action: str, card: Card | None) -> None:
        ev = (seat, action, card)
        self.views[0].history.append(ev)
        self.views[1].history.append(ev)
        if self.log is not None:
            self.log.append(ev)

    # -- moves: each checks before it applies (verify_* explains a refusal) ---------
    def verify_take(self) -> None:
        if self.phase is not OFFER and self.phase is not DRAW:
            raise IllegalMoveError(f"cannot take the upcard now: phase is {self.phase}")

    def take(self) -> None:
        """Take the top of the discard pile (R09, R10)."""
        if self.phase is not DRAW and self.phase is not OFFER:
            self.verify_take()
        seat = self.to_move
        pile = self.pile
        card = pile.pop()
        bit = 1 << card
        self.hands[seat] |= bit
        self.drawn = card
        self.drawn_from_pile = True
        self.phase = DISCARD
        me = self.views[seat]
        opp = self.views[1 - seat]
        me.hand = self.hands[seat]
        me.drawn = card
        me.drawn_from_pile = True
        me.phase = DISCARD
        new_top = pile[-1] if pile else None
        mine = me._pile
        if mine:  # never fails, even on a pile its strategy emptied
            mine.pop()
        me.pile_mask &= ~bit
        me.upcard = new_top
        theirs = opp._pile
        if theirs:
            theirs.pop()
        opp.pile_mask &= ~bit
        opp.upcard = new_top
        opp.opp_known |= bit
        self._event(seat, "take", card)

    def verify_pass(self) -> None:
        if self.phase is not OFFER:
            raise IllegalMoveError("passing is only for the first-turn offer; on a normal turn draw from the stock")

    def pass_upcard(self) -> None:
        """Decline the first-turn upcard (R09): to the dealer, then the non-dealer draws."""
        self.verify_pass()
        seat = self.to_move
        up = self.pile[-1]
        self.views[1 - seat].opp_passed |= 1 << up
        self._event(seat, "pass", up)
        self._offer_passes += 1
        if self._offer_passes == 1:
            self.to_move = 1 - seat
            return
        # both passed: the non-dealer draws the top of the stock
        self.to_move = 1 - self.dealer
        self.phase = DRAW
        self.draw()

    def verify_draw(self) -> None:
        if self.phase is OFFER:
            raise IllegalMoveError("on the first-turn offer take the upcard or pass; the stock comes after both pass")
        if self.phase is not DRAW:
            raise IllegalMoveError(f"cannot draw now: phase is {self.phase}")

    def draw(self) -> None:
        """Draw the top card of the stock (R10); the upcard left is passed on."""
        if self.phase is not DRAW:
            self.verify_draw()
        seat = self.to_move
        views = self.views
        me = views[seat]
        opp = views[1 - seat]
        pile = self.pile
        if pile:
            opp.opp_passed |= 1 << pile[-1]
        i = self.next_stock
        card = self.deck[i]
        self.next_stock = i + 1
        hands = self.hands
        held = hands[seat] = hands[seat] | 1 << card
        self.drawn = card  # drawn_from_pile is already False: no card was taken this turn
        self.phase = DISCARD
        me.hand = held
        me.drawn = card
        me.drawn_from_pile = False
        me.phase = DISCARD
        n = 51 - i
        me.stock_size = n
        opp.stock_size = n
        # the drawer sees its card; the opponent only that a card was drawn
        me.history.append((seat, "draw", card))
        opp.history.append((seat, "draw", None))
        if self.log is not None:
            self.log.append((seat, "draw", card))

    def verify_discard(self, card: object, knock: bool = False) -> None:
        """Raise IllegalMoveError saying why discarding ``card`` (and knocking) is not allowed."""
        if self.phase is not DISCARD:
            raise IllegalMoveError(f"cannot discard now: phase is {self.phase}")
        if type(card) is not int or not 0 <= card < 52:
            raise IllegalMoveError(f"a discard must be a card (int 0..51), not {safe_repr(card)}")
        hand = self.hands[self.to_move]
        if not hand >> card & 1:
            raise IllegalMoveError(f"cannot discard {CARD_NAMES[card]}: not in the hand")
        if self.drawn_from_pile and card == self.drawn and not self.rules.allow_discard_of_drawn_upcard:
            raise IllegalMoveError(f"cannot discard {CARD_NAMES[card]}: it was just taken from the discard pile (R12)")
        if knock:
            dw = self.tables.deadwood_mask(hand & ~(1 << card))
            if dw > self.knock_limit:
                raise IllegalMoveError(
                    f"cannot knock discarding {CARD_NAMES[card]}: deadwood {dw} is over the knock limit "
                    f"{self.knock_limit}"
                )

    def can_discard(self, card: object, knock: bool = False) -> bool:
        try:
            self.verify_discard(card, knock)
        except IllegalMoveError:
            return False
        return True

    def discard(self, card: object, knock: bool = False) -> None:
        """Discard ``card``, knocking if asked (R11-R15); ends the turn or the hand.
        Anything but a legal discard raises IllegalMoveError saying why."""
        seat = self.to_move
        hands = self.hands
        if (
            knock
            or self.phase is not DISCARD
            or type(card) is not int
            or not 0 <= card < 52
            or not hands[seat] >> card & 1
            or (self.drawn_from_pile and card == self.drawn)
        ):
            self.verify_discard(card, knock)  # raises with the reason, or passes if legal
        c = cast(int, card)  # checked above: a card of the hand
        bit = 1 << c
        held = hands[seat] = hands[seat] ^ bit
        self.pile.append(c)
        views = self.views
        me = views[seat]
        opp = views[1 - seat]
        me.hand = held
        me._pile.append(c)
        me.pile_mask |= bit
        me.upcard = c
        opp._pile.append(c)
        opp.pile_mask |= bit
        opp.upcard = c
        opp.opp_discards |= bit
        opp.opp_known &= ~bit
        ev = (seat, "discard", c)
        me.history.append(ev)
        opp.history.append(ev)
        if self.log is not None:
            self.log.append(ev)
        if knock:
            self.knocker = seat
            self.phase = LAYOFF
            self._event(seat, "knock", c)
            return
        if self.next_stock >= 50 or self.turn >= MAX_TURNS:
            # R23: stock down to two and no knock: no score, same dealer deals again.
            # (The turn cap ends a hand two players keep feeding each other from the
            # pile; the log tells it apart by stock_left > 2.)
            self._end(scoring.DRAWN, -1, -1, 0, 0, 0, 0, 0, ())
            return
        self.to_move = 1 - seat
        turn = self.turn = self.turn + 1
        self.phase = DRAW
        self.drawn = None
        self.drawn_from_pile = False
        me.drawn = None
        me.drawn_from_pile = False
        me.discard_choice = None
        me.phase = DRAW
        me.turn = turn
        opp.phase = DRAW
        opp.turn = turn

    def can_big_gin(self) -> bool:
        return (
            self.phase is DISCARD
            and self.rules.big_gin_bonus is not None
            and self.tables.deadwood_mask(self.hands[self.to_move]) == 0
        )

    def big_gin(self) -> None:
        """R22: all 11 cards meld right after drawing; the hand ends without a discard."""
        if not self.can_big_gin():
            if self.rules.big_gin_bonus is None:
                raise IllegalMoveError("big gin is off in these rules")
            raise IllegalMoveError("big gin needs all 11 cards melded right after drawing")
        seat = self.to_move
        opp = 1 - seat
        melds = self.tables.best_melds_mask(self.hands[seat]).melds
        dd = self.tables.deadwood_mask(self.hands[opp])
        self.knocker = seat
        self.knocker_melds = melds
        self._event(seat, "big_gin", None)
        _, _, points = scoring.score(self.facts, seat, 0, dd, dd, True, self.multiplier)
        self._end(scoring.BIG_GIN, seat, seat, points, 0, dd, dd, 0, melds)
