"""Hands played on several threads at once (``ginsim web``'s tables and watched games,
dask's thread workers): each thread counts its own strategy calls, so one thread's
calls never hide a stuck decision from the watchdog, nor time out another's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ginsim.strategies.simple import Simple

from ginsim.engine.guard import guarded
from ginsim.engine.playhand import FORFEIT, WATCH, HandResult, play_hand, thread_watch
from ginsim.engine.rules import Rules
from ginsim.run.hardlimit import forcing
from ginsim.run.seeding import deal_seed, deck_for

LIMIT = 0.25  # seconds: the watchdog's limit in these tests


def _hand(a: Any, b: Any, deal: int = 0) -> HandResult:
    return play_hand(Rules(), (a, b), deck_for(deal_seed(1, deal)), 0)


class _Waiting(Simple):
    """Waits in its first decision until released, as a web table's person does."""

    def __init__(self, waiting: threading.Event, release: threading.Event) -> None:
        self.waiting, self.release = waiting, release

    def take_upcard(self, view: Any) -> bool:
        self.waiting.set()
        self.release.wait(30)
        return False


class _Dozing(Simple):
    """Sleeps through its first discard for far longer than the limit (a few seconds, so
    that a watchdog that missed it costs the test little)."""

    dozed = False

    def discard(self, view: Any) -> int:
        if not self.dozed:
            self.dozed = True
            threading.Event().wait(4)
        return super().discard(view)


@contextmanager
def _thread_inside_a_call() -> Iterator[None]:
    """Another thread inside a strategy's call for the duration (a web table waiting for
    the person's move)."""
    waiting, release = threading.Event(), threading.Event()
    thread = threading.Thread(target=_hand, args=(_Waiting(waiting, release), Simple()), daemon=True)
    thread.start()
    try:
        assert waiting.wait(10)
        yield
    finally:
        release.set()
        thread.join(10)


def test_a_call_on_another_thread_does_not_hide_a_stuck_decision_from_the_watchdog() -> None:
    with _thread_inside_a_call(), guarded(LIMIT):
        res = _hand(_Dozing(), Simple())
    assert res.outcome == FORFEIT and res.forfeit_seat == 0, res
    assert res.forfeit_kind == "clock" and f"no answer within {LIMIT:g}s" in res.forfeit_reason


def test_a_call_timed_out_on_one_thread_is_no_other_threads_forfeit() -> None:
    # a replay in one thread times out the call its process was ended in (hard limit);
    # a hand played meanwhile on another thread is not touched
    forced, done = threading.Event(), threading.Event()

    def replaying() -> None:
        with forcing(1, 9.0):  # the first call of a hand (a call's number as it begins)
            forced.set()
            done.wait(30)

    thread = threading.Thread(target=replaying, daemon=True)
    thread.start()
    try:
        assert forced.wait(10)
        res = _hand(Simple(), Simple())
    finally:
        done.set()
        thread.join(10)
    assert res.outcome != FORFEIT, res.forfeit_reason


def test_each_thread_counts_its_own_calls() -> None:
    counts: dict[str, tuple[int, int]] = {}
    start = threading.Barrier(3)

    def play(name: str) -> None:
        start.wait(10)
        w = thread_watch()
        before = w.calls
        for deal in range(4):
            _hand(Simple(), Simple(), deal)
        counts[name] = (before, w.calls)

    threads = [threading.Thread(target=play, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    main_before = WATCH.calls
    start.wait(10)
    for t in threads:
        t.join(30)
    assert WATCH.calls == main_before  # the main thread's count (the watchdog's) did not move
    played = [after - before for before, after in counts.values()]
    assert len(played) == 2 and played[0] == played[1] > 0  # the same hands: the same calls, an even count
    assert played[0] % 2 == 0
