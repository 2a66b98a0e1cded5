"""Where chunks run: local processes through joblib (loky), or a Dask cluster through
joblib's dask backend. The hand log is the same either way."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ginsim.errors import RunError
from ginsim.worker import ChunkTask, play_chunk

BACKENDS = ("loky", "dask")


def _play(task: ChunkTask) -> tuple[ChunkTask, dict[str, np.ndarray]]:
    return task, play_chunk(task)


def parallel_results(
    tasks: list[ChunkTask], jobs: int, backend: str, scheduler: str | None
) -> Iterator[tuple[ChunkTask, dict[str, np.ndarray]]]:
    """Run ``play_chunk`` on every task, yielding results as they finish."""
    from joblib import Parallel, delayed

    if backend == "loky":
        parallel = Parallel(
            n_jobs=jobs, backend="loky", return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs"
        )
        yield from parallel(delayed(_play)(t) for t in tasks)
        return
    if backend == "dask":
        yield from _dask_results(tasks, jobs, scheduler)
        return
    raise RunError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")


def _dask_results(tasks: list[ChunkTask], jobs: int, scheduler: str | None) -> Iterator[tuple[ChunkTask, Any]]:
    try:
        import distributed  # noqa: F401
        from joblib import Parallel, delayed, parallel_config
    except ImportError:
        raise RunError("--backend dask needs dask and distributed: pip install 'ginsim[dask]'") from None
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="20s")
        else:
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
    except OSError as e:
        raise RunError(f"cannot reach the dask scheduler {scheduler or '(local)'}: {e}") from None
    try:
        with parallel_config(backend="dask", wait_for_workers_timeout=60):
            parallel = Parallel(return_as="generator_unordered", batch_size=1, pre_dispatch="2*n_jobs", n_jobs=-1)
            yield from parallel(delayed(_play)(t) for t in tasks)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def describe(backend: str, scheduler: str | None) -> dict[str, Any]:
    return {"backend": backend, "scheduler": scheduler}
