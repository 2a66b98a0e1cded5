"""The run-folder format: the one module that knows how a run is stored.

A run folder holds ``manifest.json`` (what was played, by which command, on what
machine: a ``Manifest``) and ``hands/`` (the hand log: one Parquet file per chunk, named
``p<pairing>-c<chunk>.parquet``, written under a temporary name and renamed, so a file
either holds its whole chunk or does not exist). The runner writes through this module;
statistics, reports, charts and replays read through it and never import the runner.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ginsim.engine.play import OUTCOMES
from ginsim.errors import RunError

if TYPE_CHECKING:
    import pandas as pd

MANIFEST = "manifest.json"
HANDS_DIR = "hands"
GAMES_DIR = "games"  # game mode: the game records of each chunk
FORFEITS_DIR = "forfeits"  # each forfeit's traceback and view, per chunk (JSON lines)
FORFEIT_DETAILS = "forfeit_details"  # a chunk's arrays: the forfeits' records (JSON text each)


class Outcome(StrEnum):
    """How a hand ended (METRICS.md); the hand log stores the index into ``OUTCOMES``."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"  # a drawn hand (R23): no score
    FORFEIT = "forfeit"


OUTCOME_CODE: dict[str, int] = {name: i for i, name in enumerate(OUTCOMES)}
"""Outcome name -> its code in the hand log (the order of ``OUTCOMES``)."""


class RunKind(StrEnum):
    MATCH = "match"
    ROUNDROBIN = "roundrobin"
    SWEEP = "sweep"


class RunStatus(StrEnum):
    RUNNING = "running"
    COMPLETE = "complete"
    STOPPED = "stopped"  # a sequential test decided before the last chunk
    INTERRUPTED = "interrupted"
    FAILED = "failed"


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
    return folder / HANDS_DIR / f"p{pairing:04d}-c{chunk:06d}.parquet"


