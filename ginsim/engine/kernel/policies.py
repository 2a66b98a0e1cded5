"""The built-in parametric policies' decisions (``ginsim.engine.policy``): whether to
take the upcard, which card to discard, whether to knock, from the seat's own hand, the
upcard and its seeded stream, as the strategy classes decide through their views.
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.bits import low_index
from ginsim.engine.kernel.discard import best_discard, least_discards
from ginsim.engine.kernel.meldsearch import deadwood, melds_with
from ginsim.engine.kernel.splitmix import pick_bit, rand_float

SIMPLE: Final = 0
"""The policy kind of ``simple`` and ``threshold`` (``policy.FastPolicy``): take a melding
upcard, discard to least deadwood (ties at random), knock at deadwood <= ``knock_at``."""
RANDOM: Final = 1
"""The policy kind of ``random``: take with ``take_chance``, a uniform legal discard, knock
with ``knock_chance``."""


def policy_takes(kinds: list[int], chances: list[float], st: list[int], seat: int, up: int, held: int) -> bool:
    """Whether ``seat``'s policy takes the upcard ``up`` into ``held``."""
    if kinds[seat] == RANDOM:
        return rand_float(st, seat) < chances[2 * seat]
    return melds_with(up, held)


def policy_discard(
    TB: tuple[int, ...],
    kinds: list[int],
    st: list[int],
    seat: int,
    held: int,
    drawn: int,
    from_pile: bool,
    no_back: bool,
) -> tuple[int, int]:
    """The card ``seat``'s policy discards from its 11 cards ``held``, and the deadwood
    after it. ``simple`` never throws back an upcard it just took, whatever the rules
    allow, and breaks ties among its least-deadwood discards at random."""
    if kinds[seat] == RANDOM:
        legal = held & ~(1 << drawn) if from_pile and no_back else held
        c = pick_bit(st, seat, legal)
        return c, deadwood(TB, held & ~(1 << c))
    legal = held & ~(1 << drawn) if from_pile else held
    dw, cards = best_discard(TB, held)
    cards &= legal
    if not cards:
        dw, cards = least_discards(TB, held, legal)
    if cards & (cards - 1) == 0:
        return low_index(cards), dw
    return pick_bit(st, seat, cards), dw


def policy_knocks(
    kinds: list[int], knock_at: list[int], chances: list[float], st: list[int], seat: int, dw: int
) -> bool:
    """Whether ``seat``'s policy knocks at deadwood ``dw`` (asked only when it may)."""
    if kinds[seat] == RANDOM:
        return rand_float(st, seat) < chances[2 * seat + 1]
    return dw <= knock_at[seat]
