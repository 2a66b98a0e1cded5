"""Re-playing any hand of a run (``ginsim replay``).

A logged hand is rebuilt from the run's
manifest with the very derivations of ``ginsim.run.worker`` (deck, dealer, seats, random
streams), played again with ``play_hand(..., log=[])``, and checked against its row of
the hand log: a replay that differs is an error, never a silent story. Telling it as text
is ``ginsim.terminal.replaytext``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ginsim.engine.cards import Card
from ginsim.engine.game import MAX_HANDS_PER_GAME, Game, run_game
from ginsim.engine.guard import DEFAULT_DECISION_LIMIT, UNSET_LIMIT_NAMES, checking
from ginsim.engine.playhand import HandResult, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import StrategySpec, parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import Event
from ginsim.errors import GinsimError, RunError
from ginsim.run.codedigest import code_changes, digest_specs
from ginsim.run.hardlimit import forcing
from ginsim.run.runplan import PER_PAIRING
from ginsim.run.seeding import (
    deal_seed,
    decks_for,
    game_deal_seed,
    mix_secret,
    pairing_secret,
    strategy_seed,
    text_key,
)
from ginsim.run.worker import first_dealer, seats_for
from ginsim.runfolder.integrity import chunk_span
from ginsim.runfolder.records import RESULT_COLUMNS, PairingRecord
from ginsim.runfolder.secret import run_secret
from ginsim.terminal.recording import Decision, Recorder, recording
from ginsim.terminal.runlog import RunLog

CHECKED = RESULT_COLUMNS
"""The fields of a replayed HandResult that must equal the hand log's row."""


@dataclass
class Replay:
    """A hand of a run, played again."""

    index: int
    row: dict[str, Any]
    where: str  # pairing, deal or game, copy
    names: tuple[str, str]  # "seat 0 (simple)"
    rules: Rules
    deck: list[Card]
    dealer: int
    scores: tuple[int, int]
    result: HandResult
    log: list[Event]
    decisions: list[Decision]


@dataclass(frozen=True)
class _Deals:
    """How the worker dealt one copy of a pairing: the run's seed and mode, the pairing's
    key and deck secret, and the calls whose process the hard limit ended (timed out again)."""

    rules: Rules
    seed: int
    games: bool  # game mode: a game's hands have seeds of their own
    key: int
    copy: int
    secret: bytes
    ended: dict[tuple[int, int, int], tuple[int, float]]

    def play(
        self,
        seats: Sequence[Strategy],
        unit: int,
        h: int,
        dealer: int,
        scores: tuple[int, int],
        log: list[Event] | None = None,
    ) -> tuple[list[Card], HandResult]:
        """Deal hand ``h`` of game ``unit`` (``h`` 0 for deal ``unit``) and play it: its deck and result."""
        ds = game_deal_seed(self.seed, unit, h) if self.games else deal_seed(self.seed, unit)
        ds = mix_secret(ds, self.secret) if self.secret else ds
        deck = decks_for([ds]).tolist()[0]
        seeds = strategy_seed(ds, self.key, self.copy, 0), strategy_seed(ds, self.key, self.copy, 1)
        with forcing(*self.ended.get((unit, self.copy, h), (None, 0.0))):
            return deck, play_hand(self.rules, seats, deck, dealer, scores, seeds, log=log)


