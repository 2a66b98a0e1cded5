"""``patient``: ``sampler`` that reads from the rules how much an undercut costs, and waits when it costs a lot.

Where an undercut pays the defender at least ``undercut_at`` points (R20: 25 under the
``eaai`` and ``modern`` presets, 20 under ``palace``), a knock late in a hand is a gamble
against a player that keeps its deadwood low, and the EAAI champion line plays that way:
they knock early or go for gin. So there, from turn ``patient_turn`` on, this strategy
knocks only at deadwood <= ``patient_knock_at`` (gin always), and its sampled worlds may talk it
out of a knock but never into one. Measured in a research harness against a patient
opponent, the sampled worlds favour a knock over playing on by more than the hands bear
out: deals that value playing on right (within a point) value a knock now about 8 points
too high, and deals that value the knock right value playing on 6 to 9 points too low
(the play-outs' cheap policies do not play the rest of the hand as the players do). So
a knock that only sampling favours is more often a mistake than not there.
Under cheaper undercuts (the default rules: 10) it plays exactly as ``sampler``.

It never learns who the opponent is: only the rules, from the view, change its play.
docs/strategies.md has the measurements.
"""

from __future__ import annotations

from typing import Any

from ginsim.strategies.sampler import Sampler

from ginsim.cards import Card
from ginsim.view import PlayerView


class Patient(Sampler):
    """``sampler``, but where undercuts cost ``undercut_at`` or more it knocks late only at
    ``patient_knock_at`` or less and lets sampling veto knocks, never add them."""

    name = "patient"
    description = (
        "sampler that, when the rules make undercuts dear (eaai, modern, palace), knocks late only"
        " near gin and lets sampling veto knocks but never add them; sampler otherwise"
    )

    def __init__(
        self, undercut_at: int = 20, patient_turn: int = 12, patient_knock_at: int = 1, **sampler: Any
    ) -> None:
        super().__init__(**sampler)
        for key, value in (
            ("undercut_at", undercut_at),
            ("patient_turn", patient_turn),
            ("patient_knock_at", patient_knock_at),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a whole number >= 0, not {value!r}")
        self.undercut_at = undercut_at
        self.patient_turn = patient_turn
        self.patient_knock_at = patient_knock_at

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """``sampler``'s parameters and this strategy's own."""
        return {**Sampler.parameters(), **super().parameters()}

    def waits(self, view: PlayerView) -> bool:
        """Whether these rules make undercuts dear enough to play patiently."""
        return view.rules.undercut_bonus >= self.undercut_at

    def knock_limit_now(self, view: PlayerView) -> int:
        limit = super().knock_limit_now(view)
        if view.turn >= self.patient_turn and self.waits(view):
            return min(limit, self.patient_knock_at)
        return limit

    def choose(self, view: PlayerView, options: list[tuple[Card, bool]], rows: list[list[float]]) -> int:
        """``sampler``'s choice, except that where undercuts are dear a knock that the first
        option (``aware``'s rule) does not make is not taken on the samples' word."""
        best = super().choose(view, options, rows)
        if best and options[best][1] and not options[0][1] and self.waits(view):
            return 0
        return best
