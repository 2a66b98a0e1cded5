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

The judge is the package's (``ginsim.strategies.learned_search.RolloutJudge``), which
``learned_search`` (``search=32``) plays with this file's setting
``whole=1,hunter=threshold/knock_at=0``; here the opponent models and the search's margins
stay parameters, for experiments.

    ginsim match experiments/training/rollout_player.py:Rollout:whole=1 simple --games 100
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from ginsim.strategies.learned_search import RolloutJudge, playout_self

from ginsim.engine.spec import StrategySpec, parse_spec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from override_player import Override


def _spec(text: str) -> StrategySpec:
    """A strategy spec given as a parameter: ``/`` stands for ``:`` and ``;`` for ``,``."""
    return parse_spec(text.replace("/", ":", 1).replace(";", ","))


class Rollout(Override):
    """``Override`` whose judge plays the options out with ``learned`` (``RolloutJudge``)
    against ``opponent``, or ``hunter`` where the game's evidence says the opponent hunts gin."""

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
        self.judge = RolloutJudge(
            samples,
            partial(playout_self, self),
            confidence,
            _spec(opponent).build,
            _spec(hunter).build if hunter else None,
        )
