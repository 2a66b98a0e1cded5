"""A slow, independent brute-force reference for melds, deadwood, discards and lay-offs.

Written straight from RULES.md (R01, R02, R04-R07, R17) and deliberately sharing nothing
with ``ginsim``: no tables, no per-suit tricks. Cards are ints 0..51, ``suit * 13 + rank``
with rank 0 = ace .. 12 = king (ace low only); a card's value is ``min(rank + 1, 10)``.
A hand (or any set of cards) is an int mask with bit ``c`` set for each card ``c``.

The searches are exhaustive; they are only organised so they finish in reasonable time:

* deadwood: the lowest card of what is left is either unmelded or in exactly one meld,
  and that meld then has it as its own lowest card. Trying both, for every meld that
  starts at that card, visits every arrangement of disjoint melds (memoised on the set
  of cards left, per hand).
* lay-offs: a card can only ever be laid off on a knocker meld of its own suit (a run) or
  on a three-card group of its own rank, so only such cards are considered; every subset
  of them is tried, each checked by brute force for whether it can be split among the
  knocker's melds so that each meld plus its share is still a valid meld.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

RANK_TEXT = "A23456789TJQK"
SUIT_TEXT = "CDHS"


def rank(c: int) -> int:
    return c % 13


def suit(c: int) -> int:
    return c // 13


def value(c: int) -> int:
    """R02: ace 1, two to ten face value, jack, queen and king 10."""
    return min(rank(c) + 1, 10)


def cards(mask: int) -> list[int]:
    """The cards of a mask in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cs: Iterable[int]) -> int:
    m = 0
    for c in cs:
        assert 0 <= c < 52 and not m >> c & 1, f"bad or repeated card {c}"
        m |= 1 << c
    return m


def name(c: int) -> str:
    return RANK_TEXT[rank(c)] + SUIT_TEXT[suit(c)]


def names(mask: int) -> str:
    return " ".join(name(c) for c in cards(mask))


def parse(text: str) -> int:
    """``"7H 8H 9H KS"`` as a mask (plain two-character tokens only; for test data)."""
    m = 0
    for tok in text.split():
        c = SUIT_TEXT.index(tok[1].upper()) * 13 + RANK_TEXT.index(tok[0].upper())
        assert not m >> c & 1, f"repeated card {tok}"
        m |= 1 << c
    return m


def total_value(mask: int) -> int:
    return sum(value(c) for c in cards(mask))


def submasks(mask: int) -> Iterator[int]:
    """Every subset of a mask, the empty one included."""
    s = mask
    while True:
        yield s
        if s == 0:
            return
        s = (s - 1) & mask


# -- melds (R04, R05) ----------------------------------------------------------------


def is_group(m: int) -> bool:
    """R04: 3 or 4 cards of one rank."""
    cs = cards(m)
    return 3 <= len(cs) <= 4 and len({rank(c) for c in cs}) == 1


def is_run(m: int, max_run_length: int | None = None) -> bool:
    """R05: 3 or more cards of one suit in consecutive rank (ace low, no wrap: ranks live
    in 0..12 of one suit), at most ``max_run_length`` cards when that is set."""
    cs = cards(m)
    if len(cs) < 3 or len({suit(c) for c in cs}) != 1:
        return False
    if max_run_length is not None and len(cs) > max_run_length:
        return False
    rs = sorted(rank(c) for c in cs)
    return rs == list(range(rs[0], rs[0] + len(rs)))


def is_meld(m: int, max_run_length: int | None = None) -> bool:
    return is_group(m) or is_run(m, max_run_length)


def all_melds(hand: int, max_run_length: int | None = None) -> list[int]:
    """Every valid meld made of cards of ``hand``: each group of 3 or 4 of a rank (so all
    four 3-subsets of a 4 as well as the 4), and every run of 3+ consecutive cards of a
    suit (no longer than ``max_run_length`` when set)."""
    out: list[int] = []
    for r in range(13):
        held = [s * 13 + r for s in range(4) if hand >> (s * 13 + r) & 1]
        for k in (3, 4):
            for combo in combinations(held, k):
                out.append(mask_of(combo))
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                length = hi - lo + 1
                if max_run_length is not None and length > max_run_length:
                    break
                run = mask_of(s * 13 + r for r in range(lo, hi + 1))
                if run & hand != run:
                    break  # a missing card: no longer run from lo either
                out.append(run)
    return out


def all_melds_by_subsets(hand: int, max_run_length: int | None = None) -> list[int]:
    """The same set as ``all_melds``, found the dumbest way: every subset tested with
    ``is_meld`` (exponential: for small hands, to check ``all_melds`` itself)."""
    return [m for m in submasks(hand) if is_meld(m, max_run_length)]


# -- deadwood (R06, R07) ---------------------------------------------------------------


