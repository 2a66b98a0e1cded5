"""Which chunk files of a run folder count: each file of ``hands/`` checked against the
manifest's plan (name, checksum record, schema, rows, pairing and deals), so that no
report is drawn from a damaged or foreign file; and removing a chunk to play it again.

``scan_chunks`` sorts the files of ``hands/`` into the good ones, the damaged ones and the
foreign ones; ``chunk_files`` lists the good ones and refuses a damaged one and warns
(``RunFolderWarning``, one line each) about foreign ones, which are never counted. A hand
file is written under a temporary name and renamed (ginsim.runfolder.writing), so it
either holds its whole chunk or does not exist; its checksum record is in
``checksums/p<pairing>-c<chunk>.sha256`` (ginsim.runfolder.integrity).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginsim.errors import RunError
from ginsim.runfolder import integrity
from ginsim.runfolder.atomic import TMP_MARK, describe_os_error
from ginsim.runfolder.manifest import MANIFEST, Manifest, read_manifest
from ginsim.runfolder.records import HANDS_DIR, chunk_path, forfeits_path, games_path, games_schema, hand_schema
from ginsim.runfolder.secret import run_secret
from ginsim.runfolder.timing import timing_path


class RunFolderWarning(UserWarning):
    """A file of a run folder that is not counted: damaged, foreign, or left over."""


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
        hand_schema(),
        games_schema() if m.games is not None else None,
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


def remove_chunk(path: Path) -> None:
    """Delete a chunk's files (hand file, checksum record, game and forfeit files): it is played again."""
    for f in (path, integrity.sum_path(path), games_path(path), forfeits_path(path), timing_path(path)):
        try:
            f.unlink(missing_ok=True)
        except OSError as e:
            raise RunError(f"{f}: cannot delete it ({describe_os_error(e)})") from None
