"""A file strategy: ``learned`` whose discards are also judged by a value of the kept hand
over the cards (``card_value.py``; the eleventh attempt in docs/notes/2026-12-learned.md).

Each discard the model's head weighs is scored ``head + weight * value``, the value being the
network's points of the hand after keeping those ten cards and letting that one go; with
``weight=0`` it plays exactly as ``learned``'s heads alone (the network stands in for any card
value of the model file). ``top`` limits the value's say to the head's best few discards (0:
all it weighs). Upcard and knock decisions are ``learned``'s. ``card_value.py ship --preset P``
writes a network into a model file beside the heads that play under P's rules, where
``learned`` then plays it as this does (the default and classic rules share one card value,
the EAAI, modern and palace rules the other).

    ginsim match card_value_player.py:Valued:value=V.npz,weight=1 simple
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from card_value import Judged


class Valued(Judged):
    """``learned`` with its discards judged by the head and a card value network together."""

    name = "valued"

    def __init__(self, value: str = "", weight: float = 1.0, top: int = 0, model: str = "") -> None:
        if not value:
            raise ValueError("value must name a network file (card_value.py fit --out)")
        if weight < 0.0 or top < 0:
            raise ValueError("weight and top must not be negative")
        super().__init__(value=value, weight=weight, top=top, model=model)
