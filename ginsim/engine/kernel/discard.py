"""The best discard (R11): for a hand of eleven cards, the least deadwood after one
discard and every discard that reaches it, over the meld tables (``kernel.meldsearch``).
"""

from __future__ import annotations

from ginsim.engine.kernel.bits import SUIT, low_index
from ginsim.engine.kernel.meldsearch import BIG, RUNNABLE, deadwood, group_choice, group_count, runs


def _one_rank(TB: tuple[int, ...], a: int, b: int, c: int, d: int, bit: int) -> tuple[int, int]:
    """The best discard when one rank (``bit``) holds 3+ cards a run could use: its cards
    out of a group, in a group, and (with four) each group of three."""
    keep = ~bit
    aq = a & keep
    bq = b & keep
    cq = c & keep
    dq = d & keep
    total, top, cards = runs(TB, a, b, c, d)
    best = total - top
    total, top, m = runs(TB, aq, bq, cq, dq)
    v = total - top
    if v < best:
        best, cards = v, m
    elif v == best:
        cards |= m
    if a & b & c & d & bit:
        for i in range(4):
            total, top, m = runs(TB, a if i == 0 else aq, b if i == 1 else bq, c if i == 2 else cq, d if i == 3 else dq)
            v = total - top
            if v < best:
                best, cards = v, m
            elif v == best:
                cards |= m
    return best, cards


def _group_discard(TB: tuple[int, ...], a: int, b: int, c: int, d: int, ranks: int) -> tuple[int, int]:
    """The best discard over every choice of groups among the ranks that hold 3+ cards a
    run could use (each rank's cards out of a group, in one, or with four each group of
    three); the union of the discards reaching it."""
    rest = a | b << 13 | c << 26 | d << 39
    best = BIG
    best_cards = 0
    four = a & b & c & d
    choices = group_count(ranks, four)
    for k in range(choices):
        r = rest & ~group_choice(rest, ranks, four, k, choices)
        total, top, cards = runs(TB, r & SUIT, r >> 13 & SUIT, r >> 26 & SUIT, r >> 39)
        v = total - top
        if v < best:
            best, best_cards = v, cards
        elif v == best:
            best_cards |= cards
    return best, best_cards


def best_discard(TB: tuple[int, ...], h: int) -> tuple[int, int]:
    """For a hand that must discard one card: the least deadwood after the discard and
    the mask of every discard that reaches it."""
    a = h & SUIT
    b = h >> 13 & SUIT
    c = h >> 26 & SUIT
    d = h >> 39
    t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
    if not t3:
        total, top, cards = runs(TB, a, b, c, d)
        return total - top, cards
    # Groups no run could use ("free") are kept whole: the best discard is then from the
    # rest, or a card of a free group (from four at no cost, from three leaving two
    # deadwood cards of its value).
    free = t3 & ~(TB[RUNNABLE + a] | TB[RUNNABLE + b] | TB[RUNNABLE + c] | TB[RUNNABLE + d])
    conflict = t3 ^ free
    penalty = 0
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
            r = low_index(low)
            penalty = 2 * (r + 1 if r < 9 else 10)
            ranks = free & (low if r < 9 else 0x1E00)  # the ranks of the same value
    group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
    if not conflict:
        total, top, cards = runs(TB, a, b, c, d)
        if penalty > -top:
            return total - top, cards
        if penalty < -top:
            return total + penalty, group
        return total - top, cards | group
    if conflict & (conflict - 1):
        best, cards = _group_discard(TB, a, b, c, d, conflict)
    else:
        best, cards = _one_rank(TB, a, b, c, d, conflict)
    if not free:
        return best, cards
    w = deadwood(TB, a | b << 13 | c << 26 | d << 39) + penalty
    if w < best:
        return w, group
    if w == best:
        cards |= group
    return best, cards


def least_discards(TB: tuple[int, ...], held: int, legal: int) -> tuple[int, int]:
    """Among the discards ``legal`` from ``held``, one by one: the least deadwood after
    the discard and every discard that reaches it (for when ``best_discard``'s are barred)."""
    best = BIG
    cards = 0
    q = legal
    while q:
        low = q & -q
        q ^= low
        v = deadwood(TB, held & ~low)
        if v < best:
            best, cards = v, low
        elif v == best:
            cards |= low
    return best, cards
