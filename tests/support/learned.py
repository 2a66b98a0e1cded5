"""``learned`` keeping the rows of every decision it scored, for the tests of its heads."""

from __future__ import annotations

from typing import Any

from ginsim.strategies.learned import Learned, discard_rows, knock_row, take_row

from ginsim.engine.playhand import play_hand
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import Event, PlayerView
from ginsim.run.seeding import deck_for

Seen = list[tuple[str, list[list[float]]]]
"""By decision: the head that scored it and the rows of its options."""


class RowsKept(Learned):
    """``learned``, keeping the rows of every decision it scored."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.seen: Seen = []

    def take_upcard(self, view: PlayerView) -> bool:
        if view.upcard is not None:
            self.seen.append(("take", [take_row(view, self.context(view))]))
        return super().take_upcard(view)

    def discard(self, view: PlayerView) -> int:
        hand = view.hand
        self.seen.append(("discard", discard_rows(self.context(view), hand, hand & ~view.legal_discards())[1]))
        return super().discard(view)

    def knock(self, view: PlayerView) -> bool:
        card = view.discard_choice
        rest = view.hand if card is None else view.hand & ~(1 << card)
        self.seen.append(("knock", [knock_row(view, self.context(view), view.discard_deadwood, rest)]))
        return super().knock(view)


def rows_of_hands(rules_name: str, hands: int, first_deck: int = 100) -> Seen:
    """The rows ``learned`` scored over ``hands`` hands against ``simple`` (decks from ``first_deck``)."""
    rules = preset_rules(rules_name)
    seen: Seen = []
    for h in range(hands):
        me = RowsKept()
        deck = deck_for(first_deck + h)
        play_hand(rules, [me, parse_spec("simple").build()], deck, h % 2, (0, 0), (h, h + 1))
        seen += me.seen
    return seen


def heads_only(**params: Any) -> Learned:
    """``learned`` playing its model's heads without its card value: the players of the
    experiments that search or check the heads' choices build on these."""
    player = Learned(**params)
    player.cards = player.cheap_cards = None
    return player


def hand_moves(strategy: object, opponent: str, preset: str, decks: int, h: int) -> list[Event]:
    """The move log of hand ``h``: ``strategy`` in seat 0 against a fresh ``opponent`` under
    ``preset``'s rules, on ``deck_for(decks + h)``, dealt by seat ``h % 2``, the seats' seeds
    ``(h, h + 1)``; a forfeit fails the test."""
    log: list[Event] = []
    seats = [strategy, parse_spec(opponent).build()]
    result = play_hand(preset_rules(preset), seats, deck_for(decks + h), h % 2, (0, 0), (h, h + 1), log)
    assert result.outcome != "forfeit", result
    return log
