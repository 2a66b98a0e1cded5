"""The built-in parametric policies as data: what the fast path plays instead of a class.

``simple``, ``threshold:knock_at=K`` and ``random`` decide from the seat's own hand, the
upcard and its seeded random stream alone, so the fast path and numba's kernel play them
with no strategy object: a ``FastPolicy`` names the policy and its parameters. A strategy
class offers one through ``Strategy.fast_policy(params)`` (None for every class but the
built-ins themselves: a subclass, a user's bot or an outside player is never played this
way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ginsim.engine.kernel.policies import RANDOM, SIMPLE

__all__ = ["ALWAYS", "RANDOM", "SIMPLE", "FastPolicy"]

ALWAYS: Final = 1 << 20
"""A ``knock_at`` no deadwood reaches: ``simple`` knocks whenever legal."""


@dataclass(frozen=True)
class FastPolicy:
    """One seat's built-in policy: its kind (``SIMPLE`` or ``RANDOM``) and parameters."""

    kind: int
    knock_at: int = ALWAYS
    take_chance: float = 0.5
    knock_chance: float = 0.5

    def __post_init__(self) -> None:
        if self.kind not in (SIMPLE, RANDOM):
            raise ValueError(f"unknown fast policy kind {self.kind}")
