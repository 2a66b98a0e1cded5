"""The figures of ``ginsim bench``, one function each: meld search, the general engine, the
runner, the fast path and numba's kernel, the knock sweep and tournament mode.

Each figure is measured after a warm-up, over several repetitions, and the median is
reported. The meld figures use a fixed, seeded set of hands taken from real
``simple`` vs ``simple`` games (in-game hands hold more melds than random deals, so they
are the honest workload); the runner figures play real runs into a temporary folder,
written exactly as ``ginsim match`` writes them.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.engine import fastjit
from ginsim.engine.cards import Card
from ginsim.engine.fastplay import fast_hands
from ginsim.engine.melds import DEFAULT_TABLES
from ginsim.engine.playhand import play_hand
from ginsim.engine.policy import FastPolicy
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.run.fastchunk import fast_policy
from ginsim.run.options import Engine
from ginsim.run.plan import plan_match
from ginsim.run.runner import RunOptions, run_plan
from ginsim.run.seeding import check_decks, deal_seed, deal_seeds, deck_for, decks_for
from ginsim.run.sizes import DEFAULT_CHUNK_HANDS

BENCH_SEED = 20261129


def _simple() -> type[Strategy]:
    """The ``simple`` strategy's class, found by name like any strategy."""
    return parse_spec("simple").load_class()


class _Recorder(Strategy):
    """``simple`` that notes each 11-card hand it holds and the 10 cards it keeps."""

    def __init__(self, eleven: list[int], ten: list[int]) -> None:
        self.inner = _simple()()
        self.eleven = eleven
        self.ten = ten

    def take_upcard(self, view: PlayerView) -> bool:
        return self.inner.take_upcard(view)

    def discard(self, view: PlayerView) -> Card:
        card = self.inner.discard(view)
        self.eleven.append(view.hand)
        self.ten.append(view.hand & ~(1 << card))
        return card

    def knock(self, view: PlayerView) -> bool:
        return self.inner.knock(view)


def in_game_hands(n: int, seed: int = BENCH_SEED) -> tuple[list[int], list[int]]:
    """At least ``n`` 10-card and 11-card hands from seeded simple-vs-simple games."""
    eleven: list[int] = []
    ten: list[int] = []
    rules = Rules()
    i = 0
    while len(ten) < n:
        rec: tuple[Strategy, Strategy] = (_Recorder(eleven, ten), _Recorder(eleven, ten))
        s = deal_seed(seed, i)
        play_hand(rules, rec, deck_for(s), i % 2, seeds=(s, s + 1))
        i += 1
    return ten[:n], eleven[:n]


def rate(work: Callable[[], int], seconds: float, reps: int) -> float:
    """Median items per second of ``work`` (which returns how many items it did)."""
    return rates(work, seconds, reps)[0]


def rates(work: Callable[[], int], seconds: float, reps: int) -> tuple[float, float]:
    """Median items per second of ``work`` by the wall clock, and per second of this
    process's CPU time (what one core does when other work shares the machine)."""
    work()  # warm-up
    wall, cpu = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        c0 = time.process_time()
        done = 0
        while True:
            done += work()
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds / reps:
                break
        wall.append(done / elapsed)
        cpu.append(done / max(time.process_time() - c0, 1e-9))
    return statistics.median(wall), statistics.median(cpu)


def bench_melds(seconds: float, reps: int, hands: int = 20_000) -> tuple[float, float]:
    ten, eleven = in_game_hands(hands)
    deadwood = DEFAULT_TABLES.deadwood_mask
    best_discard = DEFAULT_TABLES.best_discard_mask

    def dw() -> int:
        for h in ten:
            deadwood(h)
        return len(ten)

    def bd() -> int:
        for h in eleven:
            best_discard(h)
        return len(eleven)

    return rate(dw, seconds, reps), rate(bd, seconds, reps)


def bench_engine(seconds: float, reps: int, deals: int = 500) -> float:
    """simple vs simple hands per second through play_hand, fresh strategies each hand."""
    rules = Rules()
    seeds = deal_seeds(BENCH_SEED, 0, deals)
    # as the runner does: the decks of a chunk are checked at once, not one per hand
    decks = list(zip(check_decks(decks_for(seeds)).tolist(), seeds.tolist(), strict=True))
    simple = _simple()

    def work() -> int:
        for i, (deck, s) in enumerate(decks):
            play_hand(rules, (simple(), simple()), deck, i % 2, seeds=(s, s ^ 1), checked=True)
        return len(decks)

    return rate(work, seconds, reps)


