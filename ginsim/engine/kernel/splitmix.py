"""splitmix64 on 32-bit halves (``SeededRandom``'s stream) and what is drawn from it:
floats, bounded ints, one card of a mask, a shuffled deck and a deal's seeds.

A stream's state is two ints of a buffer (its high and low halves), so a caller keeps
several streams side by side. Every product is taken in 16-bit pieces (``_mul``) so no
value passes 2**62 (``ginsim.engine.kernel``).
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import M16, M32, count, low_index

_GOLDEN_HI: Final = 0x9E3779B9  # splitmix64's constants, as 32-bit halves
_GOLDEN_LO: Final = 0x7F4A7C15
_C1_HI: Final = 0xBF58476D
_C1_LO: Final = 0x1CE4E5B9
_C2_HI: Final = 0x94D049BB
_C2_LO: Final = 0x133111EB
_UNIT: Final = 1.0 / 9007199254740992.0  # 2**-53
_SEED_HI: Final = (1 << 30) - 1


def _mul(xh: int, xl: int, ch: int, cl: int) -> tuple[int, int]:
    """The low 64 bits of x * c for 64-bit x and c given as 32-bit halves, as halves,
    multiplied in 16-bit pieces so that no product passes 2**62."""
    x0 = xl & M16
    x1 = xl >> 16
    x2 = xh & M16
    x3 = xh >> 16
    c0 = cl & M16
    c1 = cl >> 16
    c2 = ch & M16
    c3 = ch >> 16
    t1 = x0 * c1 + x1 * c0
    low = x0 * c0 + ((t1 & M16) << 16)
    t3 = x0 * c3 + x1 * c2 + x2 * c1 + x3 * c0
    high = (low >> 32) + (t1 >> 16) + x0 * c2 + x1 * c1 + x2 * c0 + ((t3 & M16) << 16)
    return high & M32, low & M32


def mix64(hi: int, lo: int) -> tuple[int, int]:
    """splitmix64's finaliser of the 64-bit value ``hi:lo``, as halves."""
    hi, lo = _mul(hi ^ (hi >> 30), lo ^ (((hi << 2) & M32) | (lo >> 30)), _C1_HI, _C1_LO)
    hi, lo = _mul(hi ^ (hi >> 27), lo ^ (((hi << 5) & M32) | (lo >> 27)), _C2_HI, _C2_LO)
    return hi ^ (hi >> 31), lo ^ (((hi << 1) & M32) | (lo >> 31))


def next64(st: list[int], i: int) -> tuple[int, int]:
    """Advance stream ``i`` of ``st`` (its state's halves at ``st[2i]``, ``st[2i+1]``) and
    return its next 64-bit output as halves."""
    lo = st[2 * i + 1] + _GOLDEN_LO
    hi = (st[2 * i] + _GOLDEN_HI + (lo >> 32)) & M32
    lo &= M32
    st[2 * i] = hi
    st[2 * i + 1] = lo
    return mix64(hi, lo)


def rand_float(st: list[int], i: int) -> float:
    """``SeededRandom.random()``: a uniform float in [0, 1) from stream ``i``."""
    zh, zl = next64(st, i)
    return ((zh << 21) | (zl >> 11)) * _UNIT


def below(st: list[int], i: int, k: int) -> int:
    """``SeededRandom.below(k)``: (z * k) >> 64 for the next output z, 0 < k < 2**16."""
    zh, zl = next64(st, i)
    low = (zl & M16) * k + (((zl >> 16) * k) << 16)
    return ((zh & M16) * k + (((zh >> 16) * k) << 16) + (low >> 32)) >> 32


def pick_bit(st: list[int], i: int, mask: int) -> int:
    """``SeededRandom.pick_bit``: one card of ``mask``, uniformly, with one draw."""
    n = below(st, i, count(mask))
    for _ in range(n):
        mask &= mask - 1
    return low_index(mask)


def shuffle_deck(st: list[int], i: int, decks: list[int], d0: int) -> None:
    """A uniformly shuffled deck into ``decks[d0:d0+52]`` (top first) from stream ``i``:
    Fisher-Yates from the bottom, one ``below`` draw a card."""
    for k in range(52):
        decks[d0 + k] = k
    for k in range(51, 0, -1):
        j = below(st, i, k + 1)
        c = decks[d0 + k]
        decks[d0 + k] = decks[d0 + j]
        decks[d0 + j] = c


def deal_from_stream(st: list[int], i: int, decks: list[int], d0: int, seeds: list[int]) -> None:
    """A hand's deck (``shuffle_deck``) and the two seats' random seeds (62 bits each,
    into ``seeds[0]``, ``seeds[1]``) from stream ``i``; the dealer is drawn before it
    (``below(st, i, 2)``), and a learner's seat before that when it is drawn."""
    shuffle_deck(st, i, decks, d0)
    for s in range(2):
        hi, lo = next64(st, i)
        seeds[s] = (hi & _SEED_HI) << 32 | lo
