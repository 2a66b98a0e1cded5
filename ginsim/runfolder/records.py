"""The run-folder format: the one module that knows how a run is stored.

A run folder holds ``manifest.json`` (what was played, by which command, on what
machine: a ``Manifest``) and ``hands/`` (the hand log: one Parquet file per chunk, named
``p<pairing>-c<chunk>.parquet``, written under a temporary name and renamed, so a file
either holds its whole chunk or does not exist, with its checksum record in
``checksums/p<pairing>-c<chunk>.sha256``: ginsim.runfolder.integrity). The runner writes
through this module; statistics, reports, charts and replays read through it and never
import the runner. Reading checks each chunk against the manifest's plan (name, checksum,
schema, rows, pairing and deals): ``scan_chunks`` sorts the files of ``hands/`` into the
good ones, the damaged ones and the foreign ones; ``chunk_files`` lists the good ones and
refuses a damaged one and warns (``RunFolderWarning``, one line each) about foreign ones,
which are never counted.
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ginsim.engine.playhand import OUTCOMES
from ginsim.errors import RunError
from ginsim.runfolder import integrity
from ginsim.runfolder.atomic import TMP_MARK, atomic_path, describe_os_error
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
from ginsim.runfolder.secret import run_secret
from ginsim.runfolder.timing import read_timing, summarize_timing, timing_path, write_timing

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
FORFEIT_DETAILS = "forfeit_details"  # a chunk's arrays: the forfeits' records (JSON text each)


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
class RunFolderWarning(UserWarning):
    """A file of a run folder that is not counted: damaged, foreign, or left over."""


def chunk_path(folder: Path, pairing: int, chunk: int) -> Path:
    return folder / HANDS_DIR / f"p{pairing:04d}-c{chunk:06d}.parquet"


@dataclass
class ChunkScan:
    """The files of a run folder's ``hands/``, checked against its manifest's plan."""

    good: list[Path] = field(default_factory=list)  # verified chunks, in (pairing, chunk) order
    damaged: list[tuple[Path, str]] = field(default_factory=list)  # planned names failing a check: why
    foreign: list[Path] = field(default_factory=list)  # anything else (never read)

    def warn(self) -> None:
        for path in self.foreign:
            warnings.warn(f"{path}: not a chunk of this run's plan, ignored", RunFolderWarning, stacklevel=3)


_VERIFIED: dict[tuple[Any, ...], str | None] = {}
"""Checks already made in this process, keyed by the files' identity and times (the
analysis lists the chunks more than once)."""


def scan_chunks(folder: Path, manifest: Manifest | None = None) -> ChunkScan:
    """Check every file of ``folder/hands`` against the plan of ``manifest`` (read from the
    folder if not given): a planned chunk whose file, checksum record, schema, rows,
    pairing or deals are wrong is damaged; a file of any other name is foreign (temporary
    files of writes in progress are neither)."""
    scan = ChunkScan()
    d = folder / HANDS_DIR
    if not d.is_dir() or not (folder / MANIFEST).is_file():
        return scan
    m = manifest if manifest is not None else read_manifest(folder)
    per = integrity.chunks_per_pairing(m.units, m.chunk, m.bounds)
    secret = run_secret(folder) if m.isolate else b""  # keys the checksum records of tournament runs
    found: list[tuple[int, int, Path]] = []
    try:
        names = sorted(os.listdir(d))
    except OSError as e:
        raise RunError(f"{d}: cannot read it ({describe_os_error(e)})") from None
    for name in names:
        path = d / name
        parsed = integrity.parse_chunk_name(name)
        if parsed is not None:
            pi, ci = parsed
            planned = pi < len(m.pairings) and ci < per and path == chunk_path(folder, pi, ci)
            if not planned or not path.is_file():  # out of the plan, or p00001-c000002: not a name we write
                scan.foreign.append(path)
                continue
            why = _verified(path, _expected(m, integrity.chunk_key(m.identity, pi, m.format), pi, ci, secret))
            if why is None:
                found.append((pi, ci, path))
            else:
                scan.damaged.append((path, why))
        elif TMP_MARK not in name:  # not a write in progress (or left by a killed run: a resume deletes it)
            scan.foreign.append(path)
    scan.good = [p for _, _, p in sorted(found)]
    return scan


def _expected(m: Manifest, key: str, pi: int, ci: int, secret: bytes = b"") -> integrity.Expected:
    start, stop = integrity.chunk_span(m.units, m.chunk, m.bounds, ci)
    return integrity.Expected(
        key,
        pi,
        start,
        stop,
        2 if m.duplicate else 1,
        _hand_schema(),
        _games_schema() if m.games is not None else None,
        secret,
    )


def _verified(path: Path, exp: integrity.Expected) -> str | None:
    files = [path, integrity.sum_path(path)] + ([games_path(path)] if exp.games_schema is not None else [])
    try:
        stats = tuple((s.st_ino, s.st_size, s.st_mtime_ns) for s in (f.stat() for f in files))
    except OSError:
        stats = None
    cache_key = (str(path), stats, exp)
    if stats is not None and cache_key in _VERIFIED:
        return _VERIFIED[cache_key]
    why = integrity.check_chunk(path, games_path(path), exp)
    if stats is not None:
        _VERIFIED[cache_key] = why
    return why


def chunk_files(folder: Path) -> list[Path]:
    """The finished, verified chunk files of a run folder, in (pairing, chunk) order.
    A damaged chunk is a RunError naming it (a rerun of the run's command plays it again;
    the report is not drawn from a log with a hole it does not know about); any other
    file of ``hands/`` is named in a ``RunFolderWarning`` and ignored."""
    scan = scan_chunks(folder)
    if scan.damaged:
        path, why = scan.damaged[0]
        more = f" (and {len(scan.damaged) - 1} more)" if len(scan.damaged) > 1 else ""
        raise RunError(
            f"{folder}: cannot read the hand log: {path.name} is damaged ({why}){more}; "
            f"rerun the run's command with --out {folder} to play it again"
        )
    scan.warn()
    return scan.good


def run_in_progress(folder: Path) -> str | None:
    """Who is writing ``folder`` right now ("pid N on HOST"), or None if no run holds its lock."""
    from ginsim.runfolder.lock import holder

    h = holder(folder)
    return None if h is None else f"pid {h.get('pid', '?')} on {h.get('host', '?')}"


def remove_chunk(path: Path) -> None:
    """Delete a chunk's files (hand file, checksum record, game and forfeit files): it is played again."""
    for f in (path, integrity.sum_path(path), games_path(path), forfeits_path(path), timing_path(path)):
        try:
            f.unlink(missing_ok=True)
        except OSError as e:
            raise RunError(f"{f}: cannot delete it ({describe_os_error(e)})") from None


