"""``threshold``: ``simple`` that knocks only at a low enough deadwood."""

from __future__ import annotations

from typing import Any

from ginsim.strategies.simple import Simple

from ginsim.strategy import SIMPLE, FastPolicy
from ginsim.view import PlayerView


class Threshold(Simple):
    """Plays like ``simple`` but knocks only when its deadwood after the discard is at
    most ``knock_at`` (0-10); it always goes gin when it can. Sweeping ``knock_at``
    answers "how low should I wait before knocking?"."""

    name = "threshold"
    description = "simple, but knocks only at deadwood <= knock_at; always goes gin"

    def __init__(self, knock_at: int = 10) -> None:
        if isinstance(knock_at, bool) or not isinstance(knock_at, int) or not 0 <= knock_at <= 10:
            raise ValueError(f"knock_at must be a whole number 0..10, not {knock_at!r}")
        self.knock_at = knock_at

    @classmethod
    def fast_policy(cls, params: dict[str, Any]) -> FastPolicy | None:
        """``threshold`` itself is played by the fast path at its ``knock_at``; a subclass is not."""
        if cls is not Threshold:
            return None
        return FastPolicy(SIMPLE, Threshold(**params).knock_at)

    def knock(self, view: PlayerView) -> bool:
        return view.discard_deadwood <= self.knock_at
