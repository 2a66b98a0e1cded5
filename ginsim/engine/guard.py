"""Guarding a run against its strategies: the user's Ctrl-C told apart from a bot's
KeyboardInterrupt, and a watchdog that ends a decision that never returns.

The engine catches every ``BaseException`` a strategy raises and forfeits its seat; only
a real Ctrl-C (SIGINT delivered to the process, which ``guarded`` marks in a flag) goes
through and stops the run. The engine counts strategy calls per thread; the main thread's
count, ``ginsim.engine.playhand.WATCH.calls``, is odd while a strategy of the main thread
is thinking (hands other threads play at once, as ``ginsim web``'s, count on their own and
never change it). The watchdog thread sees a count that stays odd past
the limit and ends the decision with ``DecisionTimeout`` raised in the main thread (from
a SIGALRM handler, so a ``time.sleep`` is cut short too), which the engine records as a
forfeit. A strategy stuck in C code that never returns to the interpreter, or one that
catches ``DecisionTimeout`` and carries on, is beyond this: the process playing the chunk
is then ended from outside (ginsim.run.hardlimit's supervisor; tournament mode's referee
kills a bot's process). Signals are only handled in the main thread, so a run played in
other threads (dask's thread workers) has no watchdog. Before a run, ``checking`` puts
the strategies' check (ginsim.engine.spec: each module loaded, one instance built,
each a ``watched`` call) under the same watchdog, so a constructor that never returns
stops the command with one line instead of hanging it.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from ginsim.errors import RunError

DEFAULT_DECISION_LIMIT = 60.0
"""Seconds one decision may take before the watchdog forfeits it (``--decision-limit``)."""
UNSET_LIMIT_NAMES = {"decision_limit": "the default limit on a decision"}
"""How an error (``GinsimError.message``) names the decision limit where a command has no
``--decision-limit`` to set it (``play`` and ``replay`` check their strategies at the default)."""


def checked_limit(limit: float) -> float:
    """``limit`` if it is a number of seconds, 0 or more (0: no limit), else RunError
    naming the option that set it."""
    if not (limit >= 0 and limit != float("inf")):  # nan would switch the watchdog off
        raise RunError.about("{decision_limit} must be a number of seconds, 0 or more (0: no limit), not {n}", n=limit)
    return limit


class DecisionTimeout(BaseException):
    """A strategy's decision ran past the hard limit (raised inside the strategy's call)."""

    def __init__(self, limit: float, clock: bool = False, hard: bool = False) -> None:
        super().__init__(f"no answer within {limit:g}s")
        self.limit = limit
        self.clock = clock  # the limit came from the rules' clock (R25)
        self.hard = hard  # a supervisor ended the process stuck in it (ginsim.run.hardlimit)


class BotFailure(Exception):
    """A strategy in its own process failed: raised, crashed, answered nonsense or ran out
    of time. ``str(e)`` completes "<method> ..." (e.g. "raised ValueError: bad")."""

    def __init__(self, kind: str, text: str) -> None:
        super().__init__(text)
        self.kind = kind
        self.remote_traceback = ""  # the traceback its own process reported, if any


class _State:
    def __init__(self) -> None:
        self.user_stop = False
        self.limit = 0.0  # 0: no watchdog armed
        self.clock = False
        self.target = -1  # the call count the watchdog fired at
        self.thread: threading.Thread | None = None
        self.main_ident = threading.main_thread().ident


STATE = _State()
_PASSING = threading.local()
"""The kinds of exception the engine lets through in this thread (``letting_through``):
each thread its own, so that games in threads side by side (the tables and watched games
of ``ginsim web``) never undo each other's."""


@contextmanager
def letting_through(*kinds: type[BaseException]) -> Iterator[None]:
    """Let exceptions of these classes pass the engine instead of forfeiting: for a
    trusted player's own way to stop a game (the person at ``ginsim play`` quitting).
    In the calling thread only."""
    old: tuple[type[BaseException], ...] = getattr(_PASSING, "kinds", ())
    _PASSING.kinds = old + kinds
    try:
        yield
    finally:
        _PASSING.kinds = old


def passes(e: BaseException) -> bool:
    """Whether the engine lets ``e`` through: the user's Ctrl-C, or a kind let through."""
    if isinstance(e, KeyboardInterrupt) and STATE.user_stop:
        return True
    kinds: tuple[type[BaseException], ...] = getattr(_PASSING, "kinds", ())
    return bool(kinds) and isinstance(e, kinds)


def user_stop() -> bool:
    """Whether the user pressed Ctrl-C (a real SIGINT) during this guarded run."""
    return STATE.user_stop


_COUNTER: list[Any] = []  # the main thread's call counter (ginsim.engine.playhand.WATCH)


def watch_calls(counter: Any) -> None:
    """The play loop hands the guard the main thread's counter of strategy calls (an
    object with an int ``calls``), so that the guard never imports the play loop."""
    _COUNTER[:] = [counter]


def _calls() -> int:
    return int(_COUNTER[0].calls) if _COUNTER else 0


def _on_sigint(_signum: int, _frame: FrameType | None) -> None:
    STATE.user_stop = True
    raise KeyboardInterrupt


def _on_alarm(_signum: int, _frame: FrameType | None) -> None:
    # raise only inside the very call the watchdog saw stuck (it may have just returned)
    if STATE.limit and STATE.target == _calls():
        raise DecisionTimeout(STATE.limit, STATE.clock)


