"""A file strategy: ``learned`` as it plays, with a second card value added to its discards:
a network fitted on a search's values of the discards (``search_value.py``; the fourteenth
attempt in docs/notes/2026-12-learned.md).

Each discard is scored by ``learned``'s own values (its discard head and, under rules where it
has one, its card value) plus ``weight`` times the network's value of the kept hand; with
``weight=0`` it plays exactly as ``learned``. ``top`` gives the network its say over
``learned``'s best few discards only (0: all), the ones its labels valued; the rest are put
last. Upcard and knock decisions are ``learned``'s.

    ginsim match search_value_player.py:Both:value=V.npz,weight=1 simple
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_value import judged, network
from ginsim.strategies.learned import Context, Learned

from ginsim.engine.cards import Card
from ginsim.engine.view import PlayerView


class Both(Learned):
    """``learned`` whose discard values gain ``weight`` times the network ``value``'s (for its
    best ``top``; 0: all)."""

    name = "both"

    def __init__(self, value: str = "", weight: float = 1.0, top: int = 0, model: str = "") -> None:
        if not value:
            raise ValueError("value must name a network file (card_value.py fit --out)")
        if weight < 0.0 or top < 0:
            raise ValueError("weight and top must not be negative")
        super().__init__(model=model)
        self.net = network(value)
        self.value = value
        self.weight = weight
        self.top = top

    def discard_values(self, view: PlayerView, ctx: Context, cards: list[Card], rows: list[list[float]]) -> np.ndarray:
        own = super().discard_values(view, ctx, cards, rows)
        return judged(self.net, self.weight, self.top, view, ctx, cards, rows, own)
