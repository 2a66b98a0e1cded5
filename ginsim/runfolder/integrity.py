"""The checks that keep a run folder honest: chunk checksums and the manifest's consistency.

Each chunk file ``hands/p<pairing>-c<chunk>.parquet`` has a checksum record,
``checksums/p<pairing>-c<chunk>.sha256`` (a folder of its own, so ``hands/`` still reads
as one Parquet dataset): a small JSON object with the run's key (a hash of
the manifest's ``identity``, so a chunk copied from another run is told apart), the
chunk's row count, and the SHA-256 of its hand file and, in game mode, of its game file
(``games/<name>``). In tournament mode the record also holds an HMAC-SHA256 of those
fields keyed with the run's secret (``hmac``): whoever edits a chunk and recomputes its
SHA-256 cannot recompute that without the secret, and a secret replaced after chunks
were written matches none of them. It is written before the chunk file is renamed into place, so a
chunk file without its record was never finished by this version of ginsim.

This module knows nothing of the run folder's layout beyond those names: ginsim.runfolder.chunks
builds the expected schema and deal range of each chunk and calls ``check_chunk``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ginsim.runfolder.atomic import make_dir, write_text_atomic

CHUNK_NAME = re.compile(r"p(\d{4,})-c(\d{6,})\.parquet")
"""A chunk file's name: pairing (4 digits or more), chunk (6 or more)."""
SUM_SUFFIX = ".sha256"
SUMS_DIR = "checksums"


def run_key(identity: Mapping[str, Any]) -> str:
    """A short hash of a run's identity: equal for runs whose hand logs are equal."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            h.update(block)
    return h.hexdigest()


def sum_path(chunk: Path) -> Path:
    """The checksum record of a chunk file (``<run>/checksums/<stem>.sha256``)."""
    return chunk.parent.parent / SUMS_DIR / (chunk.name.removesuffix(".parquet") + SUM_SUFFIX)


def parse_chunk_name(name: str) -> tuple[int, int] | None:
    """(pairing, chunk) of a chunk file name, or None for any other name."""
    m = CHUNK_NAME.fullmatch(name)
    return (int(m.group(1)), int(m.group(2))) if m else None


KEYED_MISMATCH = "its keyed checksum differs: the file or the run's secret was changed"


def keyed_sum(record: Mapping[str, Any], secret: bytes) -> str:
    """The HMAC of a checksum record's fields (all but ``hmac``), keyed with the run's secret."""
    fields = {k: v for k, v in record.items() if k != "hmac"}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hmac.new(secret, text.encode("utf-8"), hashlib.sha256).hexdigest()


def write_sum(chunk: Path, key: str, rows: int, hands_file: Path, games_file: Path | None, secret: bytes = b"") -> None:
    """Record the checksums of a chunk's files (``hands_file`` may still be its temporary
    name: the record names the final one); with the run's ``secret``, keyed too."""
    record: dict[str, Any] = {
        "run": key,
        "chunk": chunk.name,
        "rows": rows,
        "hands_sha256": file_sha256(hands_file),
        "games_sha256": file_sha256(games_file) if games_file is not None else None,
    }
    if secret:
        record["hmac"] = keyed_sum(record, secret)
    path = sum_path(chunk)
    make_dir(path.parent)
    write_text_atomic(path, json.dumps(record) + "\n")


@dataclass(frozen=True)
class Expected:
    """What a planned chunk must hold."""

    key: str  # the run's key
    pairing: int
    start: int  # first deal (or game) index
    stop: int  # end deal index
    copies: int  # 1, or 2 with duplicate deals
    schema: Any  # pyarrow.Schema of the hand file
    games_schema: Any | None  # pyarrow.Schema of the game file (game mode), else None
    secret: bytes = b""  # tournament mode: the run's secret, which keys the record's hmac


def check_chunk(path: Path, games_file: Path, exp: Expected) -> str | None:
    """What is wrong with one chunk file of the plan (a few words), or None if it is
    the chunk the plan asks for, as it was written."""
    try:
        return _check(path, games_file, exp)
    except OSError as e:
        return f"cannot read it ({e.strerror or e})"
    except Exception as e:  # noqa: BLE001 - a damaged file is one clear line, whatever broke
        return f"unreadable ({type(e).__name__}: {str(e)[:80]})"


