"""Three probes of ``learned`` against ``simple`` under the default rules (the twenty-first
attempt in the notes): each changes one thing about how the shipped model plays, with no
retraining, to see whether the 77% asked against ``simple`` is held back there.

- ``GameAware``: knocks whenever it legally can once its own score is within ``mine`` of the
  target, or the opponent's within ``theirs`` (0 turns either off): near the game's end any
  knock that wins the hand may decide the game.
- ``Scaled``: the default rules' card value (``learned``'s value of the kept cards) weighed
  ``factor`` times against the discard head.
- ``Threat``: from turn ``turn``, a discard's value lowered by ``beta`` times the deadwood it
  keeps, scaled by how low the opponent's last discard was (1 for an ace, 0 from value
  ``at`` up): an eager knocker that lets go of low cards is close to knocking.

    ginsim match experiments/training/default_probes.py:Threat:beta=0.3 simple --games 4000 --rules default
"""

from __future__ import annotations

import numpy as np
from ginsim.strategies.aware import last_discard
from ginsim.strategies.learned import Context, Learned

from ginsim.cards import VALUE_OF, Card
from ginsim.view import PlayerView


class GameAware(Learned):
    """``learned`` that knocks whenever legal near the game's end (``mine``, ``theirs``)."""

    name = "game_aware"
    description = "learned that knocks whenever legal once a score is near the target"

    def __init__(self, mine: int = 15, theirs: int = 0) -> None:
        if mine < 0 or theirs < 0:
            raise ValueError("mine and theirs are points below the target, 0 or more")
        super().__init__()
        self.mine, self.theirs = mine, theirs

    def knock(self, view: PlayerView) -> bool:
        target = view.rules.target_score
        me, opp = view.scores
        if (self.mine and me >= target - self.mine) or (self.theirs and opp >= target - self.theirs):
            return True
        return super().knock(view)


class Scaled(Learned):
    """``learned`` with its default rules' card value times ``factor``."""

    name = "scaled"
    description = "learned whose card value under cheap undercuts is scaled"

    def __init__(self, factor: float = 1.0) -> None:
        if not factor > 0.0:
            raise ValueError(f"factor must be above 0, not {factor!r}")
        super().__init__()
        if self.cheap_cards is not None:
            self.cheap_cards = self.cheap_cards.scaled(factor)


class Threat(Learned):
    """``learned`` whose discards keep less deadwood after the opponent lets a low card go."""

    name = "threat"
    description = "learned that weighs the deadwood kept more after a low discard by the opponent"

    def __init__(self, beta: float = 0.5, at: int = 6, turn: int = 3) -> None:
        if beta < 0.0 or not 2 <= at <= 11:
            raise ValueError("beta must be 0 or more and at between 2 and 11")
        super().__init__()
        self.beta, self.at, self.turn = beta, at, turn

    def discard_values(self, view: PlayerView, ctx: Context, cards: list[Card], rows: list[list[float]]) -> np.ndarray:
        values = super().discard_values(view, ctx, cards, rows)
        last = last_discard(view)
        if last is None or view.turn < self.turn:
            return values
        threat = max(0.0, (self.at - VALUE_OF[last]) / (self.at - 1))
        if threat <= 0.0:
            return values
        return values - self.beta * threat * np.array([row[0] for row in rows])
