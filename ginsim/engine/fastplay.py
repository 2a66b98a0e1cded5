"""The fast path: whole hands and games of the built-in parametric policies, played inline.

``play_hand`` asks each seat's strategy through method calls on a ``PlayerView``; for the
built-in policies ``simple``, ``threshold:knock_at=K`` and ``random`` every answer is a
small function of the seat's own hand, the upcard and its seeded random stream, so this
module plays them with no strategy objects, no views and no per-decision Python calls.
It is compiled with the other hot modules (``_native.HOT``).

The result is the same ``HandResult`` as ``play_hand`` with the same strategies, rules,
deck, dealer and seat seeds, field for field: the same tie-breaks (each seat's
``SeededRandom`` stream, drawn exactly where the strategy draws), the same lay-offs
(``best_layoff``) and melds (``best_melds_mask``), big gin, Oklahoma limits and
multipliers, draws at a stock of two and the ``MAX_TURNS`` cap. The worker picks this
path (``ginsim.run.worker``); tests/test_fastpath.py plays both ways and compares.

Seat seeds are inputs, as for ``play_hand``: this module never derives one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ginsim.engine.fastseat import RANDOM, SIMPLE, FastSeat, card_count
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game, GameResult
from ginsim.engine.hand import BIG_GIN, DRAWN, GIN, KNOCK_WON, MAX_TURNS, OUTCOMES, UNDERCUT, HandResult
from ginsim.engine.layoff import best_layoff
from ginsim.engine.melds import tables_for
from ginsim.engine.rules import Rules

__all__ = ["RANDOM", "ROW_FIELDS", "SIMPLE", "FastSeat", "fast_hands", "fast_rows", "play_fast_game", "play_fast_hand"]


class _Facts:
    """What a hand needs from the rules, read once per batch into native fields (the
    knock limit and multiplier of each possible first upcard, R14, R29, R30)."""

    def __init__(self, rules: Rules) -> None:
        self.tables = tables_for(rules.max_run_length)
        self.limits = [rules.hand_knock_limit(c) for c in range(52)]
        self.mults = [rules.hand_multiplier(c) for c in range(52)]
        bonus = rules.big_gin_bonus
        self.big_gin = bonus is not None
        self.big_gin_bonus = 0 if bonus is None else bonus
        self.no_back = not rules.allow_discard_of_drawn_upcard
        self.gin_bonus = rules.gin_bonus
        self.undercut_bonus = rules.undercut_bonus
        self.undercut_on_tie = rules.undercut_on_tie


class _Out:
    """One hand's result as plain fields (``HandResult``'s, the outcome as its index in
    ``OUTCOMES``), filled in by ``_play``; no tuple is built unless one is asked for."""

    def __init__(self) -> None:
        self.code = 0
        self.knocker = -1
        self.winner = -1
        self.points = 0
        self.kd = 0
        self.before = 0
        self.after = 0
        self.laid = 0
        self.turns = 0
        self.stock = 0
        self.dealer = 0
        self.hand0 = 0
        self.hand1 = 0
        self.melds: tuple[int, ...] = ()

    def result(self) -> HandResult:
        return HandResult(
            OUTCOMES[self.code],
            self.knocker,
            self.winner,
            self.points,
            self.kd,
            self.before,
            self.after,
            card_count(self.laid),
            self.turns,
            self.stock,
            self.dealer,
            hands=(self.hand0, self.hand1),
            knocker_melds=self.melds,
            layoff=self.laid,
        )

    def drawn(self, turn: int, next_stock: int, h0: int, h1: int) -> None:
        """The hand ended with no score (R23, or the MAX_TURNS cap)."""
        self.code = _CODE_DRAWN
        self.knocker = self.winner = -1
        self.points = self.kd = self.before = self.after = self.laid = 0
        self.melds = ()
        self.turns = turn
        self.stock = 52 - next_stock
        self.hand0 = h0
        self.hand1 = h1

    def row(self, out: list[int]) -> None:
        """Append the hand log's fields (the worker's ``_RESULT_FIELDS`` order)."""
        out.append(self.code)
        out.append(self.dealer)
        out.append(self.knocker)
        out.append(self.winner)
        out.append(self.points)
        out.append(self.kd)
        out.append(self.before)
        out.append(self.after)
        out.append(card_count(self.laid))
        out.append(self.turns)
        out.append(self.stock)
        out.append(-1)  # forfeit_seat: these policies never forfeit


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
"""The fields ``fast_rows`` writes per hand, in order (``outcome`` as its index in ``OUTCOMES``)."""

_CODE_KNOCK: Final = 0  # OUTCOMES' order, checked at import below
_CODE_UNDERCUT: Final = 1
_CODE_GIN: Final = 2
_CODE_BIG_GIN: Final = 3
_CODE_DRAWN: Final = 4
if OUTCOMES[:5] != (KNOCK_WON, UNDERCUT, GIN, BIG_GIN, DRAWN):  # pragma: no cover
    raise ImportError("fastplay: the outcome codes do not match OUTCOMES")


def play_fast_hand(
    rules: Rules, seats: Sequence[FastSeat], deck: list[int], dealer: int, seeds: tuple[int, int] = (0, 0)
) -> HandResult:
    """One hand of two fast seats; ``deck`` must be a list of the 52 card ints (the
    worker checks whole chunks at once) and ``dealer`` 0 or 1."""
    out = _Out()
    _play(_Facts(rules), seats[0], seats[1], deck, dealer, seeds[0], seeds[1], out)
    return out.result()


def _play(
    facts: _Facts,
    s0: FastSeat,
    s1: FastSeat,
    deck: list[int],
    dealer: int,
    seed0: int,
    seed1: int,
    out: _Out,
) -> None:
    tables = facts.tables
    deadwood = tables.deadwood_mask
    s0.seed(seed0)
    s1.seed(seed1)
    nd = 1 - dealer
    h_nd = 0
    h_d = 0
    for i in range(0, 20, 2):
        h_nd |= 1 << deck[i]
        h_d |= 1 << deck[i + 1]
    h0 = h_nd if nd == 0 else h_d
    h1 = h_d if nd == 0 else h_nd
    up = deck[20]
    limit = facts.limits[up]  # R14, R29
    mult = facts.mults[up]  # R30
    out.dealer = dealer
    big_gin = facts.big_gin
    no_back = facts.no_back
    next_stock = 21
    turn = 1
    # the first-turn offer (R09): non-dealer, then dealer; both pass: the non-dealer draws.
    # Only the top of the discard pile matters: a card taken is replaced at once by a discard.
    seat = nd
    from_pile = True
    if (s0 if nd == 0 else s1).takes(up, h_nd):
        pass
    elif (s1 if nd == 0 else s0).takes(up, h_d):
        seat = dealer
    else:
        from_pile = False
        up = deck[21]
        next_stock = 22
    drawn = up
    if seat == 0:
        h0 |= 1 << up
    else:
        h1 |= 1 << up
    while True:
        me = s0 if seat == 0 else s1
        held = h0 if seat == 0 else h1
        if big_gin and deadwood(held) == 0:
            _finish(facts, h0, h1, seat, turn, next_stock, mult, out, big=True)
            return
        c = me.discard(tables, held, drawn, from_pile, no_back)
        knock = False
        dw = me.dw if me.kind == SIMPLE else deadwood(held & ~(1 << c))
        if dw <= limit:
            knock = me.knocks(dw)
        if seat == 0:
            h0 = held & ~(1 << c)
        else:
            h1 = held & ~(1 << c)
        if knock:
            _finish(facts, h0, h1, seat, turn, next_stock, mult, out, big=False)
            return
        if next_stock >= 50 or turn >= MAX_TURNS:
            out.drawn(turn, next_stock, h0, h1)  # R23, or the turn cap
            return
        seat = 1 - seat
        turn += 1
        other = s0 if seat == 0 else s1
        if other.takes(c, h0 if seat == 0 else h1):
            drawn = c
            from_pile = True
        else:
            drawn = deck[next_stock]
            next_stock += 1
            from_pile = False
        if seat == 0:
            h0 |= 1 << drawn
        else:
            h1 |= 1 << drawn


def _finish(
    facts: _Facts,
    h0: int,
    h1: int,
    k: int,
    turn: int,
    next_stock: int,
    mult: int,
    out: _Out,
    big: bool,
) -> None:
    """The end of a hand with a winner: big gin (R22), or the showdown after a knock, the
    knocker showing a least-deadwood arrangement and the defender laying off optimally."""
    out.turns = turn
    out.stock = 52 - next_stock
    out.hand0 = h0
    out.hand1 = h1
    out.knocker = k
    tables = facts.tables
    kh = h0 if k == 0 else h1
    dh = h1 if k == 0 else h0
    shown = tables.best_melds_mask(kh)
    out.melds = shown.melds
    before = tables.deadwood_mask(dh)
    out.before = out.after = before
    out.laid = 0
    if big:
        out.code = _CODE_BIG_GIN
        out.winner = k
        out.points = (facts.big_gin_bonus + before) * mult
        out.kd = 0
        return
    kd = out.kd = shown.deadwood
    if kd == 0:  # R15, R18, R21: gin; no lay-offs, never undercut
        out.code = _CODE_GIN
        out.winner = k
        out.points = (facts.gin_bonus + before) * mult
        return
    after, laid = best_layoff(dh, shown.melds, tables, before)
    out.after = after
    out.laid = laid
    if kd < after:
        out.code, out.winner, out.points = _CODE_KNOCK, k, (after - kd) * mult
    elif kd == after and not facts.undercut_on_tie:
        out.code, out.winner, out.points = _CODE_KNOCK, -1, 0
    else:
        out.code, out.winner, out.points = _CODE_UNDERCUT, 1 - k, (kd - after + facts.undercut_bonus) * mult


def fast_hands(
    rules: Rules,
    seats: Sequence[FastSeat],
    decks: list[list[int]],
    dealers: list[int],
    seeds0: list[int],
    seeds1: list[int],
) -> list[HandResult]:
    """``play_fast_hand`` over a batch: hand ``i`` is ``decks[i]`` dealt by ``dealers[i]``
    with seat seeds ``(seeds0[i], seeds1[i])``."""
    facts = _Facts(rules)
    s0 = seats[0]
    s1 = seats[1]
    res = []
    for i in range(len(decks)):
        out = _Out()
        _play(facts, s0, s1, decks[i], dealers[i], seeds0[i], seeds1[i], out)
        res.append(out.result())
    return res


def fast_rows(
    rules: Rules,
    seats: Sequence[FastSeat],
    decks: list[list[int]],
    dealers: list[int],
    seeds0: list[int],
    seeds1: list[int],
) -> list[int]:
    """``fast_hands``, each hand as the ``ROW_FIELDS`` ints, one flat list for the batch
    (the worker turns it into the hand log's columns in one step)."""
    facts = _Facts(rules)
    s0 = seats[0]
    s1 = seats[1]
    out = _Out()
    rows: list[int] = []
    for i in range(len(decks)):
        _play(facts, s0, s1, decks[i], dealers[i], seeds0[i], seeds1[i], out)
        out.row(rows)
    return rows


def play_fast_game(
    rules: Rules,
    seats: Sequence[FastSeat],
    deck_for_hand: Callable[[int], list[int]],
    first_dealer: int,
    seeds_for_hand: Callable[[int], tuple[int, int]],
    max_hands: int = MAX_HANDS_PER_GAME,
) -> GameResult:
    """``play_game`` with two fast seats: the same ``Game`` bookkeeping (boxes, bonuses,
    dealers, R24, R31-R33), each hand played by ``play_fast_hand``."""
    game = Game(rules, first_dealer)
    facts = _Facts(rules)
    hands: list[HandResult] = []
    for h in range(max_hands):
        out = _Out()
        seeds = seeds_for_hand(h)
        _play(facts, seats[0], seats[1], deck_for_hand(h), game.dealer, seeds[0], seeds[1], out)
        res = out.result()
        hands.append(res)
        game.record(res)
        if game.over:
            break
    return game.result(hands)
