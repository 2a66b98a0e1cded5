"""``learned`` whose close choices are settled by ``patient``'s play-outs (a stronger, slower setting).

At a discard, ``learned``'s model ranks the options. Where the runner-up discards are within
``margin`` of the best on the model's scale (at most ``top`` options in all), each is played
out in ``samples`` deals of the unseen cards drawn from the seat's view, by ``patient``'s
deals and play-out policy (``patient:samples=S``, with ``teacher``'s further parameters,
``teacher=hint=0.02;pass_hint=0.05`` for two), each
discard with the knock that ``learned``'s knock head would make after it. The model's choice
stands unless another option beats it by ``confidence`` standard errors of the paired gain
(the worlds are shared), as ``patient`` settles ``aware``'s choice. Where the upcard head's
log odds are within ``take_margin`` of 0, the draw is played out both ways too and settled the
same way. Knock decisions stay the model's (the ninth attempt's mixed player: a stronger
teacher's discards carry three quarters of its gain, its upcard decisions a quarter, its
knocks none).

With ``whole=1`` the discards are ranked, and ``margin`` measured, by ``learned``'s whole discard
values (its head and, where the model has one for the rules, its card value), as ``learned``
plays them; by default by the discard head alone, as before the card value was shipped.

The defaults, ``samples=128,margin=3,top=4,take_margin=1``, won about two more games in 100
than ``learned`` against ``simple``, ``patient`` and MARJJ_v5 under the default rules, at
about a twentieth of its speed (the notes' tenth attempt):

    ginsim match experiments/training/override_player.py:Override simple --games 200
"""

from __future__ import annotations

import sys
from pathlib import Path

from ginsim.strategies.learned import model_heads
from ginsim.strategies.learned_search import settled_take
from ginsim.strategies.patient import Patient

from ginsim.cards import Card
from ginsim.engine.spec import parse_spec
from ginsim.engine.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from checked_player import LearnedChecked


class Override(LearnedChecked):
    """``learned`` with its close discards and upcard decisions played out in sampled deals:
    ``LearnedChecked``'s search, each discard with the model's own knock after it, and the
    upcard decision searched as well."""

    name = "learned_override"

    def __init__(
        self,
        samples: int = 128,
        margin: float = 3.0,
        top: int = 4,
        confidence: float = 0.5,
        take_margin: float = 1.0,
        teacher: str = "",
        model: str = "",
        whole: int = 0,
    ) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
            raise ValueError(f"samples must be a whole number >= 2, not {samples!r}")
        if isinstance(top, bool) or not isinstance(top, int) or top < 2:
            raise ValueError(f"top must be a whole number >= 2, not {top!r}")
        if not margin >= 0:
            raise ValueError(f"margin must be >= 0, not {margin!r}")
        if not take_margin >= 0:
            raise ValueError(f"take_margin must be >= 0, not {take_margin!r}")
        super().__init__(samples=samples, candidates=top, close=margin, confidence=confidence, model=model)
        if teacher:  # the judge with more of patient's parameters (several separated by ";")
            made = parse_spec(f"patient:samples={samples},confidence={confidence},{teacher.replace(';', ',')}").build()
            assert isinstance(made, Patient)
            self.judge = made
        if whole not in (0, 1) or isinstance(whole, bool):
            raise ValueError(f"whole must be 0 (the discard head) or 1 (learned's whole values), not {whole!r}")
        self.take_margin = take_margin
        self.whole = whole
        if whole:  # the model's card values, which the checked player sets aside, ranking again
            own = model_heads(model)
            self.cards, self.cheap_cards = own.cards, own.cheap_cards
        self.searched = self.overridden = 0  # discard decisions played out, and changed
        self.take_searched = self.take_overridden = 0  # the same for upcard decisions

    def take_upcard(self, view: PlayerView) -> bool:
        take, searched, changed = settled_take(self, self.judge, view, self.take_margin)
        self.take_searched += searched
        self.take_overridden += changed
        return take

    def discard(self, view: PlayerView) -> Card:
        ctx, cards, values, order = self.ranked(view)
        if len(cards) == 1:
            return cards[0]
        hand = view.hand
        best = float(values[order[0]])
        picked = [int(i) for i in order[: self.candidates] if best - float(values[i]) <= self.close]
        if len(picked) < 2:
            return cards[int(order[0])]
        dwm = ctx.tables.deadwood_mask
        options = []
        for i in picked:
            rest = hand & ~(1 << cards[i])
            options.append((cards[i], self.model_knocks(view, ctx, rest, dwm(rest))))
        judge = self.judge
        choice = judge.choose(view, options, judge.evaluate(view, options))
        self.searched += 1
        self.overridden += choice != 0
        card, knocks = options[choice]
        self._plan = (hand, view.turn, card, knocks)
        return card
