"""What the attack fixtures share: an honest base (``simple``'s play) and the marker a
cheater answers with once it holds hidden information it has checked is true, so that a
test can count, in any mode, how often a route worked (a forfeit whose reason holds
``CHEAT_MARK``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ginsim.strategies.simple import Simple

from ginsim.engine.view import PlayerView

CHEAT_MARK = "CHEAT-FOUND"

UNDO: list[Callable[[], object]] = []
"""What saboteurs that patch shared classes did, as calls that undo it (``undo_sabotage``)."""


def undo_sabotage() -> int:
    """Undo every patch the saboteurs noted, newest first; how many there were."""
    done = len(UNDO)
    while UNDO:
        UNDO.pop()()
    return done


class Honest(Simple):
    """``simple``'s play; the twin every cheater is measured against."""

    name = "honest"


def deals_my_hand(deck: list[int], view: PlayerView) -> bool:
    """Whether ``deck`` (52 card ints, top first) is the one this hand was dealt from: it
    deals this seat's ten cards (the first decision of a hand comes before its first draw)."""
    if len(deck) != 52 or sorted(deck) != list(range(52)):
        return False
    mine = deck[1:20:2] if view.is_dealer else deck[0:20:2]
    mask = 0
    for c in mine:
        mask |= 1 << c
    return mask == view.hand  # ten given cards of 52: a chance match is 1 in 1.5e10


class Cheater(Honest):
    """Plays like ``Honest`` and, on its first decision of a hand, tries ``route``; if the
    route yields this very hand's deck (checked against what the seat was dealt), it
    answers ``CHEAT_MARK`` and so forfeits with the mark in the log."""

    def __init__(self) -> None:
        self.tried = False

    def route(self, view: PlayerView) -> Any:
        raise NotImplementedError

    def take_upcard(self, view: PlayerView) -> bool:
        if not self.tried:
            self.tried = True
            try:
                deck = self.route(view)
            except Exception:  # noqa: BLE001 - a route that breaks found nothing
                deck = None
            if isinstance(deck, list) and deals_my_hand(deck, view):
                return CHEAT_MARK  # type: ignore[return-value]
        return super().take_upcard(view)


class Watcher(Simple):
    """An honest bot that uses every hook and its own random stream: it counts the
    opponent's public events (``observe``), sometimes turns down an upcard ``simple``
    would take (``view.rng``), melds and lays off as the engine would, and takes big gin.
    Tournament mode must give it the views, events and seeds the engine gives it in-process."""

    name = "watcher"

    def __init__(self) -> None:
        self.seen = 0

    def observe(self, view: PlayerView, event: Any) -> None:
        if event[0] != view.seat:
            self.seen += 1

    def take_upcard(self, view: PlayerView) -> bool:
        take = super().take_upcard(view)
        return take and not (self.seen % 3 == 1 and view.rng.random() < 0.5)

    def choose_melds(self, view: PlayerView) -> list[int] | None:
        return list(view.best_melds().melds) if view.knock_limit >= 0 else None

    def choose_layoffs(self, view: PlayerView) -> int | None:
        return None

    def take_big_gin(self, view: PlayerView) -> bool:
        return True
