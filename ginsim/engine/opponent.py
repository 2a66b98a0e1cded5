"""A model of the opponent's hand from what a seat has seen: how likely it holds each unseen
card, the danger of a discard, and the live outs of a hand and what stock draws bring it.

``OpponentModel`` is worked out afresh from a ``PlayerView`` at each decision (no state is kept);
the built-in ``aware`` (strategies/aware.py) explains the idea, and ``sampler``, ``patient`` and
``learned`` use it too. ``near_mask`` gives the cards that could share a meld with some of a mask.
"""

from __future__ import annotations

from ginsim.engine.cards import VALUE_OF, Card, Mask
from ginsim.engine.melds import MeldTables
from ginsim.engine.playout import outs_mask
from ginsim.engine.view import PlayerView


def _suit_keep(lo: int, hi: int) -> Mask:
    """The cards of ranks lo..hi in every suit."""
    field = sum(1 << r for r in range(lo, hi + 1))
    return field | field << 13 | field << 26 | field << 39


_KEEP_DOWN = {k: _suit_keep(0, 12 - k) for k in (1, 2)}  # after shifting ranks down by k
_KEEP_UP = {k: _suit_keep(k, 12) for k in (1, 2)}  # after shifting ranks up by k
_REPEAT = 1 | 1 << 13 | 1 << 26 | 1 << 39


def _down(m: Mask, k: int) -> Mask:
    """Each card moved k ranks down in its suit (cards that fall off are dropped)."""
    return (m >> k) & _KEEP_DOWN[k]


def _up(m: Mask, k: int) -> Mask:
    return (m << k) & _KEEP_UP[k]


def near_mask(m: Mask) -> Mask:
    """Cards that could share a meld with some card of ``m`` (same rank; same suit within two)."""
    ranks = (m | m >> 13 | m >> 26 | m >> 39) & 8191
    return (ranks * _REPEAT | _down(m, 1) | _down(m, 2) | _up(m, 1) | _up(m, 2)) & ~m


def _meld_pairs() -> tuple[tuple[tuple[int, int], ...], ...]:
    """MELD_PAIRS[c]: the pairs of cards that make a three-card meld with c."""
    out = []
    for c in range(52):
        rank, suit = c % 13, c // 13
        others = [s * 13 + rank for s in range(4) if s != suit]
        pairs = [(others[i], others[j]) for i in range(3) for j in range(i + 1, 3)]
        for lo in (rank - 2, rank - 1, rank):
            if lo >= 0 and lo + 2 <= 12:
                run = [suit * 13 + r for r in range(lo, lo + 3) if r != rank]
                pairs.append((run[0], run[1]))
        out.append(tuple(pairs))
    return tuple(out)


MELD_PAIRS = _meld_pairs()


