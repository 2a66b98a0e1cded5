"""Where chunks run: local processes through joblib (loky), or a Dask cluster through
joblib's dask backend. The hand log is the same either way."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ginsim.errors import RunError, StrategySpecError
from ginsim.run.hardlimit import WorkerLost
from ginsim.run.interrupt import watch_parent
from ginsim.run.runplan import playing
from ginsim.run.worker import ChunkTask, play_chunk

BACKENDS = ("loky", "dask")


def _play(task: ChunkTask) -> tuple[ChunkTask, dict[str, np.ndarray]]:
    """What a worker process runs: one chunk (the first call also ties the worker's life
    to its parent's, so killing the run leaves no orphan)."""
    watch_parent()
    return task, play_chunk(task)


def parallel_results(
    tasks: list[ChunkTask], jobs: int, backend: str, scheduler: str | None
) -> Iterator[tuple[ChunkTask, dict[str, np.ndarray]]]:
    """Run ``play_chunk`` on every task, yielding results as they finish."""
    from joblib import Parallel, delayed

    # a run stopped early (Ctrl-C, SIGTERM, a sequential test) closes the generator: joblib's
    # notes about finished or cancelled chunks left unused say nothing the run does not
    warnings.filterwarnings("ignore", message=r".*(been successfully executed|have been cancelled)")
    if backend == "loky":
        from joblib.externals.loky.process_executor import TerminatedWorkerError

        parallel = Parallel(
            n_jobs=jobs, backend="loky", return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
        )
        running: dict[tuple[int, int], ChunkTask] = {}  # dispatched, not yet back

        def dispatched() -> Iterator[Any]:
            for t in tasks:
                running[t.pairing, t.chunk] = t
                yield delayed(_play)(t)

        results = parallel(dispatched())
        try:
            for item in results:
                running.pop((item[0].pairing, item[0].chunk), None)
                yield item
        except TerminatedWorkerError as e:
            raise WorkerLost(_exit_text(str(e), list(running.values()))) from None
        finally:
            _quiet_close(results)
        return
    if backend == "dask":
        yield from _dask_results(tasks, jobs, scheduler)
        return
    raise RunError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")


def _exit_text(message: str, running: list[ChunkTask] | None = None) -> str:
    """What loky says of a dead worker, in a few words: its exit codes, and the pairings
    that were being played (one of them ended it)."""
    import re

    codes = re.search(r"exit codes: \{([^}]*)\}", message)
    how = f" (exit codes {codes.group(1)})" if codes else ""
    pairs = sorted({playing(t) for t in running or []})
    where = f" while playing {' or '.join(pairs)}" if pairs else ""
    return (
        f"a worker process died{how}{where}: killed from outside (out of memory?) or by a strategy ending its process"
    )


def _quiet_close(results: Iterator[Any]) -> None:
    """Close joblib's generator without its UserWarning about finished or running tasks
    left unused: on Ctrl-C (or an early stop) that is intended, and the warning would
    print before ginsim's own message saying how to resume."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*(been successfully executed|have been cancelled)")
        results.close()  # type: ignore[attr-defined]


CONNECT_TIMEOUT = 20.0  # seconds to reach a scheduler
WORKER_TIMEOUT = 60.0  # seconds to wait for a cluster's first worker


def require_dask() -> None:
    """RunError (one line) unless dask and distributed can be imported: the optional extra."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise RunError.about("{backend} dask needs dask and distributed: pip install 'ginsim[dask]'") from None


def _dask_results(tasks: list[ChunkTask], jobs: int, scheduler: str | None) -> Iterator[tuple[ChunkTask, Any]]:
    """The chunks on a Dask cluster through joblib's dask backend: the cluster at
    ``scheduler``, or a local cluster of ``jobs`` single-threaded worker processes that
    lives for the run. Dask's own log lines stay quiet unless they are errors."""
    require_dask()
    from joblib import Parallel, delayed, parallel_config

    _drop_cut_short_gathers()
    with _quiet_dask():
        client, cluster = _connect(jobs, scheduler)
        try:
            with parallel_config(backend="dask", client=client, wait_for_workers_timeout=WORKER_TIMEOUT):
                parallel = Parallel(return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs", n_jobs=-1)
                yield from parallel(delayed(_play)(t) for t in tasks)
        except ModuleNotFoundError as e:
            raise RunError(
                f"a dask worker cannot import {e.name or e}: every worker needs ginsim (and the strategies' "
                "modules) installed"
            ) from None
        except TimeoutError as e:
            raise RunError(f"dask cluster {scheduler or '(local)'}: {e}") from None
        except StrategySpecError as e:
            if scheduler is None:
                raise
            raise StrategySpecError(
                f"on a dask worker: {e} (a worker reads path/to/file.py from its own folder: see docs/dask.md)"
            ) from None
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _connect(jobs: int, scheduler: str | None) -> tuple[Any, Any]:
    """A client of the cluster at ``scheduler``, or of a new local cluster (and that cluster)."""
    from distributed import Client, LocalCluster

    where = scheduler or "(local)"
    cluster = None
    try:
        if scheduler:
            from distributed.comm.addressing import resolve_address

            resolve_address(scheduler)  # a bad address fails here, before a Client half exists
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        else:
            # no dashboard is asked for; two runs at once must not print a port warning
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use", category=UserWarning)
            with _workers_ignore_sigint():
                cluster = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            client = Client(cluster, set_as_default=False)
    except (OSError, ValueError, TypeError) as e:
        if cluster is not None:
            cluster.close()
        raise RunError(f"cannot reach the dask scheduler {where}: {e}") from None
    return client, cluster


@contextmanager
def _workers_ignore_sigint() -> Iterator[None]:
    """Start worker processes with Ctrl-C ignored (they inherit it): Ctrl-C then stops
    the run in this process, which closes the cluster, instead of printing a traceback
    from every worker."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """Dask's loggers in this process at ERROR for the run (cancelled chunks of a stopped
    run are not worth a warning)."""
    names = ("distributed", "dask", "tornado")
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.ERROR)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


class _CutShortGathers(logging.Filter):
    """Drops the errors dask logs, sometimes after the run, about fetching results of chunks
    cancelled by an early stop (joblib's result tracker finds its connection closed under
    the fetch): those results were not wanted, nothing was lost."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if text.startswith("Couldn't gather keys") or "as_completed._track_future" in text:
            return False
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        from distributed.comm.core import CommClosedError

        return not isinstance(exc, CommClosedError)


_FILTER = _CutShortGathers()


def _drop_cut_short_gathers() -> None:
    for name in ("tornado.application", "distributed.scheduler", "distributed.client", "asyncio"):
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
