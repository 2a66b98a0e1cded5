"""``patient``: ``sampler`` that reads from the rules how much an undercut costs, waits when
it costs a lot or the opponent hunts gin, and learns over a game whether it does.

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

The opponent is one of two kinds: an eager knocker (it knocks as soon as it can, as
``simple``, ``aware`` and ``sampler`` do) or a gin hunter (it knocks only in its first
turns, then waits for gin). How each finished hand of the game ended is evidence
(``HUNTER_EVIDENCE``: a knock with deadwood after turn ``LATE_KNOCK_TURN`` all but rules
out a hunter; a gin by the opponent, a drawn hand, or a late knock of this seat that found
the opponent near gin point to one), added up over the game's hands from the prior
``hunter_prior``. Where that chance is ``hunter_at`` or more, from turn ``hunter_turn`` the
deals believe, by that chance, that the opponent passed up knocks, and the play-outs'
opponent waits for gin; below it the play is as without the model. Where undercuts are
cheap (the default rules' 10), a likely hunter also brings on the patient play above (the
late knock limit, knocks vetoed but never added by sampling): a hunter waiting near gin
undercuts a late knock with deadwood there too, and it won 3 to 5 more games in 100
against MARJJ_v5 under the default rules (docs/strategies.md).

Against a likely hunter the hand becomes a race for gin, so from turn ``race_turn`` a
discard is scored as well by the least deadwood that one of the next ``race_draws`` stock
draws would bring (``best_of_draws``, weighted by ``race_weight``): a hand one good card from
gin is worth more than one with a little less deadwood and nothing to draw to. A gin
counts ``race_gin`` below deadwood 0 there: late against a hunter a knock at 1 or 2 is no
safe ending (a hunter waits near gin, and ties are undercut), so the draws that end the hand
outweigh those that only come close. Against ``simple`` one late knock with deadwood
settles it. Where undercuts are cheap and the opponent knocks eagerly, this strategy plays
as ``sampler`` does, thinking longer (below).

It thinks twice as long as ``sampler`` (``samples`` = 48 deals per hard decision) and trusts
what they say more (an option replaces ``aware``'s at ``confidence`` = 0.5 standard errors
of paired gain, not 1), except against a likely gin hunter (``hunter_confidence`` = 1):
there the play-outs misjudge playing on, and more overrides lost games. A stronger, slower
setting samples more of the decisions as well as more worlds:
``patient:samples=128,close=4,candidates=4,take_close=2`` (the best four discards within 4
points, upcard decisions within 2) wins 3 to 5 more games in 100 against ``simple`` under the
default rules (75% there) at a sixth of the speed; against ``sampler``, whose play the
play-outs model less well, it wins no more than the default.

It never learns who the opponent is: only the rules, from the view, and what the opponent
did change its play. docs/strategies.md has the measurements.
"""

from __future__ import annotations

import math
from typing import Any

from ginsim.strategies.sampler import Sampler

from ginsim import tables_for
from ginsim.cards import Card
from ginsim.sampling import GameEvidence, chance
from ginsim.view import PlayerView

LATE_KNOCK_TURN = 8
"""A knock with deadwood after this turn of a hand is an eager knocker's (a gin hunter
knocks, if at all, in its first three turns)."""
OWN_LATE_TURN = 12
"""From this turn a knock of this seat that finds the opponent near gin is a hunter's sign."""
HUNTER_EVIDENCE = {
    "opp_knock_late": -4.0,
    "opp_knock_early": -0.45,
    "opp_gin": 2.5,
    "draw": 1.5,
    "own_gin": 1.4,
    "own_early": 0.15,
    "own_late_near": 2.0,
    "own_late_mid": 0.7,
    "own_late_far": 0.0,
}
"""Log likelihood ratios, gin hunter over eager knocker, of the ways a hand can end (as this
seat sees them from the next hand's scores), from the hand logs of tuning-seed runs under
EAAI rules (4,000 games against MARJJ_v5 for the hunter; 4,000 against ``simple`` and 800
against ``aware`` for the eager; docs/strategies.md) and rounded towards 0."""


