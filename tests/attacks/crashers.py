"""Strategies that try to stop, hang or crash the run."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Any

from ginsim.engine.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: loaded as a file, it finds its package so

from attacks.common import Honest


class _Nasty(Honest):
    """Acts on its first decision of every hand (always a take-the-upcard question), or
    with ``ON_DISCARD`` on every discard."""

    ON_DISCARD = False

    def act(self, view: PlayerView) -> Any:
        raise NotImplementedError

    def take_upcard(self, view: PlayerView) -> Any:
        if not self.ON_DISCARD and not getattr(self, "acted", False):
            self.acted = True  # a new instance plays each hand: once per hand
            return self.act(view)
        return super().take_upcard(view)

    def discard(self, view: PlayerView) -> Any:
        if self.ON_DISCARD:
            return self.act(view)
        return super().discard(view)


class Exit0(_Nasty):
    def act(self, view: PlayerView) -> Any:
        sys.exit(0)


class Exit3(_Nasty):
    def act(self, view: PlayerView) -> Any:
        sys.exit(3)


class HardExit(_Nasty):
    """Ends its whole process at once: no exception, no cleanup."""

    ON_DISCARD = True  # a hand under way first

    def act(self, view: PlayerView) -> Any:
        os._exit(1)


class Interrupt(_Nasty):
    def act(self, view: PlayerView) -> Any:
        raise KeyboardInterrupt


class GenExit(_Nasty):
    def act(self, view: PlayerView) -> Any:
        raise GeneratorExit


class Forever(_Nasty):
    def act(self, view: PlayerView) -> Any:
        while True:
            pass


class Sleeper(_Nasty):
    """Thinks for 2 s per decision."""

    def act(self, view: PlayerView) -> Any:
        time.sleep(2)
        return super(_Nasty, self).take_upcard(view)


class HugeCard(_Nasty):
    ON_DISCARD = True

    def act(self, view: PlayerView) -> Any:
        return 10**5000  # too long even to print


class EvilIndex(_Nasty):
    """Discards an object whose __index__ raises SystemExit."""

    ON_DISCARD = True

    def act(self, view: PlayerView) -> Any:
        class Card:
            def __index__(self) -> int:
                raise SystemExit(4)

            def __repr__(self) -> str:
                raise SystemExit(5)

        return Card()


class HugeMelds(Honest):
    """Knocks whenever it can, showing a meld no hand can hold."""

    def knock(self, view: PlayerView) -> bool:
        return True

    def choose_melds(self, view: PlayerView) -> Any:
        return [2**200]


class HugeLayoff(Honest):
    def choose_layoffs(self, view: PlayerView) -> Any:
        return 2**100


class GeneratorMelds(Honest):
    """Shows its melds as a generator that exits the process when iterated."""

    def knock(self, view: PlayerView) -> bool:
        return True

    def choose_melds(self, view: PlayerView) -> Any:
        def melds() -> Any:
            sys.exit(6)
            yield 0

        return melds()


class PileClearer(Honest):
    """Empties its view's copy of the discard pile at every decision."""

    def take_upcard(self, view: PlayerView) -> bool:
        take = super().take_upcard(view)
        view._pile.clear()
        return take


class AlarmIgnorer(_Nasty):
    """Ignores SIGALRM (the watchdog's signal), then thinks forever."""

    def act(self, view: PlayerView) -> Any:
        import signal

        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass


class BadConstructor(Honest):
    """Its constructor raises on every instance after the first (the spec check builds one)."""

    built = 0

    def __init__(self) -> None:
        BadConstructor.built += 1
        if BadConstructor.built > 1:
            raise RuntimeError("no more instances")


class Wanderer(Honest):
    """Changes the working folder and leaves a non-daemon thread running."""

    def take_upcard(self, view: PlayerView) -> bool:
        import tempfile
        import threading

        os.chdir(tempfile.gettempdir())
        if not getattr(Wanderer, "thread", None):
            Wanderer.thread = threading.Thread(target=time.sleep, args=(3600,))
            Wanderer.thread.start()
        return super().take_upcard(view)


class SlowOnce(Honest):
    """Thinks 1.5 s at the first decision its process sees, then plays at once."""

    def take_upcard(self, view: PlayerView) -> bool:
        if not _SLOW_DONE:
            _SLOW_DONE.append(True)
            time.sleep(1.5)
        return super().take_upcard(view)


_SLOW_DONE: list[bool] = []


class _Stuck(Honest):
    """Stuck in its first discard of one hand in four (by the cards it holds), with a
    way of being stuck of its own (``stuck``); otherwise ``simple``'s play."""

    def stuck(self) -> None:
        raise NotImplementedError

    def discard(self, view: PlayerView) -> Any:
        if not getattr(self, "discarded", False):
            self.discarded = True
            if view.hand % 4 == 0:
                self.stuck()
        return super().discard(view)


class StuckInC(_Stuck):
    """Stuck in C code that holds the GIL: no signal handler and no other thread of its
    process runs until it returns, hours later."""

    def stuck(self) -> None:
        sum(range(10**12))


class Stubborn(_Stuck):
    """Catches the watchdog's exception, and any other, and goes on thinking."""

    def stuck(self) -> None:
        while True:
            with contextlib.suppress(BaseException):  # the point: nothing ends it
                time.sleep(5)


class _SlowToBuild(Honest):
    """Built at once the first time in a process (the spec check, in the command's own
    process), then stuck in its constructor (``stuck``) each time a chunk builds it."""

    built = 0

    def stuck(self) -> None:
        raise NotImplementedError

    def __init__(self) -> None:
        type(self).built += 1
        if type(self).built > 1:
            self.stuck()


class StuckBuilding(_SlowToBuild):
    """A constructor stuck in C code."""

    def stuck(self) -> None:
        sum(range(10**12))


class SlowBuilding(_SlowToBuild):
    """A constructor that sleeps: the watchdog ends it like a decision."""

    def stuck(self) -> None:
        time.sleep(60)
