"""One learner's table stepped decision by decision (the vectorised environment): its
state as flat ints, the deal, each move as ``Hand`` plays it, and the opponent's policy
deciding as ``play_hand`` lets it.
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.kernel.loop import deal, stock_done
from ginsim.engine.kernel.meldsearch import deadwood
from ginsim.engine.kernel.policies import policy_discard, policy_knocks, policy_takes
from ginsim.engine.kernel.scoring import DRAWN, hand_end

# A batch of tables, each a learner's seat against a built-in policy, held in flat int
# arrays so that a whole batch steps in one call. ``TABLE_WIDTH`` ints a table in ``S``
# (the ``T_*`` offsets), its deck at ``decks[52 i:]``, its discard pile (bottom first) at
# ``piles[52 i:]``. The moves are the engine's (``hand.Hand``: the same deal, offer,
# draw, take, discard, knock, showdown and score); the opponent decides as ``play_hand``
# lets a policy decide; the learner's view (R13) is kept beside the hand: what the
# opponent took and still holds, passed on, discarded, and the card the learner drew.

TABLE_WIDTH: Final = 28
T_PHASE: Final = 0  # PH_*
T_MOVER: Final = 1  # the seat to move
T_DEALER: Final = 2
T_SEAT: Final = 3  # the learner's seat
T_H0: Final = 4  # seat 0's hand; seat 1's at T_H0 + 1
T_NEXT: Final = 6  # the deck index of the top of the stock
T_TURN: Final = 7
T_DRAWN: Final = 8  # the mover's card drawn or taken this turn, -1 for none
T_FROM_PILE: Final = 9  # 1 when it came from the pile
T_PASSES: Final = 10  # first-turn offers passed
T_LIMIT: Final = 11  # this hand's knock limit (R14, R29)
T_MULT: Final = 12  # this hand's score multiplier (R30)
T_PILE_N: Final = 13  # cards in the discard pile
T_PILE: Final = 14  # the discard pile as a mask
T_KNOWN: Final = 15  # the learner's view: cards the opponent took and still holds
T_PASSED: Final = 16  # ... upcards the opponent passed on or left on the pile
T_DISCARDS: Final = 17  # ... cards the opponent discarded
T_LDRAWN: Final = 18  # ... the card the learner drew this turn, -1 for none
T_LFROM: Final = 19  # ... 1 when it came from the pile
T_ST_HI: Final = 20  # the opponent's random stream (its state's halves)
T_ST_LO: Final = 21
T_CODE: Final = 22  # once over: the outcome code, the winner (-1: none), the points
T_WINNER: Final = 23
T_POINTS: Final = 24
T_DST_HI: Final = 25  # the table's dealing stream: each deal's seat, dealer, deck, seeds
T_DST_LO: Final = 26

PH_OFFER: Final = 0
PH_DRAW: Final = 1
PH_DISCARD: Final = 2
PH_OVER: Final = 3

ACT_KNOCK: Final = 52
"""Action ids (``ginsim.rl.encoding``): 0-51 discard, 52-103 discard and knock."""
ACT_TAKE: Final = 104
ACT_DRAW: Final = 105
ACT_PASS: Final = 106
ACT_BIG_GIN: Final = 107
N_ACTS: Final = 108


def table_deal(facts: RuleFacts, decks: list[int], S: list[int], piles: list[int], i: int) -> None:
    """Deal table ``i``'s hand from its deck (R08) to the first-turn offer (R09); its
    dealer, learner seat and the opponent's stream are set."""
    b = TABLE_WIDTH * i
    d0 = 52 * i
    dealer = S[b + T_DEALER]
    h_nd, h_d = deal(decks, d0)
    S[b + T_H0] = h_d if dealer == 0 else h_nd
    S[b + T_H0 + 1] = h_nd if dealer == 0 else h_d
    up = decks[d0 + 20]
    S[b + T_LIMIT] = facts.limits[up]
    S[b + T_MULT] = facts.mults[up]
    piles[d0] = up
    S[b + T_PILE_N] = 1
    S[b + T_PILE] = 1 << up
    S[b + T_NEXT] = 21
    S[b + T_TURN] = 1
    S[b + T_PHASE] = PH_OFFER
    S[b + T_MOVER] = 1 - dealer
    S[b + T_DRAWN] = -1
    S[b + T_LDRAWN] = -1
    for j in (T_FROM_PILE, T_PASSES, T_KNOWN, T_PASSED, T_DISCARDS, T_LFROM, T_POINTS):
        S[b + j] = 0
    S[b + T_CODE] = -1
    S[b + T_WINNER] = -1


def table_over(S: list[int], b: int, code: int, winner: int, points: int) -> None:
    S[b + T_PHASE] = PH_OVER
    S[b + T_CODE] = code
    S[b + T_WINNER] = winner
    S[b + T_POINTS] = points


def table_move(
    facts: RuleFacts, TB: tuple[int, ...], decks: list[int], S: list[int], piles: list[int], i: int, a: int,
    scratch: list[int],
) -> None:  # fmt: skip
    """Table ``i``'s mover plays the legal action ``a``, as ``Hand`` plays it: take (R10),
    pass (R09: both pass and the non-dealer draws), draw, big gin (R22), discard (R11,
    R12) and knock, then the showdown with the knocker's ``best_melds`` and optimal
    lay-offs (R16-R21), or a draw at a stock of two or at ``MAX_TURNS`` (R23)."""
    if a >= ACT_TAKE and a != ACT_BIG_GIN:
        table_draw(decks, S, piles, i, a)
    else:
        table_discard(facts, TB, S, piles, i, a, scratch)


