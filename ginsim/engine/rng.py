"""A seeded random generator for strategies: the ``random.Random`` API on splitmix64
(``kernel.splitmix.mix64``, the one implementation of its finaliser).

The engine seeds one per seat per hand, so seeding must be cheap (the Mersenne Twister
takes microseconds to seed; this takes a fraction of one). Every method of
``random.Random`` (``choice``, ``shuffle``, ``sample``, ``random`` ...) works, drawing on
``random()`` and ``getrandbits()`` below.
"""

from __future__ import annotations

import random
from typing import Any

from ginsim.engine.kernel.splitmix import mix64

MAX_SEED = 2**63 - 1
"""The largest master seed a run accepts (seeds are 0..MAX_SEED)."""

_M64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """splitmix64 of ``x``: the finaliser of ``x`` plus the golden gamma, a well-mixed
    64-bit value."""
    z = (x + _GOLDEN) & _M64
    hi, lo = mix64(z >> 32, z & 0xFFFFFFFF)
    return hi << 32 | lo


class SeededRandom(random.Random):
    """``random.Random`` whose stream is splitmix64 from a 64-bit seed."""

    _state: int

    def __init__(self, seed: int = 0) -> None:
        self._state = seed & _M64
        self.gauss_next = None

    def seed(self, a: Any = None, version: int = 2) -> None:
        if not isinstance(a, int):
            raise TypeError("SeededRandom takes an int seed")
        self._state = a & _M64
        self.gauss_next = None

    def _next64(self) -> int:
        s = self._state = (self._state + _GOLDEN) & _M64
        hi, lo = mix64(s >> 32, s & 0xFFFFFFFF)
        return hi << 32 | lo

    def random(self) -> float:
        return (self._next64() >> 11) * (1.0 / 9007199254740992.0)

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        # multiply-shift onto [0, n): the bias is below n / 2**64, far under any use here
        if n <= 0:
            raise ValueError("empty range")
        if n < 1 << 32:
            return (self._next64() * n) >> 64
        return self._next64() % n if n < 1 << 64 else self.getrandbits(n.bit_length() + 64) % n

    def below(self, n: int) -> int:
        """A uniform int in [0, n) for 0 < n < 2**32: the fast path of ``randrange(n)``."""
        return (self._next64() * n) >> 64

    def pick_bit(self, mask: int) -> int:
        """The index of one set bit of ``mask`` (one card of a card mask), uniformly at
        random; one ``below`` draw."""
        n = self.below(mask.bit_count())
        for _ in range(n):
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1

    def getrandbits(self, k: int) -> int:
        if k <= 64:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return self._next64() >> (64 - k) if k else 0
        out = 0
        for _ in range((k + 63) // 64):
            out = (out << 64) | self._next64()
        return out >> (-k % 64)

    def getstate(self) -> tuple[int, ...]:
        return (self._state,)

    def setstate(self, state: tuple[int, ...]) -> None:
        self._state = state[0]
