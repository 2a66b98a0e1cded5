"""``aware``: an opponent-aware heuristic that counts live cards.

What it knows comes from the view, worked out afresh at each decision (no state is kept):
- the unseen cards (stock, or the unknown part of the opponent's hand) and how likely the
  opponent holds each: cards near its pickups (same rank, or same suit within two ranks)
  ``hot_factor`` times the even share, cards near its discards and passes ``cold_factor``
  times it. The rest of each unseen card's chance is that it is still in the stock;
- the outs of a 10-card hand: unseen cards that would make a meld with two of its cards,
  each worth the drop in deadwood it would bring if drawn, times its chance in the stock;
- the danger of a discard: the chance the opponent holds two cards that meld with it.

Discard: least deadwood-after - ``out_weight`` x outs' worth + ``danger_weight`` x danger.
The outs' weight fades to nothing by turn ``out_turns`` (fewer draws are left to use
them, and a low hand matters more when the opponent may knock), and drops to nothing
when the opponent's last discard was worth at most ``threat_at`` (0: off). About to
knock, it discards the card leaving the least deadwood. Draw: take the upcard when the
deadwood after taking it (and the best discard) beats the expected deadwood after a stock
draw by ``take_margin`` - so a low card replacing a high one is taken though it melds with
nothing - or when the whole value (deadwood less outs' worth) improves by
``value_margin``. Knock: at deadwood <= ``knock_at`` before turn ``late_turn``, then
at <= ``late_knock_at`` (the risk of an undercut grows as the opponent's hand improves);
gin always. In games, when either side needs at most ``endgame`` points to win (0: off),
it knocks as soon as legal at any turn: a hand the opponent wins may end the game, and a
knock this seat wins by a little may end it too.
"""

from __future__ import annotations

from collections.abc import Callable

from ginsim import tables_for
from ginsim.cards import VALUE_OF, Card, Mask, cards_list
from ginsim.opponent import OpponentModel, near_mask
from ginsim.playout import outs_mask
from ginsim.strategy import Strategy
from ginsim.view import PlayerView

PRUNE = 12
"""Discards leaving this much more deadwood than the best one are not scored: with the
default weights the chosen discard is within 10 of the least (measured over many hands)."""


def discard_candidates(dwm: Callable[[Mask], int], hand: Mask, banned: Mask, prune: int) -> list[tuple[int, Mask]]:
    """(deadwood after, card bit) of each discard from ``hand`` not in ``banned`` that leaves
    at most ``prune`` deadwood above the least (``dwm``: the rules' deadwood of a mask)."""
    cands = []
    q = hand & ~banned
    while q:
        low = q & -q
        q ^= low
        cands.append((dwm(hand ^ low), low))
    top = min(cands)[0] + prune
    return [c for c in cands if c[0] <= top]


def last_discard(view: PlayerView) -> Card | None:
    """The opponent's most recent discard (None before its first)."""
    me = view.seat
    for seat, action, card in reversed(view.history):
        if seat != me and action == "discard":
            return card
    return None


