"""Arrays handed out as new ones but reused once nobody holds them: how the vectorised
environment returns fresh observation arrays each step (Gymnasium's ``copy=True``)
without asking the operating system for a megabyte of new, zeroed pages every time.

An array is handed out again only when nothing outside the pool refers to it: no
variable, no dict, no view (a view holds its base), no exported buffer. Its reference
count is then what the pool's own list gives it, measured once when the pool is made,
the same way, so the check does not depend on how this Python counts an argument.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np


class Recycled:
    """Arrays of one shape and dtype; ``take()`` gives one nobody else holds."""

    def __init__(self, shape: tuple[int, ...], dtype: Any, keep: int = 3) -> None:
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.keep = keep
        self._pool: list[np.ndarray] = []
        probe = [np.empty(0)]
        self._free = sys.getrefcount(probe[0])  # held by a list alone

    def take(self) -> np.ndarray:
        """An array of the pool's shape that nothing outside the pool refers to (its old
        values still in it), or a new one (kept when the pool has room)."""
        pool = self._pool
        for k in range(len(pool)):
            if sys.getrefcount(pool[k]) == self._free:
                return pool[k]
        fresh = np.empty(self.shape, dtype=self.dtype)
        if len(pool) < self.keep:
            pool.append(fresh)
        return fresh
