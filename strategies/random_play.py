"""``random``: every choice uniformly at random among the legal moves."""

from __future__ import annotations

from typing import Any

from ginsim.cards import Card, cards_list
from ginsim.strategy import RANDOM, FastPolicy, Strategy
from ginsim.view import PlayerView


class RandomPlay(Strategy):
    """Takes or leaves the upcard at random, discards a random legal card, and knocks
    with probability ``knock_chance`` when knocking is legal. A floor for every test."""

    name = "random"
    description = "uniformly random legal choices; knocks with probability knock_chance when legal"

    def __init__(self, take_chance: float = 0.5, knock_chance: float = 0.5) -> None:
        for key, value in (("take_chance", take_chance), ("knock_chance", knock_chance)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{key} must be between 0 and 1, not {value}")
        self.take_chance = take_chance
        self.knock_chance = knock_chance

    @classmethod
    def fast_policy(cls, params: dict[str, Any]) -> FastPolicy | None:
        """``random`` itself is played by the fast path with its two chances; a subclass is not."""
        if cls is not RandomPlay:
            return None
        r = RandomPlay(**params)
        return FastPolicy(RANDOM, take_chance=float(r.take_chance), knock_chance=float(r.knock_chance))

    def take_upcard(self, view: PlayerView) -> bool:
        return view.rng.random() < self.take_chance

    def discard(self, view: PlayerView) -> Card:
        return view.rng.choice(cards_list(view.legal_discards()))

    def knock(self, view: PlayerView) -> bool:
        return view.rng.random() < self.knock_chance
