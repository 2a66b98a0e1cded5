"""Melds and deadwood (R04-R07) over the meld tables: a hand's least deadwood, its
melds, and whether a card would meld.

The tables (``MeldTables.flat``, built once per ``max_run_length`` in
``ginsim.engine.melds``) are one flat array ``TB`` indexed by 13-bit suit patterns p: at 0
the least run-only deadwood of p; at ``RUNNABLE`` its cards that lie in a stretch of three
or more (so may join a run); at ``_P`` its run deadwood (bits 0-7), the most one removal
saves offset by 1024 (8-18) and that removal's cards (19-31), one lookup a suit; at
``_DELTA + 8192 r`` the run deadwood saved when p's rank-r card leaves it; at ``_COVER + 4p``
the runs of p's least cover (up to four, 0 after the last). Runs live inside one suit, so
the tables finish every suit; the few ranks with three or more cards decide the groups.
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import RANK_BITS, SUIT, low_index

RUNNABLE: Final = 8192
_P: Final = 2 * 8192
_DELTA: Final = 3 * 8192
_COVER: Final = 16 * 8192
TABLES_SIZE: Final = 20 * 8192
BIG: Final = 1 << 30
"""More deadwood than any hand holds: where a search for the least starts."""


def melds_with(card: int, hand: int) -> bool:
    """Whether ``card`` added to ``hand`` lies in some meld of the result (a group of 3+
    or a run of 3+, R04-R05)."""
    h = hand | 1 << card
    rank = card % 13
    x = h >> rank
    if (x & 1) + (x >> 13 & 1) + (x >> 26 & 1) + (x >> 39 & 1) >= 3:
        return True
    p = h >> (card - rank) & SUIT
    three = p & (p >> 1) & (p >> 2)
    return (three | three << 1 | three << 2) >> rank & 1 != 0


def runs(TB: tuple[int, ...], a: int, b: int, c: int, d: int) -> tuple[int, int, int]:
    """Suit patterns a..d finished with runs only: their run deadwood, the most one
    discard saves and the discards that save it (the packed table: one lookup a suit)."""
    pa = TB[_P + a]
    pb = TB[_P + b]
    pc = TB[_P + c]
    pd = TB[_P + d]
    ga = (pa >> 8 & 2047) - 1024
    gb = (pb >> 8 & 2047) - 1024
    gc = (pc >> 8 & 2047) - 1024
    gd = (pd >> 8 & 2047) - 1024
    top = ga
    if gb > top:
        top = gb
    if gc > top:
        top = gc
    if gd > top:
        top = gd
    cards = 0
    if ga == top:
        cards = pa >> 19
    if gb == top:
        cards |= (pb >> 19) << 13
    if gc == top:
        cards |= (pc >> 19) << 26
    if gd == top:
        cards |= (pd >> 19) << 39
    return (pa & 255) + (pb & 255) + (pc & 255) + (pd & 255), top, cards


def runs_only(TB: tuple[int, ...], h: int) -> int:
    """Least deadwood of a hand using runs only."""
    return TB[h & SUIT] + TB[h >> 13 & SUIT] + TB[h >> 26 & SUIT] + TB[h >> 39]


def group_count(ranks: int, four: int) -> int:
    """How many choices of groups there are among ``ranks`` (bits): per rank none or all
    its cards, and for ranks in ``four`` each three of its four as well."""
    n = 1
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        n *= 6 if four & low else 2
    return n


def group_choice(rest: int, ranks: int, four: int, k: int, total: int) -> int:
    """The ``k``-th of the ``total`` choices of groups among ``ranks`` of ``rest`` (the
    cards grouped), lowest rank most significant: per rank none, all its cards, then
    without its lowest card, its second lowest, ... Computed, not listed."""
    x = 0
    div = total
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        m = 6 if four & low else 2
        div //= m
        opt = (k // div) % m
        if opt:
            g = rest & RANK_BITS << low_index(low)
            if opt == 1:
                x |= g
            else:
                q = g
                for _ in range(opt - 2):
                    q &= q - 1
                x |= g ^ (q & -q)
    return x


def deadwood(TB: tuple[int, ...], h: int) -> int:
    """Least deadwood of a hand mask (R07)."""
    a = h & SUIT
    b = h >> 13 & SUIT
    c = h >> 26 & SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
    if not t3:
        return TB[a] + TB[b] + TB[c] + TB[d]
    if t3 & (t3 - 1):
        # several such ranks: a group no run could use is simply kept whole
        free = t3 & ~(TB[RUNNABLE + a] | TB[RUNNABLE + b] | TB[RUNNABLE + c] | TB[RUNNABLE + d])
        if free:
            keep = ~free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            t3 ^= free
            if not t3:
                return TB[a] + TB[b] + TB[c] + TB[d]
        if t3 & (t3 - 1):
            rest = a | b << 13 | c << 26 | d << 39
            four = a & b & c & d
            total = group_count(t3, four)
            best = BIG
            for k in range(total):
                v = runs_only(TB, rest & ~group_choice(rest, t3, four, k, total))
                if v < best:
                    best = v
            return best
    # one rank with 3+ cards: the savings of moving each card into the group add up
    base = _DELTA + 8192 * low_index(t3)
    da = TB[base + a]
    db = TB[base + b]
    dc = TB[base + c]
    dd = TB[base + d]
    save = da + db + dc + dd
    if a & b & c & d & t3:
        low = min(da, db, dc, dd)
        if low < 0:
            save -= low  # a group of three, leaving the card a run needs
    return TB[a] + TB[b] + TB[c] + TB[d] - (save if save > 0 else 0)


def best_melds(TB: tuple[int, ...], h: int, buf: list[int], o: int) -> tuple[int, int]:
    """A least-deadwood arrangement of ``h``: its melds (masks) into ``buf[o:o+n]`` (room
    for 18), and (n, its deadwood). Deterministic: a group no run could use is kept whole;
    among the other choices of groups the first of least run deadwood (``group_choice``'s
    order); then each suit's runs (its pattern's least cover), then the groups by their
    lowest card."""
    a = h & SUIT
    b = h >> 13 & SUIT
    c = h >> 26 & SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)
    groups = 0
    if t3:
        free = t3 & ~(TB[RUNNABLE + a] | TB[RUNNABLE + b] | TB[RUNNABLE + c] | TB[RUNNABLE + d])
        groups = h & (free | free << 13 | free << 26 | free << 39)
        conflict = t3 & ~free
        if conflict:
            rest = h & ~groups
            four = (rest & SUIT) & (rest >> 13 & SUIT) & (rest >> 26 & SUIT) & (rest >> 39)
            total = group_count(conflict, four)
            best = BIG
            best_g = 0
            for k in range(total):
                g = group_choice(rest, conflict, four, k, total)
                v = runs_only(TB, rest & ~g)
                if v < best:
                    best, best_g = v, g
            groups |= best_g
    rest = h & ~groups
    n = 0
    for suit in range(4):
        base = 4 * (rest >> (13 * suit) & SUIT)
        for j in range(4):
            run = TB[_COVER + base + j]
            if run == 0:
                break
            buf[o + n] = run << (13 * suit)
            n += 1
    while groups:
        grp = groups & RANK_BITS << (low_index(groups) % 13)
        buf[o + n] = grp
        n += 1
        groups &= ~grp
    return n, runs_only(TB, rest)
