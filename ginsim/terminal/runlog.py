"""A run folder's hand log as rows by number (the numbering of ``ginsim replay --hand N``),
and what the chunk of a row recorded of the hard limit (ginsim.run.hardlimit)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import forfeits_path, read_manifest


class RunLog:
    """A run folder's manifest and hand log; row ``n`` is the n-th row of the chunk files
    in name order (pairing, then chunk), rows in file order. Reads one file at a time."""

    def __init__(self, folder: Path) -> None:
        import pyarrow.parquet as pq

        self.folder = folder
        self.manifest = read_manifest(folder)
        self.files = chunk_files(folder)
        self.counts: list[int] = []
        for f in self.files:
            try:
                self.counts.append(pq.ParquetFile(f).metadata.num_rows)
            except Exception as e:  # noqa: BLE001 - any unreadable file is one line
                raise RunError(f"{f}: cannot read it ({type(e).__name__}: {e})") from None
        self._cached: tuple[int, list[dict[str, Any]]] = (-1, [])

    def __len__(self) -> int:
        return sum(self.counts)

    def row(self, n: int) -> dict[str, Any]:
        total = len(self)
        if total == 0:
            raise RunError(f"{self.folder}: the hand log is empty (no finished chunk in hands/)")
        if not 0 <= n < total:
            raise RunError(f"--hand {n}: the log of {self.folder} has {total} hands, numbered 0 to {total - 1}")
        i, n = self.locate(n)
        if self._cached[0] != i:
            import pyarrow.parquet as pq

            try:
                self._cached = (i, pq.read_table(self.files[i]).to_pylist())
            except Exception as e:  # noqa: BLE001
                raise RunError(f"{self.files[i]}: cannot read it ({type(e).__name__}: {e})") from None
        return self._cached[1][n]

    def locate(self, n: int) -> tuple[int, int]:
        """Which chunk file holds row ``n`` of the log, and its row there."""
        i = 0
        while n >= self.counts[i]:
            n -= self.counts[i]
            i += 1
        return i, n

    def hard_limits(self, n: int) -> dict[tuple[int, int, int], tuple[int, float]]:
        """The decisions of row ``n``'s chunk whose process was ended at the hard limit
        (ginsim.run.hardlimit), by (deal, copy, hand of the game): the call of the hand
        that timed out unasked, and the limit; from the chunk's forfeit records."""
        path = forfeits_path(self.files[self.locate(n)[0]])
        out: dict[tuple[int, int, int], tuple[int, float]] = {}
        try:
            lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
            for line in lines:
                rec = json.loads(line)
                if "hard_limit_call" in rec:
                    key = (int(rec["deal"]), int(rec["copy"]), int(rec["game_hand"]))
                    out[key] = (int(rec["hard_limit_call"]), float(rec["hard_limit_s"]))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise RunError(f"{path}: cannot read its forfeit records ({type(e).__name__}: {e})") from None
        return out
