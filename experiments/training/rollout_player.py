"""``learned`` whose close choices are settled by playing the hand out with ``learned`` itself.

``override_player.py:Override`` settles ``learned``'s close discards (and upcard decisions) by
``patient``'s play-outs, in which this seat plays ``patient``'s cheap play-out policy. Here the
same choices are played out by ``learned`` itself, against a model of the opponent
(``opponent``, a strategy spec: by default ``simple``, the eager knocker that ``patient``'s
play-outs assume; inside it ``/`` stands for ``:`` and ``;`` for ``,``, as in
``opponent=threshold/knock_at=0``, a player that knocks only with gin; ``hunter``, when given,
is the model played where ``patient``'s evidence of the game says the opponent hunts gin,
``patient.hunting``). Each of ``samples``
deals of the unseen cards drawn from the seat's view (``patient``'s worlds) is rebuilt as a
whole hand by the engine (``rollouts.py``: a deck that leads through the hand's logged moves
to this position), the option is made, and the hand is finished by fresh ``learned`` (this
seat, with this game's evidence about the opponent) and the opponent model. Every option
meets the same deals and the same random streams (``rollouts.replay``'s), so the comparison
is paired; the model's choice stands unless another beats it, in chances of winning the
game, by ``confidence`` standard errors. One step of policy improvement by roll-outs of the
policy itself: each choice is judged by how ``learned`` would go on to play.

    ginsim match experiments/training/rollout_player.py:Rollout:whole=1 simple --games 100
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

from ginsim.strategies.learned import Learned
from ginsim.strategies.patient import Patient

from ginsim.cards import Card
from ginsim.engine.hand import Hand
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.sampling import game_worth, hand_rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from override_player import Override
from rollouts import apply, finish, points_for, rebuild_deck, replay


def _spec(text: str) -> StrategySpec:
    """A strategy spec given as a parameter: ``/`` stands for ``:`` and ``;`` for ``,``."""
    return parse_spec(text.replace("/", ":", 1).replace(";", ","))


class RolloutJudge(Patient):
    """``patient``'s worlds and its way of settling a choice; each option's worth in a world
    is that of the hand rebuilt there and finished by fresh ``learned`` and the opponent model
    (``hunter`` where this game's evidence says the opponent hunts gin, else ``opponent``)."""

    def __init__(self, samples: int, confidence: float, opponent: str, model: str, hunter: str = "") -> None:
        super().__init__(samples=samples, confidence=confidence)
        self.opponent = _spec(opponent)
        self.hunter = _spec(hunter) if hunter else None
        self.model = model
        self.owner: Learned | None = None  # the seat's own player: its game's evidence is copied

    def _players(self, view: PlayerView, hand: Hand, model: StrategySpec) -> list[Strategy]:
        me = view.seat
        own = Learned(model=self.model)
        if self.owner is not None:
            own._hunter.total, own._keeper.total = self.owner._hunter.total, self.owner._keeper.total
        own._hunter.view = own._keeper.view = hand.views[me]
        opp = model.build()
        return [own, opp] if me == 0 else [opp, own]

    def _rows(self, view: PlayerView, options: Sequence[tuple[str, object]]) -> list[list[float]]:
        rules = hand_rules(view)
        worth = game_worth(rules.target_score, *view.scores) if self.game else float
        rand = random.Random(view.rng.getrandbits(64)).random
        model = self.hunter if self.hunter is not None and self.hunting(view) else self.opponent
        out: list[list[float]] = []
        for opp, stock in self.worlds(view, self.samples):
            deck = rebuild_deck(view, opp, stock, rand)
            if deck is None:
                continue
            row = []
            for kind, value in options:
                hand = replay(view.rules, view, deck)
                players = self._players(view, hand, model)
                if kind == "discard":
                    card, knock = value  # type: ignore[misc]
                    hand.discard(card, knock)
                    if knock:
                        hand.show()
                else:
                    apply(hand, (kind, value), players, None)
                finish(hand, players)
                row.append(worth(points_for(hand, view.seat)))
            out.append(row)
        return out

    def evaluate(self, view: PlayerView, options: list[tuple[Card, bool]]) -> list[list[float]]:
        return self._rows(view, [("discard", o) for o in options])

    def evaluate_draw(self, view: PlayerView, take: bool) -> list[list[float]]:
        return self._rows(view, [("take", take), ("take", not take)])


class Rollout(Override):
    """``Override`` whose judge plays the options out with ``learned`` (``RolloutJudge``)."""

    name = "learned_rollout"

    def __init__(
        self,
        samples: int = 32,
        margin: float = 3.0,
        top: int = 3,
        confidence: float = 0.5,
        take_margin: float = 1.0,
        opponent: str = "simple",
        model: str = "",
        whole: int = 0,
        hunter: str = "",
    ) -> None:
        super().__init__(
            samples=samples, margin=margin, top=top, confidence=confidence, take_margin=take_margin, model=model,
            whole=whole,
        )  # fmt: skip
        judge = RolloutJudge(samples, confidence, opponent, model, hunter)
        judge.owner = self
        self.judge = judge
