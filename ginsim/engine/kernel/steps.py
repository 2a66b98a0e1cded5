"""A batch of learners' tables in one call (``ginsim.rl.batch``): each dealt from its own
stream and played to its learner's first decision (``start_tables``), each learner's
action applied and the opponent played to the next (``step_tables``), and what each
learner sees and may do (``table_features``).
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import M32
from ginsim.engine.kernel.discard import best_discard
from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.kernel.meldsearch import deadwood
from ginsim.engine.kernel.scoring import FORFEIT, forfeit_points
from ginsim.engine.kernel.splitmix import below, deal_from_stream
from ginsim.engine.kernel.table import (
    ACT_KNOCK,
    ACT_TAKE,
    N_ACTS,
    PH_DRAW,
    PH_OFFER,
    PH_OVER,
    T_DEALER,
    T_DISCARDS,
    T_DST_HI,
    T_DST_LO,
    T_H0,
    T_KNOWN,
    T_LDRAWN,
    T_LFROM,
    T_LIMIT,
    T_MOVER,
    T_MULT,
    T_NEXT,
    T_PASSED,
    T_PHASE,
    T_PILE,
    T_PILE_N,
    T_SEAT,
    T_ST_HI,
    T_ST_LO,
    T_TURN,
    TABLE_WIDTH,
    table_deal,
    table_move,
    table_over,
    table_policy,
)

FEATURE_WIDTH: Final = 18
"""Ints a table written by ``table_features``: the learner's eight observation planes as
masks (hand, upcard, pile below it, opponent known, passed, discarded, unseen, drawn),
the phase it decides in (0 when not to move, 1 offer, 2 draw, 3 discard), to move, the
stock size, the knock limit, the turn, dealer, drawn from the pile; then its legal
actions: discards, knocks (masks) and bits for take, draw, pass and big gin."""
F_DISCARDS: Final = 15
F_KNOCKS: Final = 16
F_TAIL: Final = 17
_FULL: Final = (1 << 52) - 1


def table_features(facts: RuleFacts, TB: tuple[int, ...], S: list[int], piles: list[int], i: int, F: list[int]) -> None:
    """Table ``i`` as its learner sees it (``FEATURE_WIDTH`` ints at ``F[FEATURE_WIDTH
    i]``): the view's planes and scalars and, when the learner is to move, its legal
    actions (the engine's: R12's barred discard, a knock only within the limit, R22)."""
    b = TABLE_WIDTH * i
    f = FEATURE_WIDTH * i
    me = S[b + T_SEAT]
    hand = S[b + T_H0 + me]
    n = S[b + T_PILE_N]
    up = 1 << piles[52 * i + n - 1] if n else 0
    pile = S[b + T_PILE]
    known = S[b + T_KNOWN]
    drawn = S[b + T_LDRAWN]
    phase = S[b + T_PHASE]
    moving = phase != PH_OVER and S[b + T_MOVER] == me
    F[f] = hand
    F[f + 1] = up
    F[f + 2] = pile & ~up
    F[f + 3] = known
    F[f + 4] = S[b + T_PASSED]
    F[f + 5] = S[b + T_DISCARDS]
    F[f + 6] = _FULL & ~hand & ~pile & ~known
    F[f + 7] = 1 << drawn if drawn >= 0 else 0
    F[f + 8] = phase + 1 if moving else 0
    F[f + 9] = 1 if moving else 0
    F[f + 10] = 52 - S[b + T_NEXT]
    F[f + 11] = S[b + T_LIMIT]
    F[f + 12] = S[b + T_TURN]
    F[f + 13] = 1 if S[b + T_DEALER] == me else 0
    F[f + 14] = S[b + T_LFROM]
    discards = 0
    knocks = 0
    tail = 0
    if moving:
        if phase == PH_OFFER:
            tail = 5  # take, pass
        elif phase == PH_DRAW:
            tail = 3 if n else 2  # take, draw
        else:
            discards = hand & ~(1 << drawn) if S[b + T_LFROM] and facts.no_back else hand
            limit = S[b + T_LIMIT]
            least, _ = best_discard(TB, hand)
            if least <= limit:
                m = discards
                while m:
                    low = m & -m
                    m ^= low
                    if deadwood(TB, hand & ~low) <= limit:
                        knocks |= low
            if facts.big_gin and deadwood(TB, hand) == 0:
                tail = 8
    F[f + F_DISCARDS] = discards
    F[f + F_KNOCKS] = knocks
    F[f + F_TAIL] = tail


def _table_advance(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], i: int, st: list[int], scratch: list[int],
) -> None:  # fmt: skip
    """Play table ``i``'s opponent until the learner is to move or the hand is over."""
    b = TABLE_WIDTH * i
    opp = 1 - S[b + T_SEAT]
    st[2 * opp] = S[b + T_ST_HI]
    st[2 * opp + 1] = S[b + T_ST_LO]
    while S[b + T_PHASE] != PH_OVER and S[b + T_MOVER] == opp:
        a = table_policy(facts, TB, kinds, knock_at, chances, st, S, piles, i)
        table_move(facts, TB, decks, S, piles, i, a, scratch)
    S[b + T_ST_HI] = st[2 * opp]
    S[b + T_ST_LO] = st[2 * opp + 1]


