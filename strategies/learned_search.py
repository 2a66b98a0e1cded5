"""``learned_search``: ``learned`` whose close choices are played out by ``learned`` itself (slow, stronger).

``learned`` picks the best-valued option by its model in microseconds. Where the model's
margin is thin - discards valued within ``SEARCH_MARGIN`` of its best (at most ``SEARCH_TOP``
in all), an upcard whose take head is within ``SEARCH_TAKE_MARGIN`` of even - this player
plays each option out. ``RolloutJudge`` deals ``search`` worlds of the unseen cards from the
seat's view (``patient``'s worlds: the opponent's hidden hand and the stock, its hand
improved as it would have improved it), rebuilds the whole hand in each by the engine
(``ginsim.rollout``: a deck that leads through the hand's logged moves to this position),
makes the option and finishes the hand with a fresh ``learned`` in this seat (holding this
game's evidence about the opponent) against a model of the opponent: ``simple``, the eager
knocker, or ``threshold:knock_at=0``, a gin hunter, where ``patient``'s evidence of the game
says the opponent hunts gin. Every option meets the same worlds and the same random
streams, so the comparison is paired; an option is worth its chance of winning the game
from the points it scores, and the model's choice stands unless another beats it by
``SEARCH_CONFIDENCE`` standard errors (``patient``'s ``choose``). Each discard is played
with the knock the model would make after it. Where undercuts are cheap (``learned``'s
``plays_cheap``: the default and classic rules) the knock is played out too: every searched
discard, and the model's own where nothing else is close, that leaves a hand able to knock
without gin meets the other knock decision as well, the knock scored in each world against
the opponent's dealt hand, and the options are settled at the judge's confidence. Against an
eager knocker there, playing on for gin where the model's knock head knocks pays (the notes'
twenty-first attempt). One step of policy improvement by roll-outs of the policy itself: each
choice is judged by how ``learned`` would go on to play it.

The opponent model is chosen by evidence of the game, never by a name; the worlds and the
rebuilt hands come from the seat's view alone. It thinks about 20 ms a decision (``learned``:
about 0.2 ms). It is a name of its own rather than a parameter of ``learned``, whose
canonical spec keys the random streams of its documented runs. On development deals it won
1.6 to 3.0 more games in 100 than ``learned`` on the same deals against MARJJ_v5,
GinRummyAndTonic_Player and ``simple``, and with its knocks played out 1.9 more than ``learned``
against ``simple`` (78.0% of 1,500 games; on its reporting seeds 77.3% of 4,000, ``learned``
75.4% of the same deals); docs/notes/2026-12-learned.md (the nineteenth to
twenty-first attempts) has the measurements, docs/strategies.md the figures.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np
from ginsim.strategies.learned import Context, Learned, plays_cheap, take_row
from ginsim.strategies.patient import Patient
from ginsim.strategies.simple import Simple
from ginsim.strategies.threshold import Threshold

from ginsim.cards import Card, Mask
from ginsim.rollout import apply, finish, points_for, rebuild_deck, replay
from ginsim.sampling import game_worth, hand_rules
from ginsim.strategy import Strategy
from ginsim.view import PlayerView

SEARCH_MARGIN = 3.0
"""Discards valued within this of the best (on the model's discard scale) are played out."""
SEARCH_TOP = 3
"""At most this many discards, the best included, are played out."""
SEARCH_TAKE_MARGIN = 1.0
"""The upcard is played out both ways where the take head's log odds are within this of 0."""
SEARCH_CONFIDENCE = 0.5
"""Another option replaces the model's only on a paired gain of this many standard errors."""

Player = Callable[[], Strategy]
"""A fresh strategy to play one side of a play-out."""


def gin_hunter() -> Strategy:
    """The opponent model where the game's evidence says the opponent hunts gin."""
    return Threshold(knock_at=0)


class RolloutJudge(Patient):
    """``patient``'s worlds and its way of settling a choice; each option's worth in a world is
    that of the hand rebuilt there and finished by ``own(view)`` in this seat (``view`` the
    rebuilt hand's view of it) and by ``opponent()``, or ``hunter()`` where this game's
    evidence says the opponent hunts gin (``patient.hunting``)."""

    def __init__(
        self,
        samples: int,
        own: Callable[[PlayerView], Strategy],
        confidence: float = SEARCH_CONFIDENCE,
        opponent: Player = Simple,
        hunter: Player | None = gin_hunter,
    ) -> None:
        super().__init__(samples=samples, confidence=confidence)
        self.own = own
        self.opponent = opponent
        self.hunter = hunter

    def _rows(self, view: PlayerView, options: Sequence[tuple[str, object]]) -> list[list[float]]:
        rules = hand_rules(view)
        worth = game_worth(rules.target_score, *view.scores) if self.game else float
        rand = random.Random(view.rng.getrandbits(64)).random
        model = self.hunter if self.hunter is not None and self.hunting(view) else self.opponent
        me = view.seat
        out: list[list[float]] = []
        for opp, stock in self.worlds(view, self.samples):
            deck = rebuild_deck(view, opp, stock, rand)
            if deck is None:
                continue
            row = []
            for kind, value in options:
                hand = replay(view.rules, view, deck)
                own, other = self.own(hand.views[me]), model()
                players = [own, other] if me == 0 else [other, own]
                if kind == "discard":  # the card let go with the knock decided for it
                    card, knock = value  # type: ignore[misc]
                    apply(hand, ("knock", knock), players, card)
                else:
                    apply(hand, (kind, value), players, None)
                finish(hand, players)
                row.append(worth(points_for(hand, me)))
            out.append(row)
        return out

    def evaluate(self, view: PlayerView, options: list[tuple[Card, bool]]) -> list[list[float]]:
        """Each world's worth of each (discard, knock) option, the first being the model's."""
        return self._rows(view, [("discard", o) for o in options])

    def evaluate_draw(self, view: PlayerView, take: bool) -> list[list[float]]:
        """Each world's worth of the model's upcard decision ``take`` and of the other."""
        return self._rows(view, [("take", take), ("take", not take)])


def playout_self(player: Learned, view: PlayerView) -> Learned:
    """A fresh ``learned`` to play ``player``'s seat in a play-out whose view is ``view``, with
    ``player``'s model and holding this game's evidence about the opponent as ``player`` holds it."""
    own = Learned(hunter_prior=player.hunter_prior, model=player.model)
    own._hunter.total, own._keeper.total = player._hunter.total, player._keeper.total
    own._hunter.view = own._keeper.view = view
    return own


def settled_take(player: Learned, judge: Patient, view: PlayerView, margin: float) -> tuple[bool, bool, bool]:
    """``player``'s upcard decision by its model's take head, whether it was played out and
    whether that changed it: where the head's log odds are within ``margin`` of 0, ``judge``
    plays both decisions out (``evaluate_draw``) and the model's gives way only to a clear gain
    (``settle``). The judge reads the game's evidence first, as at every decision."""
    judge.hunter_chance(view)
    if view.upcard is None:
        return False, False, False
    row = take_row(view, player.context(view))
    value = float(player.heads_for(view)["take"].score(np.array([row]))[0])
    take = value > 0.0
    if abs(value) >= margin:
        return take, False, False
    changed = judge.settle(judge.evaluate_draw(view, take)) != 0
    return take != changed, True, changed


class LearnedSearch(Learned):
    """``learned`` whose close discards and upcard decisions (and, where undercuts are cheap, its
    knocks) are played out in ``search`` sampled worlds by ``learned`` itself (``RolloutJudge``);
    the model's choice gives way only to a clearly better one. ``hunter_prior`` and ``model`` as
    for ``learned``."""

    name = "learned_search"
    description = (
        "learned with its close discards and upcard decisions (and, where undercuts are cheap, its knocks)"
        " played out by learned itself in search worlds dealt from its view, against an eager knocker or"
        " (by the game's evidence) a gin hunter; slow (about 20 ms a decision) and stronger"
    )

    def __init__(self, search: int = 32, hunter_prior: float = 0.3, model: str = "") -> None:
        if isinstance(search, bool) or not isinstance(search, int) or search < 2:
            raise ValueError(f"search must be a whole number of worlds >= 2, not {search!r}")
        super().__init__(hunter_prior=hunter_prior, model=model)
        self.search = search
        self.judge = RolloutJudge(search, partial(playout_self, self))
        self._plan: tuple[Mask, int, Card, bool] | None = None  # a searched (hand, turn, discard, knock)
        self.searched = self.overridden = 0  # discard decisions played out, and changed by it
        self.take_searched = self.take_overridden = 0  # the same for upcard decisions
        self.knock_searched = self.knock_overridden = 0  # the same for knocks (where undercuts are cheap)

    def take_upcard(self, view: PlayerView) -> bool:
        take, searched, changed = settled_take(self, self.judge, view, SEARCH_TAKE_MARGIN)
        self.take_searched += searched
        self.take_overridden += changed
        return take

    def discard(self, view: PlayerView) -> Card:
        self._plan = None
        self.judge.hunter_chance(view)
        ctx, cards, values = self.weighed(view)
        if values is None:
            picked = [cards[0]]
        else:
            order = np.argsort(-values)
            best = float(values[order[0]])
            picked = [cards[int(i)] for i in order[:SEARCH_TOP] if best - float(values[i]) <= SEARCH_MARGIN]
        if len(picked) < 2 and not self.searches_knocks(view):
            return picked[0]
        return self._searched(view, ctx, picked)

    def searches_knocks(self, view: PlayerView) -> bool:
        """Whether this discard's knock is played out too: where undercuts are cheap."""
        return plays_cheap(view.rules)

    def _searched(self, view: PlayerView, ctx: Context, cards: list[Card]) -> Card:
        """Of ``cards`` (the model's best first), the one the play-outs settle on, each played
        with the knock the model would make after it; the knock is kept for the question. Where
        knocks are searched (``searches_knocks``), a kept hand that could knock without gin is
        also played with the other knock, and the options are settled at the judge's confidence
        (``settle``: a knock is scored in each world, playing on finished by ``learned``);
        elsewhere by ``patient``'s ``choose``."""
        hand, dwm = view.hand, ctx.tables.deadwood_mask
        knocks_too = self.searches_knocks(view)
        options, others = [], []
        for card in cards:
            rest = hand & ~(1 << card)
            dw = dwm(rest)
            knocks = self.model_knocks(view, ctx, rest, dw)
            options.append((card, knocks))
            if knocks_too and 0 < dw <= ctx.limit:
                others.append((card, not knocks))
        options += others
        if len(options) < 2:
            return cards[0]
        rows = self.judge.evaluate(view, options)
        choice = self.judge.settle(rows) if knocks_too else self.judge.choose(view, options, rows)
        self.searched += len(cards) > 1
        self.knock_searched += len(options) > len(cards)
        self.overridden += options[choice][0] != options[0][0]
        self.knock_overridden += options[choice][1] != options[0][1]
        card, knocks = options[choice]
        self._plan = (hand, view.turn, card, knocks)
        return card

    def knock(self, view: PlayerView) -> bool:
        plan = self._plan
        if view.discard_deadwood and plan is not None and plan[:3] == (view.hand, view.turn, view.discard_choice):
            return plan[3]  # the knock the searched discard was played out with
        return super().knock(view)
