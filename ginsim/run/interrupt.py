"""Stopping cleanly: SIGTERM treated as Ctrl-C, and worker processes that die with their parent.

``timeout``, systemd, docker and SLURM stop a program with SIGTERM; ``sigterm_as_interrupt``
makes it raise ``KeyboardInterrupt`` in the main thread, so a run stopped either way
writes its manifest ("interrupted"), says one line and can be resumed. A worker process
calls ``watch_parent`` once: on Linux the kernel kills it when its parent dies
(``PR_SET_PDEATHSIG``), and everywhere a daemon thread notices that the parent is gone
(``os.getppid`` changed) and ends the worker, so a SIGKILL of the main process leaves no
orphan playing on (or holding a pipe open).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

from ginsim.engine.guard import STATE

EXIT_INTERRUPTED = 130
"""The exit status of an interrupted command, Ctrl-C and SIGTERM alike, at every stage."""

POLL_S = 0.5
_PR_SET_PDEATHSIG = 1
_watching: list[int] = []  # the parent PID this process watches (set once per process)


def _raise_interrupt(*_: Any) -> None:
    # the user's stop, like a real Ctrl-C: a strategy thinking now is not charged with it
    STATE.user_stop = True
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises KeyboardInterrupt (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


@contextlib.contextmanager
def exit_reported(task: Any) -> Iterator[None]:
    """While a chunk plays in this very process (``--jobs 1``), a strategy's ``os._exit``
    says which pairing ended the command before it ends, in one line."""
    import posix

    real = os._exit

    def _exit(code: int) -> None:
        from ginsim.run.runplan import playing

        sys.stderr.write(
            f"ginsim: error: a strategy of {playing(task)} ended the process (os._exit({code})); "
            "rerun the same command to resume\n"
        )
        sys.stderr.flush()
        real(code)

    os._exit = posix._exit = _exit  # type: ignore[assignment]
    try:
        yield
    finally:
        os._exit = posix._exit = real  # type: ignore[assignment]


def watch_parent() -> None:
    """End this (worker) process when its parent dies; idempotent."""
    parent = os.getppid()
    if _watching or parent <= 1:
        return
    _watching.append(parent)
    set_parent_death_signal()
    if os.getppid() != parent:  # died before the prctl took effect
        os._exit(1)
    threading.Thread(target=_poll, args=(parent,), name="ginsim-parent-watch", daemon=True).start()


def set_parent_death_signal() -> None:
    """On Linux, have the kernel kill this process when its parent dies (elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _poll(parent: int) -> None:
    while True:
        time.sleep(POLL_S)
        if os.getppid() != parent:
            os._exit(1)
