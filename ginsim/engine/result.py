"""How a hand ends: the outcome names, ``HandResult`` (METRICS.md, per hand) and a seat's
forfeit (R25, R26) with what it scores.

The play loop (ginsim.engine.playhand) and the state machine (ginsim.engine.hand) end a hand
with a ``HandResult``; the run's workers, the run folder and the analysis read its fields.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ginsim.engine.cards import Mask, format_cards
from ginsim.engine.kernel import loop, scoring
from ginsim.engine.rules import Rules, rule_facts

__all__ = [
    "BIG_GIN",
    "DRAWN",
    "FORFEIT",
    "FORFEIT_DEADWOOD",
    "GIN",
    "KNOCK_WON",
    "MAX_TURNS",
    "OUTCOMES",
    "UNDERCUT",
    "Forfeit",
    "HandResult",
    "forfeit_points",
]

# outcome names (METRICS.md)
KNOCK_WON: Final = "knock"
UNDERCUT: Final = "undercut"
GIN: Final = "gin"
BIG_GIN: Final = "big_gin"
DRAWN: Final = "draw"
FORFEIT: Final = "forfeit"
OUTCOMES: Final = (KNOCK_WON, UNDERCUT, GIN, BIG_GIN, DRAWN, FORFEIT)
"""The outcomes in the order of the kernel's outcome codes (``OUTCOMES[code]``)."""
_CODES: Final = (scoring.KNOCK, scoring.UNDERCUT, scoring.GIN, scoring.BIG_GIN, scoring.DRAWN, scoring.FORFEIT)
if _CODES != (0, 1, 2, 3, 4, 5):
    raise ImportError("hand: the kernel's outcome codes do not index OUTCOMES")  # pragma: no cover


class HandResult(NamedTuple):
    """How one hand ended (METRICS.md, per hand). Seats are 0/1; -1 means none."""

    outcome: str
    knocker: int
    winner: int
    points: int
    knocker_deadwood: int
    defender_deadwood_before: int
    defender_deadwood_after: int
    layoff_cards: int
    turns: int
    stock_left: int
    dealer: int
    forfeit_seat: int = -1
    forfeit_reason: str = ""
    hands: tuple[Mask, Mask] = (0, 0)  # the final hands (10 cards; 11 for big gin)
    knocker_melds: tuple[Mask, ...] = ()
    layoff: Mask = 0  # the cards the defender laid off
    forfeit_kind: str = ""  # raised, illegal, clock

    def cards(self, seat: int) -> list[str]:
        """The final hand of ``seat`` as card names (``hands`` holds masks)."""
        return format_cards(self.hands[seat]).split()

    def as_dict(self) -> dict[str, object]:
        """Every field, with the masks as lists of card names."""
        d: dict[str, object] = dict(self._asdict())
        d["hands"] = [self.cards(0), self.cards(1)]
        d["knocker_melds"] = [format_cards(m).split() for m in self.knocker_melds]
        d["layoff"] = format_cards(self.layoff).split()
        return d

    def describe(self) -> str:
        """One line saying how the hand ended, who won what, and the final hands."""
        end = _ENDINGS.get(self.outcome, self.outcome)
        if self.outcome == FORFEIT:
            text = f"seat {self.forfeit_seat} forfeits ({self.forfeit_kind}: {self.forfeit_reason})"
        elif self.outcome == DRAWN:
            text = "drawn: the stock ran out, no score"
        else:
            text = f"{end} by seat {self.knocker}, deadwood {self.knocker_deadwood}"
            text += f"; defender {self.defender_deadwood_before}"
            if self.layoff_cards:
                text += f", {self.defender_deadwood_after} after laying off {format_cards(self.layoff)}"
        if self.winner >= 0:
            text += f"; seat {self.winner} scores {self.points}"
        hands = " | ".join(f"seat {s}: {format_cards(self.hands[s])}" for s in (0, 1))
        return f"{text}; {self.turns} turns, dealer seat {self.dealer}; final hands {hands}"

    def __repr__(self) -> str:
        return f"HandResult({self.describe()})"


_ENDINGS: Final = {KNOCK_WON: "knock", UNDERCUT: "undercut (knock)", GIN: "gin", BIG_GIN: "big gin"}

FORFEIT_DEADWOOD: Final = scoring.FORFEIT_DEADWOOD
"""The deadwood a forfeit is scored against (``kernel.scoring.forfeit_points``)."""

MAX_TURNS: Final = loop.MAX_TURNS
"""At this many turns a hand ends as a draw (``kernel.loop.MAX_TURNS``)."""


def forfeit_points(rules: Rules, multiplier: int = 1) -> int:
    """What the opponent of a forfeiting seat scores for the hand (docs/METRICS.md): a
    gin against ``FORFEIT_DEADWOOD`` with the largest of the rules' bonuses, times the
    hand's multiplier (R30). No legal showdown scores more (``kernel.scoring.forfeit_points``)."""
    return scoring.forfeit_points(rule_facts(rules), multiplier)


class Forfeit(Exception):
    """Raised inside the loop when a seat forfeits; carries who, what kind and why."""

    def __init__(self, seat: int, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.kind = kind
        self.reason = reason
