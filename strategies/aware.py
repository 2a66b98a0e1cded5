"""``aware``: an opponent-aware heuristic that counts live cards.

Everything it knows comes from the view, recomputed at each decision (no state kept):
- the cards still unseen (stock or the unknown part of the opponent's hand), and a
  guess of how likely the opponent holds each one: cards near its pickups (same rank,
  or same suit within two ranks) are likely, cards near its discards and passes less so;
- a 10-card hand's value = its deadwood - ``out_weight`` x its live outs, where an out is
  an unseen card that would make a meld with two cards of the hand, counted by the chance
  it is still in the stock;
- the danger of a discard = the chance the opponent holds two cards that meld with it.

Discard: the card minimising value-after-discard + ``danger_weight`` x danger (or, about to
knock, the card leaving the least deadwood). Draw: take the upcard when the hand's value
after taking it (and the best discard) beats the current value by ``take_margin``, so
a low card that replaces a high deadwood card is taken even when it melds with nothing.
Knock: with deadwood at most ``knock_at`` until turn ``late_turn``, then at most
``late_knock_at``; a point lower per ``pickup_penalty`` cards the opponent took from the
pile (its hand is better, so an undercut more likely); gin always.
"""

from __future__ import annotations

from ginsim.cards import FULL_DECK, Card, Mask
from ginsim.melds import MeldTables, tables_for
from ginsim.strategy import Strategy
from ginsim.view import PlayerView


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


def outs_mask(h: Mask) -> Mask:
    """Cards not in ``h`` that would make a meld (of three) with two cards of ``h``."""
    adj = h & _down(h, 1)  # rank r where r and r+1 are held
    gap = h & _down(h, 2)  # r and r+2 held
    runs = _down(adj, 1) | _up(adj, 2) | _up(gap, 1)
    a = h & 8191
    b = h >> 13 & 8191
    c = h >> 26 & 8191
    d = h >> 39
    pairs = a & b | a & c | a & d | b & c | b & d | c & d  # ranks with two or more cards
    return (runs | pairs * _REPEAT) & ~h & FULL_DECK


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
    """How likely the opponent holds each card, from what this seat has seen."""

    __slots__ = ("unseen", "hot", "cold", "base", "p_hot", "p_cold", "p")

    def __init__(self, view: PlayerView, hot_factor: float, cold_factor: float) -> None:
        self.unseen = unseen = view.unseen()
        known = view.opp_known
        n = unseen.bit_count()
        hidden = max(0, 10 - known.bit_count())
        self.base = base = hidden / n if n else 0.0
        self.hot = hot = near_mask(known) & unseen
        self.cold = cold = near_mask(view.opp_discards | view.opp_passed) & unseen & ~hot
        self.p_hot = p_hot = min(0.95, base * hot_factor)
        self.p_cold = p_cold = base * cold_factor
        p = [0.0] * 52
        for mask, prob in ((unseen, base), (cold, p_cold), (hot, p_hot), (known, 1.0)):
            while mask:
                low = mask & -mask
                mask ^= low
                p[low.bit_length() - 1] = prob
        self.p = p
        """p[card]: the chance the opponent holds it."""

    def danger(self, card: Card) -> float:
        """The chance the opponent could meld ``card`` (holds two cards that meld with it)."""
        p = self.p
        return sum(p[x] * p[y] for x, y in MELD_PAIRS[card])

    def live(self, cards: Mask) -> float:
        """Expected number of ``cards`` still in the stock (unseen and not held by the opponent)."""
        cards &= self.unseen
        if not cards:
            return 0.0
        hot = (cards & self.hot).bit_count()
        cold = (cards & self.cold).bit_count()
        plain = cards.bit_count() - hot - cold
        return plain * (1.0 - self.base) + hot * (1.0 - self.p_hot) + cold * (1.0 - self.p_cold)


