"""Untrusted bots (issue 20): what a strategy can learn and what it can break.

Each attack is a fixture strategy in tests/attacks/. A cheater that finds this hand's
deck answers a marker and so forfeits with the marker in the log, which lets a test
count, in any mode, how often its route worked."""

from __future__ import annotations

from attacks.common import CHEAT_MARK
from attacks.seed_inversion import SeedInverter, splitmix64, unsplitmix64

from ginsim.engine import play_hand
from ginsim.rules import Rules
from ginsim.seeding import deal_seed, deck_for, strategy_seed, text_key
from strategies.simple import Simple

_M64 = 0xFFFFFFFFFFFFFFFF
SPECS = ("seed_inverter", "simple")


def _old_strategy_seed(deal: int, key: int, copy: int, seat: int) -> int:
    """How ginsim derived a seat's seed before issue 20 (a chain of bijections)."""
    return splitmix64(deal ^ splitmix64((key + 4 * copy + seat) & _M64))


def _cheats(seeds_for: object, hands: int = 12) -> int:
    """Hands (seed inverter in seat 0 against simple) in which the inverter found the deck."""
    key = text_key("pairing", *SPECS)
    found = 0
    for i in range(hands):
        ds = deal_seed(5, i)
        seeds = (seeds_for(ds, key, 0, 0), seeds_for(ds, key, 0, 1))  # type: ignore[operator]
        res = play_hand(Rules(), [SeedInverter(specs="|".join(SPECS)), Simple()], deck_for(ds), i % 2, seeds=seeds)
        found += res.forfeit_seat == 0 and CHEAT_MARK in res.forfeit_reason
    return found


def test_unsplitmix64_inverts_splitmix64() -> None:
    for x in (0, 1, 12345, _M64, 0x0123456789ABCDEF):
        assert unsplitmix64(splitmix64(x)) == x


def test_seed_inversion_found_every_deck_with_the_old_derivation() -> None:
    # the fixture really is an attack: against the old derivation it finds every deck
    assert _cheats(_old_strategy_seed) == 12


def test_seed_inversion_finds_nothing_now() -> None:
    assert _cheats(strategy_seed) == 0


def test_strategy_seeds_are_one_way_and_still_reproducible() -> None:
    a = strategy_seed(deal_seed(1, 2), 7, 0, 1)
    assert a == strategy_seed(deal_seed(1, 2), 7, 0, 1)
    assert len({strategy_seed(deal_seed(1, 2), 7, c, s) for c in (0, 1) for s in (0, 1)}) == 4
    assert unsplitmix64(a) != deal_seed(1, 2)
