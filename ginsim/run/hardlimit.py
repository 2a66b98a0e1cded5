"""The hard limit per decision: a chunk played in a child process that is ended when a
decision outlasts the watchdog.

The watchdog (ginsim.engine.guard) ends a decision past ``--decision-limit`` from inside
the process, which cannot work when the strategy is stuck in C code holding the GIL (the
watchdog's own thread stops with it) or catches the watchdog's exception and carries on.
So a chunk played by the general engine is played in a forked child, the process's chunk
player, and the process that would have played it (the command itself with ``--jobs 1``, a
worker otherwise) supervises; the player plays chunk after chunk, as a worker does:

- The child shares, in a small anonymous mapping, the engine's count of strategy calls
  as each call begins (odd: ``ginsim.engine.playhand.WATCH``; set even again as each
  hand begins and as the chunk ends), the count when the current hand began, which hand
  that is (deal, copy, hand of the game) and what it is doing.
- When the count stays on the same odd value for the hard limit (``hard_limit``: the
  watchdog's limit and a grace after it), the supervisor kills the child, notes the stuck
  decision as (hand, its call number within the hand) and plays the chunk again in a new
  child, forked afresh, where that very call times out without reaching the strategy: the
  hand is the stuck strategy's forfeit ("... the process playing it was ended") and the
  chunk goes on.
- Everything is played again from the chunk's start with the same seeds, so the hands
  before the stuck one are the same; the forfeit's traced replay and the chunk's replay
  check time the same call out, and so does ``ginsim replay``, which reads the call
  number from the forfeit's record (``hard_limit_call``).
- A constructor or a ``new_hand``/``new_game`` hook stuck past the hard limit has no hand
  to forfeit: the run stops with one line naming the strategy, resumable.

Runs without a watchdog (``--decision-limit
0``), tournament mode (its referee kills a bot's own process), the fast path (no strategy
code runs), threads other than the main one (dask's thread workers) and systems other than
Linux are not supervised: there the watchdog alone bounds a decision.
"""

from __future__ import annotations

import contextlib
import gc
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
from ginsim.engine.playhand import WATCH, thread_watch
from ginsim.errors import RunError
from ginsim.run.interrupt import set_parent_death_signal
from ginsim.run.runplan import ChunkTask, playing

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


_FORCED: dict[Key, int] = {}
"""In a chunk player: the calls to time out unasked, by hand (the hard limit they went
past is ``WATCH.force_limit``)."""


def begin_hand(unit: int, copy: int, game_hand: int = 0) -> None:
    """The worker is about to play this hand (or play it again): tell the supervisor
    which, and time out the call the supervisor found stuck in it, if any. Nothing
    when unsupervised."""
    w = thread_watch()
    shared = w.shared
    if shared is None:
        return
    shared[_UNIT], shared[_COPY], shared[_GAME_HAND] = unit, copy, game_hand
    shared[_PHASE], shared[_CALLS] = _HAND, w.calls  # between calls (the engine writes a call's start only)
    w.force = _FORCED.get((unit, copy, game_hand), -1)


def forced_call(unit: int, copy: int, game_hand: int = 0) -> tuple[int, float] | None:
    """The call number of this hand that timed out unasked in this child, and the hard
    limit it went past; None if none did."""
    call = _FORCED.get((unit, copy, game_hand))
    return None if call is None else (call, thread_watch().force_limit)


@contextlib.contextmanager
def setup_call(side: int, what: int) -> Iterator[None]:
    """A strategy's code outside any hand (``SETUP_WHAT[what]`` of strategy a or b): a
    call the watchdog and the supervisor watch like a decision."""
    w = thread_watch()
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
    w = thread_watch()  # the thread that plays it: a hand another thread plays meanwhile is not touched
    w.force, w.force_limit = call, hard
    try:
        yield
    finally:
        w.force = -1


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
    """``play(task)`` in this process's chunk player (a forked child), played again with
    the stuck call timed out each time a decision outlasts the hard limit (the module's
    docstring says how)."""
    hard = hard_limit(watchdog_limit(task.decision_limit, task.rules.time_per_hand))
    forced: dict[Key, int] = {}
    while True:
        player = _Player.get(play)
        got = player.play(task, forced, hard)
        if isinstance(got, dict):
            return got
        key, call = got
        if forced.get(key, call + 1) <= call:  # the same hand stuck again at or after its forced call
            raise RunError(f"{playing(task)}: a decision went past the hard limit again where it had timed out")
        forced[key] = call


def close_player() -> None:
    """End this process's chunk player, if it has one (the runner, as a run ends)."""
    if _Player.current is not None:
        _Player.current.close()


POLL_S = 0.05
_LEN = 8  # a message's length, before it (bytes, little-endian)


