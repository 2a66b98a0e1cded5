"""Small helpers for the rule and property tests: explicit decks, scripted strategies,
and a driver of ``Hand`` by text moves or by random legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ginsim.engine.cards import CARD_NAMES, FULL_DECK, Card, Mask, cards_list, parse_card, parse_cards, to_mask
from ginsim.engine.playhand import Hand
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, DRAW, LAYOFF, OFFER, PlayerView

NONDEALER_SLOTS = range(0, 20, 2)
DEALER_SLOTS = range(1, 20, 2)
UPCARD_SLOT = 20
STOCK_START = 21


def _cards(spec: str | Iterable[Card | str] | None) -> list[Card]:
    if spec is None:
        return []
    if isinstance(spec, str):
        return parse_cards(spec)
    return [parse_card(c) if isinstance(c, str) else c for c in spec]


def make_deck(
    nondealer: str | Iterable[Card | str] = "",
    dealer: str | Iterable[Card | str] = "",
    upcard: str | Card | None = None,
    stock: str | Iterable[Card | str] = "",
    fill_seed: int = 0,
) -> list[Card]:
    """A 52-card deck (top first) dealing the given cards (R08).

    ``nondealer`` and ``dealer`` are up to 10 cards each, ``upcard`` one card, ``stock``
    the top of the stock in drawing order. The cards not named fill the rest, in an order
    shuffled by ``random.Random(fill_seed)``: first the missing hand cards, then the upcard,
    then the rest of the stock."""
    nd = _cards(nondealer)
    dl = _cards(dealer)
    up = [] if upcard is None else _cards([upcard] if isinstance(upcard, int) else upcard)
    st = _cards(stock)
    if len(nd) > 10 or len(dl) > 10 or len(up) > 1:
        raise ValueError("at most 10 cards per hand and one upcard")
    named = nd + dl + up + st
    if len(set(named)) != len(named):
        dup = next(c for c in named if named.count(c) > 1)
        raise ValueError(f"card {CARD_NAMES[dup]} named twice")
    rest = sorted(set(range(52)) - set(named))
    random.Random(fill_seed).shuffle(rest)
    while len(nd) < 10:
        nd.append(rest.pop(0))
    while len(dl) < 10:
        dl.append(rest.pop(0))
    if not up:
        up.append(rest.pop(0))
    deck = [0] * 52
    for i, c in zip(NONDEALER_SLOTS, nd, strict=True):
        deck[i] = c
    for i, c in zip(DEALER_SLOTS, dl, strict=True):
        deck[i] = c
    deck[UPCARD_SLOT] = up[0]
    deck[STOCK_START:] = st + rest
    assert sorted(deck) == list(range(52))
    return deck


def mask(text: str) -> Mask:
    """Card text as a mask: ``mask("7H 8H")``."""
    return to_mask(text)


def names(m: Mask | Iterable[Card]) -> set[str]:
    """Card names of a mask or of cards, as a set (order-free comparison)."""
    cards = cards_list(m) if isinstance(m, int) else list(m)
    return {CARD_NAMES[c] for c in cards}


# -- scripted strategies ------------------------------------------------------------

Move = Any
"""A scripted answer: ``"take"``, ``"pass"``/``"draw"`` (take_upcard False), ``"7H"``
(discard 7H, do not knock), ``"knock 7H"`` (discard 7H and knock), ``"big gin"``, a
callable ``f(view)`` returning the raw answer, or any other object returned as is."""


class ScriptExhaustedError(AssertionError):
    pass


class Script(Strategy):
    """A strategy that plays a fixed list of moves, one per decision, in order.

    take_upcard consumes ``take``/``pass``/``draw``; discard consumes a card (``"7H"``) or
    ``"knock 7H"``; knock answers what the last discard asked for; take_big_gin (only asked
    when big gin is possible) consumes ``"big gin"`` if that is next, else declines. When
    the moves run out, ``then`` (a strategy) plays on; without one the script raises."""

    name = "script"

    def __init__(self, moves: Sequence[Move] = (), then: Strategy | None = None) -> None:
        self.moves = list(moves)
        self.then = then
        self.pos = 0
        self.pending_knock = False
        self.knock_asked = 0
        self.big_gin_asked = 0
        self.calls: list[str] = []

    def done(self) -> bool:
        return self.pos >= len(self.moves)

    def _next(self, view: PlayerView, what: str) -> Any:
        if self.pos >= len(self.moves):
            raise ScriptExhaustedError(f"script exhausted at {what} (turn {view.turn})")
        move = self.moves[self.pos]
        self.pos += 1
        if callable(move):
            return move(view)
        return move

    def take_upcard(self, view: PlayerView) -> bool:
        self.calls.append("take_upcard")
        if self.done() and self.then is not None:
            return self.then.take_upcard(view)
        move = self._next(view, "take_upcard")
        if move == "take":
            return True
        if move in ("pass", "draw"):
            return False
        return move

    def discard(self, view: PlayerView) -> Card:
        self.calls.append("discard")
        if self.done() and self.then is not None:
            self.pending_knock = None  # type: ignore[assignment]
            return self.then.discard(view)
        move = self._next(view, "discard")
        self.pending_knock = False
        if isinstance(move, str):
            text = move.strip()
            if text.lower().startswith("knock "):
                self.pending_knock = True
                text = text[6:]
            return parse_card(text)
        return move

    def knock(self, view: PlayerView) -> bool:
        self.calls.append("knock")
        self.knock_asked += 1
        if self.pending_knock is None and self.then is not None:
            return self.then.knock(view)
        return self.pending_knock

    def take_big_gin(self, view: PlayerView) -> bool:
        self.calls.append("take_big_gin")
        self.big_gin_asked += 1
        if not self.done() and self.moves[self.pos] == "big gin":
            self.pos += 1
            return True
        return False


class StockDrawer(Strategy):
    """Never takes the upcard (passes on the first turn, draws from the stock), discards
    the card it just drew and knocks only when ``knock_when(view)`` says so (never by
    default). Its moves never depend on its own hidden cards."""

    name = "stockdrawer"

    def __init__(self, knock_when: Callable[[PlayerView], bool] | None = None) -> None:
        self.knock_when = knock_when

    def take_upcard(self, view: PlayerView) -> bool:
        return False

    def discard(self, view: PlayerView) -> Card:
        assert view.drawn is not None and not view.drawn_from_pile
        return view.drawn

    def knock(self, view: PlayerView) -> bool:
        return bool(self.knock_when and self.knock_when(view))


class Recorder(Strategy):
    """Delegates to ``inner`` and records ``view.snapshot()`` at every decision."""

    name = "recorder"

    def __init__(self, inner: Strategy) -> None:
        self.inner = inner
        self.snapshots: list[tuple[str, dict[str, Any]]] = []

    def take_upcard(self, view: PlayerView) -> bool:
        self.snapshots.append(("take_upcard", view.snapshot()))
        return self.inner.take_upcard(view)

    def discard(self, view: PlayerView) -> Card:
        self.snapshots.append(("discard", view.snapshot()))
        return self.inner.discard(view)

    def knock(self, view: PlayerView) -> bool:
        self.snapshots.append(("knock", view.snapshot()))
        return self.inner.knock(view)


# -- driving Hand directly ------------------------------------------------------------


def apply(hand: Hand, moves: str) -> None:
    """Apply moves given as text, separated by ``;``: ``take``, ``pass``, ``draw``,
    ``discard 7H``, ``knock 7H``, ``big gin``, ``show``."""
    for raw in moves.split(";"):
        move = raw.strip().lower()
        if not move:
            continue
        if move == "take":
            hand.take()
        elif move == "pass":
            hand.pass_upcard()
        elif move == "draw":
            hand.draw()
        elif move.startswith("discard "):
            hand.discard(parse_card(move[8:]))
        elif move.startswith("knock "):
            hand.discard(parse_card(move[6:]), knock=True)
        elif move == "big gin":
            hand.big_gin()
        elif move == "show":
            hand.show()
        else:
            raise ValueError(f"unknown move {raw!r}")


def stock_cards(hand: Hand) -> list[Card]:
    """The cards still in the stock, top first (test-side knowledge of the engine)."""
    return list(hand.deck[hand.next_stock :])


def check_conservation(hand: Hand) -> None:
    """The 52 cards are exactly in the two hands, the discard pile and the stock."""
    h0, h1 = hand.hands
    pile = 0
    for c in hand.pile:
        assert not pile >> c & 1, "a card twice in the pile"
        pile |= 1 << c
    stock = 0
    for c in stock_cards(hand):
        stock |= 1 << c
    parts = (h0, h1, pile, stock)
    total = sum(p.bit_count() for p in parts)
    union = h0 | h1 | pile | stock
    assert total == 52, f"{total} cards in play"
    assert union == FULL_DECK, "cards missing"
    assert len(hand.pile) + len(stock_cards(hand)) + h0.bit_count() + h1.bit_count() == 52
    # hand sizes: 10 each, 11 for the mover while it must discard (and for big gin)
    mover = hand.to_move
    for seat, h in enumerate(hand.hands):
        expected = 11 if (hand.phase is DISCARD and seat == mover) else 10
        if hand.result is not None and hand.result.outcome == "big_gin" and seat == hand.result.knocker:
            expected = 11
        if hand.result is not None and hand.result.outcome == "forfeit":
            continue
        assert h.bit_count() == expected, f"seat {seat} holds {h.bit_count()} cards in phase {hand.phase}"


def random_move(hand: Hand, rng: random.Random, knock_chance: float = 0.3) -> str:
    """Play one random legal move on ``hand``; return what it was."""
    phase = hand.phase
    if phase is OFFER:
        if rng.random() < 0.3:
            hand.take()
            return "take"
        hand.pass_upcard()
        return "pass"
    if phase is DRAW:
        if rng.random() < 0.3:
            hand.take()
            return "take"
        hand.draw()
        return "draw"
    if phase is DISCARD:
        if hand.can_big_gin() and rng.random() < 0.5:
            hand.big_gin()
            return "big gin"
        seat = hand.to_move
        legal = [c for c in cards_list(hand.hands[seat]) if hand.can_discard(c)]
        card = rng.choice(legal)
        knock = hand.can_discard(card, knock=True) and rng.random() < knock_chance
        hand.discard(card, knock)
        return ("knock " if knock else "discard ") + CARD_NAMES[card]
    if phase is LAYOFF:
        hand.show()
        return "show"
    raise AssertionError(f"no move in phase {phase}")