class OpponentModel:
    """What this seat has seen, turned into chances: how likely the opponent holds each
    card (``p``), so how likely each unseen card is still in the stock (``1 - p``)."""

    __slots__ = ("unseen", "p", "_draw")

    def __init__(self, view: PlayerView, hot_factor: float, cold_factor: float) -> None:
        self.unseen = unseen = view.unseen()
        known = view.opp_known
        n = unseen.bit_count()
        hidden = max(0, 10 - known.bit_count())
        base = hidden / n if n else 0.0
        hot = near_mask(known) & unseen
        cold = near_mask(view.opp_discards | view.opp_passed) & unseen & ~hot
        p = [0.0] * 52
        for mask, prob in (
            (unseen, base),
            (cold, base * cold_factor),
            (hot, min(0.95, base * hot_factor)),
            (known, 1.0),
        ):
            while mask:
                low = mask & -mask
                mask ^= low
                p[low.bit_length() - 1] = prob
        self.p = p
        self._draw: tuple[float, list[float], list[float]] | None = None

    def danger(self, card: Card) -> float:
        """The chance the opponent could meld ``card`` (holds two cards that meld with it)."""
        p = self.p
        return sum(p[x] * p[y] for x, y in MELD_PAIRS[card])

    def out_gain(self, hand: Mask, tables: MeldTables) -> float:
        """Deadwood the live outs of the 10-card ``hand`` would remove: for each unseen card
        that makes a meld with two cards of the hand, the chance it is in the stock times the
        drop in deadwood if it were drawn (with the best discard)."""
        dw = tables.deadwood_mask(hand)
        if dw == 0:
            return 0.0
        best_discard = tables.best_discard_mask
        p = self.p
        gain = 0.0
        outs = outs_mask(hand) & self.unseen
        while outs:
            low = outs & -outs
            outs ^= low
            gain += (1.0 - p[low.bit_length() - 1]) * (dw - best_discard(hand | low)[0])
        return gain

    def draw_weights(self) -> tuple[float, list[float], list[float]]:
        """The stock as the next draw sees it: total weight, and by card value 1..10 the
        running sums of weight and of weight x value below each value."""
        if self._draw is None:
            p = self.p
            hist = [0.0] * 11
            q = self.unseen
            while q:
                low = q & -q
                q ^= low
                c = low.bit_length() - 1
                hist[VALUE_OF[c]] += 1.0 - p[c]
            below = [0.0] * 12
            below_v = [0.0] * 12
            for v in range(1, 11):
                below[v + 1] = below[v] + hist[v]
                below_v[v + 1] = below_v[v] + hist[v] * v
            self._draw = (below[11] or 1.0, below, below_v)
        return self._draw

    def out_moves(self, hand: Mask, tables: MeldTables) -> tuple[int, int, list[tuple[float, int, int]]]:
        """For the 10-card ``hand``: its deadwood, that of its best 9 cards, and for each live
        out (weight: its chance in the stock) the deadwood a draw of it leaves (with the best
        discard) as counted by value and as it really is. A card that melds with nothing
        replaces the worst deadwood card when it is lower, so it is counted by value: only
        the outs need a real evaluation."""
        dw = tables.deadwood_mask(hand)
        best_discard = tables.best_discard_mask
        nine = best_discard(hand)[0]
        gain_below = dw - nine  # a non-melding card of value below this improves the hand
        moves = []
        outs = outs_mask(hand) & self.unseen
        p = self.p
        while outs:
            low = outs & -outs
            outs ^= low
            c = low.bit_length() - 1
            v = VALUE_OF[c]
            moves.append((1.0 - p[c], nine + v if v < gain_below else dw, best_discard(hand | low)[0]))
        return dw, nine, moves

    def draw_hist(self, dw: int, nine: int, moves: list[tuple[float, int, int]]) -> tuple[float, list[float]]:
        """The stock's total weight and, by deadwood 0..``dw``, the weight of the draws that leave
        a 10-card hand of deadwood ``dw`` (``nine`` its best 9 cards', ``moves`` its live outs, as
        ``out_moves`` gives them) with that deadwood after the best discard."""
        total, below, _ = self.draw_weights()
        hist = [0.0] * (dw + 1)
        gain_below = dw - nine  # a non-melding card of value below this improves the hand
        for v in range(1, 11):
            hist[nine + v if v < gain_below else dw] += below[v + 1] - below[v]
        for w, by_value, real in moves:
            hist[by_value] -= w
            hist[real] += w
        return total, hist

    def draw_ahead(self, hand: Mask, tables: MeldTables, limit: int) -> tuple[float, float, float, float, float]:
        """The 10-card ``hand`` one stock draw (and its best discard) ahead: the live outs'
        worth (the deadwood they would remove, each by its chance in the stock) and weight
        (those chances summed), then the expected deadwood after the draw and the chances
        that it is at most ``limit`` and that it is gin. Every unseen card may be the draw, by
        its chance to be in the stock: an out by the deadwood it really leaves, any other card
        by replacing the worst deadwood card when it is lower (``out_moves``)."""
        dw, nine, moves = self.out_moves(hand, tables)
        if dw == 0:
            return 0.0, 0.0, 0.0, 1.0, 1.0
        total, hist = self.draw_hist(dw, nine, moves)
        gain = live = 0.0
        for w, _, real in moves:
            live += w
            gain += w * (dw - real)
        expect = knock = 0.0
        for d in range(dw + 1):
            expect += d * hist[d]
            if d <= limit:
                knock += hist[d]
        return gain, live, expect / total, min(1.0, knock / total), max(0.0, hist[0] / total)

    def best_of_draws(self, hand: Mask, tables: MeldTables, n: int, gin: float = 0.0) -> float:
        """Expected least deadwood of the 10-card ``hand`` over ``n`` stock draws, each
        judged alone (drawn, then the best discard): how near one good card takes the hand,
        a gin counting as ``-gin`` (below every deadwood, by that premium). Draws are
        weighted by each card's chance in the stock and taken with replacement."""
        dw, nine, moves = self.out_moves(hand, tables)
        if dw == 0:
            return -gin
        total, hist = self.draw_hist(dw, nine, moves)
        tail = 1.0  # the chance that every draw leaves d or more
        expect = 0.0
        for d in range(dw + 1):
            w = hist[d] / total
            if w > 0.0:
                rest = max(0.0, tail - w)
                expect += (d if d else -gin) * (tail**n - rest**n)
                tail = rest
        return expect

    def after_draw(self, hand: Mask, tables: MeldTables) -> float:
        """Expected deadwood of the 10-card ``hand`` after one draw from the stock and the
        best discard (``out_moves``)."""
        dw, nine, moves = self.out_moves(hand, tables)
        if dw == 0:
            return 0.0
        gain_below = dw - nine
        k = gain_below if gain_below < 11 else 11
        total, below, below_v = self.draw_weights()
        s = below_v[k] + nine * below[k] + dw * (total - below[k])
        for w, by_value, real in moves:
            s += w * (real - by_value)
        return s / total
