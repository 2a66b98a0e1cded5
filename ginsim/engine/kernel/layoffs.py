"""Lay-offs (R17): the sets of the defender's cards that can go on the knocker's melds,
and the defender's best lay-off among them, in scratch buffers the caller passes.
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import RANK_BITS, count, low_index
from ginsim.engine.kernel.meldsearch import deadwood

LAYOFF_ROOM: Final = 67
"""Scratch ints ``layoff_search`` needs per knocker meld (beyond the melds themselves)."""


def layoff_choices(defender: int, meld: int, max_run: int, buf: list[int], o: int) -> int:
    """The sets of the defender's cards that can be laid off on one knocker meld, into
    ``buf[o:]`` (0 first; room for 64); how many. The fourth card of a group of three,
    and stretches that extend a run at either end (a chain: after 9S goes on 6S-7S-8S, TS
    may follow) within ``max_run`` (-1: no limit)."""
    n = count(meld)
    low = low_index(meld)
    rank_cards = RANK_BITS << (low % 13)
    buf[o] = 0
    k = 1
    if meld & rank_cards == meld:  # a group
        fourth = rank_cards & ~meld & defender
        if n == 3 and fourth:
            buf[o + 1] = fourth
            k = 2
        return k
    lowest = low - low % 13
    room = max_run - n if max_run >= 0 else 13
    below_n = 0
    c = low - 1
    ext = 0
    while c >= lowest and defender >> c & 1 and below_n < room:
        ext |= 1 << c
        buf[o + k] = ext
        k += 1
        below_n += 1
        c -= 1
    above_n = 0
    c = low + n
    ext = 0
    while c <= lowest + 12 and defender >> c & 1 and above_n < room:
        ext |= 1 << c
        buf[o + k] = ext
        k += 1
        above_n += 1
        c += 1
    for i in range(below_n):
        for j in range(above_n):
            both = buf[o + 1 + i] | buf[o + 1 + below_n + j]
            if count(both) <= room:
                buf[o + k] = both
                k += 1
    return k


def attach_cards(buf: list[int], mo: int, nm: int) -> int:
    """Cards that could start a lay-off on the melds ``buf[mo:mo+nm]``: the missing card
    of each group of three and the card just past each end of each run. No lay-off is
    possible without one of them."""
    out = 0
    for i in range(nm):
        meld = buf[mo + i]
        n = count(meld)
        low = low_index(meld)
        rank_cards = RANK_BITS << (low % 13)
        if meld & rank_cards == meld:
            if n == 3:
                out |= rank_cards & ~meld
            continue
        if low % 13:
            out |= 1 << (low - 1)
        high = low + n - 1
        if high % 13 != 12:
            out |= 1 << (high + 1)
    return out


def layoff_search(
    TB: tuple[int, ...],
    defender: int,
    buf: list[int],
    mo: int,
    nm: int,
    max_run: int,
    before: int,
    target: int,
) -> tuple[int, int]:
    """Every set of the defender's cards that can be laid off at once on the knocker's
    melds ``buf[mo:mo+nm]`` (each meld takes one of its ``layoff_choices``, no card
    twice), walked in order (the first meld's choice most significant), with scratch
    ``buf[mo+nm:]`` (``LAYOFF_ROOM`` ints a meld).

    With ``target`` < 0, the defender's best lay-off: the least deadwood after laying off
    and the cards laid off to reach it (ties: the fewest cards, then the first met;
    ``before``: the deadwood with none). Otherwise: (1, 0) when exactly the cards
    ``target`` can be laid off, else (0, 0)."""
    if target < 0 and not defender & attach_cards(buf, mo, nm):
        return before, 0  # no card could start a lay-off
    w = mo + nm  # choices of level i at w + 64 i; their count, index and union so far after
    cnt = w + 64 * nm
    idx = cnt + nm
    acc = idx + nm
    levels = 0
    for i in range(nm):
        k = layoff_choices(defender, buf[mo + i], max_run, buf, w + 64 * levels)
        if k > 1:
            buf[cnt + levels] = k
            levels += 1
    if levels == 0:
        return (1 if target == 0 else 0, 0) if target >= 0 else (before, 0)
    best = before
    best_cards = 0
    best_n = 0
    level = 0
    buf[idx] = 0
    buf[acc] = 0
    while True:
        j = buf[idx + level]
        if j == buf[cnt + level]:  # this level's choices are done
            if level == 0:
                break
            level -= 1
            buf[idx + level] += 1
            continue
        ch = buf[w + 64 * level + j]
        x = buf[acc + level]
        if x & ch:
            buf[idx + level] = j + 1
            continue
        laid = x | ch
        if level + 1 < levels:
            level += 1
            buf[idx + level] = 0
            buf[acc + level] = laid
            continue
        buf[idx + level] = j + 1
        if target >= 0:
            if laid == target:
                return 1, 0
        elif laid:
            v = deadwood(TB, defender & ~laid)
            n = count(laid)
            if v < best or (v == best and best_n and n < best_n):
                best, best_cards, best_n = v, laid, n
    return (0, 0) if target >= 0 else (best, best_cards)
