"""Play-outs against the engine: the two policies of a play-out (ginsim.engine.playout)
as strategies, and the check that the engine, playing them from the same deals, ends every
hand with the play-out's points."""

from __future__ import annotations

from ginsim.engine.cards import FULL_DECK, melds_with
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.playhand import play_hand
from ginsim.engine.playout import Policy, discard_with_outs, least_discard, playout
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.run.seeding import deck_for
from support import reference as ref


class _PolicySeat(Strategy):
    """``Policy``'s seat 0, as a strategy."""

    def __init__(self, tables: MeldTables, policy: Policy) -> None:
        self.t = tables
        self.p = policy

    def take_upcard(self, view: PlayerView) -> bool:
        up = view.upcard
        if up is None:
            return False
        h = view.hand
        gain = self.t.deadwood_mask(h) - self.t.best_discard_mask(h | 1 << up)[0]
        return melds_with(up, h) or gain >= self.p.take_gain

    def discard(self, view: PlayerView) -> int:
        banned = 1 << view.drawn if view.drawn_from_pile and not view.rules.allow_discard_of_drawn_upcard else 0  # type: ignore[operator]
        p = self.p
        if view.turn < p.out_turns:
            w = p.out_weight * (1.0 - view.turn / p.out_turns)
            return discard_with_outs(self.t, view.hand, banned, FULL_DECK & ~view.hand & ~view.pile_mask, w, p.prune)[1]
        return least_discard(self.t, view.hand, banned)[1]

    def knock(self, view: PlayerView) -> bool:
        dw = view.discard_deadwood
        p = self.p
        return dw == 0 or dw <= (p.knock_at if view.turn < p.late_turn else p.late_knock_at)


class _SimpleSeat(Strategy):
    """``Policy``'s seat 1: take to meld, least deadwood (highest card of ties), knock at once
    (from ``opp_late_turn`` only at ``opp_late_knock_at`` or less)."""

    def __init__(self, tables: MeldTables, policy: Policy) -> None:
        self.t = tables
        self.p = policy

    def take_upcard(self, view: PlayerView) -> bool:
        return view.upcard is not None and melds_with(view.upcard, view.hand)

    def discard(self, view: PlayerView) -> int:
        banned = 1 << view.drawn if view.drawn_from_pile and not view.rules.allow_discard_of_drawn_upcard else 0  # type: ignore[operator]
        return least_discard(self.t, view.hand, banned)[1]

    def knock(self, view: PlayerView) -> bool:
        p = self.p
        return view.turn < p.opp_late_turn or view.discard_deadwood <= p.opp_late_knock_at


def assert_playouts_match_the_engine(rules: Rules, policy: Policy) -> None:
    """400 deals played by the engine with the policies as strategies and as a play-out: the
    same points for every hand a play-out can play."""
    t = tables_for(rules.max_run_length)
    compared = differs = 0
    outcomes = set()
    for i in range(400):
        deck = deck_for(1000 + i)
        me, opp, up = ref.mask_of(deck[0:20:2]), ref.mask_of(deck[1:20:2]), deck[20]
        seat0, seat1 = _PolicySeat(t, policy), _SimpleSeat(t, policy)
        takes = seat0.take_upcard(_offer_view(rules, t, me, up))
        if not takes and melds_with(up, opp):
            continue  # the dealer would take the passed upcard: a play-out has no such turn
        res = play_hand(rules, (seat0, seat1), deck, 1)
        if res.turns >= policy.max_turns:
            continue  # the play-out calls these a draw; the engine plays on
        if res.outcome == "big_gin":
            continue  # a play-out discards from the 11 melded cards and scores a gin (R22 ignored)
        want = res.points if res.winner == 0 else -res.points if res.winner == 1 else 0
        got = playout(rules, t, policy, me, opp, [up], deck[:20:-1], 0, int(takes))
        assert got == want, (i, res)
        compared += 1
        outcomes.add(res.outcome)
        eager = playout(rules, t, Policy(late_turn=12, late_knock_at=4), me, opp, [up], deck[:20:-1], 0, int(takes))
        differs += eager != got
    assert compared > 250
    assert (differs > 20) == (policy.opp_late_turn < 100)  # a waiting opponent changes hands
    assert {"knock", "gin", "undercut"} <= outcomes


def _offer_view(rules: Rules, t: MeldTables, hand: int, up: int) -> PlayerView:
    return PlayerView(rules, t, 0, 1, (0, 0), 0, hand, up)
