"""The hard limit per decision: a chunk played in a child process that is ended when a
decision outlasts the watchdog.

The watchdog (ginsim.engine.guard) ends a decision past ``--decision-limit`` from inside
the process, which cannot work when the strategy is stuck in C code holding the GIL (the
watchdog's own thread stops with it) or catches the watchdog's exception and carries on.
So a chunk played by the general engine is played in a forked child, and the process that
would have played it (the command itself with ``--jobs 1``, a worker otherwise) supervises:

- The child shares, in a small anonymous mapping, the engine's count of strategy calls
  as each call begins (odd: ``ginsim.engine.playhand.WATCH``; set even again as each
  hand begins and as the chunk ends), the count when the current hand began, which hand
  that is (deal, copy, hand of the game) and what it is doing.
- When the count stays on the same odd value for the hard limit (``hard_limit``: the
  watchdog's limit and a grace after it), the supervisor kills the child, notes the stuck
  decision as (hand, its call number within the hand) and plays the chunk again in a new
  child, where that very call times out without reaching the strategy: the hand is the
  stuck strategy's forfeit ("... the process playing it was ended") and the chunk goes on.
- Everything is played again from the chunk's start with the same seeds, so the hands
  before the stuck one are the same; the forfeit's traced replay and the chunk's replay
  check time the same call out, and so does ``ginsim replay``, which reads the call
  number from the forfeit's record (``hard_limit_call``).
- A constructor or a ``new_hand``/``new_game`` hook stuck past the hard limit has no hand
  to forfeit: the run stops with one line naming the strategy, resumable.

A child holds nothing a later chunk sees: each chunk starts from the supervisor's state,
whatever a strategy changed in its module. Runs without a watchdog (``--decision-limit
0``), tournament mode (its referee kills a bot's own process), the fast path (no strategy
code runs), threads other than the main one (dask's thread workers) and systems other than
Linux are not supervised: there the watchdog alone bounds a decision.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import posix
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ginsim.engine.guard import watchdog_limit
from ginsim.engine.playhand import WATCH
from ginsim.errors import RunError
from ginsim.run.interrupt import set_parent_death_signal
from ginsim.run.plan import ChunkTask, playing

Key = tuple[int, int, int]
"""A hand of a chunk: (deal or game, copy, hand of the game; 0 in hand mode)."""

# the shared slots (int64 each)
_PHASE, _CALLS, _BASE, _UNIT, _COPY, _GAME_HAND, _SIDE, _WHAT = range(8)
_SLOTS = 8
_OTHER, _HAND, _SETUP = 0, 1, 2  # what the child is doing: ginsim's own work, a hand, a constructor or hook
SETUP_WHAT = ("its constructor", "new_hand", "new_game")

_real_exit = posix._exit  # a strategy's os._exit wrapper (ginsim.run.interrupt.exit_reported) is not for the child


class WorkerLost(RunError):
    """A process playing a chunk died mid-chunk: killed from outside (the OOM killer),
    ended by a strategy (``os._exit``), or ended at the hard limit in a strategy's code
    outside any hand. The finished chunks stand; a rerun resumes (the runner says how)."""


def hard_limit(limit: float) -> float:
    """The seconds a decision may run before its process is ended: the watchdog's
    ``limit`` and a grace of a quarter of it, at least one second."""
    return limit + max(1.0, limit / 4)


class _Child:
    """What a supervised child knows: the calls to time out unasked, by hand."""

    def __init__(self) -> None:
        self.forced: dict[Key, int] = {}
        self.hard = 0.0


_CHILD = _Child()


def begin_hand(unit: int, copy: int, game_hand: int = 0) -> None:
    """The worker is about to play this hand (or play it again): tell the supervisor
    which, and time out the call the supervisor found stuck in it, if any. Nothing
    when unsupervised."""
    shared = WATCH.shared
    if shared is None:
        return
    shared[_UNIT], shared[_COPY], shared[_GAME_HAND] = unit, copy, game_hand
    shared[_PHASE], shared[_CALLS] = _HAND, WATCH.calls  # between calls (the engine writes a call's start only)
    WATCH.force = _CHILD.forced.get((unit, copy, game_hand), -1)


def forced_call(unit: int, copy: int, game_hand: int = 0) -> tuple[int, float] | None:
    """The call number of this hand that timed out unasked in this child, and the hard
    limit it went past; None if none did."""
    call = _CHILD.forced.get((unit, copy, game_hand))
    return None if call is None else (call, _CHILD.hard)


@contextlib.contextmanager
def setup_call(side: int, what: int) -> Iterator[None]:
    """A strategy's code outside any hand (``SETUP_WHAT[what]`` of strategy a or b): a
    call the watchdog and the supervisor watch like a decision."""
    w = WATCH
    shared = w.shared
    if shared is not None:
        shared[_SIDE], shared[_WHAT], shared[_PHASE] = side, what, _SETUP
    w.calls += 1
    if shared is not None:
        shared[_CALLS] = w.calls
    try:
        yield
    finally:
        w.calls += 1
        if shared is not None:
            shared[_CALLS] = w.calls


@contextlib.contextmanager
def forcing(call: int | None, hard: float) -> Iterator[None]:
    """Time out call ``call`` of the next hand played in this process, unasked (``ginsim
    replay`` of a hand whose process was ended there); None: nothing to force."""
    if call is None:
        yield
        return
    WATCH.force, WATCH.force_limit = call, hard
    try:
        yield
    finally:
        WATCH.force = -1


def supervisable(task: ChunkTask, general: bool) -> bool:
    """Whether this chunk is played under a supervisor: by the general engine
    (``general``), in-process, with a watchdog, in the main thread, on Linux (where a
    forked child is safe with the libraries a run loads, and dies with its parent)."""
    return (
        general
        and not task.isolate
        and watchdog_limit(task.decision_limit, task.rules.time_per_hand) > 0
        and sys.platform.startswith("linux")
        and threading.current_thread() is threading.main_thread()
        and WATCH.shared is None  # not already inside a supervised child
    )


def supervised(task: ChunkTask, play: Callable[[ChunkTask], dict[str, Any]]) -> dict[str, Any]:
    """``play(task)`` in a child process, played again with the stuck call timed out each
    time a decision outlasts the hard limit (the module's docstring says how)."""
    hard = hard_limit(watchdog_limit(task.decision_limit, task.rules.time_per_hand))
    forced: dict[Key, int] = {}
    while True:
        got = _attempt(task, play, forced, hard)
        if isinstance(got, dict):
            return got
        key, call = got
        if forced.get(key, call + 1) <= call:  # the same hand stuck again at or after its forced call
            raise RunError(f"{playing(task)}: a decision went past the hard limit again where it had timed out")
        forced[key] = call


def _attempt(
    task: ChunkTask, play: Callable[[ChunkTask], dict[str, Any]], forced: dict[Key, int], hard: float
) -> dict[str, Any] | tuple[Key, int]:
    """One child playing the chunk: its columns, or the stuck (hand, call)."""
    mem = mmap.mmap(-1, _SLOTS * 8)
    shared = memoryview(mem).cast("q")
    r, w = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child: measured by the tests through the supervisor
        os.close(r)
        _child(task, play, forced, hard, shared, w, parent)
    os.close(w)
    try:
        return _watch(task, pid, r, shared, hard)
    finally:
        os.close(r)
        _end(pid)
        shared.release()
        mem.close()


def _child(
    task: ChunkTask,
    play: Callable[[ChunkTask], dict[str, Any]],
    forced: dict[Key, int],
    hard: float,
    shared: memoryview,
    w: int,
    parent: int,
) -> None:
    """Play the chunk and send what came of it; never returns."""
    jvm = sys.modules.get("ginsim.outside.jvm")
    try:
        set_parent_death_signal()
        if os.getppid() != parent:  # the supervisor died before the signal was set
            _real_exit(1)
        os._exit = posix._exit = _real_exit  # type: ignore[assignment]
        if jvm is not None:
            jvm.forget_inherited()  # type: ignore[attr-defined]
        _CHILD.forced, _CHILD.hard = dict(forced), hard
        WATCH.shared, WATCH.force, WATCH.force_limit = shared, -1, hard
        shared[_CALLS] = WATCH.calls
        try:
            payload: tuple[str, Any] = ("ok", play(task))
        except KeyboardInterrupt:
            payload = ("interrupted", None)
        except BaseException as e:  # noqa: BLE001 - sent to the supervisor, which raises it
            payload = ("error", e)
        shared[_PHASE], shared[_CALLS] = _OTHER, WATCH.calls
        try:
            data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # noqa: BLE001 - an exception that cannot be pickled: its text
            data = pickle.dumps(("error", RuntimeError(f"{type(payload[1]).__name__}: {payload[1]} ({e})")))
        view = memoryview(data)
        while view:
            view = view[os.write(w, view) :]
    finally:
        with contextlib.suppress(BaseException):
            jvm = sys.modules.get("ginsim.outside.jvm")  # the Java players' JVMs this child started
            if jvm is not None:
                jvm.close_all()  # type: ignore[attr-defined]
            sys.stdout.flush()
            sys.stderr.flush()
        _real_exit(0)


POLL_S = 0.05


def _watch(task: ChunkTask, pid: int, r: int, shared: memoryview, hard: float) -> dict[str, Any] | tuple[Key, int]:
    """Read the child's answer while watching its calls; kill it when one is stuck."""
    data = bytearray()
    last, since = -1, time.monotonic()
    while True:
        ready, _, _ = select.select([r], [], [], POLL_S)
        if ready:
            part = os.read(r, 1 << 20)
            if not part:
                break
            data += part
            continue
        calls, now = shared[_CALLS], time.monotonic()
        if not calls & 1 or calls != last:
            last, since = calls, now
            continue
        if now - since < hard:
            continue
        os.kill(pid, signal.SIGKILL)
        if shared[_PHASE] == _HAND:
            return (shared[_UNIT], shared[_COPY], shared[_GAME_HAND]), calls - shared[_BASE]
        spec = (task.spec_a, task.spec_b)[shared[_SIDE]].text
        what = SETUP_WHAT[shared[_WHAT]] if 0 <= shared[_WHAT] < len(SETUP_WHAT) else "its code"
        raise WorkerLost(f"{spec!r}: {what} gave no answer within {hard:g}s (the hard limit) and its process was ended")
    status = _end(pid)
    if not data:
        raise WorkerLost(f"a strategy of {playing(task)} ended the process playing its chunk ({status})")
    kind, value = pickle.loads(bytes(data))
    if kind == "ok":
        return value  # type: ignore[no-any-return]
    if kind == "interrupted":
        raise KeyboardInterrupt
    if isinstance(value, BaseException):
        raise value
    raise RunError(str(value))  # pragma: no cover - the child sends exceptions only


def _end(pid: int) -> str:
    """Reap the child (killing it if it still runs); how it ended, in words."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            done, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return "already reaped"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"
