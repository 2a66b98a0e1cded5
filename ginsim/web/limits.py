"""The decision limit at ``ginsim web``: on loading a bot and on its decisions, at a table
and in a watched game.

The watchdog of ginsim.engine.guard ends strategy code past the limit with a signal,
which only the main thread receives; ``ginsim web`` runs its bots in other threads (a
request's thread, a table's game thread, a watched hand's thread), so here the limit is
kept by waiting instead. A bot is loaded (``load_bot``) in a daemon thread of its own
that the request waits for, each step at most the limit; a table's game thread and a
watched game's hand thread are watched through their own count of strategy calls
(``CallClock``, over ginsim.engine.playhand's ``thread_watch``). Code that runs past the
limit cannot be ended from outside its thread: the request answers with one line, or the
game ends with one, and the stuck code stays behind in its daemon thread. It is asked to
stop by an exception raised in that thread (``interrupt``), which takes effect when the
thread next runs Python code: a busy loop ends, a thread blocked in a sleep, a wait or C
code stays blocked until that returns. The server goes on answering every other request
meanwhile.
"""

from __future__ import annotations

import ctypes
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

from ginsim.engine.spec import StrategySpec, no_answer, parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.errors import GinsimError, StrategySpecError

LIMIT_NAMES = {"decision_limit": "--decision-limit"}
"""How an error of the web names the decision limit (``GinsimError.message``): by the
option of ``ginsim web`` that sets it."""
CHECKING = "loading and checking it"
"""The first step of loading a bot: its module run, its parameters checked and one
instance built (``parse_spec``); the second is the constructor of the instance it plays."""


def poll_interval(limit: float) -> float:
    """How often a watch looks at a count of calls under ``limit`` seconds."""
    return min(0.25, limit / 20)


def interrupt(thread: threading.Thread, kind: type[BaseException]) -> None:
    """``kind`` raised in ``thread`` (made without arguments) as soon as the thread next
    runs Python code; nothing if it has ended."""
    if thread.ident is not None and thread.is_alive():
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(kind))


def thinking_seat(thread: threading.Thread, bots: Sequence[object]) -> int | None:
    """The seat whose bot the stuck ``thread`` is inside: the innermost frame of its
    stack that is a method of one of ``bots`` (by identity), or None when none is (a
    bot blocked in compiled code, a thread that has ended). For the line that names it."""
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        for seat, bot in enumerate(bots):
            if owner is bot:
                return seat
        frame = frame.f_back
    return None


class Counter(Protocol):
    """A thread's count of strategy calls (ginsim.engine.playhand.thread_watch): odd while
    a strategy of that thread thinks."""

    calls: int


class CallClock:
    """Whether a thread's strategy call has run ``limit`` seconds, from its ``counter``
    looked at now and then (``stuck``): a call ends or begins when the count changes, and
    the count is odd inside one. ``clock`` gives the time in seconds."""

    def __init__(self, counter: Counter, limit: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.counter = counter
        self.limit = limit
        self.clock = clock
        self.last = -1
        self.since = clock()

    def stuck(self, paused: bool = False) -> bool:
        """Whether the same call has been under way ``limit`` seconds by now. ``paused``:
        the thread is inside a call that is not timed (a person's decision), and the time
        counts again from now."""
        calls, now = self.counter.calls, self.clock()
        if paused or calls != self.last or not calls & 1:
            self.last, self.since = calls, now
            return False
        return now - self.since >= self.limit


class LoadStopped(BaseException):
    """Raised in a load left behind past the limit (``interrupt``), to end it if it runs
    Python code; never seen by the request, which has answered already."""


class _Load:
    """Loading spec ``text`` in a daemon thread: ``parse_spec`` (``CHECKING``), then the
    instance the bot plays with (its constructor). ``step`` is the step under way and the
    time it began."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.step = (CHECKING, time.monotonic())
        self.done = threading.Event()
        self.result: tuple[StrategySpec, Strategy] | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.run, name="ginsim-web-load", daemon=True)

    def run(self) -> None:
        try:
            spec = parse_spec(self.text)
            self.step = ("its constructor", time.monotonic())
            self.result = spec, spec.build()
        except BaseException as e:  # noqa: BLE001 - handed to the request that waits
            self.error = e
        finally:
            self.done.set()

    def wait(self, limit: float) -> tuple[StrategySpec, Strategy] | None:
        """The spec and the instance, the load's own error, or None when a step is still
        under way ``limit`` seconds after it began (then ``step`` is that step)."""
        while True:
            step = self.step
            left = step[1] + limit - time.monotonic()
            if self.done.wait(max(left, 0.0)):
                return self.outcome()
            if self.step is step:  # not a step that began while this one was awaited
                return None

    def outcome(self) -> tuple[StrategySpec, Strategy]:
        """The finished load's spec and instance, or its error as one line naming the
        strategy (a constructor's RuntimeError, module code's SystemExit: errors the
        commands would show with their traceback, not a request's answer)."""
        e = self.error
        if e is None:
            assert self.result is not None
            return self.result
        if isinstance(e, GinsimError):
            raise e
        raise StrategySpecError(f"strategy {self.text!r}: {self.step[0]} raised {type(e).__name__}: {e}") from None


_LEFT: dict[str, _Load] = {}
"""Loads left behind past the limit, by spec text: while one still runs, the same spec
is refused at once (its module may be half run)."""
_LEFT_LOCK = threading.Lock()


def load_bot(text: str, limit: float) -> tuple[StrategySpec, Strategy]:
    """Spec ``text`` parsed and checked (``parse_spec``: its module run, one instance
    built) and the instance the bot plays with, each step within ``limit`` seconds (0: no
    limit). Past it, StrategySpecError naming the strategy, the step and the limit (as the
    commands' check says it); the step stays behind in its daemon thread (see the module),
    and until it ends the same spec is refused at once."""
    raw = text.strip()
    if not limit:  # loaded in this thread, however long it takes
        load = _Load(raw)
        load.run()
        return load.outcome()
    with _LEFT_LOCK:
        left = _LEFT.pop(raw, None)
        if left is not None and not left.done.is_set():
            _LEFT[raw] = left
            raise no_answer(raw, f"{left.step[0]} (from an earlier request, still running)", limit)
        load = _Load(raw)
        load.thread.start()
    loaded = load.wait(limit)
    if loaded is not None:
        return loaded
    with _LEFT_LOCK:
        _LEFT[raw] = load
    interrupt(load.thread, LoadStopped)
    raise no_answer(raw, load.step[0], limit)
