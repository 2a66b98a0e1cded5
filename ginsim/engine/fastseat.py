"""The fast path's seats: the built-in policies' decisions over a seat's own hand and its
seeded random stream (``SeededRandom``'s splitmix64, in machine words), for
``ginsim.engine.fastplay``. Compiled with the other hot modules (``_native.HOT``)."""

from __future__ import annotations

from typing import Final

from ginsim.engine.cards import RUN_RANKS
from ginsim.engine.melds import MeldTables

SIMPLE: Final = 0
"""``simple`` and ``threshold``: take a melding upcard, discard to least deadwood (ties
at random), knock at deadwood <= ``knock_at`` (``simple``: whenever legal)."""
RANDOM: Final = 1
"""``random``: take with ``take_chance``, a uniform legal discard, knock with ``knock_chance``."""

_M32: Final = 0xFFFFFFFF
_M16: Final = 0xFFFF
_GOLDEN_HI: Final = 0x9E3779B9  # splitmix64's constants, as 32-bit halves
_GOLDEN_LO: Final = 0x7F4A7C15
_C1_HI: Final = 0xBF58476D
_C1_LO: Final = 0x1CE4E5B9
_C2_HI: Final = 0x94D049BB
_C2_LO: Final = 0x133111EB
_ALWAYS: Final = 1 << 20  # a knock_at no deadwood reaches: simple knocks whenever legal