class Aware(Strategy):
    """Counts unseen cards, values cards by deadwood and live outs, keeps cards the opponent
    is likely to use, takes upcards that improve the hand, and knocks early but less
    readily late in the hand or against an opponent who picked up melding cards."""

    name = "aware"
    description = "opponent-aware heuristic: live outs, discard danger, value-based draws, turn-aware knocks"

    def __init__(
        self,
        out_weight: float = 1.0,
        danger_weight: float = 4.0,
        take_margin: float = 1.0,
        knock_at: int = 10,
        late_turn: int = 20,
        late_knock_at: int = 6,
        pickup_penalty: float = 0.0,
        hot_factor: float = 2.5,
        cold_factor: float = 0.5,
    ) -> None:
        for key, value in (("knock_at", knock_at), ("late_knock_at", late_knock_at)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
                raise ValueError(f"{key} must be a whole number 0..10, not {value!r}")
        if isinstance(late_turn, bool) or not isinstance(late_turn, int) or late_turn < 1:
            raise ValueError(f"late_turn must be a whole number >= 1, not {late_turn!r}")
        for key, num in (
            ("out_weight", out_weight),
            ("danger_weight", danger_weight),
            ("pickup_penalty", pickup_penalty),
            ("hot_factor", hot_factor),
            ("cold_factor", cold_factor),
        ):
            if not num >= 0:
                raise ValueError(f"{key} must be >= 0, not {num!r}")
        self.out_weight = out_weight
        self.danger_weight = danger_weight
        self.take_margin = take_margin
        self.knock_at = knock_at
        self.late_turn = late_turn
        self.late_knock_at = late_knock_at
        self.pickup_penalty = pickup_penalty
        self.hot_factor = hot_factor
        self.cold_factor = cold_factor

    # -- evaluation ----------------------------------------------------------------
    def model(self, view: PlayerView) -> OpponentModel:
        return OpponentModel(view, self.hot_factor, self.cold_factor)

    def value(self, hand: Mask, tables: MeldTables, model: OpponentModel) -> float:
        """A 10-card hand's value (lower is better): deadwood less weighted live outs."""
        return tables.deadwood_mask(hand) - self.out_weight * model.live(outs_mask(hand))

    def ranked_discards(
        self, view: PlayerView, hand: Mask, banned: Mask, model: OpponentModel
    ) -> list[tuple[float, int, Card]]:
        """Every allowed discard from the 11-card ``hand`` as (score, deadwood after, card), best first."""
        tables = tables_for(view.rules.max_run_length)
        dwm = tables.deadwood_mask
        ow = self.out_weight
        dgw = self.danger_weight
        live = model.live
        danger = model.danger
        out = []
        q = hand & ~banned
        while q:
            low = q & -q
            q ^= low
            card = low.bit_length() - 1
            rest = hand ^ low
            dw = dwm(rest)
            score = dw - ow * live(outs_mask(rest)) + dgw * danger(card)
            out.append((score, dw, card))
        out.sort()
        return out

    def knock_limit_now(self, view: PlayerView) -> float:
        """The most deadwood this strategy knocks with now."""
        limit = self.knock_at if view.turn < self.late_turn else self.late_knock_at
        if self.pickup_penalty:
            limit -= view.opp_known.bit_count() / self.pickup_penalty
        return limit

    # -- decisions -------------------------------------------------------------------
    def take_upcard(self, view: PlayerView) -> bool:
        up = view.upcard
        if up is None:
            return False
        tables = tables_for(view.rules.max_run_length)
        hand = view.hand
        model = self.model(view)
        bit = 1 << up
        banned = 0 if view.rules.allow_discard_of_drawn_upcard else bit
        best = self.ranked_discards(view, hand | bit, banned, model)[0]
        return best[0] < self.value(hand, tables, model) - self.take_margin

    def discard(self, view: PlayerView) -> Card:
        model = self.model(view)
        hand = view.hand
        banned = hand & ~view.legal_discards()
        dw, cards = view.best_discards(banned)
        if dw == 0 or (dw <= view.rules.knock_limit and dw <= self.knock_limit_now(view)):
            # about to knock: leave the least deadwood; among those, the least dangerous card
            if cards & (cards - 1) == 0:
                return cards.bit_length() - 1
            return min(_cards(cards), key=model.danger)
        return self.ranked_discards(view, hand, banned, model)[0][2]

    def knock(self, view: PlayerView) -> bool:
        dw = view.discard_deadwood
        return dw == 0 or dw <= self.knock_limit_now(view)


def _cards(mask: Mask) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