def hand_ending(view: PlayerView, after: tuple[int, int]) -> str | None:
    """How the hand that ``view`` saw ended, given the scores (own, opponent's) after it:
    a key of ``HUNTER_EVIDENCE``, or None when the scores do not follow from one hand (a
    hand in which this seat had no decision was never seen). Under rules that double a
    hand's points (Oklahoma's spades) a big knock may read as a gin."""
    gained = after[0] - view.scores[0]
    lost = after[1] - view.scores[1]
    if gained < 0 or lost < 0 or (gained and lost):
        return None
    ending = None
    for seat, action, _ in reversed(view.history):
        if action in ("knock", "big_gin"):
            ending = (seat == view.seat, action)
            break
    if ending is None:
        return "draw" if not (gained or lost) else None
    mine, action = ending
    rules = view.rules
    own = tables_for(rules.max_run_length).deadwood_mask(view.hand)
    if not mine:
        # a knock scores at most this seat's deadwood; a gin its deadwood and the bonus
        if action == "big_gin" or (lost and lost >= own + rules.gin_bonus):
            return "opp_gin"
        return "opp_knock_late" if view.turn > LATE_KNOCK_TURN else "opp_knock_early"
    if action == "big_gin" or own == 0:
        return "own_gin"
    if view.turn <= OWN_LATE_TURN:
        return "own_early"
    theirs = gained + own if gained else own + rules.undercut_bonus - lost  # after lay-offs
    return "own_late_near" if theirs <= 4 else "own_late_mid" if theirs <= 7 else "own_late_far"


