"""The fast path: whole hands and games of the built-in parametric policies, played by
the kernel's turn loop with no strategy objects and no views.

``play_hand`` asks each seat's strategy through method calls on a ``PlayerView``; for the
built-in policies ``simple``, ``threshold:knock_at=K`` and ``random`` every answer is a
small function of the seat's own hand, the upcard and its seeded random stream, so
``kernel.loop.play_hand`` plays them inline from their ``FastPolicy``. This module feeds it
(compiled with the other hot modules; ``fastjit`` runs the same loop under numba).

The result is the same ``HandResult`` as ``play_hand`` with the same strategies, rules,
deck, dealer and seat seeds, field for field; tests/engine/test_fastpath.py plays both ways and
compares. Seat seeds are inputs, as for ``play_hand``: this module never derives one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ginsim.engine.game import MAX_HANDS_PER_GAME, GameResult, run_game
from ginsim.engine.kernel import loop
from ginsim.engine.kernel.scoring import SCRATCH
from ginsim.engine.melds import tables_for
from ginsim.engine.policy import FastPolicy
from ginsim.engine.result import OUTCOMES, HandResult
from ginsim.engine.rules import Rules, rule_facts

ROW_FIELDS: Final = (
    "outcome",
    "dealer",
    "knocker",
    "winner",
    "points",
    "knocker_deadwood",
    "defender_deadwood_before",
    "defender_deadwood_after",
    "layoff_cards",
    "turns",
    "stock_left",
    "forfeit_seat",
)
"""The hand log's fields at the start of each ``kernel.loop.ROW_WIDTH`` row, in order
(``outcome`` as its index in ``OUTCOMES``); the final hands and the cards laid off follow."""
ROW_WIDTH: Final = loop.ROW_WIDTH
_M32: Final = 0xFFFFFFFF


class _Batch:
    """What the kernel's loop takes besides the deals: the rule facts, the meld tables
    and the two seats' policies as flat lists (seat 0's first)."""

    def __init__(self, rules: Rules, seats: Sequence[FastPolicy]) -> None:
        self.facts = rule_facts(rules)
        self.TB = tables_for(rules.max_run_length).flat
        s0, s1 = seats[0], seats[1]
        self.kinds = [s0.kind, s1.kind]
        self.knock_at = [s0.knock_at, s1.knock_at]
        self.chances = [float(s0.take_chance), float(s0.knock_chance), float(s1.take_chance), float(s1.knock_chance)]
        self.scratch = [0] * SCRATCH

    def hand(self, deck: list[int], dealer: int, seed0: int, seed1: int, row: list[int]) -> None:
        """One hand into ``row`` (``ROW_WIDTH`` ints)."""
        st = [seed0 >> 32 & _M32, seed0 & _M32, seed1 >> 32 & _M32, seed1 & _M32]
        loop.play_hand(
            self.facts, self.TB, self.kinds, self.knock_at, self.chances,
            deck, 0, dealer, st, row, 0, self.scratch,
        )  # fmt: skip


def row_result(row: list[int], o: int) -> HandResult:
    """The ``HandResult`` of the row at ``row[o]``."""
    code = row[o]
    melds: tuple[int, ...] = ()
    for j in range(4):
        if row[o + 15 + j]:
            melds += (row[o + 15 + j],)
    return HandResult(
        OUTCOMES[code],
        row[o + 2],
        row[o + 3],
        row[o + 4],
        row[o + 5],
        row[o + 6],
        row[o + 7],
        row[o + 8],
        row[o + 9],
        row[o + 10],
        row[o + 1],
        hands=(row[o + 12], row[o + 13]),
        knocker_melds=melds,
        layoff=row[o + 14],
    )


def play_fast_hand(
    rules: Rules, seats: Sequence[FastPolicy], deck: list[int], dealer: int, seeds: tuple[int, int] = (0, 0)
) -> HandResult:
    """One hand of two fast seats; ``deck`` must be a list of the 52 card ints (the
    worker checks whole chunks at once) and ``dealer`` 0 or 1."""
    return fast_hands(rules, seats, [deck], [dealer], [seeds[0]], [seeds[1]])[0]


def fast_hands(
    rules: Rules,
    seats: Sequence[FastPolicy],
    decks: list[list[int]],
    dealers: list[int],
    seeds0: list[int],
    seeds1: list[int],
) -> list[HandResult]:
    """``play_fast_hand`` over a batch: hand ``i`` is ``decks[i]`` dealt by ``dealers[i]``
    with seat seeds ``(seeds0[i], seeds1[i])``."""
    batch = _Batch(rules, seats)
    row = [0] * ROW_WIDTH
    res = []
    for i in range(len(decks)):
        batch.hand(decks[i], dealers[i], seeds0[i], seeds1[i], row)
        res.append(row_result(row, 0))
    return res


def fast_rows(
    rules: Rules,
    seats: Sequence[FastPolicy],
    decks: list[int],
    dealers: list[int],
    seeds0: list[int],
    seeds1: list[int],
) -> list[int]:
    """The batch's hands as ``ROW_WIDTH`` ints each, one flat list (the worker turns it
    into the hand log's columns in one step): hand ``i`` is ``decks[52i:52i+52]`` dealt
    by ``dealers[i]`` with seat seeds ``(seeds0[i], seeds1[i])``."""
    b = _Batch(rules, seats)
    n = len(dealers)
    seeds = [0] * (4 * n)
    for i in range(n):
        s0 = seeds0[i]
        s1 = seeds1[i]
        seeds[4 * i] = s0 >> 32 & _M32
        seeds[4 * i + 1] = s0 & _M32
        seeds[4 * i + 2] = s1 >> 32 & _M32
        seeds[4 * i + 3] = s1 & _M32
    out = [0] * (ROW_WIDTH * n)
    loop.play_rows(b.facts, b.TB, b.kinds, b.knock_at, b.chances, decks, dealers, seeds, out, b.scratch)
    return out


def play_fast_game(
    rules: Rules,
    seats: Sequence[FastPolicy],
    deck_for_hand: Callable[[int], list[int]],
    first_dealer: int,
    seeds_for_hand: Callable[[int], tuple[int, int]],
    max_hands: int = MAX_HANDS_PER_GAME,
) -> GameResult:
    """``play_game`` with two fast seats: the same ``Game`` bookkeeping (boxes, bonuses,
    dealers, R24, R31-R33), each hand played by the kernel."""
    batch = _Batch(rules, seats)
    row = [0] * ROW_WIDTH

    def one(h: int, dealer: int, _scores: tuple[int, int]) -> HandResult:  # the policies ignore the score
        seeds = seeds_for_hand(h)
        batch.hand(deck_for_hand(h), dealer, seeds[0], seeds[1], row)
        return row_result(row, 0)

    return run_game(rules, first_dealer, one, max_hands)