class Aware(Strategy):
    """Counts unseen cards and the opponent's pickups, discards and passes. Discards by
    deadwood, the worth of live outs and danger; takes the upcard when it beats the
    average stock card; knocks early, and late in the hand only with a low deadwood."""

    name = "aware"
    description = "opponent-aware heuristic: live outs, discard danger, value-based draws, turn-aware knocks"

    def __init__(
        self,
        out_weight: float = 0.25,
        out_turns: int = 15,
        danger_weight: float = 4.0,
        take_margin: float = 1.0,
        value_margin: float = 1.0,
        knock_at: int = 10,
        late_turn: int = 20,
        late_knock_at: int = 6,
        threat_at: int = 0,
        hot_factor: float = 2.5,
        cold_factor: float = 0.5,
        endgame: int = 0,
    ) -> None:
        for key, value in (("knock_at", knock_at), ("late_knock_at", late_knock_at), ("threat_at", threat_at)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
                raise ValueError(f"{key} must be a whole number 0..10, not {value!r}")
        if isinstance(endgame, bool) or not isinstance(endgame, int) or endgame < 0:
            raise ValueError(f"endgame must be a whole number >= 0, not {endgame!r}")
        for key, value in (("late_turn", late_turn), ("out_turns", out_turns)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key} must be a whole number >= 1, not {value!r}")
        for key, num in (
            ("out_weight", out_weight),
            ("danger_weight", danger_weight),
            ("hot_factor", hot_factor),
            ("cold_factor", cold_factor),
        ):
            if not num >= 0:
                raise ValueError(f"{key} must be >= 0, not {num!r}")
        self.out_weight = out_weight
        self.out_turns = out_turns
        self.danger_weight = danger_weight
        self.take_margin = take_margin
        self.value_margin = value_margin
        self.knock_at = knock_at
        self.late_turn = late_turn
        self.late_knock_at = late_knock_at
        self.threat_at = threat_at
        self.hot_factor = hot_factor
        self.cold_factor = cold_factor
        self.endgame = endgame
        self._ranked: tuple[tuple[object, ...], list[tuple[float, int, Card]]] | None = None  # last ranking

    # -- evaluation ----------------------------------------------------------------
    def model(self, view: PlayerView) -> OpponentModel:
        return OpponentModel(view, self.hot_factor, self.cold_factor)

    def out_weight_now(self, view: PlayerView) -> float:
        """Live outs count for less as the hand goes on (fewer draws left to use them), and
        not at all when the opponent's last discard was low (it is close to knocking)."""
        if self.threat_at:
            last = last_discard(view)
            if last is not None and VALUE_OF[last] <= self.threat_at:
                return 0.0
        return self.out_weight * max(0.0, 1.0 - view.turn / self.out_turns)

    def future_now(self, view: PlayerView) -> tuple[float, int, float]:
        """The weight of a discard's ``best_of_draws`` in its score now, the draws it looks
        over and its premium on gin: (0, 0, 0), none, for ``aware`` (a subclass may race for
        gin)."""
        return 0.0, 0, 0.0

    def ranked_discards(
        self, view: PlayerView, hand: Mask, banned: Mask, model: OpponentModel
    ) -> list[tuple[float, int, Card]]:
        """The allowed discards from the 11-card ``hand`` as (score, deadwood after, card),
        best (lowest score) first; discards leaving more than ``PRUNE`` deadwood above the
        least are left out (they never win)."""
        # the key leaves out the pile: taking the upcard moves it from the pile to the hand,
        # and the take decision's ranking is then the discard decision's
        race = self.future_now(view)
        fw, draws, gin = race
        key = (hand, banned, view.turn, model.unseen, view.opp_known, view.opp_discards, view.opp_passed, race)
        if self._ranked is not None and self._ranked[0] == key:
            return self._ranked[1]
        tables = tables_for(view.rules.max_run_length)
        dwm = tables.deadwood_mask
        best_discard = tables.best_discard_mask
        unseen = model.unseen
        p = model.p
        ow = self.out_weight_now(view)
        dgw = self.danger_weight
        danger = model.danger
        out = []
        for dw, low in discard_candidates(dwm, hand, banned, PRUNE):
            rest = hand ^ low
            gain = 0.0
            if ow and dw:
                outs = outs_mask(rest) & unseen
                while outs:  # as OpponentModel.out_gain, inlined: this is the hot loop
                    o = outs & -outs
                    outs ^= o
                    gain += (1.0 - p[o.bit_length() - 1]) * (dw - best_discard(rest | o)[0])
            card = low.bit_length() - 1
            future = fw * model.best_of_draws(rest, tables, draws, gin) if fw else 0.0
            out.append((dw - ow * gain + future + dgw * danger(card), dw, card))
        out.sort()
        self._ranked = (key, out)
        return out

    def late_limit(self, view: PlayerView) -> int:
        """The most deadwood this strategy knocks with from turn ``late_turn``: ``knock_at``
        when either side is within ``endgame`` points of winning the game."""
        if self.endgame:
            target = view.rules.target_score
            mine, theirs = view.scores
            if target - mine <= self.endgame or target - theirs <= self.endgame:
                return self.knock_at
        return self.late_knock_at

    def knock_limit_now(self, view: PlayerView) -> int:
        """The most deadwood this strategy knocks with now."""
        return self.knock_at if view.turn < self.late_turn else self.late_limit(view)

    # -- decisions -------------------------------------------------------------------
    def take_upcard(self, view: PlayerView) -> bool:
        if view.upcard is None:
            return False
        first, second = self.take_edges(view, lazy=True)
        return first > 0 or (second is not None and second > 0)

    def take_edges(self, view: PlayerView, lazy: bool = False) -> tuple[float, float | None]:
        """By how much taking the upcard beats the stock under each rule (take if either is
        positive): 1. its deadwood after taking it and discarding well, against the expected
        deadwood after a stock draw, less ``take_margin``; 2. the same for the whole value
        (deadwood less the outs' worth), less ``value_margin``. Rule 2 is None for a card far
        from every card held (it cannot add outs) and, when ``lazy``, once rule 1 takes."""
        up = view.upcard
        assert up is not None
        tables = tables_for(view.rules.max_run_length)
        hand = view.hand
        bit = 1 << up
        model = self.model(view)
        # discarding the upcard itself is never better than the stock, so no need to exclude it
        after_draw = model.after_draw(hand, tables)
        first = after_draw - tables.best_discard_mask(hand | bit)[0] - self.take_margin
        if (lazy and first > 0) or not near_mask(bit) & hand:
            return first, None
        banned = 0 if view.rules.allow_discard_of_drawn_upcard else bit
        taken = self.ranked_discards(view, hand | bit, banned, model)[0][0]
        stock = after_draw - self.out_weight_now(view) * model.out_gain(hand, tables)
        fw, draws, gin = self.future_now(view)
        if fw:  # discarding the stock card keeps the hand, so its prospects are at least these
            stock += fw * model.best_of_draws(hand, tables, draws, gin)
        return first, stock - taken - self.value_margin

    def choose_discard(self, view: PlayerView, hand: Mask, banned: Mask, model: OpponentModel) -> Card:
        """The discard from the 11-card ``hand``: the least deadwood when that knocks (the
        least dangerous such card), else the best-ranked."""
        tables = tables_for(view.rules.max_run_length)
        dw, cards = tables.best_discard_mask(hand)
        if cards & banned:
            cards &= ~banned
            if not cards:  # the best discard is the upcard just taken: the best of the rest
                dw = min(tables.deadwood_mask(hand & ~(1 << c)) for c in cards_list(hand & ~banned))
                cards = sum(1 << c for c in cards_list(hand & ~banned) if tables.deadwood_mask(hand & ~(1 << c)) == dw)
        if dw == 0 or (dw <= view.knock_limit and dw <= self.knock_limit_now(view)):
            if cards & (cards - 1) == 0:
                return cards.bit_length() - 1
            return min(cards_list(cards), key=model.danger)
        return self.ranked_discards(view, hand, banned, model)[0][2]

    def discard(self, view: PlayerView) -> Card:
        hand = view.hand
        return self.choose_discard(view, hand, hand & ~view.legal_discards(), self.model(view))

    def knock(self, view: PlayerView) -> bool:
        dw = view.discard_deadwood
        return dw == 0 or dw <= self.knock_limit_now(view)
