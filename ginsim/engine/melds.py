"""Exact melds and deadwood (R04-R07), table-driven.

Runs live inside one suit, so every 13-bit suit pattern gets its run-only deadwood from a
table built once. Groups cross suits, but a hand has at most three ranks with three or
more cards, so the few ways to use them are enumerated and each is finished with the
per-suit tables. With one such rank (the usual case) the savings of moving each of its
cards from its suit into the group simply add up, so no enumeration is needed at all.

The ``*_mask`` functions take and return raw masks and are the hot path; ``deadwood`` and
``best_melds`` are the friendly wrappers that accept card text too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Final, NamedTuple

from ginsim.engine.cards import RANK_MASK, RANK_OF, SUIT_OF, Card, Mask, cards_of, to_mask
from ginsim.engine.guard import safe_repr
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


def _group_options() -> dict[Mask, tuple[Mask, ...]]:
    """For the 3 or 4 cards of one rank in a hand: each way to use them as a group (0: none)."""
    opts: dict[Mask, tuple[Mask, ...]] = {}
    for r in range(13):
        cards = [s * 13 + r for s in range(4)]
        for three in combinations(cards, 3):
            m = sum(1 << c for c in three)
            opts[m] = (0, m)
        full = RANK_MASK[r]
        opts[full] = (0, full, *(full & ~(1 << c) for c in cards))
    return opts


GROUP_OPTIONS: Final = _group_options()
VALUE_OF_BIT: Final = {1 << r: _VALUES[r] for r in range(13)}
"""Value of the rank whose bit is given."""
SAME_VALUE_UP: Final = {1 << r: (1 << r) if r < 9 else 0x1E00 for r in range(13)}
"""The ranks of the same value as the given rank bit (ten to king share 10)."""


class Melds(NamedTuple):
    """A hand's best arrangement: the melds (masks) and the deadwood left over."""

    melds: tuple[Mask, ...]
    deadwood: int

    def as_text(self) -> list[list[str]]:
        """The melds as card text: ``[["7H", "8H", "9H"], ["7C", "7D", "7S"]]``."""
        from ginsim.engine.cards import CARD_NAMES, sort_key

        return [[CARD_NAMES[c] for c in sorted(cards_of(m), key=sort_key)] for m in self.melds]


class MeldTables:
    """The per-suit tables for one ``max_run_length`` (None: runs of any length) and the
    hot functions built on them. Get one with ``tables_for``."""

    deadwood_mask: Callable[[Mask], int]
    best_discard_mask: Callable[[Mask], tuple[int, Mask]]
    runs_only: Callable[[Mask], int]
    group_choices: Callable[[Mask, int], list[Mask]]
    run_deadwood: tuple[int, ...]
    runnable: tuple[int, ...]
    suit_runs: tuple[tuple[int, ...], ...]
    placed_runs: tuple[tuple[tuple[int, ...], ...], ...]
    gain: tuple[int, ...]
    gain_cards: tuple[int, ...]

    def __init__(self, max_run_length: int | None, source: MeldTables | None = None) -> None:
        self.max_run_length = max_run_length
        if source is not None:  # a copy sharing the (immutable) tables: see copy()
            self.run_deadwood = source.run_deadwood
            self.runnable = source.runnable
            self.suit_runs = source.suit_runs
            self.placed_runs = source.placed_runs
            self.gain = source.gain
            self.gain_cards = source.gain_cards
            self.runs_only = source.runs_only
            self.group_choices = source.group_choices
            self.deadwood_mask = source.deadwood_mask
            self.best_discard_mask = source.best_discard_mask
            return
        T, RN, RUNS = _run_tables(max_run_length or 13)
        G, GC = _removal_tables(T)
        self.run_deadwood = T_ = tuple(T)
        self.runnable = RN_ = tuple(RN)
        self.suit_runs = tuple(RUNS)
        # the same runs placed in each suit's field of a hand mask
        self.placed_runs = tuple(tuple(tuple(r << (13 * suit) for r in runs) for runs in RUNS) for suit in range(4))
        self.gain = G_ = tuple(G)
        self.gain_cards = GC_ = tuple(GC)
        self.runs_only, self.group_choices, self.deadwood_mask = _deadwood_functions(T_, RN_, _removal_deltas(T))
        self.best_discard_mask = _discard_function(T_, RN_, G_, GC_, self.group_choices, self.deadwood_mask)

    def copy(self) -> MeldTables:
        """A copy of these tables whose attributes can be replaced without touching the
        original: what a view holds, so a strategy that rebinds ``deadwood_mask`` on its
        view's tables changes its own helpers and nothing the engine scores with."""
        return MeldTables(self.max_run_length, self)

    def best_melds_mask(self, h: Mask) -> Melds:
        """The melds and deadwood of a least-deadwood arrangement of h. Deterministic: a
        group no run could use is kept whole, and otherwise runs are preferred over
        groups when both reach the same deadwood."""
        a = h & 8191
        b = h >> 13 & 8191
        c = h >> 26 & 8191
        d = h >> 39
        t3 = (a & b | c & d) & (a | b) & (c | d)
        groups = 0
        if t3:
            RN = self.runnable
            free = t3 & ~(RN[a] | RN[b] | RN[c] | RN[d])
            groups = h & (free | free << 13 | free << 26 | free << 39)
            conflict = t3 & ~free
            if conflict:
                rest = h & ~groups
                best = 1 << 30
                best_g = 0
                for g in self.group_choices(rest, conflict):
                    v = self.runs_only(rest & ~g)
                    if v < best:
                        best, best_g = v, g
                groups |= best_g
        rest = h & ~groups
        placed = self.placed_runs
        melds = (
            placed[0][rest & 8191] + placed[1][rest >> 13 & 8191] + placed[2][rest >> 26 & 8191] + placed[3][rest >> 39]
        )
        while groups:
            low = groups & -groups
            grp = groups & RANK_MASK[RANK_OF[low.bit_length() - 1]]
            melds += (grp,)
            groups &= ~grp
        return Melds(melds, self.runs_only(rest))

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


