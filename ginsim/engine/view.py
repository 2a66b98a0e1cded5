"""PlayerView: what one seat may know (R13), and nothing else.

A view holds copies of public facts and of its own seat's cards: its hand, the discard
pile, what the opponent took from the pile or passed on, the stock's size, the scores and
the rules. It has no reference to the engine's state, the stock or the other hand; the
engine writes into it as the hand goes on. It also carries the legal moves and the
deadwood helpers a strategy needs, and the seat's own seeded random generator.
"""

from __future__ import annotations

from typing import Any, Final

from ginsim.engine.cards import FULL_DECK, Card, Mask, format_card, melds_with
from ginsim.engine.kernel.discard import least_discards
from ginsim.engine.melds import Melds, MeldTables
from ginsim.engine.rng import SeededRandom
from ginsim.engine.rules import Rules, rules_from_values, rules_values

_M64: Final = (1 << 64) - 1
_ODD: Final = 0xD1B54A32D192ED03  # an odd multiplier spreading a question's key over 64 bits

OFFER: Final = "offer"
"""First turn: take the upcard or pass (R09)."""
DRAW: Final = "draw"
"""A normal turn begins: take the upcard (the top of the pile) or draw from the stock."""
DISCARD: Final = "discard"
"""The seat holds 11 cards and must discard one."""
KNOCK: Final = "knock"
"""The chosen discard allows a knock: knock or play on."""
LAYOFF: Final = "layoff"
"""The opponent knocked: lay off on its melds."""
OVER: Final = "over"


Event = tuple[int, str, "Card | None"]
"""One public event of a hand as a seat saw it: ``(seat, action, card)``. ``action`` is
pass, take, draw, discard, knock or big_gin (gin is a knock at deadwood 0;
``ginsim.engine.vocab.Action``); ``card`` is
None for a card the seat may not see (the opponent's draw from the stock) and for big
gin; a knock's card is the knocker's discard. docs/strategy-api.md has the whole list."""


_LAST_RULES: Final[list[Any]] = [None, ()]
"""The rules the last view was made under and their values (``rules_values``): a hand's
two views, and every hand of a run, share the one immutable tuple without a call each."""


FIXED_FIELDS: Final = ("knock_limit", "seat", "dealer", "scores")
"""The public fields of ``PlayerView`` fixed when the hand is dealt (with the rules)."""
MOVING_FIELDS: Final = (
    "phase",
    "hand",
    "upcard",
    "stock_size",
    "turn",
    "drawn",
    "drawn_from_pile",
    "discard_choice",
    "discard_deadwood",
    "opp_known",
    "opp_passed",
    "opp_discards",
    "pile_mask",
    "knocker_deadwood",
    "knocker_deadwood_cards",
)
"""The public fields of ``PlayerView`` that change during a hand, besides ``history``, the
pile and ``knocker_melds`` (a view sent to a bot in another process carries these at each
decision; the rest are fixed when the hand is dealt)."""


def format_event(event: Event) -> str:
    seat, action, card = event
    return f"seat {seat} {action} {'?' if card is None else format_card(card)}"


