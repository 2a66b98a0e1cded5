"""How long each strategy thinks: the wall time of the decisions (``take_upcard``,
``discard``, ``knock``) a strategy makes in the general engine on a sample of the deals
(every TIMED_EVERY-th: timing every decision slowed the quickest built-ins' general-engine
play by about 60%, the sample by a few percent), kept per pairing and side
as a histogram of log-spaced bins, so a chunk's record is small whatever its size and
chunks add up. Machine-dependent by nature: it is never part of a run's identity and never
changes what is played (the decisions are the strategy's own, called as the engine would).

The fast path plays the built-in policies inside the kernel, where there is no decision
to time; tournament mode's decisions cross a process boundary. Neither is timed."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.engine.strategy import DECISIONS, ENTRY_POINTS, entry_points
from ginsim.runfolder.atomic import atomic_path, make_dir
from ginsim.runfolder.integrity import parse_chunk_name

TIMED_EVERY = 16
"""Deals (games, in game mode) whose index is a multiple of this have their decisions timed."""
BINS = 256
PER_OCTAVE = 8
FLOOR = 1e-7
"""Bin ``k`` holds times in [FLOOR·2^(k/8), FLOOR·2^((k+1)/8)): 9% wide, from 0.1 µs to
about 7 minutes (the last bin takes anything longer, the first anything shorter)."""
TIMING_KEY = "timing"
"""The chunk arrays' key of its histograms: shape (2, BINS + 2), row 0 strategy a, row 1
strategy b, each its bin counts, then the sum of the times and the longest."""


class Clock:
    """One side's decision times in a chunk."""

    def __init__(self) -> None:
        self.counts = [0] * BINS
        self.total = 0.0
        self.longest = 0.0

    def add(self, seconds: float) -> None:
        k = int(PER_OCTAVE * math.log2(seconds / FLOOR)) if seconds > FLOOR else 0
        self.counts[min(max(k, 0), BINS - 1)] += 1
        self.total += seconds
        if seconds > self.longest:
            self.longest = seconds

    def row(self) -> list[float]:
        return [float(c) for c in self.counts] + [self.total, self.longest]


def timed_class(cls: type, clock: Clock) -> type:
    """A subclass of strategy class ``cls`` whose decisions are ``cls``'s own, each timed
    into ``clock``. It is made in ginsim's name, so no registry of named classes sees it."""
    body: dict[str, Any] = {"__module__": __name__, "__qualname__": cls.__qualname__}
    entries = entry_points(cls)
    perf = time.perf_counter
    add = clock.add
    for name in DECISIONS:
        fn = entries[ENTRY_POINTS.index(name)]
        if fn is None:
            continue

        def decide(self: Any, *args: Any, _fn: Callable[..., Any] = fn) -> Any:
            t0 = perf()
            try:
                return _fn(self, *args)
            finally:
                add(perf() - t0)

        decide.__name__ = name
        body[name] = decide
    return type(cls.__name__, (cls,), body)


def timing_array(a: Clock, b: Clock) -> np.ndarray:
    return np.asarray([a.row(), b.row()], dtype=np.float64)


def summarize_timing(rows: np.ndarray) -> dict[str, float]:
    """``think_decisions``, ``think_mean_us`` and ``think_p99_us`` of one side's summed
    row (bin counts, total seconds, longest): the 99th percentile is the upper edge of
    the bin that holds it (within 9%), never above the longest time seen."""
    counts = rows[:BINS]
    n = float(counts.sum())
    if n <= 0:
        return {"think_decisions": 0, "think_mean_us": math.nan, "think_p99_us": math.nan}
    k = int(np.searchsorted(np.cumsum(counts), 0.99 * n))
    edge = FLOOR * 2.0 ** ((k + 1) / PER_OCTAVE)
    p99 = min(edge, float(rows[BINS + 1]))
    return {"think_decisions": int(n), "think_mean_us": 1e6 * float(rows[BINS]) / n, "think_p99_us": 1e6 * p99}


TIMING_DIR = "timing"  # a run folder's decision times: timing/p<pairing>-c<chunk>.npy


def timing_path(hands_path: Path) -> Path:
    """The timing file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / TIMING_DIR / (hands_path.name.removesuffix(".parquet") + ".npy")


def write_timing(hands_path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write a chunk's decision-time histograms, if it has any, atomically (before its hand
    file, like its other files)."""
    rows = arrays.get(TIMING_KEY)
    if rows is None:
        return
    path = timing_path(hands_path)
    make_dir(path.parent, str(path.parent))
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        np.save(f, np.asarray(rows, dtype=np.float64))


def read_timing(hand_files: list[Path]) -> dict[tuple[int, int], np.ndarray]:
    """The summed histograms of the chunks in ``hand_files`` by (pairing, side); a chunk
    without a timing file (fast path, tournament mode, or one unreadable) adds nothing."""
    out: dict[tuple[int, int], np.ndarray] = {}
    for f in hand_files:
        parsed = parse_chunk_name(f.name)
        path = timing_path(f)
        if parsed is None or not path.is_file():
            continue
        try:
            rows = np.load(path, allow_pickle=False)
        except (OSError, ValueError):
            continue
        if rows.shape != (2, BINS + 2):
            continue
        for side in (0, 1):
            key = (parsed[0], side)
            if key in out:
                out[key][: BINS + 1] += rows[side, : BINS + 1]
                out[key][BINS + 1] = max(out[key][BINS + 1], rows[side, BINS + 1])
            else:
                out[key] = rows[side].copy()
    return out
