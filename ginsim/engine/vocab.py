"""The named vocabularies of a hand: the phases a seat's view goes through, the actions
of its public history, and how a hand ends. The word "draw" means three things in Gin
Rummy (the draw phase, drawing from the stock, a drawn hand); here each is a member of
its own vocabulary.

The compiled hot modules keep plain ``Final`` string constants (they compare phases by
identity, which enum members would slow down); these enums hold exactly the same
strings, so ``Phase.DRAW == view.phase`` and ``Action.TAKE == event[1]`` work, and a test
checks the two never drift apart.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """``PlayerView.phase``: where the hand stands for this seat."""

    OFFER = "offer"  # first turn: take the upcard or pass (R09)
    DRAW = "draw"  # a normal turn begins: take the upcard or draw from the stock
    DISCARD = "discard"  # the seat holds 11 cards and must discard one
    KNOCK = "knock"  # the chosen discard allows a knock: knock or play on
    LAYOFF = "layoff"  # the opponent knocked: lay off on its melds
    OVER = "over"  # the hand is scored


class Action(StrEnum):
    """The action word of a public event ``(seat, action, card)`` in ``view.history``."""

    PASS = "pass"  # declined the first upcard (R09)
    TAKE = "take"  # took the upcard (the top of the discard pile)
    DRAW = "draw"  # drew from the stock: the card is None when the opponent drew it
    DISCARD = "discard"
    KNOCK = "knock"  # knocked (gin included) with the card just discarded
    BIG_GIN = "big_gin"  # all eleven cards melded right after drawing (R22); card None


class Outcome(StrEnum):
    """How a hand ended (METRICS.md); the hand log stores its index into ``OUTCOMES``."""

    KNOCK = "knock"
    UNDERCUT = "undercut"
    GIN = "gin"
    BIG_GIN = "big_gin"
    DRAW = "draw"  # a drawn hand (R23): no score
    FORFEIT = "forfeit"
