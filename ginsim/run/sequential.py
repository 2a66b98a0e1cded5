"""Stopping a run early: the runner's hook for sequential tests.

A ``StopRule`` (the SPRT of ginsim.analysis.sprt is one) reduces each chunk to a small
array of counts and decides from their running total. ``run_sequential`` plays chunks,
adds them up **in chunk order** (chunk 0, 1, 2, …: only the contiguous prefix counts),
and stops at the first chunk after which the rule decides, so the decision, the hands it
took and the hand log are the same whatever ``--jobs`` or the backend. Chunk files played
past the decision are deleted. The rule is handed in by the caller; this layer never
imports the statistics that implement it.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ginsim.run.runplan import ChunkTask, RunPlan
from ginsim.runfolder.chunks import remove_chunk
from ginsim.runfolder.records import chunk_path
from ginsim.runfolder.writing import write_chunk

ChunkResults = Iterable[tuple[ChunkTask, dict[str, np.ndarray]]]


class StopRule(Protocol):
    """A sequential test over chunks of one pairing."""

    def check_plan(self, plan: RunPlan) -> None:
        """Refuse (a RunError) a plan the test cannot judge."""

    def empty_counts(self) -> np.ndarray:
        """The counts of no chunk at all (zeros)."""

    def chunk_counts(self, arrays: Mapping[str, np.ndarray]) -> np.ndarray:
        """The test's counts of one chunk just played (its hand-log columns)."""

    def file_counts(self, path: Path) -> np.ndarray:
        """The same counts of a chunk file already on disk (a resumed run)."""

    def decided(self, counts: np.ndarray) -> bool:
        """Whether the test has decided after these running totals."""

    def status(self, counts: np.ndarray) -> str:
        """A few words for the progress bar."""

    def evaluate(self, counts: np.ndarray, chunks: int) -> dict[str, Any]:
        """The test's result after ``chunks`` chunks (kept in the manifest as ``stopped``)."""


def run_sequential(
    rule: StopRule,
    plan: RunPlan,
    folder: Path,
    tasks: Iterable[ChunkTask],
    on_disk: set[int],
    results_fn: Callable[[Iterable[ChunkTask]], ChunkResults],
    progress: Any,
    run: str,
) -> dict[str, Any]:
    """Play ``tasks`` (the chunks without a verified file; those with one are ``on_disk``),
    counting chunks in order and stopping at the first chunk after which ``rule`` decides.
    ``run`` is the run's key, recorded with each chunk."""
    rule.check_plan(plan)
    pairing = plan.pairings[0].index
    total = len(plan.chunks())
    counts = rule.empty_counts()
    ready: dict[int, np.ndarray] = {}  # chunk -> its counts, played but not yet reached
    done = 0  # chunks 0..done-1 are counted

    def advance() -> bool:
        """Count every chunk that is next in order and available; whether decided."""
        nonlocal done, counts
        while done < total:
            if done in ready:
                part = ready.pop(done)
            elif done in on_disk:  # on disk from an earlier run
                part = rule.file_counts(chunk_path(folder, pairing, done))
            else:
                break
            counts = counts + part
            done += 1
            _show(progress, rule.status(counts))
            if rule.decided(counts):
                return True
        return False

    decided = advance()
    if not decided:
        todo = (t for t in tasks if t.chunk >= done)
        results = iter(results_fn(todo))
        try:
            for task, arrays in results:
                write_chunk(chunk_path(folder, task.pairing, task.chunk), arrays, run, getattr(tasks, "secret", b""))
                progress.update(2 * (task.stop - task.start))
                ready[task.chunk] = rule.chunk_counts(arrays)
                if advance():
                    decided = True
                    break
        finally:
            _close(results)
    if decided:
        for ci in range(done, total):  # played past the decision: not part of the run
            remove_chunk(chunk_path(folder, pairing, ci))
    return rule.evaluate(counts, done)


def _show(progress: Any, text: str) -> None:
    post = getattr(progress, "set_postfix_str", None)
    if post is not None:
        post(text, refresh=False)


def _close(results: Iterator[Any]) -> None:
    """Stop the backend's generator: chunks still running are cancelled, without joblib's
    warning about finished chunks left unused (those past the decision are meant to go)."""
    close = getattr(results, "close", None)
    if close is not None:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r".*(been successfully executed|have been cancelled)")
            close()
