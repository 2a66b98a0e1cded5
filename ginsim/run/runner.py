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
from typing import Any

import numpy as np

from ginsim.engine import _native as native
from ginsim.errors import GinsimError, RunError
from ginsim.outside import manifest_fields
from ginsim.run.plan import RunPlan
from ginsim.run.records import (
    GAMES_DIR,
    HANDS_DIR,
    Manifest,
    PairingRecord,
    RunKind,
    RunStatus,
    StrategyRecord,
    chunk_path,
    read_manifest,
    write_chunk,
    write_manifest,
)
from ginsim.run.sequential import StopRule, run_sequential
from ginsim.run.worker import ChunkTask, engine_choice, play_chunk, play_path
from ginsim.version import __version__


@dataclass
class RunOptions:
    """How to run (never what): processes, backend, progress display."""

    jobs: int | None = None  # None: every core
    backend: str = "loky"
    scheduler: str | None = None  # dask scheduler address
    quiet: bool = False
    command: str = ""
    stop_rule: StopRule | None = None  # a sequential test deciding when to stop (SPRT), or None


def _now() -> str:
    return datetime.now(UTC).astimezone().isoformat(timespec="seconds")


def platform_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "engine": native.status(),  # compiled or pure Python (ginsim.engine._native)
        "system": platform.system(),
        "release": platform.release(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "node": platform.node(),
    }


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