def replay_hand(
    run: RunLog, n: int, seat: int | None = None, wrap: Callable[[Strategy, int, Recorder], Strategy] | None = None
) -> Replay:
    """Rebuild row ``n`` of the log as ``ginsim.run.worker`` played it, play it again and
    check it; RunError if it cannot be rebuilt or does not match the log. ``seat``: record
    that seat's decisions (``Replay.decisions``); ``wrap(strategy, seat, recorder)`` stands
    in for each seat's strategy, ``recorder.active`` saying whether the hand being played
    is row ``n`` (a game's earlier hands are played first)."""
    row = run.row(n)
    m = run.manifest
    rules, pairing, spec_a, spec_b = _rebuilt_pairing(run, row["pairing"])
    key = text_key("pairing", pairing.a, pairing.b)
    secret = _decks_secret(run, key)
    copy, unit = row["copy"], row["deal"]
    kept = [label in m.identity.get("keep", []) for label in (pairing.label_a, pairing.label_b)]
    a, b = spec_a.build(), spec_b.build()
    deals = _Deals(rules, int(m.seed), m.hands is None, key, copy, secret, run.hard_limits(n))
    keepers = [inst for inst, keep in zip((a, b), kept, strict=True) if keep]
    if keepers:  # lifetime "match": the chunk's earlier hands first, with the same instances
        _warm_up(m, deals, (spec_a, spec_b), (a, b), kept, unit)
    strategies, seat_a = seats_for(copy, a, b)
    labels = (pairing.label_a, pairing.label_b)[:: 1 if seat_a == 0 else -1]
    names = (f"seat 0 ({labels[0]})", f"seat 1 ({labels[1]})")
    rec = Recorder()
    strategies = _watched(strategies, seat, wrap, rec)
    problems = [] if row["seat_a"] == seat_a else [f"seat_a {row['seat_a']} in the log, {seat_a} replayed"]
    log: list[Event] = []
    vs = f"pairing {row['pairing']} ({pairing.label_a} vs {pairing.label_b})"
    swapped = " (seats swapped)" if copy else ""
    for inst in keepers:
        inst.new_game(unit) if deals.games else inst.new_hand(unit)
    if not deals.games:
        where = f"{vs}, deal {unit}, copy {copy}{swapped}"
        dealer, scores = first_dealer(unit), (0, 0)
        rec.active = True
        deck, result = deals.play(strategies, unit, 0, dealer, scores, log)
    else:
        h = row["game_hand"]
        where = f"{vs}, game {unit}, copy {copy}{swapped}, hand {h + 1} of the game"  # 1-based for people
        deck, dealer, scores, result = _game_hand(
            deals, strategies, keepers, unit, h, rec, log, f"{run.folder}: hand {n}"
        )
        if scores != (row["score_0"], row["score_1"]):
            logged = f"{row['score_0']}-{row['score_1']}"
            problems.append(f"scores before the hand {logged} in the log, {scores[0]}-{scores[1]} replayed")
    problems += [
        f"{c} {row[c]} in the log, {getattr(result, c)} replayed" for c in CHECKED if row[c] != getattr(result, c)
    ]
    if problems:
        clock = " (the run used a clock: its results depend on the machine's speed)" if rules.time_per_hand else ""
        raise RunError(f"{run.folder}: hand {n} does not replay as logged: {'; '.join(problems)}{clock}")
    return Replay(n, row, where, names, rules, deck, dealer, scores, result, log, rec.decisions)


def _game_hand(
    deals: _Deals,
    strategies: tuple[Strategy, Strategy],
    keepers: list[Strategy],
    unit: int,
    h: int,
    rec: Recorder,
    log: list[Event],
    which: str,
) -> tuple[list[Card], int, tuple[int, int], HandResult]:
    """Hand ``h`` of game ``unit`` played again after the game's earlier hands, with the same
    instances (``keepers`` told of each hand): its deck, dealer, scores before it and result.
    Only hand ``h`` is recorded into ``rec`` and ``log``; RunError, naming the hand as
    ``which`` does, if the game ends before it."""
    game = Game(deals.rules, first_dealer(unit))
    for i in range(h + 1):
        dealer, scores = game.dealer, game.score_pair()
        rec.active = i == h
        for inst in keepers:
            inst.new_hand(i)
        deck, result = deals.play(strategies, unit, i, dealer, scores, log if i == h else None)
        if i == h:
            break
        game.record(result)
        if game.over:
            raise RunError(f"{which} does not replay as logged: game {unit} ends at its hand {i}")
    return deck, dealer, scores, result


def _decks_secret(run: RunLog, key: int) -> bytes:
    """The secret a tournament run (``--isolate``) mixed into its decks, that of pairing
    ``key`` where each pairing had decks of its own; empty for any other run."""
    m = run.manifest
    secret = run_secret(run.folder) if m.isolate else b""
    if secret and m.identity.get("extra", {}).get("decks") == PER_PAIRING:
        secret = pairing_secret(secret, key)
    return secret


