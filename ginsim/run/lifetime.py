"""Who plays each seat of a chunk's hands: a fresh instance of each strategy for every
hand (every game, in game mode), or, for a strategy whose class says ``lifetime =
"match"``, one instance per seat order for the whole chunk, told of each game and hand by
``new_game`` and ``new_hand`` before it begins.

Chunks are the unit: a kept instance lives in its chunk only, plays the chunk's hands in
deal order, and never sees both seat orders of a duplicate deal (each copy has its own),
so the hand log depends on the chunk size (part of the run's identity) and never on
``--jobs``, the backend or which process played which chunk."""

from __future__ import annotations

from typing import Any

from ginsim.engine.strategy import Strategy
from ginsim.errors import RunError
from ginsim.run.plan import ChunkTask


class Seating:
    """The instances of one chunk's two strategies (side 0 is the pairing's ``a``)."""

    def __init__(self, task: ChunkTask, plain: tuple[Any, Any], timed: tuple[Any, Any]) -> None:
        self.keep = task.keep
        self.keeps = any(task.keep)
        self.params = (task.spec_a.params, task.spec_b.params)
        self.names = (task.spec_a.text, task.spec_b.text)
        self.plain = plain  # the classes (or tournament mode's factories)
        self.timed = timed  # their timed forms (ginsim.run.timing); kept instances are always timed
        self.kept: dict[tuple[int, int], Strategy] = {}

    def sides(self, copy: int, timed: bool) -> tuple[Strategy, Strategy]:
        """Strategy a's and b's instance for a hand (or game) of seat order ``copy``."""
        out = []
        for side in (0, 1):
            if self.keep[side]:
                inst = self.kept.get((side, copy))
                if inst is None:
                    inst = self.kept[(side, copy)] = self.timed[side](**self.params[side])
            else:
                inst = (self.timed if timed else self.plain)[side](**self.params[side])
            out.append(inst)
        return out[0], out[1]

    def fresh(self) -> tuple[Strategy, Strategy]:
        """New, untimed instances (a forfeit's traced replay)."""
        return self.plain[0](**self.params[0]), self.plain[1](**self.params[1])

    def tell(self, a: Strategy, b: Strategy, hook: str, index: int) -> None:
        """Call ``hook`` (``new_game`` or ``new_hand``) of the kept instances among ``a``,
        ``b``. Their failure stops the run with one line naming the strategy: a hook runs
        outside any hand, so there is no hand to forfeit."""
        if not self.keeps:
            return
        for side, inst in ((0, a), (1, b)):
            if self.keep[side]:
                try:
                    getattr(inst, hook)(index)
                except Exception as e:  # noqa: BLE001 - any failure is one line naming the strategy
                    raise RunError(f"{self.names[side]}: {hook}({index}) raised {type(e).__name__}: {e}") from None
