"""The batch forms of the seeding functions against their one-at-a-time definitions."""

from __future__ import annotations

import numpy as np
import pytest

from ginsim.engine import fastjit
from ginsim.run import seeding
from ginsim.run.seeding import check_decks, deal_seed, deal_seeds, deck_for, decks_for, strategy_seed, strategy_seeds


def test_strategy_seeds_equal_strategy_seed_for_every_deal() -> None:
    deals = deal_seeds(2026, 0, 300)
    for copy in (0, 1):
        for seat in (0, 1):
            batch = strategy_seeds(deals, 0xDEADBEEF12345678, copy, seat)
            assert batch.dtype == np.uint64
            one = [strategy_seed(d, 0xDEADBEEF12345678, copy, seat) for d in deals.tolist()]
            assert batch.tolist() == one
    assert strategy_seeds(deals[:0], 1, 0, 0).tolist() == []


@pytest.mark.skipif(not fastjit.installed(), reason="numba is not installed (pip install 'ginsim[jit]')")
def test_numba_blake2b_equals_hashlib() -> None:
    """The compiled BLAKE2b (ginsim.run._seedjit) gives hashlib's digests: many pairing
    keys (the extremes included), every copy and seat byte the runner uses and some it
    masks, batches of every length around the size where it takes over."""
    assert seeding._seed_kernel(jit=True) is not None
    rng = np.random.default_rng(5)
    keys = [0, 1, 2**63, 2**64 - 1, *rng.integers(0, 2**63, 40).tolist()]
    for i, key in enumerate(keys):
        deals = rng.integers(0, 2**64, 64 + 37 * i, dtype=np.uint64, endpoint=False)
        deals[:2] = (0, 2**64 - 1)
        for copy, seat in ((0, 0), (0, 1), (1, 0), (1, 1), (255, 255), (256 + 3, 512 + 1)):
            fast = strategy_seeds(deals, key, copy, seat, jit=True)
            assert fast.dtype == np.uint64
            assert fast.tolist() == seeding.strategy_seeds_hashlib(deals, key, copy, seat).tolist(), (key, copy, seat)
    assert seeding._seed_kernel(jit=False) is None  # and hashlib computes them


def test_decks_for_and_deal_seeds_match_their_single_forms() -> None:
    seeds = deal_seeds(7, 10, 40)
    assert seeds.tolist() == [deal_seed(7, i) for i in range(10, 40)]
    assert decks_for(seeds).tolist() == [deck_for(s) for s in seeds.tolist()]


def test_check_decks_refuses_every_kind_of_bad_row() -> None:
    good = decks_for(deal_seeds(3, 0, 50))
    assert check_decks(good) is good
    assert check_decks(good.astype(np.int64)).shape == (50, 52)
    assert check_decks(good.astype(float)).shape == (50, 52)  # not ints: checked by sorting
    assert check_decks(good[:0]).shape == (0, 52)
    twice = good.copy()
    twice[10, 0] = twice[10, 51]  # one card twice, one missing
    high = good.astype(np.int64)
    high[3, 5] = 52 + 64  # out of range (a shift by it would wrap)
    low = good.copy()
    low[0, 0] = -1
    half = good.astype(float)
    half[1, 1] += 0.5
    for bad in (twice, high, low, half, good[:, :51], good[0]):
        with pytest.raises(ValueError, match="52 cards"):
            check_decks(bad)