class PlayerView:
    """What one seat knows at a decision. Read it; never change it."""

    __slots__ = (
        "_rules",
        "_rules_values",
        *FIXED_FIELDS,
        *MOVING_FIELDS,
        "history",
        "knocker_melds",
        "_pile",
        "_tables",
        "_seed",
        "_rng",
        "_memo_hand",
        "_memo",
        "_no_upcard_back",
    )

    def __init__(
        self,
        rules: Rules,
        tables: MeldTables,
        seat: int,
        dealer: int,
        scores: tuple[int, int],
        seed: int,
        hand: Mask = 0,
        upcard: Card | None = None,
        knock_limit: int = -1,
    ) -> None:
        # the rules as an immutable tuple; ``rules`` builds this seat's own copy when first
        # read, so a strategy that changes it (even a frozen dataclass yields to
        # object.__setattr__) changes nothing anyone else uses, and one that never reads
        # it costs nothing
        last = _LAST_RULES
        if rules is last[0]:  # the same rules as the last view's: their values as well
            self._rules_values = last[1]
        else:
            self._rules_values = last[1] = rules_values(rules)
            last[0] = rules
        self._rules: Rules | None = None
        # this hand's knock limit (R14; R29: Oklahoma sets it from the first upcard)
        if knock_limit < 0:
            knock_limit = rules.knock_limit if upcard is None else rules.hand_knock_limit(upcard)
        self.knock_limit = knock_limit
        self.seat = seat
        self.dealer = dealer
        self.scores = scores  # (own, opponent) before this hand
        self.hand = hand
        self.phase = OFFER
        self.upcard = upcard  # top of the discard pile
        self.stock_size = 31
        self.turn = 1  # draw actions so far, the first-turn offer counting as one
        self.drawn: Card | None = None  # the card this seat drew this turn
        self.drawn_from_pile = False
        self.discard_choice: Card | None = None  # in the knock decision: the discard
        self.discard_deadwood = 0  # in the knock decision: the deadwood after it
        self.opp_known: Mask = 0  # cards the opponent took from the pile and still holds
        self.opp_passed: Mask = 0  # upcards the opponent passed on or left on the pile
        self.opp_discards: Mask = 0  # cards the opponent discarded
        self.pile_mask: Mask = 0 if upcard is None else 1 << upcard  # cards in the discard pile
        self.history: list[Event] = []
        self.knocker_melds: tuple[Mask, ...] = ()  # when the opponent knocked: its melds,
        self.knocker_deadwood = 0  # its deadwood
        self.knocker_deadwood_cards: Mask = 0  # and its unmelded cards (R16)
        self._pile: list[Card] = [] if upcard is None else [upcard]
        self._tables = tables
        self._seed = seed
        self._rng: SeededRandom | None = None
        self._memo_hand = -1  # the hand of the last best_discard_mask call, and its answer
        self._memo: tuple[int, Mask] = (0, 0)
        self._no_upcard_back = not rules.allow_discard_of_drawn_upcard  # R12

    # -- public facts -------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules of this hand: this seat's own copy."""
        r = self._rules
        if r is None:
            r = rules_from_values(self._rules_values)
            self._rules = r
        return r

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first; the last card is the upcard."""
        return tuple(self._pile)

    @property
    def rng(self) -> SeededRandom:
        """This seat's random generator for this hand, seeded by the engine."""
        r = self._rng
        if r is None:
            r = self._rng = SeededRandom(self._seed)
        return r

    def rng_for(self, key: int) -> SeededRandom:
        """A generator of its own for the question ``key`` names (any whole number, e.g. the
        turn): seeded by the engine's seed for this hand and seat and by ``key`` alone, so the
        same question in the same deal draws the same numbers whatever the seat drew before
        (``rng`` is one stream a hand, and what a strategy drew earlier moves it on)."""
        mixed = SeededRandom(self._seed ^ (key & _M64) * _ODD & _M64).getrandbits(64)
        return SeededRandom(mixed)

    @property
    def is_dealer(self) -> bool:
        return self.seat == self.dealer

    def unseen(self) -> Mask:
        """Cards this seat has not seen: in the stock or the unknown part of the
        opponent's hand."""
        return FULL_DECK & ~self.hand & ~self.pile_mask & ~self.opp_known

    # -- legal moves --------------------------------------------------------------
    def legal_discards(self) -> Mask:
        """Cards that may be discarded now (R12: not the upcard just taken, unless the
        rules allow it)."""
        if self.drawn_from_pile and self._no_upcard_back:
            return self.hand & ~(1 << self.drawn)  # type: ignore[operator]
        return self.hand

    def can_knock(self, card: Card) -> bool:
        """Whether discarding ``card`` now would allow a knock (R14)."""
        return self.deadwood_after(card) <= self.knock_limit

    def deadwood_after(self, card: Card) -> int:
        """This seat's deadwood if it discards ``card`` from its hand."""
        if self._memo_hand == self.hand and self._memo[1] >> card & 1:
            return self._memo[0]
        return self._tables.deadwood_mask(self.hand & ~(1 << card))

    # -- deadwood helpers ---------------------------------------------------------
    def deadwood(self, hand: Mask | None = None) -> int:
        """Least deadwood of ``hand`` (default: this seat's hand)."""
        return self._tables.deadwood_mask(self.hand if hand is None else hand)

    def best_melds(self, hand: Mask | None = None) -> Melds:
        """Melds and deadwood of a least-deadwood arrangement of ``hand`` (default: own)."""
        return self._tables.best_melds_mask(self.hand if hand is None else hand)

    def best_discards(self, exclude: Mask = 0) -> tuple[int, Mask]:
        """Among the legal discards (less ``exclude``): the least deadwood after
        discarding and the mask of the cards that reach it."""
        h = self.hand
        if self._memo_hand == h:
            dw, cards = self._memo
        else:
            dw, cards = self._memo = self._tables.best_discard_mask(h)
            self._memo_hand = h
        if self.drawn_from_pile and self._no_upcard_back:
            exclude |= 1 << self.drawn  # type: ignore[operator]
        legal = h & ~exclude
        if cards & legal:
            return dw, cards & legal
        return least_discards(self._tables.flat, h, legal)

    def would_meld(self, card: Card, hand: Mask | None = None) -> bool:
        """Whether ``card`` added to ``hand`` (default: own) lies in some meld of the
        result (a group of 3+ or a run of 3+, R04-R05)."""
        return melds_with(card, self.hand if hand is None else hand)

    def snapshot(self) -> dict[str, Any]:
        """Every public field as plain values, to compare views or show them."""
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "scores": self.scores,
            "hand": self.hand,
            "phase": self.phase,
            "upcard": self.upcard,
            "stock_size": self.stock_size,
            "turn": self.turn,
            "drawn": self.drawn,
            "drawn_from_pile": self.drawn_from_pile,
            "discard_choice": self.discard_choice,
            "discard_deadwood": self.discard_deadwood,
            "opp_known": self.opp_known,
            "opp_passed": self.opp_passed,
            "opp_discards": self.opp_discards,
            "pile_mask": self.pile_mask,
            "discard_pile": tuple(self._pile),
            "history": tuple(self.history),
            "knocker_melds": self.knocker_melds,
            "knocker_deadwood": self.knocker_deadwood,
            "knocker_deadwood_cards": self.knocker_deadwood_cards,
            "rules": self.rules,
            "knock_limit": self.knock_limit,
        }
