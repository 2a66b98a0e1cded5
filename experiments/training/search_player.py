"""``learned`` with a small search at decision time (a prototype, measured in the notes).

At each discard the model's best ``top`` options are played out in ``worlds`` deals of the
unseen cards drawn from the seat's view as ``patient`` draws them (``rollouts.py``), with
``learned`` on both sides; the discard with the most points on average is played. Upcard
and knock decisions are the model's. Play it as a file strategy:

    ginsim match experiments/training/search_player.py:LearnedSearch simple --games 100
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
from ginsim.strategies.learned import Learned, discard_rows
from ginsim.strategies.patient import Patient

from ginsim.engine.hand import Hand
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ginsim.rollout import option_value, rebuild_deck


class LearnedSearch(Learned):
    """``learned`` whose discards are settled by play-outs among the model's best few."""

    name = "learned_search"

    def __init__(self, worlds: int = 8, top: int = 3, seed: int = 1) -> None:
        super().__init__()
        self.cards = self.cheap_cards = None  # the heads alone, as this was measured (no card value)
        self.worlds = worlds
        self.top = top
        self.rand = random.Random(seed)
        self.dealer = Patient(samples=worlds)

    def _players_for(self, view: PlayerView):  # type: ignore[no-untyped-def]
        me = view.seat

        def players_for(hand: Hand) -> list[Strategy]:
            seats = []
            for seat in (0, 1):
                p = Learned()
                if seat == me:
                    p._hunter.total, p._keeper.total = self._hunter.total, self._keeper.total
                p._hunter.view = p._keeper.view = hand.views[seat]
                seats.append(p)
            return seats

        return players_for

    def discard(self, view: PlayerView) -> int:
        hand = view.hand
        cards, rows = discard_rows(self.context(view), hand, hand & ~view.legal_discards())
        if len(cards) == 1:
            return cards[0]
        order = [int(i) for i in np.argsort(-self.heads_for(view)["discard"].score(np.array(rows)))[: self.top]]
        sums = [0.0] * len(order)
        players_for = self._players_for(view)
        for opp, stock in self.dealer.worlds(view, self.worlds):
            deck = rebuild_deck(view, opp, stock, self.rand.random)
            if deck is None:
                continue
            for k, i in enumerate(order):
                sums[k] += option_value(view.rules, view, deck, ("discard", cards[i]), players_for)
        return cards[order[int(np.argmax(sums))]]