def table_draw(decks: list[int], S: list[int], piles: list[int], i: int, a: int) -> None:
    """Table ``i``'s mover takes the pile's top (``ACT_TAKE``), passes on the first-turn
    offer (``ACT_PASS``; the second pass makes the non-dealer draw) or draws (``ACT_DRAW``);
    the learner's view records what the opponent took or passed on."""
    b = TABLE_WIDTH * i
    p0 = 52 * i
    seat = S[b + T_MOVER]
    me = S[b + T_SEAT]
    n = S[b + T_PILE_N]
    if a == ACT_TAKE:
        card = piles[p0 + n - 1]
        bit = 1 << card
        S[b + T_PILE_N] = n - 1
        S[b + T_PILE] &= ~bit
        S[b + T_H0 + seat] |= bit
        S[b + T_DRAWN] = card
        S[b + T_FROM_PILE] = 1
        S[b + T_PHASE] = PH_DISCARD
        if seat == me:
            S[b + T_LDRAWN] = card
            S[b + T_LFROM] = 1
        else:
            S[b + T_KNOWN] |= bit
        return
    if a == ACT_PASS:
        if seat != me:
            S[b + T_PASSED] |= 1 << piles[p0 + n - 1]
        S[b + T_PASSES] += 1
        if S[b + T_PASSES] == 1:
            S[b + T_MOVER] = 1 - seat
            return
        seat = 1 - S[b + T_DEALER]  # both passed: the non-dealer draws
        S[b + T_MOVER] = seat
    elif seat != me and n:
        S[b + T_PASSED] |= 1 << piles[p0 + n - 1]
    k = S[b + T_NEXT]
    card = decks[p0 + k]
    S[b + T_NEXT] = k + 1
    S[b + T_H0 + seat] |= 1 << card
    S[b + T_DRAWN] = card
    S[b + T_PHASE] = PH_DISCARD
    if seat == me:
        S[b + T_LDRAWN] = card
        S[b + T_LFROM] = 0


def table_discard(
    facts: RuleFacts, TB: tuple[int, ...], S: list[int], piles: list[int], i: int, a: int, scratch: list[int]
) -> None:
    """Table ``i``'s mover declares big gin (``ACT_BIG_GIN``) or discards (``a`` < 52) or
    discards and knocks (52 + the card); a knock or big gin is scored at once, a turn that
    leaves the stock at two (or at ``MAX_TURNS``) ends the hand drawn, any other passes the
    turn to the other seat."""
    b = TABLE_WIDTH * i
    p0 = 52 * i
    seat = S[b + T_MOVER]
    me = S[b + T_SEAT]
    n = S[b + T_PILE_N]
    dh = S[b + T_H0 + 1 - seat]
    if a == ACT_BIG_GIN:
        kh = S[b + T_H0 + seat]
        code, winner, points, _, _, _, _, _ = hand_end(facts, TB, seat, True, kh, dh, S[b + T_MULT], scratch)
        table_over(S, b, code, winner, points)
        return
    c = a - ACT_KNOCK if a >= ACT_KNOCK else a
    bit = 1 << c
    held = S[b + T_H0 + seat] & ~bit
    S[b + T_H0 + seat] = held
    piles[p0 + n] = c
    S[b + T_PILE_N] = n + 1
    S[b + T_PILE] |= bit
    if seat != me:
        S[b + T_DISCARDS] |= bit
        S[b + T_KNOWN] &= ~bit
    if a >= ACT_KNOCK:
        code, winner, points, _, _, _, _, _ = hand_end(facts, TB, seat, False, held, dh, S[b + T_MULT], scratch)
        table_over(S, b, code, winner, points)
        return
    if stock_done(S[b + T_NEXT], S[b + T_TURN]):
        table_over(S, b, DRAWN, -1, 0)
        return
    S[b + T_MOVER] = 1 - seat
    S[b + T_TURN] += 1
    S[b + T_PHASE] = PH_DRAW
    S[b + T_DRAWN] = -1
    S[b + T_FROM_PILE] = 0
    if seat == me:
        S[b + T_LDRAWN] = -1
        S[b + T_LFROM] = 0


def table_policy(
    facts: RuleFacts, TB: tuple[int, ...], kinds: list[int], knock_at: list[int], chances: list[float],
    st: list[int], S: list[int], piles: list[int], i: int,
) -> int:  # fmt: skip
    """The action of table ``i``'s mover by the built-in policy (stream ``st``), as
    ``play_hand`` plays it: big gin when all eleven cards meld and the rules have it, the
    policy's discard and knock, or take, pass or draw."""
    b = TABLE_WIDTH * i
    seat = S[b + T_MOVER]
    held = S[b + T_H0 + seat]
    phase = S[b + T_PHASE]
    if phase == PH_DISCARD:
        if facts.big_gin and deadwood(TB, held) == 0:
            return ACT_BIG_GIN
        from_pile = S[b + T_FROM_PILE] != 0
        c, dw = policy_discard(TB, kinds, st, seat, held, S[b + T_DRAWN], from_pile, facts.no_back)
        if dw <= S[b + T_LIMIT] and policy_knocks(kinds, knock_at, chances, st, seat, dw):
            return ACT_KNOCK + c
        return c
    n = S[b + T_PILE_N]
    if n and policy_takes(kinds, chances, st, seat, piles[52 * i + n - 1], held):
        return ACT_TAKE
    return ACT_PASS if phase == PH_OFFER else ACT_DRAW
