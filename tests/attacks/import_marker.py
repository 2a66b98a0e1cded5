"""A bot whose import leaves a mark: each process that imports this file appends its
pid and ``sys.argv[0]`` to ``<this file>.marks`` (copy the file to a folder of its own
first). Tournament mode's referee must never be among them. A bot's process, confined
as root runs it (ginsim.tournament.confine: a read-only file system), cannot write the mark."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ginsim.strategies.simple import Simple

try:
    with open(Path(__file__).with_suffix(".marks"), "a") as _marks:
        _marks.write(f"{os.getpid()} {sys.argv[0]}\n")
except OSError:  # confined: nothing outside its own temporary folder is writable
    pass


class Marked(Simple):
    """``simple``'s play, with a parameter whose constructor checks it."""

    def __init__(self, level: int = 1) -> None:
        if level < 0:
            raise ValueError(f"level must be 0 or more, not {level}")
        self.level = level
