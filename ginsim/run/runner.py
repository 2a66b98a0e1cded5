"""Run a plan: chunks across processes, each written to Parquet as it finishes.

The folder of a run holds ``manifest.json`` (what was played, by which command, on what
machine), ``hands/`` (one Parquet file per chunk, written under a temporary name and
renamed, so a file either holds its whole chunk or does not exist), and what the stats
make of them. Rerunning the same command with the same ``--out`` plays only the chunks
that are missing; a different command against that folder is refused.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ginsim.engine.guard import DEFAULT_DECISION_LIMIT
from ginsim.errors import GinsimError, Interrupted, RunError
from ginsim.run.folder import default_out, now, prepare_folder
from ginsim.run.grow import grown_plan
from ginsim.run.hardlimit import WorkerLost, close_player
from ginsim.run.interrupt import exit_reported, sigterm_as_interrupt
from ginsim.run.options import Engine
from ginsim.run.progress import make_progress
from ginsim.run.recheck import REPLAY_CHECK, ReplayCheck, suspects, warning
from ginsim.run.runplan import PER_PAIRING, RunPlan
from ginsim.run.seeding import pairing_secret
from ginsim.run.sequential import StopRule, run_sequential
from ginsim.run.worker import ChunkTask, play_chunk
from ginsim.runfolder.atomic import describe_os_error
from ginsim.runfolder.chunks import remove_chunk, scan_chunks
from ginsim.runfolder.integrity import FORMAT, KEYED_MISMATCH, SUMS_DIR, chunk_key, parse_chunk_name
from ginsim.runfolder.records import GAMES_DIR, HANDS_DIR, MANIFEST, Manifest, RunStatus, chunk_path, write_manifest
from ginsim.runfolder.secret import SECRET, run_secret
from ginsim.runfolder.writing import write_chunk
from ginsim.tournament.referee import close_pool


@dataclass
class RunOptions:
    """How to run (never what): processes, backend, progress display, the engine (the
    same hand log from each)."""

    jobs: int | None = None  # None: every core
    backend: str = "loky"
    scheduler: str | None = None  # dask scheduler address
    quiet: bool = False
    command: str = ""
    stop_rule: StopRule | None = None  # a sequential test deciding when to stop (SPRT), or None
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision (ginsim.engine.guard)
    bot_limits: tuple[tuple[str, int], ...] = ()  # tournament mode: each bot process's limits (tournament.confine)
    on_chunk: Callable[[Path, Any], None] | None = None  # told (file, pyarrow table) of each chunk written
    engine: Engine = Engine.AUTO  # what plays the hands (ginsim.run.options), told to every worker in its tasks


@dataclass
class Todo:
    """The chunks a run still has to play, generated lazily from the plan."""

    plan: RunPlan
    done: set[tuple[int, int]]  # (pairing, chunk) of the verified chunk files
    count: int  # chunks to play
    done_units: int  # deals (or games) already played
    decision_limit: float | None = DEFAULT_DECISION_LIMIT  # hard seconds per decision
    isolate: bool = False  # tournament mode: each strategy in its own process
    secret: bytes = b""  # tournament mode: the run's secret, mixed into every deal seed
    engine: Engine = Engine.AUTO  # the run's engine, in every task
    bot_limits: tuple[tuple[str, int], ...] = ()  # tournament mode: each bot process's limits

    def __iter__(self) -> Iterator[ChunkTask]:
        plan = self.plan
        by_index = {p.index: p for p in plan.pairings}
        keys = {p.index: p.key for p in plan.pairings}  # once per pairing: an SPRT run has thousands of chunks
        isolate = self.isolate
        secrets = {pi: self.secret for pi in keys}
        if self.secret and (plan.extra().get("decks") == PER_PAIRING):
            secrets = {pi: pairing_secret(self.secret, k) for pi, k in keys.items()}
        for pi, ci, start, stop in plan.chunks():
            if (pi, ci) in self.done:
                continue
            p = by_index[pi]
            yield ChunkTask(
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
                self.decision_limit,
                isolate,
                secrets[pi],
                self.engine,
                keep=(p.label_a in plan.keep, p.label_b in plan.keep),
                bot_limits=self.bot_limits,
            )

    def __len__(self) -> int:
        return self.count


def _tasks(plan: RunPlan, folder: Path, manifest: Manifest, warn: Callable[[str], None], opts: RunOptions) -> Todo:
    """The chunks still to play. Every file of ``hands/`` is checked against the plan: a
    damaged chunk is named, deleted and played again; a foreign file is named and left
    alone (never counted)."""
    scan = scan_chunks(folder, manifest)
    if scan.damaged and not scan.good and all(why == KEYED_MISMATCH for _, why in scan.damaged):
        raise RunError(
            f"{folder / SECRET}: not the secret this run's chunks were written with (none of their keyed "
            "checksums matches); put the run's own secret back, or use another --out"
        )
    for path, why in scan.damaged:
        warn(f"{path}: damaged chunk ({why}); playing it again")
        remove_chunk(path)
    for path in scan.foreign:
        warn(f"{path}: not a chunk of this run's plan; ignored")
    chunks = plan.chunks()
    done: set[tuple[int, int]] = set()
    done_units = 0
    for path in scan.good:
        parsed = parse_chunk_name(path.name)
        assert parsed is not None  # scan_chunks keeps planned names only
        pi, ci = parsed
        done.add((pi, ci))
        start, stop = chunks.span(ci)
        done_units += stop - start
    secret = run_secret(folder) if manifest.isolate else b""  # tournament mode's decks
    todo = len(chunks) - len(done)
    return Todo(
        plan, done, todo, done_units, opts.decision_limit, manifest.isolate, secret, opts.engine, opts.bot_limits
    )


def resolve_jobs(jobs: int | None, warn: Callable[[str], None] | None = None, cap: bool = False) -> int:
    """The number of worker processes: ``jobs`` (None or 0: every core; -1: all but
    none, -2: all but one, ...), capped at the core count (``warn`` is told)."""
    n = os.cpu_count() or 1
    if jobs is None or jobs == 0:
        return n
    if jobs < 0:
        return max(1, n + 1 + jobs)
    if cap and jobs > n:
        if warn is not None:
            warn(f"note: --jobs {jobs} is more than the {n} cores of this machine: using {n}")
        return n
    return jobs


def _results(
    tasks: Iterable[ChunkTask], jobs: int, opts: RunOptions, checked: Callable[[ChunkTask, ReplayCheck], None]
) -> Iterator[tuple[ChunkTask, dict[str, np.ndarray]]]:
    """Play the tasks, yielding each as it finishes (any order); each chunk's replay
    check (ginsim.run.recheck) goes to ``checked``."""
    if isinstance(tasks, Todo | list) and not len(tasks):
        return
    if jobs == 1 and opts.backend == "loky":
        played: Iterable[tuple[ChunkTask, dict[str, Any]]] = _in_process(tasks)
    else:
        from ginsim.run.backends import parallel_results

        played = parallel_results(tasks, jobs, opts.backend, opts.scheduler)
    for task, arrays in played:
        check = arrays.pop(REPLAY_CHECK, None)
        if check is not None and isinstance(check[0], ReplayCheck):
            checked(task, check[0])
        yield task, arrays


def _in_process(tasks: Iterable[ChunkTask]) -> Iterator[tuple[ChunkTask, dict[str, Any]]]:
    for t in tasks:
        with exit_reported(t):  # a strategy's os._exit is named with its pairing
            arrays = play_chunk(t)
        yield t, arrays


class _Replays:
    """The replay checks of a run's chunks: a mismatch goes into the manifest at once
    (``reproducible: false``, ``unreproduced``), and one warning is printed at the end."""

    def __init__(self, folder: Path, manifest: Manifest) -> None:
        self.folder = folder
        self.manifest = manifest
        self.new = 0

    def __call__(self, task: ChunkTask, check: ReplayCheck) -> None:
        if not check.difference:
            return
        names = suspects(task.spec_a.target, task.spec_a.text, task.spec_b.target, task.spec_b.text)
        labels = {r.spec: r.label for r in self.manifest.strategies}
        entry = {"pairing": task.pairing, "chunk": task.chunk, "difference": check.difference}
        entry["strategies"] = [labels.get(n, n) for n in names]
        self.manifest.reproducible = False
        self.manifest.unreproduced.append(entry)
        self.new += 1
        with contextlib.suppress(GinsimError, OSError):  # a full disk: the end writes it again
            write_manifest(self.folder, self.manifest)

    def warn(self) -> None:
        if self.new:
            _stderr("ginsim: warning: " + warning(self.manifest.unreproduced))


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_plan(plan: RunPlan, out: Path | None, opts: RunOptions, on_done: Callable[[Path], None] | None = None) -> Path:
    """Play every missing chunk of ``plan`` into ``out`` (a new folder under results/
    by default), holding the folder's lock, then write the summary and report. Returns
    the folder. Ctrl-C and SIGTERM end it as ``Interrupted``, a failure (a worker killed,
    a full disk, ...) as one-line ``RunError``; either way the folder stays resumable."""
    # relative paths stay right: each chunk restores the working folder a strategy may change
    folder = out if out is not None else default_out(plan.kind)
    plan = grown_plan(plan, folder)  # a larger count or a new entrant grows the run in the folder
    created = not folder.exists()
    with sigterm_as_interrupt():
        try:
            manifest, resumed, held = prepare_folder(plan, folder, opts)
        except KeyboardInterrupt:
            raise Interrupted("interrupted before the run started") from None
        try:
            _play(plan, folder, opts, manifest, resumed, created)
        finally:
            close_pool()  # tournament mode's bot processes, kept between chunks
            close_player()  # the chunk player of the hard limit (ginsim.run.hardlimit)
            held.release()
    if on_done is not None:
        on_done(folder)
    return folder


def _play(plan: RunPlan, folder: Path, opts: RunOptions, manifest: Manifest, resumed: bool, created: bool) -> None:
    note = _stderr if not opts.quiet else None
    jobs = resolve_jobs(opts.jobs, note, cap=opts.backend == "loky" or not opts.scheduler)
    key = chunk_key(manifest.identity, plan.pairings[0].index, FORMAT)  # a match's (the sequential test's)
    try:
        tasks = _tasks(plan, folder, manifest, lambda m: _stderr(f"ginsim: warning: {m}"), opts)
    except KeyboardInterrupt:
        raise Interrupted(_resume_hint("interrupted", folder)) from None
    # every invocation is a session; the top-level jobs and backend say what played the
    # chunks, so a rerun with nothing left to play leaves them as they were
    manifest.sessions.append(
        {"started": now(), "jobs": jobs, "backend": opts.backend, "scheduler": opts.scheduler, "chunks": len(tasks)}
    )
    if len(tasks) or not resumed:
        manifest.jobs = jobs
        manifest.backend = opts.backend
        manifest.scheduler = opts.scheduler
    copies = plan.hands_per_unit() if plan.mode == "hands" else (2 if plan.duplicate else 1)
    total_units = plan.units * len(plan.pairings)
    unit_name = "hands" if plan.mode == "hands" else "games"
    progress = make_progress(total_units * copies, tasks.done_units * copies, unit_name, opts.quiet)
    start = time.perf_counter()
    stopped = None
    manifest.stopped = None  # a resumed run's sequential test is evaluated afresh
    replays = _Replays(folder, manifest)
    written = 0
    try:
        if opts.stop_rule is not None:
            done = {ci for pi, ci in tasks.done}
            stopped = run_sequential(
                opts.stop_rule, plan, folder, tasks, done, lambda ts: _results(ts, jobs, opts, replays), progress, key
            )
        else:
            for task, arrays in _results(tasks, jobs, opts, replays):
                path = chunk_path(folder, task.pairing, task.chunk)
                table = write_chunk(path, arrays, chunk_key(manifest.identity, task.pairing, FORMAT), tasks.secret)
                if opts.on_chunk is not None:
                    opts.on_chunk(path, table)
                written += 1
                progress.update((task.stop - task.start) * copies)
    except KeyboardInterrupt:
        progress.close()
        _end(folder, manifest, RunStatus.INTERRUPTED)
        raise Interrupted(_resume_hint("interrupted", folder)) from None
    except BaseException as e:
        progress.close()
        error = _failure(e, folder)
        if error is None:
            raise
        if not resumed and written == 0 and not _any_chunk(folder):
            _discard(folder, created)  # nothing played: leave no empty run folder behind
        else:
            _end(folder, manifest, RunStatus.FAILED)
        raise error from None
    progress.close()
    manifest.finished = now()
    decided = stopped is not None and stopped.get("stopped", True)
    manifest.status = RunStatus.STOPPED if decided else RunStatus.COMPLETE
    manifest.stopped = stopped
    manifest.elapsed_s = round(time.perf_counter() - start, 3)
    write_manifest(folder, manifest)
    replays.warn()


def _resume_hint(what: str, folder: Path) -> str:
    return f"{what}; finished chunks are kept in {folder}: rerun the same command with --out {folder} to resume"


def _failure(e: BaseException, folder: Path) -> GinsimError | None:
    """The one-line error a failure of the run becomes (None: not ours to translate)."""
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(e, WorkerLost):  # a process playing a chunk died (ginsim.run.hardlimit)
        return RunError(_resume_hint(str(e), folder))
    if isinstance(e, GinsimError):
        return e
    if isinstance(e, BrokenProcessPool):
        cause = str(e).split("\n")[0].split(". ")[0].strip() or type(e).__name__
        return RunError(_resume_hint(f"a worker process died ({cause})", folder))
    if isinstance(e, MemoryError):
        return RunError(_resume_hint("out of memory", folder))
    if isinstance(e, OSError):
        where = f"{e.filename}: " if e.filename else ""
        return RunError(_resume_hint(f"{where}{describe_os_error(e)}", folder))
    return None


def _end(folder: Path, manifest: Manifest, status: RunStatus) -> None:
    """Record how the run ended; a manifest that cannot be written (full disk) is left as
    it was, which a rerun resumes just as well."""
    manifest.status = status
    with contextlib.suppress(GinsimError, OSError):
        write_manifest(folder, manifest)


def _any_chunk(folder: Path) -> bool:
    try:
        return any(p.suffix == ".parquet" for p in (folder / HANDS_DIR).iterdir())
    except OSError:
        return False


def _discard(folder: Path, created: bool) -> None:
    """Remove what this run put in a folder it started and wrote no chunk to."""
    try:
        if created:
            shutil.rmtree(folder)
            return
        for name in (HANDS_DIR, GAMES_DIR, SUMS_DIR):
            shutil.rmtree(folder / name, ignore_errors=True)
        (folder / MANIFEST).unlink(missing_ok=True)
    except OSError:
        pass
