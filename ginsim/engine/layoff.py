"""Lay-offs (R17): the defender's best choice of own melds and lay-offs together.

The knocker's melds fix where cards can go: the fourth card of a group of three, and
stretches of the defender's cards that extend a run at either end (a chain: after 9S goes
on 6S-7S-8S, TS may follow). Each meld offers a few choices; the defender's deadwood for a
set of laid-off cards is just the deadwood of the rest, so trying every compatible
combination of choices is exact, and there are rarely more than a few dozen. The
arithmetic is the kernel's (``kernel.layoffs``, ``kernel.scoring``); these take the engine's
types.
"""

from __future__ import annotations

from collections.abc import Sequence

from ginsim.engine.cards import Mask
from ginsim.engine.kernel import scoring
from ginsim.engine.kernel.facts import RuleFacts
from ginsim.engine.kernel.layoffs import LAYOFF_ROOM, layoff_search
from ginsim.engine.kernel.meldsearch import deadwood
from ginsim.engine.melds import MeldTables


def best_layoff(
    defender: Mask, knocker_melds: Sequence[Mask], tables: MeldTables, before: int | None = None
) -> tuple[int, Mask]:
    """The defender's least deadwood after laying off, and the cards laid off to reach it
    (ties: the fewest cards, then the first found). ``before``, the defender's deadwood
    without lay-offs, saves a computation when the caller has it."""
    if before is None:
        before = deadwood(tables.flat, defender)
    buf = _buffer(knocker_melds)
    return layoff_search(tables.flat, defender, buf, 0, len(knocker_melds), tables.max_run, before, -1)


def showdown(
    tables: MeldTables,
    facts: RuleFacts,
    k: int,
    kd: int,
    defender: Mask,
    knocker_melds: Sequence[Mask],
    before: int,
    mult: int,
) -> tuple[int, int, int, int, Mask]:
    """``kernel.scoring.showdown`` on the engine's types: (outcome code, winner, points, the
    defender's deadwood after laying off optimally, the cards laid off)."""
    buf = _buffer(knocker_melds)
    return scoring.showdown(facts, tables.flat, k, kd, defender, buf, 0, len(knocker_melds), before, mult)


def layoff_is_legal(laid: Mask, knocker_melds: Sequence[Mask], tables: MeldTables) -> bool:
    """Whether the cards ``laid`` can all be laid off on the knocker's melds at once."""
    buf = _buffer(knocker_melds)
    return layoff_search(tables.flat, laid, buf, 0, len(knocker_melds), tables.max_run, 0, laid)[0] == 1


def _buffer(melds: Sequence[Mask]) -> list[int]:
    """The melds followed by the kernel's lay-off scratch."""
    buf = [0] * ((LAYOFF_ROOM + 1) * len(melds))
    for i, m in enumerate(melds):
        buf[i] = m
    return buf
