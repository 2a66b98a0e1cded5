"""A file strategy: ``learned`` whose discards are also judged by a value of the kept hand
over the cards (``card_value.py``; the eleventh attempt in docs/notes/2026-12-learned.md).

Each discard the model's head weighs is scored ``head + weight * value``, the value being the
network's points of the hand after keeping those ten cards and letting that one go; with
``weight=0`` it plays exactly as ``learned``'s heads alone (the network stands in for any card
value of the model file). ``top`` limits the value's say to the head's best few discards (0:
all it weighs). Upcard and knock decisions are ``learned``'s. ``card_value.py ship`` writes a
network into a model file, where ``learned`` plays it as this does under the default and
classic rules.

    ginsim match card_value_player.py:Valued:value=V.npz,weight=1 simple
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import Learned, discard_rows

from ginsim.engine.cards import Card
from ginsim.engine.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_value import judged, network


class Valued(Learned):
    """``learned`` with its discards judged by the head and a card value network together."""

    name = "valued"

    def __init__(self, value: str = "", weight: float = 1.0, top: int = 0, model: str = "") -> None:
        super().__init__(model=model)
        if not value:
            raise ValueError("value must name a network file (card_value.py fit --out)")
        if weight < 0.0 or top < 0:
            raise ValueError("weight and top must not be negative")
        self.cards = None
        self.net = network(value)
        self.value = value
        self.weight = weight
        self.top = top

    def discard(self, view: PlayerView) -> Card:
        hand = view.hand
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return cards[0]
        scores = self.heads_for(view)["discard"].score(np.array(rows))
        return cards[int(np.argsort(-judged(self.net, self.weight, self.top, view, ctx, cards, rows, scores))[0])]
