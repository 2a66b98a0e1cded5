"""R13: ``MOVING_FIELDS`` names every public field of a view that changes during a hand, so
a view rebuilt in a bot's own process from those fields (tournament mode) is the view the
engine holds; with ``FIXED_FIELDS``, the rules and the fields carried apart they are every
public field of the view, each named once."""

from __future__ import annotations

import itertools

from support.deals import Recorder
from support.rulebook import simple

from ginsim import Rules, play_hand
from ginsim.engine.view import FIXED_FIELDS, MOVING_FIELDS
from ginsim.run.seeding import deck_for

CARRIED_APART = {"history", "discard_pile", "knocker_melds"}
"""Fields a decision carries besides ``MOVING_FIELDS``: as events, the pile, the melds."""


def test_moving_fields_are_public_fields_of_the_view() -> None:
    seats = [Recorder(simple()), Recorder(simple())]
    play_hand(Rules(), seats, deck_for(4999), 0)
    public = set(seats[0].snapshots[0][1])  # every public field, by the view's own snapshot
    named = (*FIXED_FIELDS, *MOVING_FIELDS, *CARRIED_APART, "rules")
    assert len(set(named)) == len(named)  # each named once
    assert set(named) == public


def test_r13_only_the_moving_fields_change_within_a_hand() -> None:
    changed: set[str] = set()
    for n in range(40):
        seats = [Recorder(simple()), Recorder(simple())]
        play_hand(Rules(), seats, deck_for(5000 + n), n % 2)
        for seat in seats:
            snaps = [snap for _, snap in seat.snapshots]
            for before, after in itertools.pairwise(snaps):
                changed |= {key for key in before if before[key] != after[key]}
    assert changed - CARRIED_APART <= set(MOVING_FIELDS), changed - CARRIED_APART - set(MOVING_FIELDS)
    # the hands were long enough that most of the moving fields did move
    assert {"hand", "upcard", "stock_size", "turn", "opp_discards", "pile_mask"} <= changed