def _hand_table(arrays: dict[str, np.ndarray]) -> Any:
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


def _games_table(arrays: dict[str, np.ndarray]) -> Any:
    import pyarrow as pa

    return pa.table({name: pa.array(arrays[GAME_PREFIX + name]) for name in GAME_COLUMNS})


_SCHEMAS: dict[str, Any] = {}


def _hand_schema() -> Any:
    if "hands" not in _SCHEMAS:
        empty = {name: np.zeros(0, dtype=dtype) for name, dtype in COLUMNS.items()}
        empty["forfeit_reason"] = np.zeros(0, dtype=object)
        _SCHEMAS["hands"] = _hand_table(empty).schema
    return _SCHEMAS["hands"]


def _games_schema() -> Any:
    if "games" not in _SCHEMAS:
        empty = {GAME_PREFIX + name: np.zeros(0, dtype=dtype) for name, dtype in GAME_COLUMNS.items()}
        _SCHEMAS["games"] = _games_table(empty).schema
    return _SCHEMAS["games"]


def write_chunk(path: Path, arrays: dict[str, np.ndarray], run: str, secret: bytes = b"") -> Any:
    """Write one chunk's records to Parquet atomically (temporary name, then rename): the
    game records first (game mode), then the checksum record, then the hand file, so a
    hand file under its final name means the whole chunk is there. ``run`` is the run's
    key (``integrity.chunk_key`` of the manifest's identity and the chunk's pairing);
    ``secret``, a tournament run's, keys the checksum record. Returns the pyarrow table
    written (the hand file's)."""
    import pyarrow.parquet as pq

    table = _hand_table(arrays)
    games = write_game_records(path, arrays)
    write_forfeit_details(path, arrays)  # the forfeits' tracebacks, before the hand file too
    write_timing(path, arrays)  # the decisions' times (ginsim.runfolder.timing)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
        integrity.write_sum(path, run, table.num_rows, tmp, games, secret)
    return table


def games_path(hands_path: Path) -> Path:
    """The game file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / GAMES_DIR / hands_path.name


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
    table = _games_table(arrays)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")
    return path


def forfeits_path(hands_path: Path) -> Path:
    """The forfeit file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / FORFEITS_DIR / (hands_path.name.removesuffix(".parquet") + ".jsonl")


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
