"""Play one chunk of a run and return its hand records as compact numpy columns.

This is what each process runs. It rebuilds the strategies from their specs, derives
every deck and random stream from the master seed (so a chunk's records depend only on
which deals it covers), and plays each deal once or, with duplicate deals, twice with
the strategies' seats swapped. Each hand gets fresh strategy instances (each game, in
game mode), so nothing carries over from one deal to the next and chunk boundaries
cannot change a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ginsim.engine import OUTCOMES, HandResult, play_hand
from ginsim.game import play_game
from ginsim.guard import DEFAULT_DECISION_LIMIT, check_user_stop, guarded
from ginsim.registry import StrategySpec
from ginsim.rules import Rules
from ginsim.seeding import (
    check_decks,
    deal_seeds,
    decks_for,
    game_deal_seed,
    mix_secret,
    mix_secrets,
    strategy_seed,
    strategy_seeds,
)
from ginsim.strategy import Strategy

OUTCOME_CODE = {name: i for i, name in enumerate(OUTCOMES)}

COLUMNS: dict[str, str] = {
    "pairing": "uint16",
    "deal": "uint32",  # deal index (hand mode) or game index (game mode)
    "copy": "uint8",  # 0, or 1 for the seat-swapped replay of a duplicate deal
    "game_hand": "uint16",  # hand number within its game (0 in hand mode)
    "seat_a": "uint8",  # the seat the pairing's first strategy sat in
    "dealer": "uint8",
    "outcome": "uint8",  # index into OUTCOMES
    "knocker": "int8",
    "winner": "int8",
    "points": "int16",
    "knocker_deadwood": "int8",
    "defender_deadwood_before": "int16",
    "defender_deadwood_after": "int16",
    "layoff_cards": "int8",
    "turns": "int16",
    "stock_left": "int8",
    "score_0": "int16",  # seat scores before the hand (game mode)
    "score_1": "int16",
    "game_end": "bool",  # the hand that ended its game (game mode)
    "game_winner": "int8",  # on that hand: the game's winning seat, -1 undecided
    "forfeit_seat": "int8",
}
"""The hand log's columns and dtypes; ``forfeit_reason`` (text) is kept apart."""


@dataclass(frozen=True)
class ChunkTask:
    """Everything a process needs to play one chunk (plain, picklable data)."""

    rules: Rules
    spec_a: StrategySpec
    spec_b: StrategySpec
    pairing: int
    pairing_key: int
    seed: int
    mode: str  # "hands" or "games"
    duplicate: bool
    start: int
    stop: int
    chunk: int  # chunk index, for naming
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision (ginsim.guard)
    isolate: bool = False  # tournament mode: each strategy in its own process (ginsim.isolate)
    secret: bytes = b""  # tournament mode: the run's secret, mixed into every deal seed


