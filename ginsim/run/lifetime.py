"""Who plays each seat of a chunk's hands: a fresh instance of each strategy for every
hand (every game, in game mode), or, for a strategy whose class says ``lifetime =
"match"``, one instance per seat order for the whole chunk, told of each game and hand by
``new_game`` and ``new_hand`` before it begins.

Chunks are the unit: a kept instance lives in its chunk only, plays the chunk's hands in
deal order, and never sees both seat orders of a duplicate deal (each copy has its own),
so the hand log depends on the chunk size (part of the run's identity) and never on
``--jobs``, the backend or which process played which chunk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ginsim.engine.guard import BotFailure, DecisionTimeout
from ginsim.engine.strategy import Strategy
from ginsim.errors import GinsimError, RunError
from ginsim.run.hardlimit import setup_call
from ginsim.run.runplan import ChunkTask

Classes = Callable[[int], tuple[Any, Any]]
"""The two classes (or tournament mode's factories) that build the seats of seat order ``copy``."""


class _Unbuilt(Strategy):
    """A strategy whose constructor raised: each of its decisions forfeits, with the reason."""

    name = ""

    def __init__(self, failure: BotFailure) -> None:
        self.failure = failure

    def take_upcard(self, view: Any) -> bool:
        raise self.failure

    def discard(self, view: Any) -> Any:
        raise self.failure


def build(cls: Any, params: dict[str, Any], side: int = 0) -> Strategy:
    """An instance of ``cls`` (strategy a's for ``side`` 0, b's for 1); a constructor that
    raises, or that the watchdog ends, is that seat's forfeit, not the chunk's end."""
    try:
        with setup_call(side, 0):
            return cls(**params)  # type: ignore[no-any-return]
    except GinsimError:  # the run's own setup (tournament mode's processes cannot start): not the seat's
        raise
    except DecisionTimeout as e:
        return _Unbuilt(BotFailure("clock", f"could not be built: no answer within {e.limit:g}s"))
    except Exception as e:  # noqa: BLE001 - any failure of a strategy's own code is its forfeit
        text = str(e)[:200]
        return _Unbuilt(BotFailure("raised", f"could not be built: {type(e).__name__}: {text}"))


class Seating:
    """The instances of one chunk's two strategies (side 0 is the pairing's ``a``)."""

    def __init__(self, task: ChunkTask, plain: Classes, timed: Classes) -> None:
        self.keep = task.keep
        self.keeps = any(task.keep)
        self.params = (task.spec_a.params, task.spec_b.params)
        self.names = (task.spec_a.text, task.spec_b.text)
        self.plain = plain  # the classes of each seat order (or tournament mode's factories)
        self.timed = timed  # their timed forms (ginsim.runfolder.timing); kept instances are always timed
        self.kept: dict[tuple[int, int], Strategy] = {}

    def sides(self, copy: int, timed: bool) -> tuple[Strategy, Strategy]:
        """Strategy a's and b's instance for a hand (or game) of seat order ``copy``."""
        out = []
        for side in (0, 1):
            if self.keep[side]:
                inst = self.kept.get((side, copy))
                if inst is None:
                    inst = self.kept[(side, copy)] = build(self.timed(copy)[side], self.params[side], side)
            else:
                inst = build((self.timed if timed else self.plain)(copy)[side], self.params[side], side)
            out.append(inst)
        return out[0], out[1]

    def fresh(self, copy: int) -> tuple[Strategy, Strategy]:
        """New, untimed instances for seat order ``copy`` (a forfeit's traced replay)."""
        a, b = self.plain(copy)
        return build(a, self.params[0], 0), build(b, self.params[1], 1)

    def tell(self, a: Strategy, b: Strategy, hook: str, index: int) -> None:
        """Call ``hook`` (``new_game`` or ``new_hand``) of the kept instances among ``a``,
        ``b``. Their failure stops the run with one line naming the strategy: a hook runs
        outside any hand, so there is no hand to forfeit."""
        if not self.keeps:
            return
        for side, inst in ((0, a), (1, b)):
            if self.keep[side]:
                try:
                    with setup_call(side, 1 if hook == "new_hand" else 2):
                        getattr(inst, hook)(index)
                except DecisionTimeout as e:
                    raise RunError(f"{self.names[side]}: {hook}({index}) gave no answer within {e.limit:g}s") from None
                except Exception as e:  # noqa: BLE001 - any failure is one line naming the strategy
                    raise RunError(f"{self.names[side]}: {hook}({index}) raised {type(e).__name__}: {e}") from None
