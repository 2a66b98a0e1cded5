"""How a run shows its progress: a tqdm bar on a terminal, and, when stderr is not one
(nohup, CI, a batch job, a notebook's log), one line at a steady interval with the hands
(or games) done of the total, the rate and the time left. ``--quiet`` shows neither."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

INTERVAL_ENV = "GINSIM_PROGRESS_EVERY"
"""Seconds between two progress lines when stderr is not a terminal (default 30)."""
DEFAULT_INTERVAL = 30.0


class Progress(Protocol):
    def update(self, n: int) -> None: ...

    def close(self) -> None: ...


class NoProgress:
    """Shows nothing (``--quiet``)."""

    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _duration(seconds: float) -> str:
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class LineProgress:
    """One line every ``interval`` seconds, written by a thread of its own so the lines
    keep their pace however long a chunk takes, and, if any was written, one at the end:
    ``ginsim: playing: 12,000 of 40,000 hands (30.0%), 2,400 hands/s, about 0:12 left``.
    A run shorter than the interval writes nothing. The rate counts this session's hands
    only (a resumed run's finished ones came free)."""

    def __init__(self, total: int, initial: int, unit: str, interval: float, write: Callable[[str], None]) -> None:
        self.total, self.done, self.unit = total, initial, unit
        self.write = write
        self.start = time.monotonic()
        self.played = 0
        self.ticks = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, args=(interval,), name="ginsim-progress", daemon=True)
        self._thread.start()

    def _tick(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.ticks += 1
            self.write(self.line())

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        share = 100.0 * self.done / self.total if self.total else 100.0
        text = f"ginsim: playing: {self.done:,} of {self.total:,} {self.unit} ({share:.1f}%)"
        if self.played and elapsed > 0:
            rate = self.played / elapsed
            left = (self.total - self.done) / rate
            text += f", {rate:,.0f} {self.unit}/s, about {_duration(left)} left"
        return text

    def update(self, n: int) -> None:
        self.done += n
        self.played += n

    def close(self) -> None:
        if self._stop.is_set():
            return
        self._stop.set()
        self._thread.join()
        if self.played and self.ticks:
            elapsed = time.monotonic() - self.start
            done = "done" if self.done >= self.total else "stopped"
            self.write(
                f"ginsim: playing: {done}: {self.done:,} of {self.total:,} {self.unit}; "
                f"{self.played:,} played in {_duration(elapsed)}"
            )


def interval_from_env() -> float:
    """The line interval: ``GINSIM_PROGRESS_EVERY`` seconds when it is a positive number."""
    try:
        value = float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return value if value > 0 else DEFAULT_INTERVAL


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def make_progress(total: int, initial: int, unit: str, quiet: bool) -> Progress:
    """The progress display for a run of ``total`` units (``initial`` already done)."""
    if quiet:
        return NoProgress()
    if not sys.stderr.isatty():
        return LineProgress(total, initial, unit, interval_from_env(), _stderr)
    from tqdm import tqdm

    bar: Any = tqdm(
        total=total,
        initial=initial,
        unit=unit[:-1],
        unit_scale=True,
        dynamic_ncols=True,
        smoothing=0.1,
        desc="playing",
        file=sys.stderr,
    )
    return bar  # type: ignore[no-any-return]
