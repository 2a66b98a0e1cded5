"""What the charts count from a run's hand log: how hands ended from each strategy's side,
hand lengths and deadwood at knock, per strategy, chunk by chunk.

Numbers only (no matplotlib): ``ginsim.analysis.logcharts`` draws them, and
``ginsim.analysis.digest`` counts each chunk with ``count_chunk`` as the runner writes it.
Reads the hand log through ``ginsim.runfolder`` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from ginsim.engine.playhand import OUTCOMES
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import PairingRecord, outcome_codes, read_chunk

ALL = "all hands"
"""The row of the hand-length counts that counts each hand once."""
# how a hand ended, from one strategy's side, in the order of the stacked bars
OUTCOME_CATEGORIES = ("knock won", "gin", "undercut made", "undercut suffered")
OUTCOME_CATEGORIES += ("lost to a knock", "lost to gin", "draw", "won by forfeit", "forfeit")
_SIDES = {  # engine outcome -> its category for (the other side knocked, this side knocked)
    "knock": ("lost to a knock", "knock won"),
    "undercut": ("undercut made", "undercut suffered"),
    "gin": ("lost to gin", "gin"),
    "big_gin": ("lost to gin", "gin"),
    "draw": ("draw", "draw"),
    "forfeit": ("won by forfeit", "won by forfeit"),  # this side's own forfeits: by forfeit_seat, below
}
_CATEGORY = np.array([[OUTCOME_CATEGORIES.index(c) for c in _SIDES[o]] for o in OUTCOMES], dtype=np.int64)
_FORFEIT = OUTCOMES.index("forfeit")
_OWN_FORFEIT = OUTCOME_CATEGORIES.index("forfeit")
LOG_COUNT_COLUMNS = ["pairing", "seat_a", "outcome", "knocker", "knocker_deadwood", "turns", "forfeit_seat"]
"""The hand log's columns ``count_chunk`` reads."""


@dataclass
class LogCounts:
    """Per-strategy counts from the hand log: how hands ended (OUTCOME_CATEGORIES), hand
    lengths (index = turns; ``ALL`` counts each hand once) and deadwood at knock (0 = gin)."""

    outcomes: dict[str, np.ndarray] = field(default_factory=dict)
    turns: dict[str, np.ndarray] = field(default_factory=dict)
    deadwood: dict[str, np.ndarray] = field(default_factory=dict)

    def frame(self, name: str, order: list[str]) -> pd.DataFrame:
        """One table (rows: strategies in ``order``) of ``outcomes``, ``turns`` or ``deadwood``."""
        d: dict[str, np.ndarray] = getattr(self, name)
        rows = [k for k in order if k in d]
        width = max((len(d[k]) for k in rows), default=0)
        data = np.array([np.pad(d[k], (0, width - len(d[k]))) for k in rows]).reshape(len(rows), width)
        cols: Any = list(OUTCOME_CATEGORIES) if name == "outcomes" else list(range(width))
        return pd.DataFrame(data, index=rows, columns=cols)


class CountedChunks(Protocol):
    """What ``read_log_counts`` asks of the chunks counted as they were written (a
    ``ginsim.analysis.digest.RunDigest``): their labels and each file's part."""

    labels: dict[int, tuple[str, str]]

    def part(self, path: Path, need_counts: bool = False) -> Any: ...


def _add(d: dict[str, np.ndarray], key: str, counts: np.ndarray) -> None:
    old = d.get(key)
    if old is None:
        d[key] = counts.astype(np.int64)
        return
    n = max(len(old), len(counts))
    d[key] = np.pad(old, (0, n - len(old))) + np.pad(counts, (0, n - len(counts)))


def read_log_counts(folder: Path, pairings: list[PairingRecord], digest: CountedChunks | None = None) -> LogCounts:
    """Count outcomes, hand lengths and knock deadwood per strategy, reading only the needed
    columns of one chunk file at a time (memory stays flat for millions of hands); a
    chunk the ``digest`` already counted (ginsim.analysis.digest) is not read again."""
    labels = {int(p.index): (p.label_a, p.label_b) for p in pairings}
    out = LogCounts()
    if digest is not None and digest.labels != labels:
        digest = None  # taken under other labels: read every chunk
    for f in chunk_files(folder):
        part = digest.part(f, need_counts=True) if digest is not None else None
        if part is not None:
            for name in ("turns", "outcomes", "deadwood"):
                mine: dict[str, np.ndarray] = getattr(part.counts, name)
                for key, counts in mine.items():
                    _add(getattr(out, name), key, counts)
            continue
        count_chunk(out, read_chunk(f, LOG_COUNT_COLUMNS), labels)
    return out


def count_chunk(out: LogCounts, df: pd.DataFrame, labels: dict[int, tuple[str, str]]) -> None:
    """Add one chunk's outcomes, hand lengths and knock deadwood to ``out``."""
    if df.empty:
        return
    code = outcome_codes(df["outcome"]).astype(np.int64)
    pairing = df["pairing"].to_numpy(dtype=np.int64)
    seat_a = df["seat_a"].to_numpy(dtype=np.int64)
    knocker = df["knocker"].to_numpy(dtype=np.int64)
    deadwood = df["knocker_deadwood"].to_numpy(dtype=np.int64).clip(0)
    turns = df["turns"].to_numpy(dtype=np.int64).clip(0)
    forfeit_seat = df["forfeit_seat"].to_numpy(dtype=np.int64)
    for p in np.unique(pairing):
        sel = pairing == p
        c, k, t = code[sel], knocker[sel], turns[sel]
        _add(out.turns, ALL, np.bincount(t))
        for side, label in enumerate(labels[int(p)]):
            seat = seat_a[sel] if side == 0 else 1 - seat_a[sel]
            mine = k == seat
            category = _CATEGORY[c, mine.astype(np.int64)]
            category[(c == _FORFEIT) & (forfeit_seat[sel] == seat)] = _OWN_FORFEIT  # a hand this side forfeited
            _add(out.outcomes, label, np.bincount(category, minlength=len(OUTCOME_CATEGORIES)))
            _add(out.turns, label, np.bincount(t))
            _add(out.deadwood, label, np.bincount(deadwood[sel][mine & (c <= 3)], minlength=11))
