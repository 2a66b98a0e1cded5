"""Strategy calls as the play loop makes them: counted, guarded, their answers checked.

Each thread that plays keeps a count of its strategy calls (``CallCount``), odd while a
strategy is thinking: the watchdog of ginsim.engine.guard reads the main thread's, the hard
limit (ginsim.run.hardlimit) shares it with a supervisor, and ``ginsim web`` watches its game
threads through theirs. A call that raises anything becomes the forfeit of its seat
(``raised``, R26); an answer is read as a plain object (``as_card``, ``plain_bool``,
``plain_melds``), so a strategy's own types run none of its code where the engine is not
guarding it.
"""

from __future__ import annotations

import operator
import sys
import threading
from collections.abc import Sequence
from typing import Any, Final, cast

from ginsim.engine.cards import CARD_NAMES
from ginsim.engine.guard import BotFailure, DecisionTimeout, passes, safe_repr, watch_calls
from ginsim.engine.result import Forfeit

__all__ = [
    "WATCH",
    "CallCount",
    "as_card",
    "describe",
    "enter",
    "hand_begins",
    "leave",
    "not_bool",
    "plain_bool",
    "plain_melds",
    "raised",
    "thread_watch",
]


class CallCount:
    """Strategy calls so far in one thread: odd while a strategy of that thread is
    thinking. Each thread that plays counts its own (``thread_watch``), so hands played on
    several threads at once (``ginsim web``'s games, dask's thread workers) never change
    one another's count; the main thread's is ``WATCH``, the one the watchdog of
    ginsim.engine.guard reads (``guard.watch_calls`` is given it below), signals being
    handled in the main thread only.

    For the hard limit (ginsim.run.hardlimit), a supervised process also shares the count
    with its supervisor through ``shared`` (slot 1: the count as each call began, slot 2:
    the count when the hand began), and ``force`` names the call of the hand (its number since the hand
    began, counting from 1) that times out at once without reaching the strategy: the
    decision a killed process was stuck in, when its chunk is played again."""

    def __init__(self) -> None:
        self.calls = 0
        self.base = 0  # the count when the current hand began
        self.force = -1  # the call of this hand to time out unasked (-1: none)
        self.force_limit = 0.0  # the hard limit it went past, in seconds
        self.shared: Any = None  # a writable int64 memoryview shared with a supervisor, or None


WATCH: Final = CallCount()
"""The main thread's count of strategy calls (the watchdog's)."""
watch_calls(WATCH)  # the guard reads the count without importing the play loop

_OWN: Final = threading.local()  # each other thread's count, made when it first plays


def thread_watch() -> CallCount:
    """The calling thread's count of strategy calls: ``WATCH`` in the main thread, a count
    of its own in any other."""
    if threading.current_thread() is threading.main_thread():
        return WATCH
    w: CallCount | None = getattr(_OWN, "watch", None)
    if w is None:
        w = CallCount()
        _OWN.watch = w
    return w


def hand_begins() -> CallCount:
    """The calling thread's count, marked where a hand begins (``base``, and the shared
    slot 2 for a supervisor): the calls of a hand are counted from here."""
    w = thread_watch()
    w.base = w.calls
    if w.shared is not None:
        w.shared[2] = w.calls
    return w


def enter(w: CallCount) -> None:
    """A strategy call begins (inside its guard: a forced timeout is that call's forfeit)."""
    w.calls += 1
    shared = w.shared
    if shared is not None:
        shared[1] = w.calls
    if w.force >= 0 and w.calls - w.base == w.force:
        raise DecisionTimeout(w.force_limit, hard=True)


def leave(w: CallCount) -> None:
    """A strategy call has ended, however it ended. (The supervisor is not told: the next
    call, or the next hand, tells it soon enough, and one shared write a call is half
    the cost of two.)"""
    w.calls += 1


def describe(value: object) -> str:
    """A strategy's answer as a message shows it: a card by its name, anything else by a
    guarded ``repr``."""
    if type(value) is int and 0 <= value < 52:
        return CARD_NAMES[value]
    return safe_repr(value)


def as_card(value: object) -> object:
    """A strategy's discard as a plain int when it is an integer of another type (numpy);
    anything else (a bool included) unchanged, for the discard check to name."""
    if isinstance(value, bool):  # tested on its own: narrowed together with int, a
        return value  # compiled build would hand back True as the int 1
    if type(value) is int:
        return value
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return value


def raised(seat: int, method: str, e: BaseException) -> Forfeit:
    """The forfeit of a strategy call that raised anything at all (SystemExit and a bot's
    own KeyboardInterrupt included); only the user's Ctrl-C goes through, to stop the run."""
    if passes(e):
        raise e
    if isinstance(e, DecisionTimeout):
        what = "time_per_hand, R25" if e.clock else "the hard limit per decision"
        if e.hard:
            what += "; the process playing it was ended"
        return Forfeit(seat, "clock", f"{method}: no answer within {e.limit:g}s ({what})")
    if isinstance(e, BotFailure):
        return Forfeit(seat, e.kind, f"{method} {e}")
    try:
        text = str(e)
    except BaseException:  # noqa: BLE001 - an exception whose str() fails says nothing more
        text = ""
    if len(text) > 200:
        text = text[:197] + "..."
    return Forfeit(seat, "raised", f"{method} raised {type.__dict__['__name__'].__get__(type(e))}: {text}")


def not_bool(seat: int, method: str, value: object) -> Forfeit:
    """The forfeit of a yes-or-no question answered with something else."""
    return Forfeit(seat, "illegal", f"{method} returned {safe_repr(value)}, not True or False")


def plain_bool(value: object) -> object:
    """A yes-or-no answer as True or False when it is numpy's bool (a NumPy- or
    torch-based bot's comparison); anything else unchanged, to be refused. Only the type
    is looked at, so no code of the strategy's runs here."""
    np = sys.modules.get("numpy")
    if np is not None and type(value) is np.bool_:
        return value is np.True_
    return value


def plain_melds(value: object) -> object:
    """A hook's list or tuple answer as a tuple (its items checked later, numpy's ints
    made plain), a numpy int mask as an int; anything else (a generator, an object of the
    strategy's own class) unchanged, to be refused. Called inside the hook's guard: an
    item's ``__index__`` may be the strategy's code."""
    if type(value) is list or type(value) is tuple:
        return tuple(as_card(v) for v in cast(Sequence[object], value))
    return as_card(value)
