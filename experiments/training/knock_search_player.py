"""``learned_search`` whose knocks are played out too (an experiment).

``learned_search`` plays out ``learned``'s close discards and upcard decisions, each discard
with the knock the model would make after it; the knock itself is the model's. Here every
discard that leaves a hand able to knock (deadwood within the limit, not gin) is also played
out with the other knock decision: the knock scored in each sampled world against the
opponent's dealt hand, playing on finished by ``learned`` itself, compared in chances of
winning the game (``RolloutJudge``). The model's (discard, knock) stands unless another
option beats it by ``confidence`` standard errors. ``search`` as for ``learned_search``.

    ginsim match experiments/training/knock_search_player.py:KnockSearch simple --games 100
"""

from __future__ import annotations

import numpy as np
from ginsim.strategies.learned_search import SEARCH_MARGIN, SEARCH_TOP, LearnedSearch

from ginsim.cards import Card
from ginsim.view import PlayerView


class KnockSearch(LearnedSearch):
    """``learned_search`` with its knocks played out as well as its close discards."""

    name = "knock_search"
    description = "learned_search whose knock decisions are played out too"

    def __init__(self, search: int = 32, confidence: float = 0.5, hunter_prior: float = 0.3) -> None:
        super().__init__(search=search, hunter_prior=hunter_prior)
        self.confidence = confidence
        self.knock_searched = self.knock_overridden = 0

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
        hand, dwm = view.hand, ctx.tables.deadwood_mask
        options: list[tuple[Card, bool]] = []
        for card in picked:
            rest = hand & ~(1 << card)
            options.append((card, self.model_knocks(view, ctx, rest, dwm(rest))))
        for card, knocks in list(options):
            dw = dwm(hand & ~(1 << card))
            if 0 < dw <= ctx.limit:
                options.append((card, not knocks))
        if len(options) < 2:
            return picked[0]
        choice = self.judge.settle(self.judge.evaluate(view, options), self.confidence)
        self.searched += len(picked) > 1
        self.knock_searched += len(options) > len(picked)
        self.overridden += options[choice][0] != options[0][0]
        self.knock_overridden += options[choice][1] != options[0][1]
        card, knocks = options[choice]
        self._plan = (hand, view.turn, card, knocks)
        return card