def _check(path: Path, games_file: Path, exp: Expected) -> str | None:
    import pyarrow.parquet as pq

    record_file = sum_path(path)
    if not record_file.is_file():
        return f"no checksum record ({record_file.name})"
    try:
        record = json.loads(record_file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return f"its checksum record {record_file.name} is damaged"
    if not isinstance(record, dict) or record.get("chunk") != path.name:
        return f"its checksum record {record_file.name} is damaged"
    if record.get("run") != exp.key:
        return "a chunk of another run (its checksum record names another run)"
    if file_sha256(path) != record.get("hands_sha256"):
        return "checksum differs: the file was changed or damaged"
    if exp.secret and not hmac.compare_digest(str(record.get("hmac", "")), keyed_sum(record, exp.secret)):
        return KEYED_MISMATCH
    if exp.games_schema is not None:
        if not games_file.is_file():
            return f"its game records {games_file} are missing"
        if file_sha256(games_file) != record.get("games_sha256"):
            return f"checksum of its game records {games_file.name} differs"
    meta = pq.ParquetFile(path)
    if not meta.schema_arrow.equals(exp.schema):
        return "not a hand log chunk (its columns or their types differ)"
    rows = meta.metadata.num_rows
    if rows != record.get("rows"):
        return f"{rows} rows where its checksum record says {record.get('rows')}"
    units = exp.stop - exp.start
    if exp.games_schema is None:
        if rows != units * exp.copies:
            return f"{rows} rows where its deals {exp.start}..{exp.stop - 1} make {units * exp.copies}"
    else:
        games = pq.ParquetFile(games_file)
        if not games.schema_arrow.equals(exp.games_schema):
            return "its game records are not game records (columns or types differ)"
        if games.metadata.num_rows != units * exp.copies:
            n = games.metadata.num_rows
            return f"{n} games where its games {exp.start}..{exp.stop - 1} make {units * exp.copies}"
        hands = games.read(columns=["hands"]).column("hands").to_numpy()
        if int(hands.sum()) != rows:
            return f"{rows} hand rows where its game records count {int(hands.sum())}"
    table = meta.read(columns=["pairing", "deal"], use_threads=False)
    if rows:
        pairing = table.column("pairing").to_numpy()
        deal = table.column("deal").to_numpy()
        if pairing.min() != exp.pairing or pairing.max() != exp.pairing:
            return f"rows of pairing {int(pairing.min())}..{int(pairing.max())}, not {exp.pairing}"
        if deal.min() < exp.start or deal.max() >= exp.stop:
            return f"deals {int(deal.min())}..{int(deal.max())}, outside {exp.start}..{exp.stop - 1}"
    return None


# -- the manifest as a whole ---------------------------------------------------------------
_IDENTITY_FIELDS = ("kind", "rules", "seed", "hands", "games", "duplicate", "chunk")


FORMAT = 2
"""The run-folder format this ginsim writes (the manifest's ``format``). 2: ``hands`` and
``games`` both count what is played per pairing (with duplicate deals, half as many deals
or games, each played twice), and a chunk's checksum record names the run without its
counts and entrants (``chunk_key``), so a run can grow; 1 (no ``format`` key): ``games``
counted deals, so a game run with duplicate deals played twice the games it said."""

GROWABLE = ("hands", "games", "chunk", "pairings", "bounds", "code")
"""The identity's parts a run may grow in (more hands or games, more entrants: their code
too) or that follow from them; the rest must stay as they were."""


def chunk_key(identity: Mapping[str, Any], pairing: int, format: int = FORMAT) -> str:
    """The key a chunk's checksum record names: in format 2, the run's identity without
    the parts it grows in (GROWABLE), with the chunk's own pairing (its strategies), so a
    grown run's chunks keep theirs; in format 1, ``run_key`` of the whole identity."""
    if format < 2:
        return run_key(identity)
    base = {k: v for k, v in identity.items() if k not in GROWABLE}
    pairings = identity.get("pairings", [])
    base["pairing"] = pairings[pairing] if isinstance(pairings, list) and 0 <= pairing < len(pairings) else pairing
    return run_key(base)


def chunk_span(units: int, chunk: int, bounds: Sequence[int], ci: int) -> tuple[int, int]:
    """Chunk ``ci``'s (first unit, end unit) in one pairing: ``chunk`` units at a time from
    0 to each of ``bounds`` (the counts a grown run was played to before), then to
    ``units``; a run played in one go has no bounds. IndexError past the last chunk."""
    start = 0
    for end in [*bounds, units]:
        n = math.ceil((end - start) / chunk) if end > start else 0
        if ci < n:
            first = start + ci * chunk
            return first, min(first + chunk, end)
        ci -= n
        start = max(start, end)
    raise IndexError(ci)


def chunks_per_pairing(units: int, chunk: int, bounds: Sequence[int] = ()) -> int:
    """How many chunks ``chunk_span`` counts in one pairing."""
    edges = [0, *bounds, units]
    return sum(math.ceil((b - a) / chunk) for a, b in itertools.pairwise(edges) if b > a)


def units_per_pairing(hands: int | None, games: int | None, duplicate: bool, format: int = FORMAT) -> int:
    """Deals (hand mode) or games (game mode) per pairing, in run-folder ``format``."""
    if hands is not None:
        return math.ceil(hands / 2) if duplicate else hands
    if format < 2:
        return games or 0
    return math.ceil((games or 0) / 2) if duplicate else games or 0


def identity_problems(data: Mapping[str, Any]) -> list[str]:
    """Where a manifest's top-level fields disagree with its ``identity`` (what the hand
    log was played from): a hand-edited manifest with A and B swapped, or one run's
    pairings under another's identity, would credit one strategy's results to another."""
    identity = data["identity"]
    problems = []
    for name in _IDENTITY_FIELDS:
        if identity.get(name) != data.get(name):
            problems.append(f"{name}: {data.get(name)!r:.40} here, {identity.get(name)!r:.40} in identity")
    pairings = data["pairings"]
    planned = identity.get("pairings")
    if not isinstance(planned, list) or len(planned) != len(pairings):
        problems.append("pairings: not those of identity")
    else:
        for i, (p, q) in enumerate(zip(pairings, planned, strict=True)):
            if p != q:
                keys = sorted(k for k in set(p) | set(q) if p.get(k) != q.get(k))
                problems.append(f"pairings[{i}]: differs from identity in {', '.join(keys)}")
    for i, p in enumerate(pairings):
        if p.get("index") != i:
            problems.append(f"pairings[{i}]: index {p.get('index')!r}, expected {i}")
    labels = {s.get("label") for s in data["strategies"] if isinstance(s, dict)}
    for i, p in enumerate(pairings):
        for side in ("label_a", "label_b"):
            if p.get(side) not in labels:
                problems.append(f"pairings[{i}]: {side} {p.get(side)!r} is not one of the strategies")
    extra = identity.get("extra", {})
    for name in ("param", "base"):
        if isinstance(extra, dict) and extra.get(name) != data.get(name):
            problems.append(f"{name}: {data.get(name)!r} here, {extra.get(name)!r} in identity")
    chunk = data["chunk"]
    if isinstance(chunk, int) and chunk > 0:
        units = units_per_pairing(data["hands"], data["games"], data["duplicate"], data.get("format", 1))
        per = chunks_per_pairing(units, chunk, identity.get("bounds", ()))
        if data["chunks"] != per * len(pairings):
            problems.append(f"chunks: {data['chunks']} where the plan makes {per * len(pairings)}")
    else:
        problems.append(f"chunk: must be positive, not {chunk!r}")
    return problems


RECORD_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "pairings": {"index": (int,), "a": (str,), "b": (str,), "label_a": (str,), "label_b": (str,)},
    "strategies": {"label": (str,), "spec": (str,), "target": (str,), "parameters": (dict,)},
}


def record_problems(name: str, items: list[Any]) -> list[str]:
    """Type problems of the objects listed under ``pairings`` or ``strategies``."""
    problems = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"{name}[{i}]: expected an object, found {type(item).__name__}")
            continue
        for key, types in RECORD_FIELDS[name].items():
            v = item.get(key)
            if key not in item:
                problems.append(f"{name}[{i}].{key}: missing")
            elif not isinstance(v, types) or isinstance(v, bool):
                problems.append(f"{name}[{i}].{key}: expected {types[0].__name__}, found {type(v).__name__}")
    return problems
