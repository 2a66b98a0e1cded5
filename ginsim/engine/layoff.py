"""Lay-offs (R17): the defender's best choice of own melds and lay-offs together.

The knocker's melds fix where cards can go: the fourth card of a group of three, and
stretches of the defender's cards that extend a run at either end (a chain: after 9S goes
on 6S-7S-8S, TS may follow). Each meld offers a few choices; the defender's deadwood for a
set of laid-off cards is just the deadwood of the rest, so trying every compatible
combination of choices is exact, and there are rarely more than a few dozen.
"""

from __future__ import annotations

from collections.abc import Sequence

from ginsim.engine.cards import RANK_MASK, RANK_OF, SUIT_OF, Mask
from ginsim.engine.melds import MeldTables


def layoff_choices(defender: Mask, meld: Mask, max_run_length: int | None) -> list[Mask]:
    """The sets of the defender's cards that can be laid off on one knocker meld (0 first)."""
    n = meld.bit_count()
    low = (meld & -meld).bit_length() - 1
    rank_cards = RANK_MASK[RANK_OF[low]]
    if meld & rank_cards == meld:  # a group
        fourth = rank_cards & ~meld & defender
        return [0, fourth] if n == 3 and fourth else [0]
    suit = SUIT_OF[low]
    first = low  # card ints: a run is consecutive bits inside one suit field
    last = low + n - 1
    lowest = suit * 13
    highest = lowest + 12
    room = (max_run_length - n) if max_run_length is not None else 13
    below: list[Mask] = []
    c = first - 1
    ext = 0
    while c >= lowest and defender >> c & 1 and len(below) < room:
        ext |= 1 << c
        below.append(ext)
        c -= 1
    above: list[Mask] = []
    c = last + 1
    ext = 0
    while c <= highest and defender >> c & 1 and len(above) < room:
        ext |= 1 << c
        above.append(ext)
        c += 1
    out = [0, *below, *above]
    for lo_ext in below:
        for hi_ext in above:
            if (lo_ext | hi_ext).bit_count() <= room:
                out.append(lo_ext | hi_ext)
    return out


def attach_mask(knocker_melds: Sequence[Mask]) -> Mask:
    """Cards that could start a lay-off: the missing card of each group of three and the
    card just past each end of each run. No lay-off is possible without one of them."""
    out = 0
    for meld in knocker_melds:
        n = meld.bit_count()
        low = (meld & -meld).bit_length() - 1
        rank_cards = RANK_MASK[RANK_OF[low]]
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


def best_layoff(
    defender: Mask, knocker_melds: Sequence[Mask], tables: MeldTables, before: int | None = None
) -> tuple[int, Mask]:
    """The defender's least deadwood after laying off, and the cards laid off to reach it
    (ties: the fewest cards, then the first found). ``before``, the defender's deadwood
    without lay-offs, saves a computation when the caller has it."""
    deadwood = tables.deadwood_mask
    best = deadwood(defender) if before is None else before
    if not defender & attach_mask(knocker_melds):
        return best, 0
    best_cards = 0
    per_meld = []
    for meld in knocker_melds:
        choices = layoff_choices(defender, meld, tables.max_run_length)
        if len(choices) > 1:
            per_meld.append(choices)
    combos = [0]
    for choices in per_meld:
        combos = [x | ch for x in combos for ch in choices if not x & ch]
    for laid in combos:
        if laid:
            v = deadwood(defender & ~laid)
            if v < best or (v == best and laid.bit_count() < best_cards.bit_count()):
                best, best_cards = v, laid
    return best, best_cards


def layoff_is_legal(laid: Mask, knocker_melds: Sequence[Mask], tables: MeldTables) -> bool:
    """Whether the cards ``laid`` can all be laid off on the knocker's melds at once."""
    per_meld = [layoff_choices(laid, meld, tables.max_run_length) for meld in knocker_melds]
    combos = [0]
    for choices in per_meld:
        combos = [x | ch for x in combos for ch in choices if not x & ch]
    return laid in combos
