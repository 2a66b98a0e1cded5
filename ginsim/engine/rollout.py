"""Play a hand out from a seat's decision in a sampled world of the unseen cards.

A decision's options are valued by what they score: the unseen cards are dealt from the
deciding seat's view alone (the opponent's hidden hand and the stock; ``patient``'s
``worlds``), the hand so far is rebuilt in that world by the engine itself (a deck that deals
the seat's own cards and draws as they were and the sampled ones to the opponent, then the
logged moves replayed through ``ginsim.engine.hand.Hand``), the option is applied and the
rest of the hand is played by two strategies. Nothing here gives a strategy more than its
view: the world comes from the view, and the rebuilt hand's views are the engine's own.

``learned``'s search setting (``ginsim.strategies.learned_search``) plays its close choices
out this way; the experiments of ``experiments/training/`` (improvement by search) do too.
Strategy authors reach it as ``ginsim.rollout``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ginsim.engine.cards import Card, Mask, cards_list
from ginsim.engine.hand import Hand
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, DRAW, KNOCK, OFFER, OVER, PlayerView

__all__ = ["Option", "apply", "finish", "option_value", "points_for", "rebuild_deck", "replay"]

Option = tuple[str, object]
"""An option of a decision: ("take", bool), ("discard", card) or ("knock", bool)."""


def rebuild_deck(view: PlayerView, opp: Mask, stock: Sequence[Card], rand: Callable[[], float]) -> list[Card] | None:
    """A deck whose deal and draws lead, through the moves of ``view.history``, to the seat's
    hand of ``view`` and the opponent hand ``opp``, the stock then being ``stock`` (top
    last). The opponent's stock draws are cards it held or discarded afterwards, chosen by
    ``rand`` among those that fit. None if the world does not fit the history."""
    me = view.seat
    held = [0, 0]
    held[me] = view.hand
    held[1 - me] = opp
    draws: list[Card] = []
    history = view.history
    # cards the opponent takes from the pile, counted down as the walk back passes them
    taken_later = [c for s, a, c in history if s != me and a == "take" and c is not None]
    pending = set(taken_later)
    for seat, action, card in reversed(history):
        if action == "discard":
            held[seat] |= 1 << card  # type: ignore[operator]
        elif action == "take":
            held[seat] &= ~(1 << card)  # type: ignore[operator]
            if seat != me:
                pending.discard(card)  # type: ignore[arg-type]
        elif action == "draw":
            if seat == me:
                if card is None or not held[me] >> card & 1:
                    return None
                held[me] &= ~(1 << card)
                draws.append(card)
            else:
                choices = [c for c in cards_list(held[seat]) if c not in pending]
                if not choices:
                    return None
                c = choices[int(rand() * len(choices))]
                held[seat] &= ~(1 << c)
                draws.append(c)
        elif action != "pass":
            return None  # a knock or big gin: the hand is over
    if held[0].bit_count() != 10 or held[1].bit_count() != 10:
        return None
    first = next(((c for _, a, c in history if a in ("pass", "take"))), view.upcard)
    if first is None:
        return None
    nd = 1 - view.dealer
    a, b = cards_list(held[nd]), cards_list(held[1 - nd])
    deck = [c for pair in zip(a, b, strict=True) for c in pair]
    deck.append(first)
    deck.extend(reversed(draws))
    deck.extend(reversed(stock))
    if len(deck) != 52 or len(set(deck)) != 52:
        return None
    return deck


def replay(rules: Rules, view: PlayerView, deck: list[Card]) -> Hand:
    """The hand of ``view`` replayed on ``deck`` up to the decision ``view`` asks."""
    me = view.seat
    mine, theirs = view.scores
    scores = (mine, theirs) if me == 0 else (theirs, mine)
    hand = Hand(rules, deck, view.dealer, scores, (1, 2))
    skip_draw = False
    for _, action, card in view.history:
        if action == "pass":
            hand.pass_upcard()
            skip_draw = hand.phase is DISCARD  # both passed: the engine drew for the non-dealer
        elif action == "take":
            hand.take()
        elif action == "draw":
            if skip_draw:
                skip_draw = False
            else:
                hand.draw()
        elif action == "discard":
            hand.discard(card, False)
    return hand


def _discard(hand: Hand, player: Strategy, card: Card) -> None:
    """``card`` discarded by the mover, asking ``player`` about a knock where it may."""
    seat = hand.to_move
    dw = hand.deadwood_after(card)
    knock = False
    if dw <= hand.knock_limit:
        view = hand.views[seat]
        view.phase = KNOCK
        view.discard_choice = card
        view.discard_deadwood = dw
        knock = dw == 0 or bool(player.knock(view))
    hand.discard(card, knock)
    if knock:
        hand.show()


def finish(hand: Hand, players: Sequence[Strategy], before_discard: Callable[[Hand], None] | None = None) -> None:
    """Play ``hand`` to its end with ``players`` (the engine checks every move);
    ``before_discard(hand)``, when given, is called before each discard is asked for."""
    big_gin = hand.rules.big_gin_bonus is not None
    while hand.phase is not OVER:
        seat = hand.to_move
        view = hand.views[seat]
        player = players[seat]
        phase = hand.phase
        if phase is OFFER:
            hand.take() if player.take_upcard(view) else hand.pass_upcard()
        elif phase is DRAW:
            hand.take() if player.take_upcard(view) else hand.draw()
        elif big_gin and hand.can_big_gin():
            hand.big_gin()
        else:
            if before_discard is not None:
                before_discard(hand)
            _discard(hand, player, player.discard(view))


def apply(hand: Hand, option: Option, players: Sequence[Strategy], knock_card: Card | None) -> None:
    """Make the decision's ``option`` on the rebuilt ``hand``; ``knock_card`` is the discard
    a knock question was asked about."""
    kind, value = option
    if kind == "take":
        if value:
            hand.take()
        elif hand.phase is OFFER:
            hand.pass_upcard()
        else:
            hand.draw()
    elif kind == "discard":
        _discard(hand, players[hand.to_move], value)  # type: ignore[arg-type]
    else:
        assert knock_card is not None
        hand.discard(knock_card, bool(value))
        if value:
            hand.show()


def points_for(hand: Hand, seat: int) -> float:
    """The finished hand's points from ``seat``'s side (0 for a drawn hand)."""
    res = hand.result
    assert res is not None
    if res.winner < 0:
        return 0.0
    return float(res.points if res.winner == seat else -res.points)


def option_value(
    rules: Rules,
    view: PlayerView,
    deck: list[Card],
    option: Option,
    players_for: Callable[[Hand], Sequence[Strategy]],
) -> float:
    """The points from the deciding seat's side of ``option`` in the world of ``deck``,
    the rest of the hand played by ``players_for(rebuilt hand)`` (by seat)."""
    hand = replay(rules, view, deck)
    if hand.views[view.seat].hand != view.hand or hand.to_move != view.seat:
        raise AssertionError("the rebuilt hand does not match the view")
    players = players_for(hand)
    apply(hand, option, players, view.discard_choice if option[0] == "knock" else None)
    finish(hand, players)
    return points_for(hand, view.seat)
