"""``simple``: the standard baseline of Gin Rummy AI work."""

from __future__ import annotations

from typing import Any

from ginsim.cards import Card
from ginsim.strategy import SIMPLE, FastPolicy, Strategy
from ginsim.view import PlayerView


class Simple(Strategy):
    """Takes the upcard exactly when it would join a meld in the hand (else passes on
    the first turn or draws from the stock); discards at random among the cards whose
    removal leaves the least deadwood, never the upcard it just took; knocks as soon as
    it legally can, which is gin whenever gin is possible."""

    name = "simple"
    description = "take the upcard only if it melds, discard to least deadwood, knock as soon as legal"

    @classmethod
    def fast_policy(cls, params: dict[str, Any]) -> FastPolicy | None:
        """``simple`` itself is played by the fast path; a subclass is not."""
        if cls is not Simple:
            return None
        Simple(**params)  # the same checks of the parameters as building the strategy
        return FastPolicy(SIMPLE)

    def take_upcard(self, view: PlayerView) -> bool:
        up = view.upcard
        return up is not None and view.would_meld(up)

    def discard(self, view: PlayerView) -> Card:
        cards = view.best_discards(1 << view.drawn if view.drawn_from_pile else 0)[1]  # type: ignore[operator]
        if cards & (cards - 1) == 0:
            return cards.bit_length() - 1
        return view.rng.pick_bit(cards)  # a tie: one of them at random

    def knock(self, view: PlayerView) -> bool:
        return True
