"""The hand and game records of a run folder: their columns, dtypes and Parquet schemas,
the outcome codes, the files of a chunk, and reading them.

A run folder holds ``manifest.json`` (what was played, by which command, on what
machine: a ``Manifest``, ginsim.runfolder.manifest, whose names this module re-exports)
and ``hands/`` (the hand log: one Parquet file per chunk, named
``p<pairing>-c<chunk>.parquet``), with each chunk's game records in ``games/`` (game mode)
and its forfeits' records in ``forfeits/``. Which chunk files count is checked in
ginsim.runfolder.chunks; they are written by ginsim.runfolder.writing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ginsim.engine.playhand import OUTCOMES
from ginsim.runfolder.manifest import (
    MANIFEST,
    Manifest,
    PairingRecord,
    RunKind,
    RunStatus,
    StrategyRecord,
    read_manifest,
    write_json_atomic,
    write_manifest,
)
from ginsim.runfolder.timing import read_timing, summarize_timing

if TYPE_CHECKING:
    import pandas as pd

__all__ = [  # the manifest's names are part of the run-folder format (ginsim.runfolder.manifest)
    "MANIFEST",
    "Manifest",
    "PairingRecord",
    "RunKind",
    "RunStatus",
    "StrategyRecord",
    "read_manifest",
    "read_timing",
    "summarize_timing",
    "write_json_atomic",
    "write_manifest",
]

HANDS_DIR = "hands"
GAMES_DIR = "games"  # game mode: the game records of each chunk
FORFEITS_DIR = "forfeits"  # each forfeit's traceback and view, per chunk (JSON lines)


OUTCOME_CODE: dict[str, int] = {name: i for i, name in enumerate(OUTCOMES)}
"""Outcome name -> its code in the hand log (the order of ``OUTCOMES``)."""


COLUMNS: dict[str, str] = {
    "pairing": "uint16",
    "deal": "uint32",  # deal index (hand mode) or game index (game mode)
    "copy": "uint8",  # 0, or 1 for the seat-swapped replay of a duplicate deal
    "game_hand": "uint16",  # hand number within its game (0 in hand mode)
    "seat_a": "uint8",  # the seat the pairing's first strategy sat in
    "dealer": "uint8",
    "outcome": "uint8",  # index into OUTCOMES
    "knocker": "int8",
    "winner": "int8",
    "points": "int16",
    "knocker_deadwood": "int8",
    "defender_deadwood_before": "int16",
    "defender_deadwood_after": "int16",
    "layoff_cards": "int8",
    "turns": "int16",
    "stock_left": "int8",
    "score_0": "int16",  # seat scores before the hand (game mode)
    "score_1": "int16",
    "game_end": "bool",  # the hand that ended its game (game mode)
    "game_winner": "int8",  # on that hand: the game's winning seat, -1 undecided
    "forfeit_seat": "int8",
}
"""The hand log's columns and dtypes; ``forfeit_reason`` (text) is kept apart."""

RESULT_COLUMNS = (
    "outcome",
    "knocker",
    "winner",
    "points",
    "knocker_deadwood",
    "defender_deadwood_before",
    "defender_deadwood_after",
    "layoff_cards",
    "turns",
    "stock_left",
    "dealer",
    "forfeit_seat",
)
"""The hand log's columns that are fields of the hand's ``HandResult`` (read by name)."""

GAME_COLUMNS: dict[str, str] = {
    "pairing": "uint16",
    "deal": "uint32",  # the game index
    "copy": "uint8",
    "seat_a": "uint8",
    "hands": "uint16",  # hands played, drawn ones included
    "winner": "int8",  # the winning seat, -1 undecided
    "forfeit": "bool",  # the game ended on a forfeit
    "points_0": "int16",  # hand points only (no boxes or bonuses)
    "points_1": "int16",
    "boxes_0": "uint16",  # hands won (R31)
    "boxes_1": "uint16",
    "total_0": "int32",  # with boxes, game bonus and shutout (R31-R33)
    "total_1": "int32",
    "shutout": "bool",
}
"""The game records' columns (game mode): one row per game played, stored beside the
chunk's hand records; in a chunk's arrays each is named ``game:<column>``."""
GAME_PREFIX = "game:"


