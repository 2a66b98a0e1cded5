"""Run a plan: chunks across processes, each written to Parquet as it finishes.

The folder of a run holds ``manifest.json`` (what was played, by which command, on what
machine), ``hands/`` (one Parquet file per chunk, written under a temporary name and
renamed, so a file either holds its whole chunk or does not exist), and what the stats
make of them. Rerunning the same command with the same ``--out`` plays only the chunks
that are missing; a different command against that folder is refused.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ginsim import __version__
from ginsim import _native as native
from ginsim.engine import OUTCOMES
from ginsim.errors import GinsimError, RunError
from ginsim.guard import DEFAULT_DECISION_LIMIT
from ginsim.secret import run_secret
from ginsim.tournament import RunPlan
from ginsim.worker import COLUMNS, ChunkTask, play_chunk

if TYPE_CHECKING:
    import pandas as pd

MANIFEST = "manifest.json"
HANDS_DIR = "hands"


@dataclass
class RunOptions:
    """How to run (never what): processes, backend, progress display."""

    jobs: int | None = None  # None: every core
    backend: str = "loky"
    scheduler: str | None = None  # dask scheduler address
    quiet: bool = False
    command: str = ""
    stop_rule: Any = None  # a sequential test deciding when to stop (SPRT), or None
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision (ginsim.guard)


def chunk_path(folder: Path, pairing: int, chunk: int) -> Path:
    return folder / HANDS_DIR / f"p{pairing:04d}-c{chunk:06d}.parquet"


def chunk_files(folder: Path) -> list[Path]:
    """The finished chunk files of a run folder, in (pairing, chunk) order."""
    d = folder / HANDS_DIR
    if not d.is_dir():
        return []
    return sorted(d.glob("p*-c*.parquet"))


def _now() -> str:
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def platform_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "engine": native.status(),  # compiled or pure Python (ginsim._native)
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "node": platform.node(),
    }


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def read_manifest(folder: Path) -> dict[str, Any]:
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
    if not isinstance(data, dict) or "identity" not in data or "ginsim" not in data:
        raise RunError(f"{path}: not a ginsim manifest")
    return data


def default_out(kind: str, base: Path = Path("results")) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = base / f"{kind}-{stamp}"
    n = 2
    while out.exists():
        out = base / f"{kind}-{stamp}-{n}"
        n += 1
    return out


def _normalize(obj: Any) -> Any:
    return json.loads(json.dumps(obj, default=str))


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [k for k in keys if old.get(k) != new.get(k)]


def prepare_folder(plan: RunPlan, out: Path, opts: RunOptions) -> tuple[dict[str, Any], bool]:
    """Create a new run folder, or check that an existing one holds this very plan.
    Returns the manifest and whether the run resumes."""
    identity = _normalize(plan.identity())
    if out.exists() and not out.is_dir():
        raise RunError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        manifest = read_manifest(out)
        old = manifest["identity"]
        if old != identity:
            diff = ", ".join(_differences(old, identity))
            raise RunError(
                f"--out {out} holds a different run (differs in: {diff}); use another --out or the same command"
            )
        if manifest.get("ginsim") != __version__:
            raise RunError(
                f"--out {out} was written by ginsim {manifest.get('ginsim')}, this is {__version__}; use another --out"
            )
        for stale in (out / HANDS_DIR).glob("*.tmp-*"):
            stale.unlink(missing_ok=True)
        manifest.setdefault("resumed", []).append(_now())
        manifest["finished"] = None
        manifest["status"] = "running"
        write_json_atomic(out / MANIFEST, manifest)
        return manifest, True
    try:
        (out / HANDS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunError(f"--out {out}: cannot create it ({e.strerror or e})") from None
    manifest = {
        "ginsim": __version__,
        "command": opts.command,
        "kind": plan.kind,
        "started": _now(),
        "finished": None,
        "status": "running",
        "strategies": _strategies(plan),
        "pairings": [p.to_dict() for p in plan.pairings],
        "rules": plan.rules.to_dict(),
        "rules_differ": plan.rules.differences(),
        "clock": plan.rules.time_per_hand is not None,
        "seed": plan.seed,
        "hands": plan.hands,
        "games": plan.games,
        "duplicate": plan.duplicate,
        "chunk": plan.chunk,
        "chunks": len(plan.chunks()),
        "jobs": opts.jobs,
        "backend": opts.backend,
        "scheduler": opts.scheduler,  # the dask scheduler's address; null: a local cluster (or loky)
        "cwd": os.getcwd(),  # where relative paths (a file.py:Class strategy) are read from
        "platform": platform_info(),
        "identity": identity,
    }
    if plan.extra:
        manifest.update(plan.extra)
    if plan.extra.get("isolate"):
        run_secret(out, create=True)  # before the manifest: a folder with one has its secret
    write_json_atomic(out / MANIFEST, manifest)
    return manifest, False


def _strategies(plan: RunPlan) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for p in plan.pairings:
        for spec, label in ((p.a, p.label_a), (p.b, p.label_b)):
            if label not in seen:
                params = {**spec.load_class().parameters(), **spec.params}
                seen[label] = {"label": label, "spec": spec.text, "target": spec.target, "parameters": params}
    return list(seen.values())


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
    table = pa.table(cols)
    tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


def read_chunk(path: Path, columns: list[str] | None = None) -> pd.DataFrame:
    """One chunk file of the hand log as a pandas DataFrame (only ``columns``, if given).
    Reads the single file directly, which is about twice as fast as ``pd.read_parquet``
    for the many small files of a big run."""
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).read(columns=columns, use_threads=False).to_pandas(use_threads=False)


def _tasks(plan: RunPlan, folder: Path, opts: RunOptions | None = None) -> tuple[list[ChunkTask], int]:
    """The chunks still to play, and how many units (deals or games) are done."""
    isolate = bool(plan.extra.get("isolate"))
    secret = run_secret(folder) if isolate else b""
    limit = opts.decision_limit if opts is not None else DEFAULT_DECISION_LIMIT
    todo = []
    done_units = 0
    by_index = {p.index: p for p in plan.pairings}
    keys = {p.index: p.key for p in plan.pairings}  # once per pairing: an SPRT run has thousands of chunks
    for pi, ci, start, stop in plan.chunks():
        if chunk_path(folder, pi, ci).exists():
            done_units += stop - start
            continue
        p = by_index[pi]
        todo.append(
            ChunkTask(
                plan.rules,
                p.a,
                p.b,
                pi,
                keys[pi],
                plan.seed,
                plan.mode,
                plan.duplicate,
                start,
                stop,
                ci,
                limit,
                isolate,
                secret,
            )
        )
    return todo, done_units


def resolve_jobs(jobs: int | None) -> int:
    n = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return n
    if jobs < 0:
        return max(1, n + 1 + jobs)
    return jobs


def _results(tasks: list[ChunkTask], jobs: int, opts: RunOptions) -> Iterator[tuple[ChunkTask, dict[str, np.ndarray]]]:
    """Play the tasks, yielding each as it finishes (any order)."""
    if not tasks:
        return
    if jobs == 1 and opts.backend == "loky":
        for t in tasks:
            yield t, play_chunk(t)
        return
    from ginsim.backends import parallel_results

    yield from parallel_results(tasks, jobs, opts.backend, opts.scheduler)


def run_plan(plan: RunPlan, out: Path | None, opts: RunOptions, on_done: Callable[[Path], None] | None = None) -> Path:
    """Play every missing chunk of ``plan`` into ``out`` (a new folder under results/
    by default), then write the summary and report. Returns the folder."""
    folder = out if out is not None else default_out(plan.kind)
    manifest, resumed = prepare_folder(plan, folder, opts)
    jobs = resolve_jobs(opts.jobs)
    tasks, done_units = _tasks(plan, folder, opts)
    # every invocation is a session; the top-level jobs and backend say what played the
    # chunks, so a rerun with nothing left to play leaves them as they were
    manifest.setdefault("sessions", []).append(
        {"started": _now(), "jobs": jobs, "backend": opts.backend, "scheduler": opts.scheduler, "chunks": len(tasks)}
    )
    if tasks or not resumed:
        manifest["jobs"] = jobs
        manifest["backend"] = opts.backend
        manifest["scheduler"] = opts.scheduler
    copies = plan.hands_per_unit() if plan.mode == "hands" else (2 if plan.duplicate else 1)
    total_units = plan.units * len(plan.pairings)
    unit_name = "hands" if plan.mode == "hands" else "games"
    progress = _progress(total_units * copies, done_units * copies, unit_name, opts.quiet)
    start = time.perf_counter()
    played = 0
    stopped = None
    manifest.pop("stopped", None)  # a resumed run's sequential test is evaluated afresh
    try:
        if opts.stop_rule is not None:
            stopped = opts.stop_rule.run(plan, folder, tasks, lambda ts: _results(ts, jobs, opts), progress)
        else:
            for task, arrays in _results(tasks, jobs, opts):
                write_chunk(chunk_path(folder, task.pairing, task.chunk), arrays)
                played += len(arrays["outcome"])
                progress.update((task.stop - task.start) * copies)
    except GinsimError as e:
        progress.close()
        manifest["status"] = "failed"
        write_json_atomic(folder / MANIFEST, manifest)
        if type(e).__name__ == "WorkerLost":
            raise RunError(
                f"{e}; finished chunks are kept in {folder}: rerun the same command with --out {folder}"
            ) from None
        raise
    except KeyboardInterrupt:
        progress.close()
        manifest["status"] = "interrupted"
        write_json_atomic(folder / MANIFEST, manifest)
        raise RunError(
            f"interrupted; finished chunks are kept in {folder}: rerun the same command with --out {folder} to resume"
        ) from None
    progress.close()
    manifest["finished"] = _now()
    manifest["status"] = "stopped" if stopped is not None and stopped.get("stopped", True) else "complete"
    if stopped is not None:
        manifest["stopped"] = stopped
    manifest["elapsed_s"] = round(time.perf_counter() - start, 3)
    write_json_atomic(folder / MANIFEST, manifest)
    if on_done is not None:
        on_done(folder)
    return folder


class _NoProgress:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, initial: int, unit: str, quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return _NoProgress()
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        unit=unit[:-1],
        unit_scale=True,
        dynamic_ncols=True,
        smoothing=0.1,
        desc="playing",
        file=sys.stderr,
    )
