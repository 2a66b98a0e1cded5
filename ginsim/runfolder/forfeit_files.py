"""The forfeit details of a run folder: each chunk's forfeit records (ginsim.runfolder.forfeit_records)
as JSON lines in ``forfeits/``, written beside the chunk and read back in hand-log order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.runfolder.atomic import atomic_path
from ginsim.runfolder.chunks import chunk_files
from ginsim.runfolder.records import FORFEITS_DIR, forfeits_path

FORFEIT_DETAILS = "forfeit_details"  # a chunk's arrays: the forfeits' records (JSON text each)


def write_forfeit_details(hands_path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write a chunk's forfeit records, if it has any, as JSON lines, atomically. Each
    record (ginsim.runfolder.forfeit_records) names the strategy, the hand (``chunk_row``: its row in
    the chunk), the decision, the view at the time and the traceback."""
    details = arrays.get(FORFEIT_DETAILS)
    if details is None or not len(details):
        return
    path = forfeits_path(hands_path)
    path.parent.mkdir(exist_ok=True)
    with atomic_path(path) as tmp:
        tmp.write_text("".join(str(line) + "\n" for line in details), encoding="utf-8")


def forfeit_note(folder: Path) -> str:
    """One line pointing to the forfeits' tracebacks ('' when the run has none)."""
    d = folder / FORFEITS_DIR
    files = sorted(d.glob("*.jsonl")) if d.is_dir() else []
    if not files:
        return ""
    n = sum(1 for f in files for line in f.read_text(encoding="utf-8").splitlines() if line.strip())
    return (
        f"{n} forfeit{'s' if n != 1 else ''}: each one's traceback and view are in {d}/ "
        f"(ginsim replay {folder} --first forfeit)"
    )


def read_forfeit_details(folder: Path) -> list[dict[str, Any]]:
    """Every forfeit record of a run folder's finished chunks, in hand-log order, each with
    ``row``: its row of the whole hand log (chunk files in order, as ``ginsim replay``
    counts). Chunks without forfeits have no file."""
    import pyarrow.parquet as pq

    out: list[dict[str, Any]] = []
    first = 0
    for f in chunk_files(folder):
        g = forfeits_path(f)
        if g.is_file():
            for line in g.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rec = json.loads(line)
                    rec["row"] = first + int(rec.get("chunk_row", 0))
                    rec["file"] = str(g.relative_to(folder))
                    out.append(rec)
        first += pq.ParquetFile(f).metadata.num_rows
    return out