def chunk_files(folder: Path) -> list[Path]:
    """The finished chunk files of a run folder, in (pairing, chunk) order."""
    d = folder / HANDS_DIR
    if not d.is_dir():
        return []
    return sorted(d.glob("p*-c*.parquet"))


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def write_chunk(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write one chunk's records to Parquet atomically (temporary name, then rename)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols: dict[str, Any] = {}
    for name in COLUMNS:
        if name == "outcome":
            cols[name] = pa.DictionaryArray.from_arrays(
                pa.array(arrays[name].astype(np.int8)), pa.array(list(OUTCOMES))
            )
        else:
            cols[name] = pa.array(arrays[name])
    cols["forfeit_reason"] = pa.array(arrays["forfeit_reason"].tolist(), type=pa.string()).dictionary_encode()
    write_game_records(path, arrays)  # game mode: first, so a hands file means its games are there too
    write_forfeit_details(path, arrays)  # likewise the forfeits' tracebacks
    table = pa.table(cols)
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def games_path(hands_path: Path) -> Path:
    """The game file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / GAMES_DIR / hands_path.name


def write_game_records(hands_path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write a chunk's game records, if it has any, atomically (temporary name, rename)."""
    if GAME_PREFIX + "winner" not in arrays:
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = games_path(hands_path)
    path.parent.mkdir(exist_ok=True)
    table = pa.table({name: pa.array(arrays[GAME_PREFIX + name]) for name in GAME_COLUMNS})
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def forfeits_path(hands_path: Path) -> Path:
    """The forfeit file of the chunk whose hand file is ``hands_path``."""
    return hands_path.parent.parent / FORFEITS_DIR / (hands_path.name.removesuffix(".parquet") + ".jsonl")


def write_forfeit_details(hands_path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write a chunk's forfeit records, if it has any, as JSON lines, atomically. Each
    record (ginsim.run.forfeits) names the strategy, the hand (``chunk_row``: its row in
    the chunk), the decision, the view at the time and the traceback."""
    details = arrays.get(FORFEIT_DETAILS)
    if details is None or not len(details):
        return
    path = forfeits_path(hands_path)
    path.parent.mkdir(exist_ok=True)
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    tmp.write_text("".join(str(line) + "\n" for line in details), encoding="utf-8")
    os.replace(tmp, path)


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


# -- the manifest ----------------------------------------------------------------------
@dataclass(frozen=True)
class PairingRecord:
    """One pairing as the manifest keeps it (``a`` and ``b`` are canonical specs)."""

    index: int
    a: str
    b: str
    label_a: str
    label_b: str
    param: str | None = None
    value: Any = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"index": self.index, "a": self.a, "b": self.b, "label_a": self.label_a}
        d["label_b"] = self.label_b
        if self.param is not None:
            d["param"] = self.param
            d["value"] = self.value
        return d


@dataclass(frozen=True)
class StrategyRecord:
    """A strategy of the run: its label, the spec as given, where it loads from, and every
    parameter (defaults included)."""

    label: str
    spec: str
    target: str
    parameters: dict[str, Any]
    outside: dict[str, Any] | None = None  # an outside player (ginsim.outside): how reproducible it is

    def to_dict(self) -> dict[str, Any]:
        d = {"label": self.label, "spec": self.spec, "target": self.target, "parameters": self.parameters}
        if self.outside is not None:
            d["outside"] = self.outside
        return d


@dataclass
class Manifest:
    """What a run folder holds: the plan that fixes its hand log (``identity``), how and
    where it was played, and how far it got. ``to_dict`` is manifest.json."""

    ginsim: str
    command: str
    kind: RunKind
    started: str
    status: RunStatus
    strategies: list[StrategyRecord]
    pairings: list[PairingRecord]
    rules: dict[str, Any]
    seed: int
    hands: int | None
    games: int | None
    duplicate: bool
    chunk: int
    chunks: int
    identity: dict[str, Any]
    finished: str | None = None
    rules_differ: dict[str, Any] = field(default_factory=dict)
    clock: bool = False
    jobs: int | None = None
    backend: str = "loky"
    scheduler: str | None = None  # the dask scheduler's address; None: a local cluster (or loky)
    cwd: str = ""  # where relative paths (a file.py:Class strategy) are read from
    platform: dict[str, Any] = field(default_factory=dict)
    param: str | None = None  # sweeps: the swept parameter
    base: str | None = None  # sweeps: the swept strategy's canonical spec
    resumed: list[str] = field(default_factory=list)
    sessions: list[dict[str, Any]] = field(default_factory=list)
    stopped: dict[str, Any] | None = None  # a sequential test's result, when one ran
    elapsed_s: float | None = None
    reproducible: bool = True  # False when an outside player's randomness could not be seeded
    preset: str = "default"  # the rule preset the rules start from (R27)

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.strategies]

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    @property
    def target_score(self) -> int:
        return int(self.rules.get("target_score", 100))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name in _OPTIONAL and not v:
                continue  # absent keys stay absent, as manifests always had them
            if f.name in ("strategies", "pairings"):
                v = [x.to_dict() for x in v]
            elif isinstance(v, StrEnum):
                v = str(v)
            d[f.name] = v
        order = [k for k in _KEY_ORDER if k in d] + [k for k in d if k not in _KEY_ORDER]
        return {k: d[k] for k in order}

    @classmethod
    def from_dict(cls, data: Any, where: str = MANIFEST) -> Manifest:
        """Check a manifest as a whole: RunError with one line per problem."""
        if not isinstance(data, dict) or "identity" not in data or "ginsim" not in data:
            raise RunError(f"{where}: not a ginsim manifest")
        problems: list[str] = []
        values: dict[str, Any] = {}
        for name, (types, required) in _SCHEMA.items():
            if name not in data:
                if required:
                    problems.append(f"{name}: missing")
                continue
            v = data[name]
            if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
                problems.append(f"{name}: expected {_type_names(types)}, found {type(v).__name__} {v!r:.40}")
                continue
            values[name] = v
        if not problems:
            try:
                values["kind"] = RunKind(values["kind"])
                values["status"] = RunStatus(values["status"])
            except ValueError as e:
                problems.append(str(e))
            values["pairings"] = _records(PairingRecord, values.get("pairings", []), "pairings", problems)
            values["strategies"] = _records(StrategyRecord, values.get("strategies", []), "strategies", problems)
        if problems:
            raise RunError(f"{where}: not a valid manifest: " + "; ".join(problems))
        return cls(**values)


def _records(cls: type, items: list[Any], name: str, problems: list[str]) -> list[Any]:
    out = []
    for i, item in enumerate(items):
        try:
            out.append(cls(**item))
        except TypeError:
            problems.append(f"{name}[{i}]: expected an object with the keys of a {cls.__name__}, found {item!r:.60}")
    return out


def _type_names(types: tuple[type, ...]) -> str:
    return " or ".join("null" if t is type(None) else t.__name__ for t in types)


_N = type(None)
_SCHEMA: dict[str, tuple[tuple[type, ...], bool]] = {
    "ginsim": ((str,), True),
    "command": ((str,), True),
    "kind": ((str,), True),
    "started": ((str,), True),
    "status": ((str,), True),
    "strategies": ((list,), True),
    "pairings": ((list,), True),
    "rules": ((dict,), True),
    "seed": ((int,), True),
    "hands": ((int, _N), True),
    "games": ((int, _N), True),
    "duplicate": ((bool,), True),
    "chunk": ((int,), True),
    "chunks": ((int,), True),
    "identity": ((dict,), True),
    "finished": ((str, _N), False),
    "rules_differ": ((dict,), False),
    "clock": ((bool,), False),
    "jobs": ((int, _N), False),
    "backend": ((str,), False),
    "scheduler": ((str, _N), False),
    "cwd": ((str,), False),
    "platform": ((dict,), False),
    "param": ((str, _N), False),
    "base": ((str, _N), False),
    "resumed": ((list,), False),
    "sessions": ((list,), False),
    "stopped": ((dict, _N), False),
    "elapsed_s": ((float, int, _N), False),
    "reproducible": ((bool,), False),
    "preset": ((str,), False),
}
_OPTIONAL = {"param", "base", "resumed", "sessions", "stopped", "elapsed_s"}
_KEY_ORDER = [
    "ginsim",
    "command",
    "kind",
    "started",
    "finished",
    "status",
    "strategies",
    "reproducible",
    "pairings",
    "preset",
    "rules",
    "rules_differ",
    "clock",
    "seed",
    "hands",
    "games",
    "duplicate",
    "chunk",
    "chunks",
    "jobs",
    "backend",
    "scheduler",
    "cwd",
    "platform",
    "identity",
    "param",
    "base",
    "resumed",
    "sessions",
    "stopped",
    "elapsed_s",
]


def read_manifest(folder: Path) -> Manifest:
    """The manifest of a run folder; RunError if the folder is not a readable run."""
    path = folder / MANIFEST
    if not folder.exists():
        raise RunError(f"{folder}: no such results folder")
    if not folder.is_dir():
        raise RunError(f"{folder}: not a folder")
    if not path.is_file():
        raise RunError(f"{folder}: not a ginsim results folder (no {MANIFEST})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RunError(f"{path}: cannot read it ({e.strerror or e})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RunError(f"{path}: not a valid manifest ({e})") from None
    return Manifest.from_dict(data, str(path))


def write_manifest(folder: Path, manifest: Manifest) -> None:
    write_json_atomic(folder / MANIFEST, manifest.to_dict())
