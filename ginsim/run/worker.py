"""Play one chunk of a run and return its hand records as compact numpy columns.

This is what each process runs. It rebuilds the strategies from their specs, derives
every deck and random stream from the master seed (so a chunk's records depend only on
which deals it covers), and plays each deal once or, with duplicate deals, twice with
the strategies' seats swapped. Each hand gets fresh strategy instances (each game, in
game mode), so nothing carries over from one deal to the next and chunk boundaries
cannot change a result.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from ginsim.engine.fastplay import play_fast_game
from ginsim.engine.game import MAX_HANDS_PER_GAME, GameResult, run_game
from ginsim.engine.guard import check_user_stop, guarded
from ginsim.engine.playhand import FORFEIT, HandResult, play_hand
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules
from ginsim.engine.strategy import Strategy
from ginsim.run.columns import Columns
from ginsim.run.fastchunk import fast_hand_columns, fast_path_reason, fast_seats
from ginsim.run.hardlimit import begin_hand, forced_call, supervisable, supervised
from ginsim.run.lifetime import Seating
from ginsim.run.options import Engine
from ginsim.run.recheck import REPLAY_CHECK, check_rows
from ginsim.run.runplan import ChunkTask
from ginsim.run.seeding import (
    check_decks,
    deal_seeds,
    decks_for,
    game_deal_seed,
    mix_secret,
    mix_secrets,
    strategy_seed,
    strategy_seeds,
)
from ginsim.runfolder.forfeit_records import MAX_PER_CHUNK, forfeit_record, traced_replay
from ginsim.runfolder.timing import TIMED_EVERY, TIMING_KEY, Clock, timed_class, timing_array
from ginsim.tournament.referee import isolated_factories
from ginsim.tournament.tables import play_together


def seats_for(copy: int, a: Strategy, b: Strategy) -> tuple[tuple[Strategy, Strategy], int]:
    """The seating of one play: copy 0 puts ``a`` in seat 0, copy 1 swaps."""
    return ((a, b), 0) if copy == 0 else ((b, a), 1)


def first_dealer(unit: int) -> int:
    """Deal ``unit`` is dealt by seat ``unit % 2`` (both copies of a duplicate deal alike)."""
    return unit % 2


def play_chunk(task: ChunkTask) -> dict[str, np.ndarray]:
    """Play deals (or games) ``start..stop-1`` of one pairing; return the columns. A
    strategy's failure of any kind is a forfeit; only the user's Ctrl-C stops the chunk
    (ginsim.engine.guard). The general engine plays in a child process that is ended, and
    the chunk played again with the stuck decision timed out, when a decision outlasts the
    hard limit (ginsim.run.hardlimit). Tournament mode plays through
    ginsim.tournament.referee instead."""
    if not task.isolate and supervisable(task, general=_general(task)):
        _warm_up(task)
        return supervised(task, _in_own_folder)  # type: ignore[return-value]
    return _in_own_folder(task)


_WARM: list[bool] = []  # non-empty once this process has warmed up


def _warm_up(task: ChunkTask) -> None:
    """Derive one deal's deck and seeds here, before the process's first chunk player is
    forked: what that imports and compiles (numba's seed kernels) is then done once in
    this process, not again in each player it forks. Later chunks skip it."""
    if _WARM:
        return
    _WARM.append(True)
    seeds = deal_seeds(task.seed, task.start, task.start + 64)  # 64: the most numba's kernels are used for
    check_decks(decks_for(seeds[:1]))
    strategy_seeds(seeds, task.pairing_key, 0, 0, task.engine == Engine.AUTO)


def _general(task: ChunkTask) -> bool:
    """Whether the general engine plays this chunk (strategy code runs)."""
    return bool(fast_path_reason(task.rules, task.spec_a.load_class(), task.spec_b.load_class(), task.engine))


def _in_own_folder(task: ChunkTask) -> dict[str, np.ndarray]:
    """The chunk, with the working folder the same after it as before, whatever a
    strategy did to it (a worker process plays the next chunk's relative spec paths from it),
    and with one thread in each BLAS and OpenMP pool while it plays: a strategy's matrix
    products are a decision's few rows, where more threads only contend with the run's other
    processes (ginsim runs in parallel by processes, ``--jobs``)."""
    cwd = os.getcwd()
    try:
        with threadpool_limits(limits=1):
            return _guarded_chunk(task)
    finally:
        if os.getcwd() != cwd:
            os.chdir(cwd)


def _guarded_chunk(task: ChunkTask) -> dict[str, np.ndarray]:
    if task.isolate:
        limits = dict(task.bot_limits) if task.bot_limits else None
        specs = (task.spec_a, task.spec_b)
        copies = (0, 1) if task.duplicate else (0,)
        with isolated_factories(specs, task.rules, task.decision_limit, limits, task.pairing_key, copies) as for_copy:
            return _play_chunk(task, for_copy)
    with guarded(task.decision_limit, task.rules.time_per_hand):
        return _play_chunk(task)


def _play_chunk(task: ChunkTask, for_copy: Callable[[int], tuple[Any, Any]] | None = None) -> dict[str, np.ndarray]:
    """The chunk's hands; ``for_copy(copy)`` gives the two factories that build the
    strategies of that copy instead of their classes (tournament mode's stand-ins, a
    process per strategy and copy)."""
    isolated = for_copy is not None
    if for_copy is None:
        classes = (task.spec_a.load_class(), task.spec_b.load_class())
        for_copy = lambda _copy: classes  # noqa: E731 - the same classes for both copies
    cls_a, cls_b = for_copy(0)
    cols = Columns(traced=True)
    copies = (0, 1) if task.duplicate else (0,)
    rules = task.rules
    fast = fast_seats(task, cls_a, cls_b)
    clocks = None
    timed_for_copy = for_copy  # a forfeit's traced replay and the replay check: not timed
    if fast is None and not isolated:  # the general engine: a sample's decisions timed (ginsim.runfolder.timing)
        clocks = (Clock(), Clock())
        timed = (timed_class(cls_a, clocks[0]), timed_class(cls_b, clocks[1]))
        timed_for_copy = lambda _copy: timed  # noqa: E731 - the same timed classes for both copies
    seating = Seating(task, for_copy, timed_for_copy)  # fresh or kept instances (ginsim.run.lifetime)
    if task.mode == "hands":
        seeds = deal_seeds(task.seed, task.start, task.stop)
        if task.secret:
            seeds = mix_secrets(seeds, task.secret)
        deck_array = check_decks(decks_for(seeds))
        jit = task.engine == Engine.AUTO
        key = task.pairing_key
        streams = [
            (copy, strategy_seeds(seeds, key, copy, 0, jit), strategy_seeds(seeds, key, copy, 1, jit))
            for copy in copies
        ]
        if fast is not None:
            return fast_hand_columns(task, fast, deck_array, streams)
        decks = deck_array.tolist()
        per_copy = [(copy, s0.tolist(), s1.tolist()) for copy, s0, s1 in streams]

        def play_deal(offset: int, into: Columns, seats: Seating, which: slice = slice(None)) -> None:
            unit = task.start + offset
            deck = decks[offset]
            dealer = first_dealer(unit)
            for copy, s0, s1 in per_copy[which]:
                a, b = seats.sides(copy, unit % TIMED_EVERY == 0)
                seats.tell(a, b, "new_hand", unit)
                strategies, seat_a = seats_for(copy, a, b)
                seat_seeds = (s0[offset], s1[offset])
                begin_hand(unit, copy)
                r = play_hand(rules, strategies, deck, dealer, (0, 0), seat_seeds, checked=True)
                into.add(task.pairing, unit, copy, 0, seat_a, r, (0, 0), False, -1)
                if r.outcome == FORFEIT:
                    again = partial(_hand_again, rules, deck, dealer, seat_seeds, (unit, copy))
                    into.later(partial(_trace, task, seats, r, unit, copy, 0, seat_a, again))

        def play_copy(i: int, into: Columns) -> None:  # one copy of one deal
            play_deal(i // len(copies), into, seating, slice(i % len(copies), i % len(copies) + 1))

        _play_units(task, isolated, cols, play_copy)
    else:

        def play_game_copy(i: int, into: Columns) -> None:  # one copy of one game
            unit = task.start + i // len(copies)
            copy = copies[i % len(copies)]
            _play_game_unit(task, unit, (copy,), seating, unit % TIMED_EVERY == 0, into, fast)

        _play_units(task, isolated, cols, play_game_copy)

    def replay_first(into: Columns) -> None:
        """The chunk's first deal (both copies) or game (copy 0) again, by new instances
        (kept ones too: they were new at the chunk's start), untimed."""
        seats = Seating(task, for_copy, for_copy)
        if task.mode == "hands":
            play_deal(0, into, seats)
        else:
            _play_game_unit(task, task.start, (0,), seats, False, into)

    out = cols.arrays()
    if clocks is not None:
        out[TIMING_KEY] = timing_array(*clocks)
    if cols.rows and fast is None and rules.time_per_hand is None:  # a clock's forfeits are the machine's
        out[REPLAY_CHECK] = np.asarray([check_rows(cols.rows, partial(_replayed, replay_first))], dtype=object)
    return out


def _play_units(task: ChunkTask, isolated: bool, cols: Columns, play: Callable[[int, Columns], None]) -> None:
    """Each copy of each deal (game) of the chunk, in order (``play(i, into)``: copy ``i %
    copies`` of unit ``i // copies``), into ``cols``; in tournament mode without the
    rules' clock, all at once as tables of their own (ginsim.tournament.tables: one round
    trip to each bot's process per many decisions), their rows then joined in order."""
    count = (task.stop - task.start) * (2 if task.duplicate else 1)
    if isolated and task.rules.time_per_hand is None:
        parts = [Columns(traced=True, deferred=True) for _ in range(count)]
        play_together(partial(play, i, parts[i]) for i in range(count))
        for part in parts:
            cols.absorb(part)
        return
    for i in range(count):
        play(i, cols)
        check_user_stop()


def _replayed(play: Callable[[Columns], None]) -> list[tuple[Any, ...]]:
    """The rows ``play`` writes into fresh columns."""
    scratch = Columns()
    play(scratch)
    return scratch.rows


def _play_game_unit(
    task: ChunkTask,
    unit: int,
    copies: tuple[int, ...],
    seating: Seating,
    timed: bool,
    cols: Columns,
    fast: tuple[FastPolicy, FastPolicy] | None = None,
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
        if fast is None:
            a, b = seating.sides(copy, timed)
            seating.tell(a, b, "new_game", unit)
            strategies, seat_a = seats_for(copy, a, b)
        else:
            seat_a = copy

        def hand_seeds(h: int, copy: int = copy) -> tuple[int, int]:
            deck(h)
            return (
                strategy_seed(seeds[h], task.pairing_key, copy, 0),
                strategy_seed(seeds[h], task.pairing_key, copy, 1),
            )

        if fast is None and seating.keeps:  # kept instances are told of each hand

            def told(h: int, sa: Any = a, sb: Any = b) -> None:
                seating.tell(sa, sb, "new_hand", h)

            game = _game(task, unit, copy, strategies, deck, hand_seeds, told)
        elif fast is None:
            game = _game(task, unit, copy, strategies, deck, hand_seeds)
        else:
            game = play_fast_game(task.rules, fast if copy == 0 else fast[::-1], deck, first_dealer(unit), hand_seeds)
        last = len(game.hands) - 1
        for h, r in enumerate(game.hands):
            before = game.running[h]  # running scores before the hand (boxes counted at once included, R31)
            cols.add(task.pairing, unit, copy, h, seat_a, r, before, h == last, game.winner if h == last else -1)
        if game.hands and game.hands[-1].outcome == FORFEIT:

            def again(pair: tuple[Strategy, Strategy], hand_seeds: Any = hand_seeds, copy: int = copy) -> HandResult:
                return _game(task, unit, copy, pair, deck, hand_seeds).hands[-1]

            cols.later(partial(_trace, task, seating, game.hands[-1], unit, copy, last, seat_a, again))
        f = game.final
        assert f is not None
        forfeit = bool(game.hands) and game.hands[-1].outcome == "forfeit"
        row = (task.pairing, unit, copy, seat_a, len(game.hands), game.winner, forfeit)
        cols.games.append((*row, *f.points, *f.boxes, *f.totals, f.shutout))


def _game(
    task: ChunkTask,
    unit: int,
    copy: int,
    pair: Any,
    deck: Callable[[int], list[int]],
    hand_seeds: Callable[[int], tuple[int, int]],
    before: Callable[[int], None] | None = None,
) -> GameResult:
    """Game ``unit``'s copy ``copy`` by the general engine (``before(h)`` runs before its
    h-th hand: kept instances told of it)."""

    def one(h: int, dealer: int, scores: tuple[int, int]) -> HandResult:
        if before is not None:
            before(h)
        begin_hand(unit, copy, h)
        return play_hand(task.rules, pair, deck(h), dealer, scores, hand_seeds(h), checked=True)

    return run_game(task.rules, first_dealer(unit), one, MAX_HANDS_PER_GAME)


def _hand_again(
    rules: Rules,
    deck: list[int],
    dealer: int,
    seeds: tuple[int, int],
    where: tuple[int, int],
    pair: tuple[Strategy, Strategy],
) -> HandResult:
    begin_hand(*where)
    return play_hand(rules, pair, deck, dealer, (0, 0), seeds, checked=True)


def _trace(
    task: ChunkTask,
    seating: Seating,
    r: HandResult,
    unit: int,
    copy: int,
    game_hand: int,
    seat_a: int,
    again: Callable[[tuple[Strategy, Strategy]], HandResult],
    cols: Columns,
    row: int,
) -> None:
    """Trace the forfeit in row ``row`` of ``cols``: played again by fresh instances."""
    fresh, _ = seats_for(copy, *seating.fresh(copy))
    _note_forfeit(cols, row, task, r, unit, copy, game_hand, seat_a, fresh, again)


def _note_forfeit(
    cols: Columns,
    row: int,
    task: ChunkTask,
    r: HandResult,
    unit: int,
    copy: int,
    game_hand: int,
    seat_a: int,
    fresh: tuple[Strategy, Strategy],
    again: Callable[[tuple[Strategy, Strategy]], HandResult],
) -> None:
    """Trace the forfeit of row ``row`` of ``cols`` by playing it again with ``again``
    and the ``fresh`` strategies, seated (ginsim.runfolder.forfeit_records)."""
    where: dict[str, Any] = {"pairing": task.pairing, "deal": unit, "copy": copy, "game_hand": game_hand}
    where["chunk_row"] = row
    forced = forced_call(unit, copy, game_hand)
    if forced is not None:  # its process was ended there: ``ginsim replay`` times that call out too
        where["hard_limit_call"], where["hard_limit_s"] = forced
    specs = (task.spec_a.text, task.spec_b.text) if seat_a == 0 else (task.spec_b.text, task.spec_a.text)
    if len(cols.forfeits) >= MAX_PER_CHUNK:
        cols.forfeits.append(forfeit_record(r, None, None, where, specs))
        return
    replayed, seats = traced_replay(fresh, again)
    cols.forfeits.append(forfeit_record(r, replayed, seats, where, specs))