def prepare_folder(plan: RunPlan, out: Path, opts: RunOptions) -> tuple[Manifest, bool]:
    """Create a new run folder, or check that an existing one holds this very plan.
    Returns the manifest and whether the run resumes."""
    identity = _normalize(plan.identity())
    if out.exists() and not out.is_dir():
        raise RunError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        manifest = read_manifest(out)
        if manifest.identity != identity:
            old_preset = manifest.preset
            if old_preset != plan.rules.preset:  # R27: a run folder keeps its preset
                raise RunError(
                    f"--out {out} was made under the {old_preset!r} rules, not {plan.rules.preset!r}; "
                    "use another --out or the same rules"
                )
            diff = ", ".join(_differences(manifest.identity, identity))
            raise RunError(
                f"--out {out} holds a different run (differs in: {diff}); use another --out or the same command"
            )
        if manifest.ginsim != __version__:
            raise RunError(
                f"--out {out} was written by ginsim {manifest.ginsim}, this is {__version__}; use another --out"
            )
        for stale in [*(out / HANDS_DIR).glob("*.tmp-*"), *(out / GAMES_DIR).glob("*.tmp-*")]:
            stale.unlink(missing_ok=True)
        manifest.resumed.append(_now())
        manifest.finished = None
        manifest.status = RunStatus.RUNNING
        write_manifest(out, manifest)
        return manifest, True
    try:
        (out / HANDS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RunError(f"--out {out}: cannot create it ({e.strerror or e})") from None
    manifest = Manifest(
        ginsim=__version__,
        command=opts.command,
        kind=RunKind(plan.kind),
        started=_now(),
        status=RunStatus.RUNNING,
        strategies=(strategies := _strategies(plan)),
        reproducible=all((s.outside or {}).get("reproducible", True) for s in strategies),
        pairings=[PairingRecord(**p.to_dict()) for p in plan.pairings],
        preset=plan.rules.preset,
        rules=plan.rules.to_dict(),
        rules_differ=plan.rules.differences(),
        clock=plan.rules.time_per_hand is not None,
        seed=plan.seed,
        hands=plan.hands,
        games=plan.games,
        duplicate=plan.duplicate,
        chunk=plan.chunk,
        chunks=len(plan.chunks()),
        jobs=opts.jobs,
        backend=opts.backend,
        scheduler=opts.scheduler,
        cwd=os.getcwd(),
        platform={**platform_info(), "play_path": play_path(plan.rules, [(p.a, p.b) for p in plan.pairings])},
        identity=identity,
        param=plan.extra.get("param"),
        base=plan.extra.get("base"),
    )
    write_manifest(out, manifest)
    return manifest, False


def _strategies(plan: RunPlan) -> list[StrategyRecord]:
    seen: dict[str, StrategyRecord] = {}
    for p in plan.pairings:
        for spec, label in ((p.a, p.label_a), (p.b, p.label_b)):
            if label not in seen:
                params = {**spec.load_class().parameters(), **spec.params}
                outside = manifest_fields(spec.load_class()).get("outside")
                seen[label] = StrategyRecord(label, spec.text, spec.target, _normalize(params), outside)
    return list(seen.values())


def _tasks(plan: RunPlan, folder: Path) -> tuple[list[ChunkTask], int]:
    """The chunks still to play, and how many units (deals or games) are done."""
    todo = []
    done_units = 0
    by_index = {p.index: p for p in plan.pairings}
    keys = {p.index: p.key for p in plan.pairings}  # once per pairing: an SPRT run has thousands of chunks
    engine = engine_choice()  # read here: worker processes may have started before it was set
    for pi, ci, start, stop in plan.chunks():
        if chunk_path(folder, pi, ci).exists():
            done_units += stop - start
            continue
        p = by_index[pi]
        todo.append(
            ChunkTask(plan.rules, p.a, p.b, pi, keys[pi], plan.seed, plan.mode, plan.duplicate, start, stop, ci, engine)
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
    from ginsim.run.backends import parallel_results

    yield from parallel_results(tasks, jobs, opts.backend, opts.scheduler)


def run_plan(plan: RunPlan, out: Path | None, opts: RunOptions, on_done: Callable[[Path], None] | None = None) -> Path:
    """Play every missing chunk of ``plan`` into ``out`` (a new folder under results/
    by default), then write the summary and report. Returns the folder."""
    folder = out if out is not None else default_out(plan.kind)
    manifest, resumed = prepare_folder(plan, folder, opts)
    jobs = resolve_jobs(opts.jobs)
    tasks, done_units = _tasks(plan, folder)
    # every invocation is a session; the top-level jobs and backend say what played the
    # chunks, so a rerun with nothing left to play leaves them as they were
    manifest.sessions.append(
        {"started": _now(), "jobs": jobs, "backend": opts.backend, "scheduler": opts.scheduler, "chunks": len(tasks)}
    )
    if tasks or not resumed:
        manifest.jobs = jobs
        manifest.backend = opts.backend
        manifest.scheduler = opts.scheduler
    copies = plan.hands_per_unit() if plan.mode == "hands" else (2 if plan.duplicate else 1)
    total_units = plan.units * len(plan.pairings)
    unit_name = "hands" if plan.mode == "hands" else "games"
    progress = _progress(total_units * copies, done_units * copies, unit_name, opts.quiet)
    start = time.perf_counter()
    played = 0
    stopped = None
    manifest.stopped = None  # a resumed run's sequential test is evaluated afresh
    try:
        if opts.stop_rule is not None:
            stopped = run_sequential(opts.stop_rule, plan, folder, tasks, lambda ts: _results(ts, jobs, opts), progress)
        else:
            for task, arrays in _results(tasks, jobs, opts):
                write_chunk(chunk_path(folder, task.pairing, task.chunk), arrays)
                played += len(arrays["outcome"])
                progress.update((task.stop - task.start) * copies)
    except GinsimError:
        progress.close()
        manifest.status = RunStatus.FAILED
        write_manifest(folder, manifest)
        raise
    except KeyboardInterrupt:
        progress.close()
        manifest.status = RunStatus.INTERRUPTED
        write_manifest(folder, manifest)
        raise RunError(
            f"interrupted; finished chunks are kept in {folder}: rerun the same command with --out {folder} to resume"
        ) from None
    progress.close()
    manifest.finished = _now()
    decided = stopped is not None and stopped.get("stopped", True)
    manifest.status = RunStatus.STOPPED if decided else RunStatus.COMPLETE
    manifest.stopped = stopped
    manifest.elapsed_s = round(time.perf_counter() - start, 3)
    write_manifest(folder, manifest)
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
