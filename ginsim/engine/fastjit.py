"""The fast path's hands compiled to machine code by numba (optional: ``pip install
"ginsim[jit]"``), for batches of hands of the built-in parametric policies.

``fastplay._play`` plays a hand in compiled Python (mypyc); every card mask and random
draw is still a Python object there. This module plays the same decisions over arrays of
machine words: the seats' ``SeededRandom`` streams (splitmix64 on uint64), ``simple`` /
``threshold``'s least-deadwood discard and melding-upcard test, ``random``'s choices, the
turn loop with its first-turn offer, big gin, the knock limit of each upcard and the
draw at a stock of two or ``MAX_TURNS``, step for step as ``fastplay._play`` and
``fastseat``, and the showdown of ``fastplay._finish``: the knocker's arrangement of
``MeldTables.best_melds_mask`` (the same melds, so the same lay-offs) and the defender's
least deadwood after ``layoff.best_layoff``, with the fewest cards among the best.

tests/test_fastjit.py plays batches both ways under every preset and variant and
compares every field. Without numba, or when the runner's environment says
``GINSIM_JIT=0`` (or ``GINSIM_PURE=1``; the runner tells its workers through each task's
``engine``), the worker uses ``fastplay.fast_rows``: the same hand log.

The first use on a machine compiles the kernel (a few seconds) and caches it next to
this file (numba's ``cache=True``); later processes load it from the cache.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import numpy as np

from ginsim.engine.cards import RUN_RANKS
from ginsim.engine.fastplay import ROW_FIELDS
from ginsim.engine.fastseat import FastSeat
from ginsim.engine.melds import MeldTables, tables_for
from ginsim.engine.rules import Rules

JIT_ENV = "GINSIM_JIT"
"""``GINSIM_JIT=0`` turns this kernel off (the compiled-Python fast path plays instead)."""


@cache
def _kernel() -> Any:
    """The kernel's module, or None when numba (or the module: numba refuses to load a
    ``cache=True`` module when it finds nowhere to cache it) does not import."""
    try:
        from ginsim.engine import _fastjit_kernel
    except Exception:  # noqa: BLE001 - any failure to load numba or the kernel means: no kernel
        return None
    return _fastjit_kernel


def installed() -> bool:
    """Whether the kernel (and numba) imports in this process: the worker's check."""
    return _kernel() is not None


@cache
def version() -> str | None:
    """numba's installed version without importing it (the runner's label for its
    manifest: the parent process never plays a fast-path chunk), or None."""
    from importlib import metadata, util

    if util.find_spec("numba") is None:
        return None
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def wanted() -> bool:
    """Whether this process's environment lets the kernel play: neither ``GINSIM_JIT=0``
    nor ``GINSIM_PURE=1`` (the runner reads this once per run and tells its workers)."""
    if os.environ.get(JIT_ENV, "1").strip().lower() in ("0", "no", "false", "off"):
        return False
    return os.environ.get("GINSIM_PURE", "").strip() in ("", "0")


def available() -> bool:
    """Whether this kernel plays here: numba imports and the environment wants it."""
    return wanted() and installed()


def status() -> str:
    """One line for ``ginsim bench`` and manifests."""
    v = version()
    if v is None:
        return "not installed (pip install 'ginsim[jit]')"
    if not wanted():
        return f"numba {v}, turned off ({JIT_ENV}=0 or GINSIM_PURE=1)"
    return f"numba {v}"


@cache
def _tables(max_run_length: int | None) -> tuple[np.ndarray, ...]:
    """The meld tables as int64 arrays: per suit pattern its run deadwood and runnable
    cards; packed in one word per pattern (bits 0-7, 8-18 offset by 1024, 19-31) its run
    deadwood, best removal's gain and the cards of that removal; the removal deltas per
    rank; RUN_RANKS; the runs of each pattern's least cover (up to four, 0 after the last)."""
    t: MeldTables = tables_for(max_run_length)
    run = np.asarray(t.run_deadwood, dtype=np.int64)
    p = np.arange(8192)
    delta = np.stack([run[p] - run[p & ~(1 << r)] for r in range(13)])
    runs = np.zeros((8192, 4), dtype=np.int64)
    for pattern, cover in enumerate(t.suit_runs):
        runs[pattern, : len(cover)] = cover
    gain = np.asarray(t.gain, dtype=np.int64)
    packed = run | (gain + 1024) << 8 | np.asarray(t.gain_cards, dtype=np.int64) << 19
    if run.max() > 255 or not (-1024 <= gain.min() <= gain.max() < 1024):  # pragma: no cover
        raise ValueError("fastjit: a meld table does not fit its packed field")
    return (
        run,
        np.asarray(t.runnable, dtype=np.int64),
        packed,
        delta,
        np.asarray(RUN_RANKS, dtype=np.int64),
        runs,
    )


def jit_rows(
    rules: Rules,
    seats: tuple[FastSeat, FastSeat] | list[FastSeat],
    decks: np.ndarray,
    dealers: np.ndarray,
    seeds0: np.ndarray,
    seeds1: np.ndarray,
) -> np.ndarray:
    """``fastplay.fast_rows`` as an (n, len(ROW_FIELDS)) int64 array: hand ``i`` is
    ``decks[i]`` ((n, 52) card ints, checked by the caller) dealt by ``dealers[i]`` with
    seat seeds ``(seeds0[i], seeds1[i])``."""
    play_batch = _kernel().play_batch
    kinds = np.array([s.kind for s in seats], dtype=np.int64)
    knock_at = np.array([s.knock_at for s in seats], dtype=np.int64)
    chances = np.array([[s.take_chance, s.knock_chance] for s in seats], dtype=np.float64)
    limits = np.array([rules.hand_knock_limit(c) for c in range(52)], dtype=np.int64)
    mults = np.array([rules.hand_multiplier(c) for c in range(52)], dtype=np.int64)
    mrl = rules.max_run_length
    flags = np.array(
        [rules.big_gin_bonus is not None, not rules.allow_discard_of_drawn_upcard, -1 if mrl is None else mrl],
        dtype=np.int64,
    )
    bonuses = np.array(
        [rules.big_gin_bonus or 0, rules.gin_bonus, rules.undercut_bonus, rules.undercut_on_tie], dtype=np.int64
    )
    out = np.empty((len(decks), len(ROW_FIELDS)), dtype=np.int64)
    play_batch(
        np.ascontiguousarray(decks, dtype=np.int64),
        np.ascontiguousarray(dealers, dtype=np.int64),
        np.ascontiguousarray(seeds0, dtype=np.uint64),
        np.ascontiguousarray(seeds1, dtype=np.uint64),
        kinds,
        knock_at,
        chances,
        limits,
        mults,
        flags,
        bonuses,
        _tables(mrl),
        out,
    )
    return out