def card_count(m: int) -> int:
    """How many cards the mask ``m`` holds (``int.bit_count`` is a method call, compiled)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def _mul(xh: int, xl: int, ch: int, cl: int) -> tuple[int, int]:
    """The low 64 bits of x * c for 64-bit x and c given as 32-bit halves, as halves.
    Multiplied in 16-bit pieces: the compiled module multiplies machine words only when
    both factors are below 2**30, and goes to big ints otherwise."""
    x0 = xl & _M16
    x1 = xl >> 16
    x2 = xh & _M16
    x3 = xh >> 16
    c0 = cl & _M16
    c1 = cl >> 16
    c2 = ch & _M16
    c3 = ch >> 16
    t1 = x0 * c1 + x1 * c0
    low = x0 * c0 + ((t1 & _M16) << 16)
    t3 = x0 * c3 + x1 * c2 + x2 * c1 + x3 * c0
    high = (low >> 32) + (t1 >> 16) + x0 * c2 + x1 * c1 + x2 * c0 + ((t3 & _M16) << 16)
    return high & _M32, low & _M32


def melds_with_fast(card: int, hand: int) -> bool:
    """``cards.melds_with`` without ``int.bit_count`` (a method call, compiled): the
    card's rank is counted over its four suits' bits."""
    h = hand | 1 << card
    rank = card % 13
    x = h >> rank
    if (x & 1) + (x >> 13 & 1) + (x >> 26 & 1) + (x >> 39 & 1) >= 3:
        return True
    return bool(RUN_RANKS[h >> (card - rank) & 8191] >> rank & 1)


def _runs(tables: MeldTables, a: int, b: int, c: int, d: int) -> tuple[int, int, int]:
    """Suit patterns a..d finished with runs only: their run deadwood, the most one
    discard saves and the discards that save it (``melds``' per-suit tables)."""
    gain = tables.gain
    ga = gain[a]
    gb = gain[b]
    gc = gain[c]
    gd = gain[d]
    top = ga
    if gb > top:
        top = gb
    if gc > top:
        top = gc
    if gd > top:
        top = gd
    gain_cards = tables.gain_cards
    cards = 0
    if ga == top:
        cards = gain_cards[a]
    if gb == top:
        cards |= gain_cards[b] << 13
    if gc == top:
        cards |= gain_cards[c] << 26
    if gd == top:
        cards |= gain_cards[d] << 39
    t = tables.run_deadwood
    return t[a] + t[b] + t[c] + t[d], top, cards


def _one_rank(tables: MeldTables, a: int, b: int, c: int, d: int, bit: int) -> tuple[int, int]:
    """``melds``' discard_one_rank: one rank (``bit``) holds 3+ cards a run could use; try
    its cards out of a group, in a group and (with four) each group of three."""
    keep = ~bit
    aq = a & keep
    bq = b & keep
    cq = c & keep
    dq = d & keep
    total, top, cards = _runs(tables, a, b, c, d)
    best = total - top
    total, top, m = _runs(tables, aq, bq, cq, dq)
    v = total - top
    if v < best:
        best, cards = v, m
    elif v == best:
        cards |= m
    if a & b & c & d & bit:
        for i in range(4):
            total, top, m = _runs(
                tables, a if i == 0 else aq, b if i == 1 else bq, c if i == 2 else cq, d if i == 3 else dq
            )
            v = total - top
            if v < best:
                best, cards = v, m
            elif v == best:
                cards |= m
    return best, cards


def _several_ranks(tables: MeldTables, a: int, b: int, c: int, d: int, ranks: int) -> tuple[int, int]:
    """``melds``' discard over every choice of groups among several ranks (bits of
    ``ranks``) that hold 3+ cards a run could use: each rank out of a group, in a group of
    all its cards or (with four) of three of them; the least deadwood over the choices and
    the union of the discards reaching it (so the order of the choices does not matter)."""
    rest = a | b << 13 | c << 26 | d << 39
    combos = [0]
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        r = low.bit_length() - 1
        g = rest & (1 | 1 << 13 | 1 << 26 | 1 << 39) << r  # this rank's cards (3 or 4)
        opts = [0, g]
        if a & b & c & d & low:
            q = g
            while q:
                one = q & -q
                q ^= one
                opts.append(g ^ one)
        combos = [x | o for x in combos for o in opts]
    best = 1 << 30
    best_cards = 0
    for x in combos:
        r = rest & ~x
        total, top, cards = _runs(tables, r & 8191, r >> 13 & 8191, r >> 26 & 8191, r >> 39)
        v = total - top
        if v < best:
            best, best_cards = v, cards
        elif v == best:
            best_cards |= cards
    return best, best_cards


def _best_discard(tables: MeldTables, h: int) -> tuple[int, int]:
    """``tables.best_discard_mask(h)`` in machine words, the same steps as ``melds``'
    function (no call through the tables' function objects, no tuple built): runs alone,
    groups no run could use kept whole, one rank or several whose cards a run could use."""
    a = h & 8191
    b = h >> 13 & 8191
    c = h >> 26 & 8191
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
    if not t3:
        total, top, cards = _runs(tables, a, b, c, d)
        return total - top, cards
    rn = tables.runnable
    free = t3 & ~(rn[a] | rn[b] | rn[c] | rn[d])  # groups no run could use: kept whole
    conflict = t3 ^ free
    penalty = 0  # discarding from a free group: none from four, two cards' value from three
    ranks = 0
    if free:
        keep = ~free
        four = a & b & c & d & free
        a &= keep
        b &= keep
        c &= keep
        d &= keep
        if four:
            ranks = four
        else:
            low = free & -free
            r = low.bit_length() - 1
            penalty = 2 * (r + 1 if r < 9 else 10)
            ranks = free & (low if r < 9 else 0x1E00)  # the ranks of the same value
    group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
    if not conflict:
        total, top, cards = _runs(tables, a, b, c, d)
        if penalty > -top:
            return total - top, cards
        if penalty < -top:
            return total + penalty, group
        return total - top, cards | group
    if conflict & (conflict - 1):
        best, cards = _several_ranks(tables, a, b, c, d, conflict)
    else:
        best, cards = _one_rank(tables, a, b, c, d, conflict)
    if not free:
        return best, cards
    w = tables.deadwood_mask(a | b << 13 | c << 26 | d << 39) + penalty
    if w < best:
        return w, group
    if w == best:
        cards |= group
    return best, cards


class FastSeat:
    """One seat's policy and, during a hand, its random stream (``SeededRandom``'s
    splitmix64, reseeded at the start of each hand from the seat seed)."""

    def __init__(self, kind: int, knock_at: int = _ALWAYS, take_chance: float = 0.5, knock_chance: float = 0.5) -> None:
        if kind != SIMPLE and kind != RANDOM:
            raise ValueError(f"unknown fast policy kind {kind}")
        self.kind = kind
        self.knock_at = knock_at
        self.take_chance = take_chance
        self.knock_chance = knock_chance
        self.hi = 0  # the splitmix64 state, high and low 32 bits
        self.lo = 0
        self.zh = 0  # the last output, high and low 32 bits
        self.zl = 0
        self.dw = 0  # the deadwood after the last discard chosen

    # -- SeededRandom, inline ------------------------------------------------------------
    # splitmix64 on two 32-bit halves: every intermediate stays below 2**62, so the
    # compiled module does it in machine words (a 64-bit product would go to big ints)
    def seed(self, seed: int) -> None:
        """Start this seat's stream for a hand: ``SeededRandom(seed)``."""
        self.hi = (seed >> 32) & _M32
        self.lo = seed & _M32

    def _next(self) -> None:
        """Advance the state and leave the next 64-bit output in ``zh``/``zl``."""
        lo = self.lo + _GOLDEN_LO
        hi = self.hi = (self.hi + _GOLDEN_HI + (lo >> 32)) & _M32
        lo = self.lo = lo & _M32
        # z = (s ^ (s >> 30)) * C1
        hi, lo = _mul(hi ^ (hi >> 30), lo ^ (((hi << 2) & _M32) | (lo >> 30)), _C1_HI, _C1_LO)
        # z = (z ^ (z >> 27)) * C2
        hi, lo = _mul(hi ^ (hi >> 27), lo ^ (((hi << 5) & _M32) | (lo >> 27)), _C2_HI, _C2_LO)
        # z ^ (z >> 31)
        self.zl = lo ^ (((hi << 1) & _M32) | (lo >> 31))
        self.zh = hi ^ (hi >> 31)

    def _random(self) -> float:
        self._next()
        return ((self.zh << 21) | (self.zl >> 11)) * (1.0 / 9007199254740992.0)

    def _pick_bit(self, mask: int) -> int:
        """``SeededRandom.pick_bit`` (also ``choice(cards_list(mask))``: one ``below``)."""
        self._next()
        k = card_count(mask)
        zh = self.zh
        zl = self.zl
        # (z * k) >> 64 in 16-bit pieces (see _mul)
        low = (zl & _M16) * k + (((zl >> 16) * k) << 16)
        n = ((zh & _M16) * k + (((zh >> 16) * k) << 16) + (low >> 32)) >> 32
        for _ in range(n):
            mask &= mask - 1
        return (mask & -mask).bit_length() - 1

    # -- the decisions ---------------------------------------------------------------
    def takes(self, up: int, held: int) -> bool:
        if self.kind == RANDOM:
            return self._random() < self.take_chance
        return melds_with_fast(up, held)

    def discard(self, tables: MeldTables, held: int, drawn: int, from_pile: bool, no_back: bool) -> int:
        """The card discarded from the 11 cards ``held``; sets ``self.dw`` for SIMPLE."""
        if self.kind == RANDOM:
            legal = held & ~(1 << drawn) if from_pile and no_back else held
            return self._pick_bit(legal)
        # simple never throws back the upcard it just took, whatever the rules allow
        legal = held & ~(1 << drawn) if from_pile else held
        dw, cards = _best_discard(tables, held)
        cards &= legal
        if not cards:
            deadwood = tables.deadwood_mask
            dw = 1 << 30
            q = legal
            while q:
                low = q & -q
                q ^= low
                v = deadwood(held & ~low)
                if v < dw:
                    dw = v
                    cards = low
                elif v == dw:
                    cards |= low
        self.dw = dw
        if cards & (cards - 1) == 0:
            return cards.bit_length() - 1
        return self._pick_bit(cards)

    def knocks(self, dw: int) -> bool:
        if self.kind == RANDOM:
            return self._random() < self.knock_chance
        return dw <= self.knock_at
