"""Writing a chunk into a run folder: its hand file, game records, forfeit details, decision
times and checksum record, in an order that leaves a hand file under its final name only
when the whole chunk is there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ginsim.errors import RunError
from ginsim.runfolder import integrity
from ginsim.runfolder.atomic import atomic_path, describe_os_error
from ginsim.runfolder.forfeit_files import write_forfeit_details
from ginsim.runfolder.records import GAME_PREFIX, games_path, games_table, hand_table
from ginsim.runfolder.timing import write_timing


def write_chunk(path: Path, arrays: dict[str, np.ndarray], run: str, secret: bytes = b"") -> Any:
    """Write one chunk's records to Parquet atomically (temporary name, then rename): the
    game records first (game mode), then the checksum record, then the hand file, so a
    hand file under its final name means the whole chunk is there. ``run`` is the run's
    key (``integrity.chunk_key`` of the manifest's identity and the chunk's pairing);
    ``secret``, a tournament run's, keys the checksum record. Returns the pyarrow table
    written (the hand file's)."""
    import pyarrow.parquet as pq

    table = hand_table(arrays)
    games = write_game_records(path, arrays)
    write_forfeit_details(path, arrays)  # the forfeits' tracebacks, before the hand file too
    write_timing(path, arrays)  # the decisions' times (ginsim.runfolder.timing)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
        integrity.write_sum(path, run, table.num_rows, tmp, games, secret)
    return table


def write_game_records(hands_path: Path, arrays: dict[str, np.ndarray]) -> Path | None:
    """Write a chunk's game records, if it has any, atomically (temporary name, rename);
    returns the file written, or None in hand mode."""
    if GAME_PREFIX + "winner" not in arrays:
        return None
    import pyarrow.parquet as pq

    path = games_path(hands_path)
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as e:
        raise RunError(f"{path.parent}: cannot create it ({describe_os_error(e)})") from None
    table = games_table(arrays)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path