def _removal_deltas(T: list[int]) -> tuple[tuple[int, ...], ...]:
    # DELTA[1 << r][p]: run deadwood saved when the rank-r card leaves suit pattern p
    # (0 when p lacks it; negative when the card holds a run together)
    delta: list[tuple[int, ...]] = [()] * 4097
    for r in range(13):
        bit = 1 << r
        delta[bit] = tuple(T[p] - T[p & ~bit] for p in range(8192))
    return tuple(delta)


def _deadwood_functions(
    T_: tuple[int, ...], RN_: tuple[int, ...], DELTA: tuple[tuple[int, ...], ...]
) -> tuple[Callable[[Mask], int], Callable[[Mask, int], list[Mask]], Callable[[Mask], int]]:
    """``runs_only``, ``group_choices`` and ``deadwood_mask`` over the tables."""
    options = GROUP_OPTIONS
    rank_mask = RANK_MASK

    def runs_only(h: Mask) -> int:
        """Least deadwood of a hand using runs only."""
        return T_[h & 8191] + T_[h >> 13 & 8191] + T_[h >> 26 & 8191] + T_[h >> 39]

    def group_choices(h: Mask, ranks: int) -> list[Mask]:
        """Every way to pick groups among the ranks (bits) that hold 3+ cards of h."""
        combos = [0]
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            opts = options[h & rank_mask[low.bit_length() - 1]]
            combos = [x | o for x in combos for o in opts]
        return combos

    def deadwood_mask(h: Mask) -> int:
        """Least deadwood of a hand mask (R07)."""
        a = h & 8191
        b = h >> 13 & 8191
        c = h >> 26 & 8191
        d = h >> 39
        t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
        if not t3:
            return T_[a] + T_[b] + T_[c] + T_[d]
        if t3 & (t3 - 1):
            # several such ranks: a group no run could use is simply kept whole
            free = t3 & ~(RN_[a] | RN_[b] | RN_[c] | RN_[d])
            if free:
                keep = ~free
                a &= keep
                b &= keep
                c &= keep
                d &= keep
                t3 ^= free
                if not t3:
                    return T_[a] + T_[b] + T_[c] + T_[d]
            if t3 & (t3 - 1):
                rest = a | b << 13 | c << 26 | d << 39
                best = 1 << 30
                for g in group_choices(rest, t3):
                    r = rest & ~g
                    v = T_[r & 8191] + T_[r >> 13 & 8191] + T_[r >> 26 & 8191] + T_[r >> 39]
                    if v < best:
                        best = v
                return best
        # one rank with 3+ cards: the savings of moving each card into the group add up
        D = DELTA[t3]
        da = D[a]
        db = D[b]
        dc = D[c]
        dd = D[d]
        save = da + db + dc + dd
        if a & b & c & d & t3:
            low = min(da, db, dc, dd)
            if low < 0:
                save -= low  # a group of three, leaving the card a run needs
        return T_[a] + T_[b] + T_[c] + T_[d] - (save if save > 0 else 0)

    return runs_only, group_choices, deadwood_mask