def start_tables(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], which: list[int], F: list[int], scratch: list[int],
    seat_choice: int,
) -> None:  # fmt: skip
    """Deal each table of ``which`` a new hand from its dealing stream (``T_DST_*``): the
    learner's seat (drawn, unless ``seat_choice`` is 0 or 1), the dealer, the deck and the
    seats' seeds (``deal_from_stream``); play it to its learner's first decision. A deal
    the opponent ends before that (a knock on the first turn) is passed over for the
    stream's next. Their features into ``F``."""
    st = [0, 0, 0, 0]
    ds = [0, 0]
    seeds = [0, 0]
    for j in range(len(which)):
        i = which[j]
        b = TABLE_WIDTH * i
        ds[0] = S[b + T_DST_HI]
        ds[1] = S[b + T_DST_LO]
        while True:
            seat = below(ds, 0, 2) if seat_choice < 0 else seat_choice
            S[b + T_SEAT] = seat
            S[b + T_DEALER] = below(ds, 0, 2)
            deal_from_stream(ds, 0, decks, 52 * i, seeds)
            S[b + T_ST_HI] = seeds[1 - seat] >> 32
            S[b + T_ST_LO] = seeds[1 - seat] & M32
            table_deal(facts, decks, S, piles, i)
            _table_advance(facts, TB, kinds, knock_at, chances, decks, S, piles, i, st, scratch)
            if S[b + T_PHASE] != PH_OVER:
                break
        S[b + T_DST_HI] = ds[0]
        S[b + T_DST_LO] = ds[1]
        table_features(facts, TB, S, piles, i, F)


def step_tables(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    decks: list[int], S: list[int], piles: list[int], actions: list[int], F: list[int], scratch: list[int],
) -> None:  # fmt: skip
    """Every table not over plays its learner's action ``actions[i]``, then its opponent
    until the learner's next decision or the hand's end; the features into ``F``. An
    action the learner may not take now (``F``'s legal actions, as the last call wrote
    them) forfeits the hand (R26): the opponent scores ``forfeit_points``."""
    st = [0, 0, 0, 0]
    for i in range(len(actions)):
        b = TABLE_WIDTH * i
        if S[b + T_PHASE] == PH_OVER:
            continue
        a = actions[i]
        f = FEATURE_WIDTH * i
        legal = False
        if 0 <= a < ACT_KNOCK:
            legal = F[f + F_DISCARDS] >> a & 1 != 0
        elif ACT_KNOCK <= a < ACT_TAKE:
            legal = F[f + F_KNOCKS] >> (a - ACT_KNOCK) & 1 != 0
        elif ACT_TAKE <= a < N_ACTS:
            legal = F[f + F_TAIL] >> (a - ACT_TAKE) & 1 != 0
        if legal:
            table_move(facts, TB, decks, S, piles, i, a, scratch)
            _table_advance(facts, TB, kinds, knock_at, chances, decks, S, piles, i, st, scratch)
        else:
            opp = 1 - S[b + T_SEAT]
            table_over(S, b, FORFEIT, opp, forfeit_points(facts, S[b + T_MULT]))
        table_features(facts, TB, S, piles, i, F)
