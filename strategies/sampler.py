"""``sampler``: ``aware``, with its hard calls checked by sampling deals and playing them out.

It plays ``aware``'s move unless the decision is hard: knocking is legal (knock now or
play on?), or other discards score within ``close`` points of ``aware``'s choice (at
most ``candidates`` of them), or, at a draw, ``aware``'s edge for taking the upcard is
within ``take_close`` points either way (then both draws are played out; 0, the default,
never). Then it deals ``samples`` worlds consistent with what it has seen - the opponent
holds the cards it picked up and still has, plus unseen cards; the stock is the rest,
shuffled - and scores every option in every world: a knock now exactly (lay-offs
included), anything else by playing the hand out with a fast policy
(``ginsim.engine.playout``: the opponent plays ``simple`` - it takes the upcard only to meld,
discards to the least deadwood and knocks at once; this seat also takes upcards that cut
its deadwood, values live outs while discarding and knocks by ``aware``'s rule). Another
option replaces ``aware``'s only when its mean gain over the same worlds (paired) exceeds
``confidence`` standard errors: playouts are noisy, and a cheap policy judges some plans
unfairly.

The deal is only as good as its opponent hands, so they are dealt as the opponent would
have built them and checked against what it did. Its hidden cards are improved by one
draw-and-drop per discard it made (``selection``). It did not knock: a draw that would
have let it is refused, and a hand that could still knock is kept only with chance
``knock_hint``. A hand that would not have made its last discard (a deadwood minimiser
keeps its least deadwood) or would have taken the upcard it last passed is kept only
with chance ``hint`` (1 ignores that evidence), and one that melds with k of the cards
it passed on earlier (still in the pile) with chance ``pass_hint`` ** k: measured against
``simple``, its true hands melded with 0.09 of them early in a hand and 0.25 mid-hand,
the deals without this evidence with 0.23 and 0.44. Measured against the true opponent hands
(against ``simple``), these deals put its mean deadwood within 3 points of the truth at
every stage of a hand, and a knock's sampled worth within 2.5 points of its true worth.
Before the knock evidence was used, late in a hand over half the dealt opponents could
knock, and a knock looked 12 points worse than it was, so good knocks were passed up.
With the deals right, checking near-tied discards (``close`` 1) pays as well: the two
together win about 0.3 points per hand and two points of games more against ``simple``.

The worth of live outs depends on the opponent: against ``simple``, which throws its
highest deadwood, ``aware``'s ``out_weight`` (0.25) is right; against a player that keeps
high pairs and connectors (``aware``, ``sampler``) a lower one wins more points (measured;
presumably its discards feed this seat's melds less often). Which kind the opponent is
shows in its first three discards of a hand (one of value 7 or less is rare for
``simple``, common for ``aware``); the evidence adds up over the game's hands (a hand at
0-0 starts afresh), and the out weight moves from ``out_weight`` to ``keeper_weight`` by
the chance it gives.

Randomness comes only from the seat's generator (the deals draw on a Mersenne Twister
seeded from it, for speed), so the same seed replays every decision. ``samples`` is the
control; ``budget_ms`` (0: none, the default) caps a decision's time - a cap that cuts a
decision short makes the result depend on the machine's speed, so default runs never
use one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

from ginsim.strategies.aware import Aware, last_discard

from ginsim import tables_for
from ginsim.cards import Card, Mask
from ginsim.playout import Policy, playout, score_knock
from ginsim.sampling import GameEvidence, chance, deal_worlds, game_worth, hand_rules, keeper_evidence
from ginsim.view import DRAW, PlayerView


class Sampler(Aware):
    """``aware`` whose close discards and every knock decision are settled by playing out
    sampled deals consistent with what it has seen, and values live outs less against an
    opponent whose early discards show it keeps high cards (see the module docstring)."""

    name = "sampler"
    description = (
        "aware + Monte Carlo: knocks and close discards decided by playing out sampled deals;"
        " fewer outs kept against an opponent that keeps high cards"
    )

    def __init__(
        self,
        samples: int = 24,
        budget_ms: float = 0.0,
        close: float = 1.0,
        candidates: int = 3,
        hint: float = 0.2,
        knock_hint: float = 0.01,
        confidence: float = 1.0,
        selection: float = 1.0,
        game: int = 1,
        take_close: float = 0.0,
        out_weight: float = 0.25,
        out_turns: int = 15,
        danger_weight: float = 4.0,
        take_margin: float = 1.0,
        value_margin: float = 1.0,
        knock_at: int = 10,
        late_turn: int = 20,
        late_knock_at: int = 6,
        threat_at: int = 0,
        hot_factor: float = 2.5,
        cold_factor: float = 0.5,
        endgame: int = 0,
        keeper_weight: float = 0.15,
        pass_hint: float = 0.5,
    ) -> None:
        super().__init__(
            out_weight=out_weight,
            out_turns=out_turns,
            danger_weight=danger_weight,
            take_margin=take_margin,
            value_margin=value_margin,
            knock_at=knock_at,
            late_turn=late_turn,
            late_knock_at=late_knock_at,
            threat_at=threat_at,
            hot_factor=hot_factor,
            cold_factor=cold_factor,
            endgame=endgame,
        )
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 0:
            raise ValueError(f"samples must be a whole number >= 0, not {samples!r}")
        if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a whole number >= 1, not {candidates!r}")
        if not budget_ms >= 0:
            raise ValueError(f"budget_ms must be >= 0 (0: no cap), not {budget_ms!r}")
        if not close >= 0:
            raise ValueError(f"close must be >= 0, not {close!r}")
        if not confidence >= 0:
            raise ValueError(f"confidence must be >= 0, not {confidence!r}")
        if not take_close >= 0:
            raise ValueError(f"take_close must be >= 0, not {take_close!r}")
        if not selection >= 0:
            raise ValueError(f"selection must be >= 0, not {selection!r}")
        if game not in (0, 1) or isinstance(game, bool):
            raise ValueError(f"game must be 0 (points) or 1 (game win chances), not {game!r}")
        if not 0.0 < hint <= 1.0:
            raise ValueError(f"hint must be in (0, 1], not {hint!r}")
        if not 0.0 < knock_hint <= 1.0:
            raise ValueError(f"knock_hint must be in (0, 1], not {knock_hint!r}")
        if not 0.0 < pass_hint <= 1.0:
            raise ValueError(f"pass_hint must be in (0, 1], not {pass_hint!r}")
        self.samples = samples
        self.budget_ms = budget_ms
        self.close = close
        self.candidates = candidates
        self.hint = hint
        self.knock_hint = knock_hint
        self.confidence = confidence
        self.selection = selection
        self.game = game
        if not keeper_weight >= 0:
            raise ValueError(f"keeper_weight must be >= 0, not {keeper_weight!r}")
        self.take_close = take_close
        self.keeper_weight = keeper_weight
        self.pass_hint = pass_hint
        self._keeper = GameEvidence(self._keeper_read)  # keeper evidence of the game's hands
        self._plan: tuple[Mask, int, Card, bool] | None = None  # (hand, turn, discard, knock)
        self._policy: tuple[tuple[tuple[str, int], ...], Policy] | None = None

    # -- worlds --------------------------------------------------------------------
    def worlds(self, view: PlayerView, n: int) -> Iterator[tuple[Mask, list[Card]]]:
        """``n`` deals of the unseen cards, one at a time: (opponent hand, stock top last).
        The opponent's hidden cards are dealt, then improved as it would have improved them:
        for ``selection`` x its discards so far it draws one more unseen card and drops its
        worst (least-deadwood discard). A uniform deal would hand it far more deadwood than a
        player that has been discarding well for several turns really holds. The deals are
        ``ginsim.sampling.deal_worlds``'s, with this strategy's ``selection``, ``hint`` and
        ``pass_hint``.

        With ``knock_hint`` < 1 the deal also believes that the opponent did not knock
        (``knock_belief``): an improvement that would have brought its deadwood to the knock
        limit is mostly refused (that draw is taken to have been the card it threw), and a
        world whose opponent could still knock is mostly dropped. Without this the deals grow too good:
        measured against ``simple``, after turn 15 the dealt opponents could knock in over
        half the worlds (it never can: it knocks at once), their mean deadwood was 11 where
        the true one was 18, and a knock looked worth -2.8 points where it was worth +9.1."""
        # a Mersenne Twister seeded from the seat's generator: its C-coded random() makes
        # the many shuffles several times cheaper than the seat generator's own draws
        rand = random.Random(view.rng.getrandbits(64)).random
        last = last_discard(view)
        belief = self.knock_belief(view) if last is not None else []
        yield from deal_worlds(
            view, n, rand, last, belief, selection=self.selection, hint=self.hint, pass_hint=self.pass_hint
        )

    def knock_belief(self, view: PlayerView) -> list[float]:
        """For each deadwood 0..knock limit, the chance that an opponent hand at that deadwood
        goes with its not having knocked: ``knock_hint``. Late in a hand (from this seat's
        ``late_turn``) a player like ``aware`` plays on above its late limit, so there the
        chance grows towards 1 with the chance that the opponent is of that kind."""
        limit = view.knock_limit  # this hand's (R29)
        if self.knock_hint >= 1.0:
            return []
        belief = [self.knock_hint] * (limit + 1)
        if view.turn >= self.late_turn:
            keeper = self.keeper_chance(view)
            late = self.knock_hint + (1.0 - self.knock_hint) * keeper
            for d in range(max(1, self.late_knock_at + 1), limit + 1):
                belief[d] = late
        return belief

    # -- the opponent's style ----------------------------------------------------------
    def keeper_chance(self, view: PlayerView) -> float:
        """The chance that the opponent keeps high cards (plays like ``aware``) rather than
        throwing its highest deadwood (``simple``), from its early discards in this hand and
        the game's earlier hands (even odds before any; a hand at 0-0 starts a new game)."""
        return chance(self._keeper.update(view) + keeper_evidence(view.history, view.seat))

    @staticmethod
    def _keeper_read(old: PlayerView, _new: PlayerView) -> float:
        return keeper_evidence(old.history, old.seat)

    def out_weight_now(self, view: PlayerView) -> float:
        """``aware``'s fading out weight, moved towards ``keeper_weight`` by the chance that
        the opponent keeps high cards: its discards then rarely feed this seat's melds."""
        keeper = self.keeper_chance(view)  # every hand's view is seen, so none's evidence is missed
        w = super().out_weight_now(view)
        if w and self.keeper_weight != self.out_weight:
            w *= 1.0 + keeper * (self.keeper_weight / self.out_weight - 1.0)
        return w

    # -- evaluation ------------------------------------------------------------------
    def policy_terms(self, view: PlayerView) -> dict[str, int]:
        """The play-outs' ``Policy`` arguments: ``ginsim.engine.playout``'s defaults, this
        seat knocking by its own rule."""
        return {"knock_at": self.knock_at, "late_turn": self.late_turn, "late_knock_at": self.late_limit(view)}

    def playout_policy(self, view: PlayerView) -> Policy:
        """The play-outs' policy (``policy_terms``), built again only when they change."""
        terms = self.policy_terms(view)
        key = tuple(terms.items())
        if self._policy is None or self._policy[0] != key:
            self._policy = (key, Policy(**terms))
        return self._policy[1]

    def evaluate(self, view: PlayerView, options: list[tuple[Card, bool]]) -> list[list[float]]:
        """Points of each option (discard, knock) in each sampled world, as far as the
        budget allows: ``out[world][option]``."""
        rules = hand_rules(view)
        tables = tables_for(rules.max_run_length)
        hand = view.hand
        deadline = time.perf_counter() + self.budget_ms / 1000.0 if self.budget_ms else None
        base_pile = list(view.discard_pile)
        worth = game_worth(rules.target_score, *view.scores) if self.game else None
        policy = self.playout_policy(view)
        out: list[list[float]] = []
        for opp, stock in self.worlds(view, self.samples):
            row: list[float] = []
            for card, knock in options:
                mine = hand & ~(1 << card)
                if knock:
                    row.append(score_knock(rules, tables, mine, tables.deadwood_mask(mine), opp))
                else:
                    row.append(playout(rules, tables, policy, mine, opp, [*base_pile, card], stock.copy(), view.turn))
            out.append(row if worth is None else [worth(p) for p in row])
            if deadline is not None and time.perf_counter() > deadline:
                break
        return out

    def settle(self, rows: list[list[float]], confidence: float | None = None) -> int:
        """The option to play, given each world's points per option: option 0 is ``aware``'s
        choice, and another replaces it only when its mean gain over the worlds exceeds
        ``confidence`` (by default this strategy's) standard errors (the worlds are shared,
        so the gains are paired)."""
        if confidence is None:
            confidence = self.confidence
        n = len(rows)
        if n < 2:
            return 0
        best, best_gain = 0, 0.0
        for j in range(1, len(rows[0])):
            diffs = [row[j] - row[0] for row in rows]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > best_gain and mean > confidence * (var / n) ** 0.5:
                best, best_gain = j, mean
        return best

    def choose(self, view: PlayerView, options: list[tuple[Card, bool]], rows: list[list[float]]) -> int:
        """Which of the discard decision's ``options`` to play, given their worth in each
        sampled world: ``settle``'s choice."""
        return self.settle(rows)

    # -- decisions -------------------------------------------------------------------
    def discard(self, view: PlayerView) -> Card:
        self._plan = None
        card = super().discard(view)
        if not self.samples:
            return card
        hand = view.hand
        turn = view.turn
        limit = view.knock_limit  # this hand's (R29)
        tables = tables_for(view.rules.max_run_length)
        dw = tables.deadwood_mask(hand & ~(1 << card))
        if dw == 0:
            return card  # gin
        knocks = dw <= limit and dw <= self.knock_limit_now(view)
        options = [(card, knocks)]
        if dw <= limit:
            options.append((card, not knocks))
        model = self.model(view)
        banned = hand & ~view.legal_discards()
        ranked = self.ranked_discards(view, hand, banned, model)
        top = ranked[0][0] + self.close
        for score, alt_dw, alt in ranked[: self.candidates]:
            if alt != card and score <= top:
                options.append((alt, False))
                if alt_dw <= limit:
                    options.append((alt, True))
        if len(options) > 1:
            card, knocks = options[self.choose(view, options, self.evaluate(view, options))]
        self._plan = (hand, turn, card, knocks)
        return card

    def take_upcard(self, view: PlayerView) -> bool:
        if not (self.samples and self.take_close and view.phase == DRAW and view.upcard is not None):
            return super().take_upcard(view)
        first, second = self.take_edges(view)
        edge = first if second is None or first > second else second
        take = edge > 0
        if abs(edge) > self.take_close:
            return take
        rows = self.evaluate_draw(view, take)
        return take if self.settle(rows) == 0 else not take

    def evaluate_draw(self, view: PlayerView, take: bool) -> list[list[float]]:
        """As ``evaluate``, for the draw: [aware's choice, the other] played out from this draw."""
        rules = hand_rules(view)
        tables = tables_for(rules.max_run_length)
        deadline = time.perf_counter() + self.budget_ms / 1000.0 if self.budget_ms else None
        base_pile = list(view.discard_pile)
        worth = game_worth(rules.target_score, *view.scores) if self.game else None
        policy = self.playout_policy(view)
        out = []
        for opp, stock in self.worlds(view, self.samples):
            row = []
            for option in (take, not take):
                pile = base_pile.copy()
                pts = playout(rules, tables, policy, view.hand, opp, pile, stock.copy(), view.turn - 1, int(option))
                row.append(pts if worth is None else worth(pts))
            out.append(row)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return out

    def knock(self, view: PlayerView) -> bool:
        plan = self._plan
        if plan is not None and plan[0] == view.hand and plan[1] == view.turn and plan[2] == view.discard_choice:
            return plan[3]
        return super().knock(view)