def _discard_function(
    T_: tuple[int, ...],
    RN_: tuple[int, ...],
    G_: tuple[int, ...],
    GC_: tuple[int, ...],
    group_choices: Callable[[Mask, int], list[Mask]],
    deadwood_mask: Callable[[Mask], int],
) -> Callable[[Mask], tuple[int, Mask]]:
    """``best_discard_mask`` over the tables: the least deadwood after discarding one card
    of an 11-card hand, and every discard that reaches it."""

    def discard_runs(a: int, b: int, c: int, d: int) -> tuple[int, Mask]:
        """Best discard when suit patterns a..d are finished with runs only."""
        ga = G_[a]
        gb = G_[b]
        gc = G_[c]
        gd = G_[d]
        top = ga
        if gb > top:
            top = gb
        if gc > top:
            top = gc
        if gd > top:
            top = gd
        cards = 0
        if ga == top:
            cards = GC_[a]
        if gb == top:
            cards |= GC_[b] << 13
        if gc == top:
            cards |= GC_[c] << 26
        if gd == top:
            cards |= GC_[d] << 39
        return T_[a] + T_[b] + T_[c] + T_[d] - top, cards

    def discard_one_rank(a: int, b: int, c: int, d: int, bit: int) -> tuple[int, Mask]:
        """Best discard when one rank (``bit``) holds 3+ cards that runs could use:
        try that rank's cards out of a group, in a group, and (with four) each group
        of three."""
        keep = ~bit
        aq = a & keep
        bq = b & keep
        cq = c & keep
        dq = d & keep
        best, cards = discard_runs(a, b, c, d)
        v, m = discard_runs(aq, bq, cq, dq)
        if v < best:
            best, cards = v, m
        elif v == best:
            cards |= m
        if a & b & c & d & bit:
            for pa, pb, pc, pd in ((a, bq, cq, dq), (aq, b, cq, dq), (aq, bq, c, dq), (aq, bq, cq, d)):
                v, m = discard_runs(pa, pb, pc, pd)
                if v < best:
                    best, cards = v, m
                elif v == best:
                    cards |= m
        return best, cards

    def best_discard_mask(h: Mask) -> tuple[int, Mask]:
        """For a hand that must discard one card: the least deadwood after the discard
        and the mask of every discard that reaches it."""
        a = h & 8191
        b = h >> 13 & 8191
        c = h >> 26 & 8191
        d = h >> 39
        t3 = (a & b | c & d) & (a | b) & (c | d)  # ranks with 3+ cards
        if t3:
            # Groups no run could use ("free") are kept whole: the best discard is then
            # from the rest, or a card of a free group (from a group of four at no cost,
            # from a group of three leaving two deadwood cards).
            free = t3 & ~(RN_[a] | RN_[b] | RN_[c] | RN_[d])
            if free != t3:
                return discard_with_groups(h, a, b, c, d, t3, free)
            keep = ~free
            four = a & b & c & d & free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            if four:
                penalty = 0
                ranks = four
            else:
                low = free & -free
                penalty = 2 * VALUE_OF_BIT[low]
                ranks = free & SAME_VALUE_UP[low]
        # discard_runs(a, b, c, d), written out: this is the hottest path of all
        ga = G_[a]
        gb = G_[b]
        gc = G_[c]
        gd = G_[d]
        top = ga
        if gb > top:
            top = gb
        if gc > top:
            top = gc
        if gd > top:
            top = gd
        cards = 0
        if ga == top:
            cards = GC_[a]
        if gb == top:
            cards |= GC_[b] << 13
        if gc == top:
            cards |= GC_[c] << 26
        if gd == top:
            cards |= GC_[d] << 39
        total = T_[a] + T_[b] + T_[c] + T_[d]
        if not t3 or penalty > -top:
            return total - top, cards
        group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
        if penalty < -top:
            return total + penalty, group
        return total - top, cards | group

    def discard_with_groups(h: Mask, a: int, b: int, c: int, d: int, t3: int, free: int) -> tuple[int, Mask]:
        """best_discard_mask when some rank with 3+ cards has a card a run could use."""
        penalty = 0
        ranks = 0
        if free:
            keep = ~free
            four = a & b & c & d & free
            a &= keep
            b &= keep
            c &= keep
            d &= keep
            t3 ^= free
            if four:
                ranks = four
            else:
                low = free & -free
                penalty = 2 * VALUE_OF_BIT[low]
                ranks = free & SAME_VALUE_UP[low]
        if not t3 & (t3 - 1):
            best, best_cards = discard_one_rank(a, b, c, d, t3)
        else:
            rest = a | b << 13 | c << 26 | d << 39
            best = 1 << 30
            best_cards = 0
            for g in group_choices(rest, t3):
                r = rest & ~g
                v, cards = discard_runs(r & 8191, r >> 13 & 8191, r >> 26 & 8191, r >> 39)
                if v < best:
                    best, best_cards = v, cards
                elif v == best:
                    best_cards |= cards
        if not free:
            return best, best_cards
        w = deadwood_mask(a | b << 13 | c << 26 | d << 39) + penalty
        group = h & (ranks | ranks << 13 | ranks << 26 | ranks << 39)
        if w < best:
            return w, group
        if w == best:
            best_cards |= group
        return best, best_cards

    return best_discard_mask


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
