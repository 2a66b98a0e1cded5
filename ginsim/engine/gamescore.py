"""Scoring a whole game (R31-R33): boxes, the game bonus and the shutout.

A game's running score is the sum of its hand points, plus ``box_bonus`` per hand won
when boxes count at once (``box_timing = "immediate"``, R31); the game ends when a
running score reaches ``target_score`` (R24). At its end ``final_totals`` adds what the
rule books add then: the boxes counted at the end, the game bonus to the winner (R32),
and the shutout (R33) when the loser's running score is 0.
"""

from __future__ import annotations

from typing import NamedTuple

from ginsim.engine.rules import Rules


class GameTotals(NamedTuple):
    """A game's end, per seat: hand points, hands won, and totals with every bonus."""

    points: tuple[int, int]  # hand points only
    boxes: tuple[int, int]  # hands won (each worth box_bonus)
    totals: tuple[int, int]  # with boxes, game bonus and shutout
    shutout: bool


def box_now(rules: Rules) -> int:
    """What a won hand adds to the running score at once, besides its points (R31)."""
    return rules.box_bonus if rules.box_timing == "immediate" else 0


def final_totals(rules: Rules, winner: int, points: tuple[int, int], boxes: tuple[int, int]) -> GameTotals:
    """The totals at a game's end (R31-R33); ``winner`` -1 (undecided) gets no game bonus
    and no shutout. The shutout doubles the winner's hand points (before its boxes and
    game bonus are added) or adds ``shutout_bonus``."""
    totals = [points[0] + rules.box_bonus * boxes[0], points[1] + rules.box_bonus * boxes[1]]
    shutout = False
    if winner >= 0:
        totals[winner] += rules.game_bonus
        loser = 1 - winner
        shutout = rules.shutout != "none" and points[loser] == 0 and boxes[loser] == 0
        if shutout:
            if rules.shutout == "double":
                totals[winner] += points[winner]
            else:
                totals[winner] += rules.shutout_bonus
    return GameTotals(points, boxes, (totals[0], totals[1]), shutout)