class _Columns:
    """Hand records of a chunk, kept as rows (one append per hand) and turned into
    columns once at the end."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []

    def add(
        self,
        pairing: int,
        deal: int,
        copy: int,
        game_hand: int,
        seat_a: int,
        r: HandResult,
        scores: tuple[int, int],
        game_end: bool,
        game_winner: int,
    ) -> None:
        self.rows.append((pairing, deal, copy, game_hand, seat_a, r, scores, game_end, game_winner))

    def arrays(self) -> dict[str, np.ndarray]:
        rows = self.rows
        n = len(rows)
        if n:
            pairing, deal, copy, game_hand, seat_a, results, scores, game_end, game_winner = zip(*rows, strict=True)
            (outcome, knocker, winner, points, kdw, before, after, laid, turns, stock, dealer, fseat, reason) = zip(
                *(r[:13] for r in results), strict=True
            )
            score_0, score_1 = zip(*scores, strict=True)
        else:
            pairing = deal = copy = game_hand = seat_a = game_end = game_winner = ()
            outcome = knocker = winner = points = kdw = before = after = laid = turns = stock = dealer = ()
            fseat = reason = score_0 = score_1 = ()
        values = {
            "pairing": pairing,
            "deal": deal,
            "copy": copy,
            "game_hand": game_hand,
            "seat_a": seat_a,
            "dealer": dealer,
            "outcome": [OUTCOME_CODE[o] for o in outcome],
            "knocker": knocker,
            "winner": winner,
            "points": points,
            "knocker_deadwood": kdw,
            "defender_deadwood_before": before,
            "defender_deadwood_after": after,
            "layoff_cards": laid,
            "turns": turns,
            "stock_left": stock,
            "score_0": score_0,
            "score_1": score_1,
            "game_end": game_end,
            "game_winner": game_winner,
            "forfeit_seat": fseat,
        }
        out = {name: np.asarray(values[name], dtype=dtype) for name, dtype in COLUMNS.items()}
        out["forfeit_reason"] = np.asarray(reason, dtype=object).reshape(n)
        return out


def seats_for(copy: int, a: Strategy, b: Strategy) -> tuple[tuple[Strategy, Strategy], int]:
    """The seating of one play: copy 0 puts ``a`` in seat 0, copy 1 swaps."""
    return ((a, b), 0) if copy == 0 else ((b, a), 1)


def first_dealer(unit: int) -> int:
    """Deal ``unit`` is dealt by seat ``unit % 2`` (both copies of a duplicate deal alike)."""
    return unit % 2


def play_chunk(task: ChunkTask) -> dict[str, np.ndarray]:
    """Play deals (or games) ``start..stop-1`` of one pairing; return the columns. A
    strategy's failure of any kind is a forfeit; only the user's Ctrl-C stops the chunk
    (ginsim.guard). Tournament mode plays through ginsim.isolate instead."""
    if task.isolate:
        from ginsim.isolate import play_isolated_chunk

        return play_isolated_chunk(task)
    with guarded(task.decision_limit, task.rules.time_per_hand):
        return _play_chunk(task)


def _play_chunk(task: ChunkTask, factories: tuple[Any, Any] | None = None) -> dict[str, np.ndarray]:
    """The chunk's hands; ``factories`` build the two strategies instead of their classes
    (tournament mode's stand-ins)."""
    cls_a, cls_b = factories if factories is not None else (task.spec_a.load_class(), task.spec_b.load_class())
    pa = task.spec_a.params
    pb = task.spec_b.params
    cols = _Columns()
    copies = (0, 1) if task.duplicate else (0,)
    rules = task.rules
    if task.mode == "hands":
        seeds = deal_seeds(task.seed, task.start, task.stop)
        if task.secret:
            seeds = mix_secrets(seeds, task.secret)
        decks = check_decks(decks_for(seeds)).tolist()
        per_copy = [
            (
                copy,
                strategy_seeds(seeds, task.pairing_key, copy, 0).tolist(),
                strategy_seeds(seeds, task.pairing_key, copy, 1).tolist(),
            )
            for copy in copies
        ]
        for offset, unit in enumerate(range(task.start, task.stop)):
            deck = decks[offset]
            dealer = first_dealer(unit)
            for copy, s0, s1 in per_copy:
                strategies, seat_a = seats_for(copy, cls_a(**pa), cls_b(**pb))
                r = play_hand(rules, strategies, deck, dealer, (0, 0), (s0[offset], s1[offset]), checked=True)
                cols.add(task.pairing, unit, copy, 0, seat_a, r, (0, 0), False, -1)
                check_user_stop()
    else:
        for unit in range(task.start, task.stop):
            _play_game_unit(task, unit, copies, cls_a, cls_b, cols)
            check_user_stop()
    return cols.arrays()


def _play_game_unit(
    task: ChunkTask, unit: int, copies: tuple[int, ...], cls_a: type[Strategy], cls_b: type[Strategy], cols: _Columns
) -> None:
    """One game (twice with duplicate deals): the h-th hand of both copies uses the same deck."""
    seeds: list[int] = []
    decks: list[list[int]] = []

    def deck(h: int) -> list[int]:
        while len(decks) <= h:  # draw decks in batches as the game goes on
            more = [game_deal_seed(task.seed, unit, i) for i in range(len(decks), len(decks) + 8)]
            if task.secret:
                more = [mix_secret(s, task.secret) for s in more]
            seeds.extend(more)
            decks.extend(check_decks(decks_for(more)).tolist())
        return decks[h]

    for copy in copies:
        strategies, seat_a = seats_for(copy, cls_a(**task.spec_a.params), cls_b(**task.spec_b.params))

        def hand_seeds(h: int, copy: int = copy) -> tuple[int, int]:
            deck(h)
            return (
                strategy_seed(seeds[h], task.pairing_key, copy, 0),
                strategy_seed(seeds[h], task.pairing_key, copy, 1),
            )

        game = play_game(task.rules, strategies, deck, first_dealer(unit), hand_seeds, checked=True)
        scores = [0, 0]
        last = len(game.hands) - 1
        for h, r in enumerate(game.hands):
            before = (scores[0], scores[1])
            if r.winner >= 0 and r.outcome != "forfeit":
                scores[r.winner] += r.points
            cols.add(task.pairing, unit, copy, h, seat_a, r, before, h == last, game.winner if h == last else -1)
