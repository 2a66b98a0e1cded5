"""How many a run plays: the counts asked for (``hands``, ``games``: what is played per
pairing), rounded to whole pairs with duplicate deals, their limits, and the chunk size
chosen when none is given. Plain functions of numbers, so the plan, experiment files and
the API check counts alike."""

from __future__ import annotations

import math
from collections.abc import Callable

from ginsim.errors import RunError

DEFAULT_CHUNK_HANDS = 4000
DEFAULT_FAST_CHUNK_HANDS = 20_000
"""Hands per chunk when every pairing is of ``FAST_POLICIES``: the fast path plays such a
chunk in about the time the general engine takes for DEFAULT_CHUNK_HANDS, and a chunk's
fixed costs (its Parquet file, checksum record, fsync and digest) are paid a fifth as often."""
MAX_COUNT = 1_000_000_000
"""The most hands (or games) per pairing: deal indices fit the hand log's uint32 column
with room to spare, and a run of this size is already days of playing."""
MAX_PAIRINGS = 9_999
"""The most pairings of a run (chunk files are named p0000..p9999; the column is uint16)."""


def check_counts(hands: int | None, games: int | None) -> None:
    """RunError naming ``hands`` or ``games`` unless exactly one is a count in range."""
    if (hands is None) == (games is None):
        raise RunError.about("give either {hands} or {games}")
    n = hands if hands is not None else games
    assert n is not None
    count = "{hands}" if hands is not None else "{games}"  # the parameter the message names
    if n <= 0:
        raise RunError.about(count + " must be a positive whole number, not {n}", n=n)
    if n > MAX_COUNT:
        raise RunError.about(
            count + " {n}: at most {most:,} per pairing (split a bigger study into runs by seed)", n=n, most=MAX_COUNT
        )


def even_counts(
    hands: int | None, games: int | None, duplicate: bool, note: Callable[[str], None] | None = None
) -> tuple[int | None, int | None]:
    """``hands`` and ``games`` with an odd count rounded up to whole pairs when deals are
    played twice (``note`` is told what is played instead)."""
    if not duplicate:
        return hands, games
    if hands is not None and hands % 2:
        hands += 1
        if note is not None:
            note(f"note: duplicate deals come in pairs: playing {hands:,} hands per pairing")
    if games is not None and games % 2:
        games += 1
        if note is not None:
            note(f"note: duplicate deals come in pairs: playing {games:,} games per pairing")
    return hands, games


def default_chunk(
    units: int, jobs_hint: int = 8, duplicate: bool = True, games: bool = False, fast: bool = False, pairings: int = 1
) -> int:
    """Deals (or games) per chunk: about DEFAULT_CHUNK_HANDS hands, smaller for small runs
    so every core gets work. When ``fast`` (every pairing is of built-in policies the fast
    path plays): about DEFAULT_FAST_CHUNK_HANDS, and the ``pairings`` together make
    enough chunks for every core (a sweep's values need not each be split eight ways)."""
    hands = DEFAULT_FAST_CHUNK_HANDS if fast else DEFAULT_CHUNK_HANDS
    per = (hands // (2 if duplicate else 1)) // (8 if games else 1)
    return max(1, min(per, math.ceil(units * (pairings if fast else 1) / jobs_hint)))