def bench_runner(
    jobs: int,
    hands: int,
    reps: int,
    a: str = "simple",
    engine: Engine = Engine.GENERAL,
    isolate: bool = False,
    chunk: int | None = None,
) -> float:
    """Hands per second of ``ginsim match A simple`` through the runner, results
    written to Parquet in a temporary folder (the median of ``reps`` runs after one
    warm-up run, which also starts the worker processes). ``engine`` "general" plays
    every hand through ``play_hand``; "auto" and "compiled" let the fast path play them.
    ``isolate``: tournament mode, each strategy in its own confined process; ``chunk``:
    deals per chunk (None: the default for the run's size)."""

    rates = []
    opts = RunOptions(jobs=jobs, quiet=True, command="ginsim bench", engine=engine)
    with tempfile.TemporaryDirectory(prefix="ginsim-bench-") as tmp:
        for rep in range(reps + 1):
            seed = BENCH_SEED + rep
            plan = plan_match(
                a, "simple", rules=Rules(), seed=seed, hands=hands, duplicate=True, isolate=isolate, chunk=chunk
            )
            t0 = time.perf_counter()
            run_plan(plan, Path(tmp) / f"run{rep}", opts)
            elapsed = time.perf_counter() - t0
            if rep:
                rates.append(hands / elapsed)
    return statistics.median(rates)


def _fast_pair(a: str) -> tuple[FastPolicy, FastPolicy]:
    """The fast seats of ``a`` and of ``simple``, its opponent in the fast-path figures."""
    spec = parse_spec(a)
    first = fast_policy(spec.load_class(), spec.params)
    second = fast_policy(_simple(), {})
    assert first is not None and second is not None
    return first, second


def bench_fast_engine(seconds: float, reps: int, a: str = "simple", deals: int = 500) -> float:
    """``a`` vs simple hands per second through the fast path (``fastplay``), engine only,
    one HandResult per hand as ``bench_engine`` gets from play_hand."""
    rules = Rules()
    seeds = deal_seeds(BENCH_SEED, 0, deals)
    decks = check_decks(decks_for(seeds)).tolist()
    s0 = seeds.tolist()
    s1 = [s ^ 1 for s in s0]
    dealers = [i % 2 for i in range(deals)]
    first, second = _fast_pair(a)

    def work() -> int:
        return len(fast_hands(rules, (first, second), decks, dealers, s0, s1))

    return rate(work, seconds, reps)


def bench_jit_engine(
    seconds: float, reps: int, a: str = "simple", deals: int = 2000, engine: Engine = Engine.AUTO
) -> float | None:
    """``a`` vs simple hands per second through numba's kernel (``fastjit``), engine only,
    each hand as the hand log's row fields; None when ``engine`` is not "auto" or the
    kernel is not installed."""
    if engine != Engine.AUTO or not fastjit.installed():
        return None
    rules = Rules()
    seeds = deal_seeds(BENCH_SEED, 0, deals)
    decks = check_decks(decks_for(seeds))
    s1 = seeds ^ np.uint64(1)
    dealers = np.arange(deals, dtype=np.int64) % 2
    first, second = _fast_pair(a)

    def work() -> int:
        return len(fastjit.jit_rows(rules, (first, second), decks, dealers, seeds, s1))

    return rate(work, seconds, reps)


SWEEP_FILE = Path(__file__).resolve().parents[2] / "experiments" / "knock_sweep.toml"
SWEEP_HANDS = 100_000
"""The shipped knock sweep (threshold's knock_at 0..10 against simple) and its hands per value."""


def bench_sweep(jobs: int, hands: int | None, engine: Engine = Engine.AUTO) -> float | None:
    """Seconds for ``ginsim --engine ENGINE run experiments/knock_sweep.toml`` end to end
    (a fresh process: start-up, play, report and charts), into a temporary folder;
    ``hands`` per value through ``--hands`` (None: the file's full 100,000). None when
    this install has no experiments folder."""
    if not SWEEP_FILE.exists():
        return None
    with tempfile.TemporaryDirectory(prefix="ginsim-bench-") as tmp:
        cmd = [sys.executable, "-m", "ginsim", "--engine", str(engine), "run", str(SWEEP_FILE)]
        cmd += ["--jobs", str(jobs), "-q", "--out", tmp + "/s"]
        if hands is not None:
            cmd += ["--hands", str(hands)]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t0


def bench_tournament(general: float, seconds: float, reps: int, note: Callable[[str], None]) -> dict[str, Any]:
    """Tournament mode's hands/s for simple vs simple through the runner (--jobs 1), and
    its share of the general engine's in-process figure (``general``, the same measured
    run for run). None, with the reason, where bots cannot be started here."""
    from ginsim.errors import RunError
    from ginsim.tournament.processes import preflight

    try:
        preflight()
    except RunError as e:
        return {"tournament_per_s_1job": None, "tournament_share": None, "tournament_note": str(e)}
    # sized for the share it aims at (a tenth of the general engine's speed), so a rep takes
    # about the time the others do; the bots' processes start within each rep's run. One
    # chunk, as a long run's chunks are (DEFAULT_CHUNK_HANDS): a chunk's deals are the
    # tables the referee plays at once, and a small run's default chunks are small
    hands = max(100, int(general * seconds / reps / 10) // 2 * 2)
    note(f"tournament mode: {hands:,} hands with 1 job, one chunk ...")
    rate = bench_runner(1, hands, reps, isolate=True, chunk=min(hands, DEFAULT_CHUNK_HANDS) // 2)
    return {"tournament_per_s_1job": rate, "tournament_share": rate / general}