# -- files -----------------------------------------------------------------------------
def chunk_path(folder: Path, pairing: int, chunk: int) -> Path:
    """The hand file of chunk ``chunk`` of pairing ``pairing``."""
    return folder / HANDS_DIR / f"p{pairing:04d}-c{chunk:06d}.parquet"


def games_path(hands_path: Path) -> Path:
    """The game file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / GAMES_DIR / hands_path.name


def forfeits_path(hands_path: Path) -> Path:
    """The forfeit file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / FORFEITS_DIR / (hands_path.name.removesuffix(".parquet") + ".jsonl")


def hand_table(arrays: dict[str, np.ndarray]) -> Any:
    """A chunk's hand records as the pyarrow table its hand file holds."""
    import pyarrow as pa

    cols: dict[str, Any] = {}
    for name in COLUMNS:
        if name == "outcome":
            cols[name] = pa.DictionaryArray.from_arrays(
                pa.array(arrays[name].astype(np.int8)), pa.array(list(OUTCOMES))
            )
        else:
            cols[name] = pa.array(arrays[name])
    cols["forfeit_reason"] = pa.array(arrays["forfeit_reason"].tolist(), type=pa.string()).dictionary_encode()
    return pa.table(cols)


def games_table(arrays: dict[str, np.ndarray]) -> Any:
    """A chunk's game records (the ``game:`` arrays) as the pyarrow table its game file holds."""
    import pyarrow as pa

    return pa.table({name: pa.array(arrays[GAME_PREFIX + name]) for name in GAME_COLUMNS})


_SCHEMAS: dict[str, Any] = {}


def hand_schema() -> Any:
    """The schema every hand file has (built once)."""
    if "hands" not in _SCHEMAS:
        empty = {name: np.zeros(0, dtype=dtype) for name, dtype in COLUMNS.items()}
        empty["forfeit_reason"] = np.zeros(0, dtype=object)
        _SCHEMAS["hands"] = hand_table(empty).schema
    return _SCHEMAS["hands"]


def games_schema() -> Any:
    """The schema every game file has (built once)."""
    if "games" not in _SCHEMAS:
        empty = {GAME_PREFIX + name: np.zeros(0, dtype=dtype) for name, dtype in GAME_COLUMNS.items()}
        _SCHEMAS["games"] = games_table(empty).schema
    return _SCHEMAS["games"]


def read_games(hand_files: list[Path]) -> pd.DataFrame:
    """The game records of the chunks in ``hand_files`` (empty if the run has none)."""
    import pandas as pd
    import pyarrow.parquet as pq

    parts = []
    for f in hand_files:
        g = games_path(f)
        if g.is_file():
            parts.append(pq.ParquetFile(g).read(use_threads=False).to_pandas(use_threads=False))
    if not parts:
        return pd.DataFrame({name: pd.Series(dtype=dtype) for name, dtype in GAME_COLUMNS.items()})
    return pd.concat(parts, ignore_index=True)


def read_chunk(path: Path, columns: list[str] | None = None) -> pd.DataFrame:
    """One chunk file of the hand log as a pandas DataFrame (only ``columns``, if given).
    Reads the single file directly, which is about twice as fast as ``pd.read_parquet``
    for the many small files of a big run."""
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).read(columns=columns, use_threads=False).to_pandas(use_threads=False)


def outcome_codes(series: pd.Series) -> np.ndarray:
    """The ``outcome`` column as codes into ``OUTCOMES``, whether stored as codes, as the
    hand log's categories (in any order) or as text; a missing value is -1."""
    import pandas as pd

    if pd.api.types.is_integer_dtype(series.dtype):
        return series.to_numpy(dtype=np.int16)
    if isinstance(series.dtype, pd.CategoricalDtype):  # as the hand log stores it: map the few categories
        lookup = np.array([OUTCOME_CODE[str(c)] for c in series.cat.categories] + [-1], dtype=np.int16)
        return lookup[series.cat.codes.to_numpy()]  # a missing value (code -1) stays -1
    return series.astype(str).map(OUTCOME_CODE).to_numpy(dtype=np.int16)
