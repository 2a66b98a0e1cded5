"""Card masks as bits: counting cards, finding the lowest, the masks of a suit and a rank.

``count`` and ``low_index`` do what ``int.bit_count`` and ``int.bit_length`` would, which
numba does not have (``ginsim.engine.kernel``).
"""

from __future__ import annotations

from typing import Final

SUIT: Final = 8191
"""One suit's 13 bits (a suit pattern: bit r for rank r)."""
RANK_BITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""Rank 0 of each suit; shifted left by r, the four cards of rank r."""
M32: Final = 0xFFFFFFFF
M16: Final = 0xFFFF


def count(m: int) -> int:
    """How many cards the mask ``m`` holds."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def low_index(m: int) -> int:
    """The index of the lowest set bit of a non-zero mask (the lowest card), by halving."""
    n = 0
    if not m & M32:
        n = 32
        m >>= 32
    if not m & M16:
        n += 16
        m >>= 16
    if not m & 255:
        n += 8
        m >>= 8
    if not m & 15:
        n += 4
        m >>= 4
    if not m & 3:
        n += 2
        m >>= 2
    return n + 1 - (m & 1)