class Patient(Sampler):
    """``sampler``, but where undercuts cost ``undercut_at`` or more, or the game's hands show
    the opponent to be a gin hunter, it knocks late only at ``patient_knock_at`` or less and
    lets sampling veto knocks, never add them; a likely hunter it models as one and races
    for gin."""

    name = "patient"
    description = (
        "sampler that, when the rules make undercuts dear (eaai, modern, palace) or the opponent"
        " shows itself a gin hunter, knocks late only near gin and lets sampling veto knocks but"
        " never add them, and plays out a gin hunter as one and races it for gin; sampler with"
        " twice the samples otherwise"
    )

    def __init__(
        self,
        undercut_at: int = 20,
        patient_turn: int = 12,
        patient_knock_at: int = 1,
        hunter_prior: float = 0.3,
        hunter_at: float = 0.8,
        hunter_turn: int = 8,
        race_weight: float = 3.0,
        race_turn: int = 8,
        race_draws: int = 6,
        race_gin: float = 5.0,
        samples: int = 48,
        confidence: float = 0.5,
        hunter_confidence: float = 1.0,
        **sampler: Any,
    ) -> None:
        super().__init__(samples=samples, confidence=confidence, **sampler)
        for key, value in (
            ("undercut_at", undercut_at),
            ("patient_turn", patient_turn),
            ("patient_knock_at", patient_knock_at),
            ("hunter_turn", hunter_turn),
            ("race_turn", race_turn),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{key} must be a whole number >= 0, not {value!r}")
        if not 0.0 < hunter_prior < 1.0:
            raise ValueError(f"hunter_prior must be in (0, 1), not {hunter_prior!r}")
        if not 0.0 <= hunter_at <= 1.0:
            raise ValueError(f"hunter_at must be in [0, 1], not {hunter_at!r}")
        if isinstance(race_draws, bool) or not isinstance(race_draws, int) or race_draws < 1:
            raise ValueError(f"race_draws must be a whole number >= 1, not {race_draws!r}")
        for key, weight in (
            ("race_weight", race_weight),
            ("race_gin", race_gin),
            ("hunter_confidence", hunter_confidence),
        ):
            if not weight >= 0:
                raise ValueError(f"{key} must be >= 0, not {weight!r}")
        self.undercut_at = undercut_at
        self.patient_turn = patient_turn
        self.patient_knock_at = patient_knock_at
        self.hunter_prior = hunter_prior
        self.hunter_at = hunter_at
        self.hunter_turn = hunter_turn
        self.race_weight = race_weight
        self.race_turn = race_turn
        self.race_draws = race_draws
        self.race_gin = race_gin
        self.hunter_confidence = hunter_confidence
        self._hunter = GameEvidence(self._hunter_read)  # this game's evidence so far

    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """``sampler``'s parameters and this strategy's own."""
        return {**Sampler.parameters(), **super().parameters()}

    def waits(self, view: PlayerView) -> bool:
        """Whether to play patiently: these rules make undercuts dear, or (where they are
        cheap) the game's hands show the opponent to be a gin hunter by a chance of
        ``hunter_at`` or more."""
        return view.rules.undercut_bonus >= self.undercut_at or self.hunting(view)

    # -- the opponent's kind ---------------------------------------------------------------
    def hunter_chance(self, view: PlayerView) -> float:
        """The chance that the opponent is a gin hunter, from how this game's earlier hands
        ended (``hunter_prior`` before any; a hand at 0-0 starts a new game). Called at every
        decision, so that no hand's ending is missed."""
        return chance(math.log(self.hunter_prior / (1.0 - self.hunter_prior)) + self._hunter.update(view))

    @staticmethod
    def _hunter_read(old: PlayerView, new: PlayerView) -> float:
        ending = hand_ending(old, new.scores)
        return 0.0 if ending is None else HUNTER_EVIDENCE[ending]

    def hunting(self, view: PlayerView) -> bool:
        """Whether to play against a gin hunter: the opponent's chance of being one is
        ``hunter_at`` or more (whatever undercuts cost)."""
        return self.hunter_chance(view) >= self.hunter_at

    def knock_belief(self, view: PlayerView) -> list[float]:
        """``sampler``'s; against a likely gin hunter, from turn ``hunter_turn``, a hand that
        could have knocked goes with the opponent's not knocking by the chance that it hunts
        gin."""
        belief = super().knock_belief(view)
        if belief and view.turn >= self.hunter_turn and self.hunting(view):
            late = self.knock_hint + (1.0 - self.knock_hint) * self.hunter_chance(view)
            for d in range(1, len(belief)):
                belief[d] = max(belief[d], late)
        return belief

    def policy_terms(self, view: PlayerView) -> dict[str, int]:
        """``sampler``'s; against a likely gin hunter the play-outs' opponent knocks from turn
        ``hunter_turn`` only with gin."""
        terms = super().policy_terms(view)
        if self.hunting(view):
            terms["opp_late_turn"] = self.hunter_turn
        return terms

    def future_now(self, view: PlayerView) -> tuple[float, int, float]:
        """Against a likely gin hunter, from turn ``race_turn``: a discard is scored by how
        near ``race_draws`` draws take the hand too, by ``race_weight``, a gin counting
        ``race_gin`` below deadwood 0 (the race for gin)."""
        if self.race_weight and view.turn >= self.race_turn and self.hunting(view):
            return self.race_weight, self.race_draws, self.race_gin
        return 0.0, 0, 0.0

    # -- decisions -------------------------------------------------------------------------
    def knock_limit_now(self, view: PlayerView) -> int:
        limit = super().knock_limit_now(view)
        if view.turn >= self.patient_turn and self.waits(view):
            return min(limit, self.patient_knock_at)
        return limit

    def choose(self, view: PlayerView, options: list[tuple[Card, bool]], rows: list[list[float]]) -> int:
        """``sampler``'s choice, its samples trusted at ``confidence`` standard errors (at
        ``hunter_confidence`` against a likely gin hunter: there the play-outs misjudge playing
        on), except that where it ``waits`` a knock that the first option (``aware``'s rule) does
        not make is not taken on the samples' word."""
        best = self.settle(rows, self.hunter_confidence if self.hunting(view) else self.confidence)
        if best and options[best][1] and not options[0][1] and self.waits(view):
            return 0
        return best

    def take_upcard(self, view: PlayerView) -> bool:
        self.hunter_chance(view)
        return super().take_upcard(view)

    def discard(self, view: PlayerView) -> Card:
        self.hunter_chance(view)
        return super().discard(view)
