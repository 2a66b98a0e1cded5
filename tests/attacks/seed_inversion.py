"""The seed-inversion attack: from the first 64 bits of ``view.rng`` back to the seat's
seed, then to the deal seed, then to the deck, as if each step were a splitmix64
bijection keyed by public strategy names (as ginsim once derived them)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import Cheater, deals_my_hand
from ginsim.engine.rng import SeededRandom
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for, text_key

_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15


def _unshift(z: int, k: int) -> int:
    x = z
    for _ in range(64 // k + 1):
        x = z ^ (x >> k)
    return x & _M64


def unsplitmix64(y: int) -> int:
    """The x with ``splitmix64(x) == y``."""
    z = _unshift(y, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _M64
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _M64
    z = _unshift(z, 30)
    return (z - _GOLDEN) & _M64


def splitmix64(x: int) -> int:
    z = (x + _GOLDEN) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class SeedInverter(Cheater):
    """Knows the pairing's strategy specs (they are public: the command line) and inverts
    its random stream into the deck."""

    name = "seed_inverter"

    def __init__(self, specs: str = "", key: int = 0) -> None:
        super().__init__()
        self.specs = specs  # "a_canonical|b_canonical": the pairing's key is public
        self.key = key  # or the key itself

    def route(self, view: PlayerView) -> Any:
        probe = SeededRandom(0)
        probe.setstate(view.rng.getstate())  # a copy: its own stream is left as it was
        seat_seed = unsplitmix64(probe.getrandbits(64))
        a, _, b = self.specs.partition("|")
        key = self.key or text_key("pairing", a, b)
        for copy in (0, 1):
            deal = unsplitmix64(seat_seed) ^ splitmix64((key + 4 * copy + view.seat) & _M64)
            deck = deck_for(deal)
            if deals_my_hand(deck, view):
                return deck
        return None
