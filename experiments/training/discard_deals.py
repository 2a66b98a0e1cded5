"""The ninth attempt's third trial: a discard judged in sampled deals of the opponent's hand
(``feature_trial.py --columns experiments/training/discard_deals.py:columns --head discard``).

At each discard decision ``WORLDS`` deals of the opponent's hand that fit what the seat has
seen are dealt once (``ginsim.sampling.deal_worlds`` with ``sampler``'s hints, from the
question's own generator ``view.rng_for``), and each option gets: the share of deals in which
the card let go melds with two of the opponent's cards (it would feed it), and, the same for
every option of the decision, the opponent's mean deadwood and the share of deals in which it
could knock. ``learned``'s danger feature guesses the first from card chances alone.
"""

from __future__ import annotations

from typing import Any

from ginsim.strategies.aware import last_discard

from ginsim import tables_for
from ginsim.engine.cards import melds_with
from ginsim.sampling import deal_worlds

WORLDS = 16
_DEALT: dict[tuple[int, int, int, int], list[int]] = {}  # the last decision's deals


def _deals(view: Any) -> list[int]:
    """The decision's deals, dealt at its first option (a view's object may serve many)."""
    key = (id(view), view.turn, view.hand, len(view.history))
    found = _DEALT.get(key)
    if found is not None:
        return found
    limit = view.knock_limit
    rand = view.rng_for(view.turn << 6 | 62).random
    worlds = deal_worlds(
        view, WORLDS, rand, last_discard(view), [0.01] * (limit + 1), selection=1.0, hint=0.2, pass_hint=0.5
    )
    _DEALT.clear()
    _DEALT[key] = hands = [opp for opp, _ in worlds]
    return hands


def columns(head: str, view: Any, _ctx: Any, kept: int) -> list[float]:
    """For a discard: the share of deals its card feeds, the opponent's mean deadwood and the
    share of deals in which it could knock."""
    if head != "discard":
        return []
    card = (view.hand & ~kept).bit_length() - 1
    hands = _deals(view)
    tables = tables_for(view.rules.max_run_length)
    n = float(len(hands))
    feeds = sum(1 for opp in hands if melds_with(card, opp)) / n
    dws = [tables.deadwood_mask(opp) for opp in hands]
    return [feeds, sum(dws) / n, sum(1 for d in dws if d <= view.knock_limit) / n]
