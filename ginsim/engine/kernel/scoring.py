"""The end of a hand (R15-R22, R25, R26, R28, R30): the knocker's melds shown, the
defender's lay-offs, the score, and what a forfeit scores; the outcome codes.

Outcome codes are indices in ``hand.OUTCOMES`` (checked there at import).
"""

from __future__ import annotations

from typing import Final

from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.kernel.layoffs import LAYOFF_ROOM, layoff_search
from ginsim.engine.kernel.meldsearch import best_melds, deadwood

KNOCK: Final = 0
UNDERCUT: Final = 1
GIN: Final = 2
BIG_GIN: Final = 3
DRAWN: Final = 4
FORFEIT: Final = 5

FORFEIT_DEADWOOD: Final = 100
"""A forfeited hand scores for the opponent as a gin against this much deadwood (no ten
cards count more: ten cards of at most 10 each), with the rules' largest bonus and the
hand's multiplier, so forfeiting never scores better than any legal end of the hand
(docs/METRICS.md)."""

SCRATCH: Final = 4 + 4 * LAYOFF_ROOM
"""Scratch ints ``hand_end`` needs: a ten-card knocker shows at most three melds (room
for four), each with ``LAYOFF_ROOM`` for the lay-off search."""


def score(facts: RuleFacts, k: int, kd: int, before: int, after: int, big: bool, mult: int) -> tuple[int, int, int]:
    """A showdown's outcome code, winner and points: seat ``k`` knocked with deadwood
    ``kd`` (or went big gin), the defender's deadwood ``before`` and ``after`` its
    lay-offs, the hand's multiplier ``mult``. Gin and big gin take no lay-offs and are
    never undercut; a tie is an undercut unless the rules say otherwise (R28)."""
    if big:
        return BIG_GIN, k, (facts.big_gin_bonus + before) * mult
    if kd == 0:
        return GIN, k, (facts.gin_bonus + before) * mult
    if kd < after:
        return KNOCK, k, (after - kd) * mult
    if kd == after and not facts.undercut_on_tie:
        return KNOCK, -1, 0
    return UNDERCUT, 1 - k, (kd - after + facts.undercut_bonus) * mult


def showdown(
    facts: RuleFacts,
    TB: tuple[int, ...],
    k: int,
    kd: int,
    defender: int,
    buf: list[int],
    mo: int,
    nm: int,
    before: int,
    mult: int,
) -> tuple[int, int, int, int, int]:
    """Seat ``k`` knocked with deadwood ``kd`` on the melds ``buf[mo:mo+nm]`` (scratch
    after them, as ``layoff_search`` takes it): the defender lays off optimally, never
    after gin (R18), and the hand is scored. (code, winner, points, the defender's
    deadwood after its lay-offs, the cards laid off)."""
    after = before
    laid = 0
    if kd > 0:
        after, laid = layoff_search(TB, defender, buf, mo, nm, facts.max_run, before, -1)
    code, winner, points = score(facts, k, kd, before, after, False, mult)
    return code, winner, points, after, laid


def hand_end(
    facts: RuleFacts, TB: tuple[int, ...], k: int, big: bool, kh: int, dh: int, mult: int, scratch: list[int]
) -> tuple[int, int, int, int, int, int, int, int]:
    """The end of a hand that seat ``k`` (holding ``kh``) knocked or, with ``big``, went
    big gin on (R22), the defender holding ``dh``: the knocker shows ``best_melds`` (into
    ``scratch[0:nm]``, the lay-off search after them), the defender lays off optimally
    (none after gin or big gin) and the hand is scored (``showdown``, ``score``).
    (code, winner, points, the knocker's deadwood, the defender's before and after its
    lay-offs, the cards laid off, nm)."""
    nm, kd = best_melds(TB, kh, scratch, 0)
    before = deadwood(TB, dh)
    if big:
        code, winner, points = score(facts, k, 0, before, before, True, mult)
        return code, winner, points, 0, before, before, 0, nm
    code, winner, points, after, laid = showdown(facts, TB, k, kd, dh, scratch, 0, nm, before, mult)
    return code, winner, points, kd, before, after, laid, nm


def forfeit_points(facts: RuleFacts, mult: int) -> int:
    """What the opponent of a forfeiting seat scores (R25, R26): a gin against
    ``FORFEIT_DEADWOOD`` with the largest of the rules' bonuses, times the hand's
    multiplier (R30). No legal showdown scores more."""
    bonus = max(facts.gin_bonus, facts.undercut_bonus, facts.big_gin_bonus)
    return (bonus + FORFEIT_DEADWOOD) * mult
