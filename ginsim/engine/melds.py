"""Exact melds and deadwood (R04-R07), table-driven.

Runs live inside one suit, so every 13-bit suit pattern gets its run-only deadwood from a
table built once. Groups cross suits, but a hand has at most three ranks with three or
more cards, so the few ways to use them are enumerated and each is finished with the
per-suit tables. With one such rank (the usual case) the savings of moving each of its
cards from its suit into the group simply add up, so no enumeration is needed at all.

This module builds those tables (``MeldTables``, once per ``max_run_length``) as the one
flat array the kernel computes on (its layout: ``ginsim.engine.kernel.meldsearch``); the
arithmetic itself is the kernel's. The ``*_mask`` functions take and return raw masks and
are the hot path; ``deadwood`` and ``best_melds`` are the wrappers that accept card text too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

from ginsim.engine.cards import RANK_MASK, RANK_OF, SUIT_OF, Card, Mask, cards_of, to_mask
from ginsim.engine.guard import safe_repr
from ginsim.engine.kernel import discard, meldsearch
from ginsim.errors import IllegalMoveError

_NO_CARD: Final = -1000  # gain of removing a card from an empty suit: never the best
_VALUES: Final = tuple(min(r + 1, 10) for r in range(13))


def _suit_values() -> tuple[int, ...]:
    out = [0] * 8192
    for p in range(1, 8192):
        low = (p & -p).bit_length() - 1
        out[p] = out[p & (p - 1)] + _VALUES[low]
    return tuple(out)


SUIT_VALUE: Final[tuple[int, ...]] = _suit_values()
"""Point value of the cards of a 13-bit suit pattern."""


def _segments(p: int) -> list[tuple[int, int]]:
    """Maximal stretches of consecutive set bits of a 13-bit pattern, as (start, length)."""
    out = []
    r = 0
    while r < 13:
        if p >> r & 1:
            s = r
            while r < 13 and p >> r & 1:
                r += 1
            out.append((s, r - s))
        else:
            r += 1
    return out


def _cover(start: int, length: int, max_len: int) -> tuple[int, tuple[int, ...]]:
    """Cut a stretch of consecutive ranks into runs of 3..max_len cards leaving the least
    value over: that value and the runs as 13-bit patterns."""
    best: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for i in range(1, length + 1):
        cand = (best[i - 1][0] + _VALUES[start + i - 1], best[i - 1][1])
        for k in range(3, min(max_len, i) + 1):
            prev = best[i - k]
            if prev[0] < cand[0]:
                cand = (prev[0], prev[1] + (((1 << k) - 1) << (start + i - k),))
        best.append(cand)
    return best[length]


class Melds(NamedTuple):
    """A hand's best arrangement: the melds (masks) and the deadwood left over."""

    melds: tuple[Mask, ...]
    deadwood: int

    def as_text(self) -> list[list[str]]:
        """The melds as card text: ``[["7H", "8H", "9H"], ["7C", "7D", "7S"]]``."""
        from ginsim.engine.cards import CARD_NAMES, sort_key

        return [[CARD_NAMES[c] for c in sorted(cards_of(m), key=sort_key)] for m in self.melds]


class MeldTables:
    """The per-suit tables for one ``max_run_length`` (None: runs of any length), as the
    one flat array the kernel computes on (``flat``: its layout is ``kernel.meldsearch``'s), and the
    hot functions bound to it. Get one with ``tables_for``."""

    deadwood_mask: Callable[[Mask], int]
    best_discard_mask: Callable[[Mask], tuple[int, Mask]]
    flat: tuple[int, ...]
    max_run: int

    def __init__(self, max_run_length: int | None, source: MeldTables | None = None) -> None:
        self.max_run_length = max_run_length
        self.max_run = -1 if max_run_length is None else max_run_length
        if source is not None:  # a copy sharing the (immutable) tables: see copy()
            self.flat = source.flat
            self.deadwood_mask = source.deadwood_mask
            self.best_discard_mask = source.best_discard_mask
            return
        T, RN, RUNS = _run_tables(max_run_length or 13)
        G, GC = _removal_tables(T)
        if max(T) > 255 or not -1024 <= min(G) <= max(G) < 1024:  # pragma: no cover
            raise ValueError("melds: a table value does not fit its packed field")
        packed = [T[p] | (G[p] + 1024) << 8 | GC[p] << 19 for p in range(8192)]
        delta = [T[p] - T[p & ~(1 << r)] for r in range(13) for p in range(8192)]
        cover = [run for runs in RUNS for run in (*runs, 0, 0, 0, 0)[:4]]
        self.flat = TB = tuple(T + RN + packed + delta + cover)
        assert len(TB) == meldsearch.TABLES_SIZE

        def deadwood_mask(h: Mask) -> int:
            """Least deadwood of a hand mask (R07)."""
            return meldsearch.deadwood(TB, h)

        def best_discard_mask(h: Mask) -> tuple[int, Mask]:
            """For a hand that must discard one card: the least deadwood after the discard
            and the mask of every discard that reaches it."""
            return discard.best_discard(TB, h)

        self.deadwood_mask = deadwood_mask
        self.best_discard_mask = best_discard_mask

    def copy(self) -> MeldTables:
        """A copy of these tables whose attributes can be replaced without touching the
        original: what a view holds, so a strategy that rebinds ``deadwood_mask`` on its
        view's tables changes its own helpers and nothing the engine scores with."""
        return MeldTables(self.max_run_length, self)

    def best_melds_mask(self, h: Mask) -> Melds:
        """The melds and deadwood of a least-deadwood arrangement of h (``kernel.meldsearch.best_melds``)."""
        buf = [0] * 18  # no hand holds more melds
        n, dw = meldsearch.best_melds(self.flat, h, buf, 0)
        return Melds(tuple(buf[:n]), dw)

    def is_meld(self, m: Mask) -> bool:
        """A group of 3-4 cards of one rank (R04) or a run of 3+ consecutive cards of one
        suit within ``max_run_length`` (R05)."""
        n = m.bit_count()
        if n < 3:
            return False
        low = (m & -m).bit_length() - 1
        if n <= 4 and m & RANK_MASK[RANK_OF[low]] == m:
            return True
        if self.max_run_length is not None and n > self.max_run_length:
            return False
        run = ((1 << n) - 1) << low
        return m == run and SUIT_OF[low] == SUIT_OF[low + n - 1]

    def check_melds(self, hand: Mask, melds: Iterable[Mask]) -> int:
        """Validate a shown arrangement of hand (each a meld, disjoint, held); return its
        deadwood. Raise IllegalMoveError saying what is wrong."""
        from ginsim.engine.cards import format_cards

        used = 0
        try:
            melds = list(melds)
        except TypeError:
            raise IllegalMoveError("melds must be a list of card masks") from None
        for m in melds:
            if type(m) is not int or m < 0 or m >> 52:
                raise IllegalMoveError(f"a meld must be a card mask (bits 0..51), not {safe_repr(m)}")
            if m & ~hand:
                raise IllegalMoveError(f"meld {format_cards(m)} uses cards not in the hand")
            if m & used:
                raise IllegalMoveError(f"meld {format_cards(m)} shares a card with another meld")
            if not self.is_meld(m):
                raise IllegalMoveError(f"{format_cards(m)} is not a meld")
            used |= m
        return sum(_VALUES[RANK_OF[c]] for c in cards_of(hand & ~used))