class _Player:
    """A forked child that plays the chunks this process is given, one at a time, until
    it is closed or killed; ``current`` is this process's (at most one)."""

    current: _Player | None = None

    def __init__(self, play: Callable[[ChunkTask], dict[str, Any]]) -> None:
        self.fn = play
        self.mem = mmap.mmap(-1, _SLOTS * 8)
        self.shared = memoryview(self.mem).cast("q")
        tasks_r, self.tasks = os.pipe()
        self.answers, answers_w = os.pipe()
        parent = os.getpid()
        gc.freeze()  # the objects alive now are the child's too: its collections leave their pages unwritten
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the child: measured by the tests through the supervisor
            os.close(self.tasks)
            os.close(self.answers)
            _serve(play, self.shared, tasks_r, answers_w, parent)
        gc.unfreeze()
        os.close(tasks_r)
        os.close(answers_w)

    @classmethod
    def get(cls, play: Callable[[ChunkTask], dict[str, Any]]) -> _Player:
        """This process's player for ``play``, started if there is none (or another's)."""
        if cls.current is not None and cls.current.fn is not play:
            cls.current.close()
        if cls.current is None:
            cls.current = cls(play)
        return cls.current

    def play(self, task: ChunkTask, forced: dict[Key, int], hard: float) -> dict[str, Any] | tuple[Key, int]:
        """The chunk's columns, or the stuck (hand, call) after the player was killed. A
        failure of the player, or an interruption here, closes it."""
        done = False
        try:
            _send(self.tasks, (task, dict(forced), hard))
            got = self._answer(task, hard)
            done = isinstance(got, dict)
            return got
        except BrokenPipeError:
            raise WorkerLost(f"the process playing {playing(task)} is gone ({self._end()})") from None
        finally:
            if not done:
                self.close()

    def _answer(self, task: ChunkTask, hard: float) -> dict[str, Any] | tuple[Key, int]:
        """Read the answer while watching the calls; kill the player when one is stuck."""
        shared = self.shared
        data = bytearray()
        last, since = -1, time.monotonic()
        while len(data) < _LEN or len(data) < _LEN + int.from_bytes(data[:_LEN], "little"):
            ready, _, _ = select.select([self.answers], [], [], POLL_S)
            if ready:
                part = os.read(self.answers, 1 << 20)
                if not part:
                    raise WorkerLost(
                        f"a strategy of {playing(task)} ended the process playing its chunk ({self._end()})"
                    )
                data += part
                continue
            calls, now = shared[_CALLS], time.monotonic()
            if not calls & 1 or calls != last:
                last, since = calls, now
                continue
            if now - since >= hard:
                return self._stuck(task, hard, calls)
        kind, value = pickle.loads(bytes(data[_LEN:]))
        if kind == "ok":
            return value  # type: ignore[no-any-return]
        if kind == "interrupted":
            raise KeyboardInterrupt
        raise value

    def _stuck(self, task: ChunkTask, hard: float, calls: int) -> tuple[Key, int]:
        """Kill the player stuck in call ``calls``: the hand and call, or (stuck outside
        any hand) the one line that stops the run."""
        shared = self.shared
        os.kill(self.pid, signal.SIGKILL)
        if shared[_PHASE] == _HAND:
            return (shared[_UNIT], shared[_COPY], shared[_GAME_HAND]), calls - shared[_BASE]
        spec = (task.spec_a, task.spec_b)[shared[_SIDE]].text
        what = SETUP_WHAT[shared[_WHAT]] if 0 <= shared[_WHAT] < len(SETUP_WHAT) else "its code"
        raise WorkerLost(f"{spec!r}: {what} gave no answer within {hard:g}s (the hard limit) and its process was ended")

    def close(self) -> None:
        """End the player (it ends when its task pipe closes; killed if it does not at once)."""
        if _Player.current is self:
            _Player.current = None
        for fd in (self.tasks, self.answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._end(wait=0.5)
        self.shared.release()
        self.mem.close()

    def _end(self, wait: float = 0.0) -> str:
        """Reap the player, killing it unless it ends within ``wait`` seconds; how it ended."""
        deadline = time.monotonic() + wait
        try:
            while True:
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() >= deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    done, status = os.waitpid(self.pid, 0)
                    break
                time.sleep(0.01)
        except ChildProcessError:
            return "already reaped"
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit status {os.WEXITSTATUS(status)}"


def _send(fd: int, obj: object) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(len(data).to_bytes(_LEN, "little") + data)
    while view:
        view = view[os.write(fd, view) :]


def _receive(fd: int) -> Any:
    """The next message on ``fd``; None when it is closed."""
    data = bytearray()
    while len(data) < _LEN or len(data) < _LEN + int.from_bytes(data[:_LEN], "little"):
        part = os.read(fd, 1 << 20)
        if not part:
            return None
        data += part
    return pickle.loads(bytes(data[_LEN:]))


def _serve(
    play: Callable[[ChunkTask], dict[str, Any]], shared: memoryview, tasks: int, answers: int, parent: int
) -> None:
    """The player: play each chunk it is sent and send back what came of it, until its
    task pipe closes; never returns."""
    try:
        set_parent_death_signal()
        if os.getppid() != parent:  # the supervisor died before the signal was set
            _real_exit(1)
        os._exit = posix._exit = _real_exit  # type: ignore[assignment]
        jvm = sys.modules.get("ginsim.outside.jvm")
        if jvm is not None:
            jvm.forget_inherited()  # type: ignore[attr-defined]
        # counted afresh: no thread but this one plays here
        WATCH.calls = 0
        WATCH.shared = shared
        while (msg := _receive(tasks)) is not None:
            task, forced, hard = msg
            _FORCED.clear()
            _FORCED.update(forced)
            WATCH.force, WATCH.force_limit = -1, hard
            shared[_PHASE], shared[_CALLS] = _OTHER, WATCH.calls
            try:
                payload: tuple[str, Any] = ("ok", play(task))
            except KeyboardInterrupt:
                payload = ("interrupted", None)
            except BaseException as e:  # noqa: BLE001 - sent to the supervisor, which raises it
                payload = ("error", e)
            shared[_PHASE], shared[_CALLS] = _OTHER, WATCH.calls
            try:
                _send(answers, payload)
            except (pickle.PicklingError, TypeError, AttributeError) as e:  # an exception that cannot be pickled
                _send(answers, ("error", RuntimeError(f"{type(payload[1]).__name__}: {payload[1]} ({e})")))
    finally:
        with contextlib.suppress(BaseException):
            jvm = sys.modules.get("ginsim.outside.jvm")  # the Java players' JVMs this child started
            if jvm is not None:
                jvm.close_all()  # type: ignore[attr-defined]
            sys.stdout.flush()
            sys.stderr.flush()
        _real_exit(0)
