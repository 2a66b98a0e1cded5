"""``learned`` checked by ``patient``'s search (a prototype file strategy, measured in the notes).

At each discard the model's choice, with its knock head's answer, and the model's next best
discards (at most ``candidates`` in all, each valued within ``close`` of the best, in the
discard head's units: the median gap between its best two discards is about 2.8) are played
out in ``samples`` deals of the unseen cards, dealt and played out exactly as ``patient``
deals and plays them (a ``Patient`` instance is the judge and keeps its own evidence of the
opponent's kind; ``model`` is a model file to play instead of the shipped one). Another
option replaces the model's only on a paired gain of ``confidence`` standard errors, and the
samples may veto a knock but never add one (the deals believe too little in an opponent
that waits). Upcard decisions stay the model's. It plays at about ``patient``'s speed and
was not clearly stronger than ``learned`` on development seeds (the notes' third attempt),
so it is not a setting of the built-in; ``override_player.py`` searches more (the tenth
attempt). Play it as a file strategy:

    ginsim match experiments/training/checked_player.py:LearnedChecked patient --games 1000
"""

from __future__ import annotations

import numpy as np
from ginsim.strategies.learned import Context, Learned, discard_rows
from ginsim.strategies.patient import Patient

from ginsim.cards import Card, Mask
from ginsim.engine.view import PlayerView


class LearnedChecked(Learned):
    """``learned`` whose discards and knocks ``patient``'s play-outs may overrule."""

    name = "learned_checked"

    def __init__(
        self, samples: int = 48, candidates: int = 3, close: float = 1.0, confidence: float = 0.5, model: str = ""
    ) -> None:
        super().__init__(model=model)
        self.cards = self.cheap_cards = None  # the heads alone, as this was measured (no card value)
        if samples < 1 or candidates < 1 or not close >= 0 or not confidence >= 0:
            raise ValueError("samples and candidates must be >= 1, close and confidence >= 0")
        self.samples = samples
        self.candidates = candidates
        self.close = close
        self.confidence = confidence
        self.judge = Patient(samples=samples, confidence=confidence)
        self._plan: tuple[Mask, int, Card, bool] | None = None  # (hand, turn, discard, knock)

    def take_upcard(self, view: PlayerView) -> bool:
        self.judge.hunter_chance(view)  # the judge reads every hand's ending, as patient does
        return super().take_upcard(view)

    def ranked(self, view: PlayerView) -> tuple[Context, list[Card], np.ndarray, np.ndarray]:
        """A discard question's start: the plan forgotten, the judge's evidence read, and the
        context, the discards weighed, their values and their order, best first."""
        self._plan = None
        self.judge.hunter_chance(view)
        hand = view.hand
        ctx = self.context(view)
        cards, rows = discard_rows(ctx, hand, hand & ~view.legal_discards())
        values = self.discard_values(view, ctx, cards, rows)  # the head's, with no card value set
        return ctx, cards, values, np.argsort(-values)

    def discard(self, view: PlayerView) -> Card:
        ctx, cards, values, order = self.ranked(view)
        top = values[order[0]]
        alts = [cards[int(i)] for i in order[1 : self.candidates] if top - values[i] <= self.close]
        return self.checked(view, ctx, cards[int(order[0])], alts)

    def checked(self, view: PlayerView, ctx: Context, card: Card, alts: list[Card]) -> Card:
        """The model's ``card`` and knock, unless the judge's play-outs clearly prefer one of
        ``alts`` or not knocking; the plan is kept for the knock question that follows."""
        hand = view.hand
        dwm = ctx.tables.deadwood_mask
        rest = hand & ~(1 << card)
        dw = dwm(rest)
        if dw == 0:
            return card  # gin: knocked whatever else
        knocks = self.model_knocks(view, ctx, rest, dw)
        options = [(card, knocks)]
        if knocks:
            options.append((card, False))
        for alt in alts:
            options.append((alt, False))
            if knocks and dwm(hand & ~(1 << alt)) <= ctx.limit:
                options.append((alt, True))
        if len(options) > 1:
            card, knocks = options[self.judge.choose(view, options, self.judge.evaluate(view, options))]
        self._plan = (hand, view.turn, card, knocks)
        return card

    def knock(self, view: PlayerView) -> bool:
        plan = self._plan
        if view.discard_deadwood and plan is not None and plan[:3] == (view.hand, view.turn, view.discard_choice):
            return plan[3]
        return super().knock(view)