def _watch() -> None:
    last = -1
    since = time.monotonic()
    while True:
        limit = STATE.limit
        time.sleep(min(0.25, limit / 20) if limit else 0.25)
        if not STATE.limit:
            last = -1
            continue
        calls = _calls()
        now = time.monotonic()
        if calls != last:
            last, since = calls, now
            continue
        if calls & 1 and now - since >= STATE.limit:
            again = STATE.target == calls  # signalled before, and still in the same call
            STATE.target = calls
            signal.pthread_kill(STATE.main_ident, signal.SIGALRM)  # type: ignore[arg-type]
            if again or signal.getsignal(signal.SIGALRM) is not _on_alarm:
                _raise_in_main(calls)  # SIGALRM ignored, blocked or its handler replaced
            since = now - STATE.limit + min(1.0, STATE.limit)  # caught and ignored: again soon


def _raise_in_main(calls: int) -> None:
    """DecisionTimeout raised in the main thread as it next runs Python code, without a
    signal: for a strategy that ignored, blocked or replaced the watchdog's SIGALRM."""
    if not STATE.limit or _calls() != calls:  # the decision has just returned
        return
    ident = ctypes.c_ulong(STATE.main_ident or 0)
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ident, ctypes.py_object(_AsyncTimeout))


class _AsyncTimeout(DecisionTimeout):
    """The DecisionTimeout the watchdog raises without a signal (an asynchronous exception
    is a class, made without arguments)."""

    def __init__(self) -> None:
        super().__init__(STATE.limit, STATE.clock)


def watchdog_limit(decision_limit: float | None, time_per_hand: float | None) -> float:
    """The seconds after which the watchdog ends a decision: ``decision_limit``, or the
    rules' clock ``time_per_hand`` when that is shorter; 0.0 (no watchdog) when
    ``decision_limit`` is None or 0."""
    limits = [x for x in (decision_limit, time_per_hand) if x]
    return min(limits) if decision_limit and limits else 0.0


@contextmanager
def guarded(decision_limit: float | None, time_per_hand: float | None = None) -> Iterator[None]:
    """Play under guard: Ctrl-C marked as the user's, and (main thread only) a watchdog
    ending any decision longer than ``decision_limit`` seconds, or than the rules' clock
    ``time_per_hand`` when that is shorter. ``decision_limit`` None or 0: no watchdog."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    limit = watchdog_limit(decision_limit, time_per_hand)
    old: dict[int, Any] = {}
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # started ignoring it (nohup): keep so
        old[signal.SIGINT] = signal.signal(signal.SIGINT, _on_sigint)
    if limit:
        old[signal.SIGALRM] = signal.signal(signal.SIGALRM, _on_alarm)
        STATE.main_ident = threading.main_thread().ident
        STATE.clock = bool(time_per_hand) and limit == time_per_hand
        STATE.limit = limit
        if STATE.thread is None or not STATE.thread.is_alive():
            STATE.thread = threading.Thread(target=_watch, name="ginsim-watchdog", daemon=True)
            STATE.thread.start()
    STATE.user_stop = False
    try:
        yield
        if STATE.user_stop:  # a strategy swallowed the user's Ctrl-C
            raise KeyboardInterrupt
    finally:
        STATE.limit = 0.0
        for sig, handler in old.items():
            signal.signal(sig, handler)


@contextmanager
def checking(decision_limit: float | None) -> Iterator[None]:
    """Strategies checked before a run (their specs parsed: each module imported and one
    instance built, ginsim.engine.spec) under the watchdog, as the run's decisions
    are: a watched call (``watched``) past ``decision_limit`` seconds ends with
    DecisionTimeout, which the spec's check turns into one line naming the strategy. Nothing
    changes when the watchdog is already armed (inside ``guarded``), outside the main
    thread, or when ``decision_limit`` is None or 0 (or not a number of seconds, which
    the run refuses with its own message)."""
    if STATE.limit or decision_limit is None or not 0 < decision_limit < float("inf"):  # nan, < 0: refused later
        yield
        return
    with guarded(decision_limit):
        yield


@contextmanager
def watched() -> Iterator[bool]:
    """Strategy code outside any hand (a spec's check: its module imported, an instance
    built) counted as one call of the main thread, so that the watchdog, when armed, ends
    it past its limit like a decision. Yields whether it counted: not inside a call
    already counted (a strategy that builds another), nor outside the main thread, whose
    count the watchdog does not read."""
    counter = _COUNTER[0] if _COUNTER else None
    if counter is None or counter.calls & 1 or threading.current_thread() is not threading.main_thread():
        yield False
        return
    counter.calls += 1
    try:
        yield True
    finally:
        counter.calls += 1


def check_user_stop() -> None:
    """KeyboardInterrupt if the user pressed Ctrl-C (a strategy may have swallowed it)."""
    if STATE.user_stop:
        raise KeyboardInterrupt


def safe_repr(value: object, limit: int = 60) -> str:
    """A short description of a strategy's answer that runs none of its code: the repr of
    plain values (cut to ``limit`` characters), the type's name otherwise."""
    t = type(value)
    name = type.__dict__["__name__"].__get__(t)  # past any metaclass's own __name__
    try:
        if t in (str, bytes):
            text = repr(value[: limit + 1])  # type: ignore[index]
        elif value is None or t in (bool, int, float):
            text = repr(value)
        elif t in (list, tuple):
            items = [safe_repr(v, 20) for v in value[:4]]  # type: ignore[index]
            more = ", ..." if len(value) > 4 else ""  # type: ignore[arg-type]
            text = ("[%s%s]" if t is list else "(%s%s)") % (", ".join(items), more)
        else:
            text = f"a {name} object"
    except ValueError:  # an int too long to print
        text = f"an {name} of {value.bit_length()} bits"  # type: ignore[attr-defined]
    return text if len(text) <= limit else text[: limit - 3] + "..."
