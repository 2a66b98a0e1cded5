"""``learned_search`` whose knocks are played out under every rule set (an experiment).

``learned_search`` plays out ``learned``'s close discards and upcard decisions, each discard
with the knock the model would make after it, and, where undercuts are cheap (the default and
classic rules), the knock too: every discard that leaves a hand able to knock (deadwood within
the limit, not gin) is also played out with the other knock decision, the knock scored in each
sampled world against the opponent's dealt hand, playing on finished by ``learned`` itself,
compared in chances of winning the game (``RolloutJudge``). This file player does that under
every rule set; the model's (discard, knock) stands unless another option beats it by
``confidence`` standard errors (the judge's, for upcard decisions too). ``search`` as for
``learned_search``. It was measured as the twenty-first attempt in the notes, before
``learned_search`` took its knocks where undercuts are cheap; there the two play move for move.

    ginsim match experiments/training/knock_search_player.py:KnockSearch simple --games 100
"""

from __future__ import annotations

from ginsim.strategies.learned_search import LearnedSearch

from ginsim.view import PlayerView


class KnockSearch(LearnedSearch):
    """``learned_search`` with its knocks played out as well as its close discards, under every
    rule set."""

    name = "knock_search"
    description = "learned_search whose knock decisions are played out too, under every rule set"

    def __init__(self, search: int = 32, confidence: float = 0.5, hunter_prior: float = 0.3) -> None:
        super().__init__(search=search, hunter_prior=hunter_prior)
        self.confidence = self.judge.confidence = confidence

    def searches_knocks(self, view: PlayerView) -> bool:
        return True