class Solver:
    """Exhaustive least deadwood for ``hand`` and any subset of it, memoised."""

    def __init__(self, hand: int, max_run_length: int | None = None) -> None:
        self.hand = hand
        self.max_run_length = max_run_length
        self.by_lowest: dict[int, list[int]] = {}
        for m in all_melds(hand, max_run_length):
            low = (m & -m).bit_length() - 1
            self.by_lowest.setdefault(low, []).append(m)
        self.memo: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}

    def solve(self, rest: int) -> tuple[int, tuple[int, ...]]:
        """(least deadwood of ``rest``, disjoint melds reaching it); rest must lie in hand."""
        assert rest & ~self.hand == 0
        got = self.memo.get(rest)
        if got is not None:
            return got
        low = rest & -rest
        c = low.bit_length() - 1
        # c unmelded ...
        dw, melds = self.solve(rest ^ low)
        best = (dw + value(c), melds)
        # ... or c in a meld; c is the least card left, so it is that meld's least card
        for m in self.by_lowest.get(c, ()):
            if m & rest == m:
                dw, melds = self.solve(rest & ~m)
                if dw < best[0]:
                    best = (dw, (m, *melds))
        self.memo[rest] = best
        return best

    def deadwood(self, rest: int | None = None) -> int:
        return self.solve(self.hand if rest is None else rest)[0]


def ref_deadwood(hand: int, max_run_length: int | None = None) -> int:
    """R07: the least total value of unmelded cards over all sets of disjoint melds."""
    return Solver(hand, max_run_length).deadwood()


def ref_best_melds(hand: int, max_run_length: int | None = None) -> tuple[int, tuple[int, ...]]:
    """One least-deadwood arrangement: (deadwood, melds)."""
    return Solver(hand, max_run_length).solve(hand)


def ref_best_discard(hand: int, max_run_length: int | None = None) -> tuple[int, int]:
    """For a hand that must discard one card: (least deadwood after the discard, mask of
    every card whose discard reaches it)."""
    assert hand, "nothing to discard"
    solver = Solver(hand, max_run_length)
    after = {c: solver.deadwood(hand & ~(1 << c)) for c in cards(hand)}
    best = min(after.values())
    return best, mask_of(c for c, v in after.items() if v == best)


# -- lay-offs (R17) --------------------------------------------------------------------


def can_extend(meld: int, extra: int, max_run_length: int | None = None) -> bool:
    """Whether the cards ``extra`` can all be laid off on the one meld ``meld``: the 4th
    card on a group of 3, or cards extending a run at either end one after another. That
    is exactly: meld + extra is itself a valid meld (each step of laying them off outward
    from the run is a shorter valid run)."""
    if extra == 0:
        return True
    if extra & meld:
        return False
    return is_meld(meld | extra, max_run_length)


def can_lay_off(laid: int, knocker_melds: Sequence[int], max_run_length: int | None = None) -> bool:
    """Whether all of ``laid`` can be laid off at once: try every way to hand each meld a
    subset of the cards (the melds taking disjoint shares that use up all of them). A
    meld's share is drawn only from the cards of its suit (run) or rank (group): no other
    card can make it a longer meld."""
    if not knocker_melds:
        return laid == 0
    first, rest = knocker_melds[0], knocker_melds[1:]
    for share in submasks(layoff_candidates(laid, [first])):
        if can_extend(first, share, max_run_length) and can_lay_off(laid & ~share, rest, max_run_length):
            return True
    return False


def layoff_candidates(defender: int, knocker_melds: Sequence[int]) -> int:
    """Defender cards that could conceivably be laid off: same suit as a knocker run, or
    the missing rank card of a knocker group of three. (A card of any other suit/rank
    can never make meld + cards a valid meld.)"""
    out = 0
    for m in knocker_melds:
        cs = cards(m)
        if is_group(m):
            if len(cs) == 3:
                out |= defender & mask_of(s * 13 + rank(cs[0]) for s in range(4))
        else:
            out |= defender & mask_of(suit(cs[0]) * 13 + r for r in range(13))
    return out


def layable_sets(defender: int, knocker_melds: Sequence[int], max_run_length: int | None = None) -> set[int]:
    """Every set of defender cards that can be laid off at once (the empty set included):
    per meld, every subset of the candidates it accepts; then every combination of one
    disjoint choice per meld."""
    cand = layoff_candidates(defender, knocker_melds)
    reachable = {0}
    for m in knocker_melds:
        shares = [s for s in submasks(cand) if can_extend(m, s, max_run_length)]
        reachable = {x | s for x in reachable for s in shares if not x & s}
    return reachable


def ref_best_layoff(
    defender: int, knocker_melds: Sequence[int], max_run_length: int | None = None
) -> tuple[int, set[int]]:
    """R17: the defender's least deadwood over every choice of lay-offs together with its
    own melds of the rest; and every laid-off set reaching it.

    Enumerates every subset of the candidate cards, keeps those that ``can_lay_off``
    accepts, and takes the least exhaustive deadwood of what remains."""
    solver = Solver(defender, max_run_length)
    cand = layoff_candidates(defender, knocker_melds)
    results: dict[int, int] = {}
    for laid in submasks(cand):
        if can_lay_off(laid, knocker_melds, max_run_length):
            results[laid] = solver.deadwood(defender & ~laid)
    best = min(results.values())
    return best, {laid for laid, v in results.items() if v == best}


def ref_best_layoff_fast(
    defender: int, knocker_melds: Sequence[int], max_run_length: int | None = None
) -> tuple[int, set[int]]:
    """The same answer as ``ref_best_layoff``, enumerating the layable sets per meld
    (``layable_sets``) instead of testing every subset; for the big runs."""
    solver = Solver(defender, max_run_length)
    layable = layable_sets(defender, knocker_melds, max_run_length)
    results = {laid: solver.deadwood(defender & ~laid) for laid in layable}
    best = min(results.values())
    return best, {laid for laid, v in results.items() if v == best}
