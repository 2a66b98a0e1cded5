"""The fast path's own meld helpers against the engine's (ginsim.engine.fastseat)."""

from __future__ import annotations

import random

import pytest

from ginsim.engine.cards import melds_with
from ginsim.engine.fastseat import _best_discard, melds_with_fast
from ginsim.engine.melds import tables_for


def _hands(n: int, seed: int) -> list[int]:
    """11-card hands, most of them built around one to three ranks of three or four
    cards and runs next to them (the cases the fast discard does step by step)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        cards: set[int] = set()
        for _ in range(i % 4):  # 0..3 ranks with three or four cards
            r = rng.randrange(13)
            cards.update(rng.sample([s * 13 + r for s in range(4)], rng.choice((3, 4))))
        if i % 3 == 0:  # a run through one of them
            length = rng.choice((3, 4, 5))
            s, r = rng.randrange(4), rng.randrange(14 - length)
            cards.update(s * 13 + r + k for k in range(length))
        cards = set(list(cards)[:11])
        while len(cards) < 11:
            cards.add(rng.randrange(52))
        out.append(sum(1 << c for c in cards))
    return out


@pytest.mark.parametrize("max_run_length", [None, 3, 5])
def test_fast_best_discard_equals_the_tables_function(max_run_length: int | None) -> None:
    tables = tables_for(max_run_length)
    for h in _hands(20_000, 11 + (max_run_length or 0)):
        assert _best_discard(tables, h) == tables.best_discard_mask(h), hex(h)


def test_fast_melds_with_equals_melds_with() -> None:
    rng = random.Random(5)
    for _ in range(20_000):
        hand = sum(1 << c for c in rng.sample(range(52), 10))
        card = rng.randrange(52)
        if hand >> card & 1:
            continue
        assert melds_with_fast(card, hand) == melds_with(card, hand)
