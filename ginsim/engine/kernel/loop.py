"""The fast turn loop: whole hands of two built-in policies, one at a time or a batch,
each written as one row of ints (the fast path's ``fastplay`` and numba's ``fastjit``).
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import count
from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.kernel.meldsearch import deadwood
from ginsim.engine.kernel.policies import policy_discard, policy_knocks, policy_takes
from ginsim.engine.kernel.scoring import BIG_GIN, DRAWN, KNOCK, hand_end

MAX_TURNS: Final = 500
"""A hand where the stock stops shrinking because both players keep taking each other's
discards could go on forever; at this many turns it ends as a draw. Ordinary hands end
within about 60 turns, so the cap never touches them."""

ROW_WIDTH: Final = 19
"""Ints per hand written by ``play_rows``: the hand log's twelve fields (``fastplay.ROW_FIELDS``),
then the two final hands, the cards laid off and the knocker's melds (up to four, 0 after
the last)."""


def deal(decks: list[int], d0: int) -> tuple[int, int]:
    """R08: ten cards each, one at a time from the top of ``decks[d0:]``, the non-dealer
    first: (the non-dealer's hand, the dealer's). The 21st card is the upcard."""
    h_nd = 0
    h_d = 0
    for i in range(0, 20, 2):
        h_nd |= 1 << decks[d0 + i]
        h_d |= 1 << decks[d0 + i + 1]
    return h_nd, h_d


def stock_done(next_stock: int, turn: int) -> bool:
    """Whether a turn that ended without a knock ends the hand as a draw: the stock is
    down to two (R23: ``next_stock`` is the deck index of its top) or the hand has run
    ``MAX_TURNS`` turns."""
    return next_stock >= 50 or turn >= MAX_TURNS


def first_turn(
    kinds: list[int], chances: list[float], st: list[int], decks: list[int], d0: int, dealer: int,
    h_nd: int, h_d: int,
) -> tuple[int, int, int]:  # fmt: skip
    """R09, the first-turn offer of the upcard ``decks[d0 + 20]``: the non-dealer, then the
    dealer may take it; when both pass the non-dealer draws the stock's top. Returns the
    seat that takes or draws, its card and the deck index of the stock's top after it
    (21 when the upcard was taken, 22 when it was drawn past)."""
    up = decks[d0 + 20]
    nd = 1 - dealer
    if policy_takes(kinds, chances, st, nd, up, h_nd):
        return nd, up, 21
    if policy_takes(kinds, chances, st, dealer, up, h_d):
        return dealer, up, 21
    return nd, decks[d0 + 21], 22


def play_hand(
    facts: RuleFacts,
    TB: tuple[int, ...],
    kinds: list[int],
    knock_at: list[int],
    chances: list[float],
    decks: list[int],
    d0: int,
    dealer: int,
    st: list[int],
    out: list[int],
    o: int,
    scratch: list[int],
) -> None:
    """One hand of two built-in policies: the deck ``decks[d0:d0+52]`` (top first) dealt
    by ``dealer``, the seats' streams in ``st``; the ``ROW_WIDTH`` ints from ``out[o]``;
    ``scratch`` (``SCRATCH`` ints) for the showdown.

    The deal (R08), the first-turn offer (R09: non-dealer, then dealer; both pass: the
    non-dealer draws), draw or take (R10), discard and knock within the hand's limit
    (R11-R14), big gin right after a draw (R22), a draw at a stock of two (R23) or at
    ``MAX_TURNS``, then the showdown: the knocker shows ``best_melds``, the defender lays
    off and the hand is scored (``showdown``). Only the top of the discard pile matters
    to these policies: a card taken is replaced at once by a discard."""
    nd = 1 - dealer
    h_nd, h_d = deal(decks, d0)
    h0 = h_nd if nd == 0 else h_d
    h1 = h_d if nd == 0 else h_nd
    up = decks[d0 + 20]
    limit = facts.limits[up]
    mult = facts.mults[up]
    turn = 1
    seat, drawn, next_stock = first_turn(kinds, chances, st, decks, d0, dealer, h_nd, h_d)
    from_pile = next_stock == 21
    if seat == 0:
        h0 |= 1 << drawn
    else:
        h1 |= 1 << drawn
    end = DRAWN
    while True:
        held = h0 if seat == 0 else h1
        if facts.big_gin and deadwood(TB, held) == 0:
            end = BIG_GIN
            break
        c, dw = policy_discard(TB, kinds, st, seat, held, drawn, from_pile, facts.no_back)
        knock = dw <= limit and policy_knocks(kinds, knock_at, chances, st, seat, dw)
        if seat == 0:
            h0 = held & ~(1 << c)
        else:
            h1 = held & ~(1 << c)
        if knock:
            end = KNOCK
            break
        if stock_done(next_stock, turn):
            break
        seat = 1 - seat
        turn += 1
        if policy_takes(kinds, chances, st, seat, c, h0 if seat == 0 else h1):
            drawn = c
            from_pile = True
        else:
            drawn = decks[d0 + next_stock]
            next_stock += 1
            from_pile = False
        if seat == 0:
            h0 |= 1 << drawn
        else:
            h1 |= 1 << drawn
    write_row(facts, TB, end, seat, h0, h1, mult, dealer, turn, next_stock, out, o, scratch)


def write_row(
    facts: RuleFacts,
    TB: tuple[int, ...],
    end: int,
    seat: int,
    h0: int,
    h1: int,
    mult: int,
    dealer: int,
    turn: int,
    next_stock: int,
    out: list[int],
    o: int,
    scratch: list[int],
) -> None:
    """The hand's ``ROW_WIDTH`` ints from ``out[o]``, once it has ended by ``end`` (``DRAWN``,
    ``KNOCK`` or ``BIG_GIN``) on ``seat``'s turn with the final hands ``h0``, ``h1``: a knock
    or big gin is settled by ``hand_end`` (the showdown), its melds written after the log."""
    code = DRAWN
    knocker = -1
    winner = -1
    points = 0
    kd = 0
    before = 0
    after = 0
    laid = 0
    for j in range(4):
        out[o + 15 + j] = 0
    if end != DRAWN:
        knocker = seat
        kh = h0 if seat == 0 else h1
        dh = h1 if seat == 0 else h0
        big = end == BIG_GIN
        code, winner, points, kd, before, after, laid, nm = hand_end(facts, TB, seat, big, kh, dh, mult, scratch)
        for j in range(nm):
            out[o + 15 + j] = scratch[j]
    out[o] = code
    out[o + 1] = dealer
    out[o + 2] = knocker
    out[o + 3] = winner
    out[o + 4] = points
    out[o + 5] = kd
    out[o + 6] = before
    out[o + 7] = after
    out[o + 8] = count(laid)
    out[o + 9] = turn
    out[o + 10] = 52 - next_stock
    out[o + 11] = -1  # forfeit_seat: these policies never forfeit
    out[o + 12] = h0
    out[o + 13] = h1
    out[o + 14] = laid


def play_rows(
    facts: RuleFacts,
    TB: tuple[int, ...],
    kinds: list[int],
    knock_at: list[int],
    chances: list[float],
    decks: list[int],
    dealers: list[int],
    seeds: list[int],
    out: list[int],
    scratch: list[int],
) -> None:
    """``play_hand`` over a batch: hand ``n`` is ``decks[52n:52n+52]`` dealt by
    ``dealers[n]``, the seats' streams seeded from ``seeds[4n:4n+4]`` (each seed as its
    high and low halves, seat 0 first); its row at ``out[ROW_WIDTH * n]``. ``scratch``
    holds the showdown's melds and lay-off search (``SCRATCH`` ints)."""
    st = [0, 0, 0, 0]
    for n in range(len(dealers)):
        st[0] = seeds[4 * n]
        st[1] = seeds[4 * n + 1]
        st[2] = seeds[4 * n + 2]
        st[3] = seeds[4 * n + 3]
        play_hand(
            facts, TB, kinds, knock_at, chances, decks, 52 * n, dealers[n], st, out, ROW_WIDTH * n,
            scratch,
        )  # fmt: skip