def _watched(
    strategies: tuple[Strategy, Strategy],
    seat: int | None,
    wrap: Callable[[Strategy, int, Recorder], Strategy] | None,
    rec: Recorder,
) -> tuple[Strategy, Strategy]:
    """The seats' strategies with ``seat``'s decisions recorded into ``rec`` and each
    wrapped by ``wrap``, as ``replay_hand`` was asked."""
    if seat is not None:
        seated = list(strategies)
        seated[seat] = recording(seated[seat], rec)
        strategies = (seated[0], seated[1])
    if wrap is not None:
        strategies = (wrap(strategies[0], 0, rec), wrap(strategies[1], 1, rec))
    return strategies


def _rebuilt_pairing(run: RunLog, index: int) -> tuple[Rules, PairingRecord, StrategySpec, StrategySpec]:
    """The rules and pairing ``index`` of a run, its two strategies parsed again (bounded as
    before a run); RunError when the manifest cannot rebuild them or the strategies' code
    changed since the run was played."""
    m = run.manifest
    folder = run.folder
    try:
        rules = Rules().with_values(dict(m.rules), f"{folder}/manifest.json")
        pairing = next(p for p in m.pairings if p.index == index)
        with checking(DEFAULT_DECISION_LIMIT):  # bounded as before a run (the main thread only)
            spec_a, spec_b = parse_spec(pairing.a), parse_spec(pairing.b)
    except GinsimError as e:
        hint = ""
        if "no file" in str(e):  # a relative path.py:Class is read from the current folder
            hint = f"; run replay from {m.cwd or 'the folder the run was started in'}, where that file is"
        raise RunError(f"{folder}: cannot rebuild the run ({e.message(UNSET_LIMIT_NAMES)}{hint})") from None
    except (KeyError, TypeError, ValueError, StopIteration) as e:
        raise RunError(f"{folder}/manifest.json: cannot rebuild the run from it ({type(e).__name__}: {e})") from None
    changed = code_changes(m, digest_specs([(pairing.label_a, spec_a), (pairing.label_b, spec_b)]))
    if changed:
        raise RunError(
            f"{folder}: the code of {changed} changed since the run was played, so its hands cannot be replayed "
            "as logged; replay with the code the run was played with, or play the run again into another --out"
        )
    return rules, pairing, spec_a, spec_b


def _warm_up(
    m: Any,
    deals: _Deals,
    specs: tuple[StrategySpec, StrategySpec],
    pair: tuple[Strategy, Strategy],
    kept: list[bool],
    unit: int,
) -> None:
    """Play the hands (games) of ``unit``'s chunk before it, in order, as the worker did:
    the kept instances of ``pair`` play them all and are told of each; the other side gets
    a fresh instance each time. The pair is then ready for ``unit``."""
    start = 0
    ci = 0
    while True:  # the chunk that holds unit
        first, stop = chunk_span(m.units, m.chunk, m.bounds, ci)
        if first <= unit < stop:
            start = first
            break
        ci += 1
    keepers = [inst for inst, keep in zip(pair, kept, strict=True) if keep]
    for u in range(start, unit):
        sa, sb = (pair[0] if kept[0] else specs[0].build()), (pair[1] if kept[1] else specs[1].build())
        seats, _ = seats_for(deals.copy, sa, sb)
        if not deals.games:
            for inst in keepers:
                inst.new_hand(u)
            deals.play(seats, u, 0, first_dealer(u), (0, 0))
            continue
        for inst in keepers:
            inst.new_game(u)

        def one(h: int, dealer: int, scores: tuple[int, int], u: int = u, seats: Any = seats) -> HandResult:
            for inst in keepers:
                inst.new_hand(h)
            return deals.play(seats, u, h, dealer, scores)[1]

        run_game(deals.rules, first_dealer(u), one, MAX_HANDS_PER_GAME)