_TABLES: Final[dict[int | None, MeldTables]] = {}


def _run_tables(max_len: int) -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """Per suit pattern (13 bits): the least run-only deadwood, the cards that lie in a
    stretch of 3+ (so may join a run), and the runs of that least cover."""
    cover_cache: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
    T = [0] * 8192  # least run-only deadwood of a suit pattern
    RN = [0] * 8192  # cards of a pattern that lie in a stretch of 3+, so may join a run
    RUNS: list[tuple[int, ...]] = [()] * 8192  # the runs of that least cover
    for p in range(8192):
        three = p & (p >> 1) & (p >> 2)
        run_cards = three | (three << 1) | (three << 2)
        RN[p] = run_cards
        cost = SUIT_VALUE[p & ~run_cards]
        if run_cards:
            runs: tuple[int, ...] = ()
            for seg in _segments(run_cards):
                if seg not in cover_cache:
                    cover_cache[seg] = _cover(seg[0], seg[1], max_len)
                left, seg_runs = cover_cache[seg]
                cost += left
                runs += seg_runs
            RUNS[p] = runs
        T[p] = cost
    return T, RN, RUNS


def _removal_tables(T: list[int]) -> tuple[list[int], list[int]]:
    """Per suit pattern: the run deadwood saved by the best single removal (may be < 0)
    and the cards whose removal saves that much."""
    G = [_NO_CARD] * 8192  # run deadwood saved by the best single removal (may be < 0)
    GC = [0] * 8192  # the cards whose removal saves that much
    for p in range(1, 8192):
        best = 1 << 30
        cards = 0
        q = p
        while q:
            low = q & -q
            q ^= low
            d = T[p ^ low]
            if d < best:
                best, cards = d, low
            elif d == best:
                cards |= low
        G[p] = T[p] - best
        GC[p] = cards
    return G, GC


def tables_for(max_run_length: int | None = None) -> MeldTables:
    """The meld tables for a ``max_run_length`` rule (built once, then cached)."""
    t = _TABLES.get(max_run_length)
    if t is None:
        t = _TABLES[max_run_length] = MeldTables(max_run_length)
    return t


DEFAULT_TABLES = tables_for(None)
deadwood_mask = DEFAULT_TABLES.deadwood_mask
best_discard_mask = DEFAULT_TABLES.best_discard_mask


def deadwood(hand: str | Mask | Iterable[Card | str], max_run_length: int | None = None) -> int:
    """Least deadwood of a hand (R07): ``deadwood("7H 8H 9H KS") == 10``."""
    return tables_for(max_run_length).deadwood_mask(to_mask(hand))


def best_melds(hand: str | Mask | Iterable[Card | str], max_run_length: int | None = None) -> Melds:
    """The melds (masks) and deadwood of a least-deadwood arrangement of a hand."""
    return tables_for(max_run_length).best_melds_mask(to_mask(hand))


def best_discards(hand: str | Mask | Iterable[Card | str], max_run_length: int | None = None) -> tuple[int, Mask]:
    """For an 11-card hand: the least deadwood after one discard and the mask of the
    discards that reach it."""
    return tables_for(max_run_length).best_discard_mask(to_mask(hand))
