"""What the analysis needs from each chunk, taken from the chunks as the runner writes them.

The statistics (``stats.read_sums``) and the charts' counts (``logcounts.read_log_counts``)
each read every chunk file of a run. When the same process has just played the run, the
runner hands each chunk's table to a ``RunDigest`` right after writing it; the digest
reduces it at once with the very functions the readers use (``stats.chunk_sums``,
``logcounts.count_chunk``) and keeps only those small per-chunk results, so the analysis
of a freshly played run reads no chunk file, whatever the size of its hand log.

A part is used only for the file it was made from, unchanged since (same size and
modification time); any other chunk file (one played by an earlier session of a
resumed run, say) is read as before. The figures are the same either way: the parts
are combined in the hand log's file order, exactly as the readers combine them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginsim.analysis.logcounts import LOG_COUNT_COLUMNS, LogCounts, count_chunk
from ginsim.runfolder.records import PairingRecord


@dataclass(frozen=True)
class ChunkPart:
    """One chunk file's share of the figures."""

    stamp: tuple[int, int]  # (size, mtime_ns) of the file it was made from
    sums: dict[tuple[int, int], dict[str, float]]
    reasons: dict[tuple[int, int], list[str]]
    counts: LogCounts | None  # this chunk's counts for the charts, or None when no charts are drawn


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class RunDigest:
    """Per-chunk parts of a run's figures, by chunk file; ``counts`` also takes the
    charts' counts (only when charts will be drawn)."""

    def __init__(self, pairings: list[PairingRecord], counts: bool = True) -> None:
        self.labels = {int(p.index): (p.label_a, p.label_b) for p in pairings}
        self.counts = counts
        self._parts: dict[Path, ChunkPart] = {}

    def add(self, path: Path, table: Any) -> None:
        """Reduce the chunk just written to ``path`` from its pyarrow ``table`` (the one
        written). Never fails the run: a chunk it cannot take is simply read later."""
        try:
            self._parts[Path(path)] = self._part(Path(path), table)
        except Exception:  # noqa: BLE001 - the analysis then reads this chunk's file
            self._parts.pop(Path(path), None)

    def _part(self, path: Path, table: Any) -> ChunkPart:
        from ginsim.analysis.stats import LOG_COLUMNS, chunk_sums

        stamp = _stamp(path)
        if stamp is None:
            raise OSError(f"{path}: not written")
        names = list(dict.fromkeys(LOG_COLUMNS))
        counts = None
        if self.counts:
            names += [c for c in LOG_COUNT_COLUMNS if c not in names]
        # the same frame ``records.read_chunk`` gives for these columns of the file
        df = table.select(names).to_pandas(use_threads=False)
        sums, reasons = chunk_sums(df[LOG_COLUMNS])
        if self.counts:
            counts = LogCounts()
            count_chunk(counts, df[LOG_COUNT_COLUMNS], self.labels)
        return ChunkPart(stamp, sums, reasons, counts)

    def part(self, path: Path, need_counts: bool = False) -> ChunkPart | None:
        """The part of chunk file ``path`` if it is still the file it was made from."""
        p = self._parts.get(Path(path))
        if p is None or (need_counts and p.counts is None):
            return None
        return p if _stamp(path) == p.stamp else None

    def __len__(self) -> int:
        return len(self._parts)
