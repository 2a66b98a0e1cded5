"""Named rule sets ("presets", R27): each is a set of field values over the default rules.

This module holds data only (no import of ``ginsim.engine.rules``, which builds the ``Rules``
values from it): the presets' values, one line saying what each is, where its numbers
come from, and one line of meaning per ``Rules`` field for ``ginsim rules``.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple


class Preset(NamedTuple):
    """A named rule school: its values over the defaults and where they come from."""

    values: dict[str, Any]
    summary: str
    source: str


PRESETS: Final[dict[str, Preset]] = {
    "default": Preset(
        {},
        "the rules of RULES.md: gin 20, undercut 10, knock at 10, game to 100",
        "RULES.md R01-R26, from two online games' rule texts (A and B there)",
    ),
    "eaai": Preset(
        {"gin_bonus": 25, "undercut_bonus": 25},
        "Neller's EAAI challenge: gin 25, undercut 25 (ties too), no big gin, no game bonuses",
        "the EAAI 2021 Gin Rummy framework (GinRummyUtil: GIN_BONUS 25, UNDERCUT_BONUS 25, "
        "MAX_DEADWOOD 10, GOAL_SCORE 100; GinRummyGame: a knock at equal deadwood is undercut, a hand "
        "whose stock is down to two cards is cancelled and the same player starts again, the starting "
        "player alternates after a scored hand)",
    ),
    "modern": Preset(
        {
            "gin_bonus": 25,
            "undercut_bonus": 25,
            "big_gin_bonus": 31,
            "box_bonus": 25,
            "game_bonus": 100,
            "shutout": "double",
        },
        "gin 25, undercut 25, big gin 31, box 25, game bonus 100, a shutout doubles",
        "the usual modern American scoring, e.g. ginrummy.com/scoring.html (gin 25, undercut 25, big "
        "gin 6 over gin, box 25 per hand won, game bonus 100, a shutout doubles the hand points before "
        "the boxes)",
    ),
    "classic": Preset(
        {"box_bonus": 20, "game_bonus": 100, "shutout": "flat", "shutout_bonus": 100},
        "gin 20, undercut 10, box 20, game bonus 100, shutout +100",
        "the older 20/10 scoring (e.g. onlinegambling.com's Gin Rummy scoring: gin 20, undercut 10, "
        "ties undercut) with box 20, game bonus 100 and a flat shutout of 100, as commonly played",
    ),
    "palace": Preset(
        {"gin_bonus": 25, "undercut_bonus": 20, "box_bonus": 10, "box_timing": "immediate"},
        "a popular app's: gin 25, undercut 20, boxes of 10 counted at once, no game or shutout bonus",
        "the numbers players give for the Gin Rummy Palace app (not checked against the app itself)",
    ),
}
"""The presets by name, ``default`` first."""

PRESET_NAMES: Final = tuple(PRESETS)

FIELD_HELP: Final[dict[str, str]] = {
    "knock_limit": "highest deadwood a knock may leave (0: straight gin, R14, R34)",
    "gin_bonus": "bonus for going gin, added to the opponent's deadwood (R21)",
    "undercut_bonus": "bonus the defender adds to the difference on an undercut (R20)",
    "big_gin_bonus": "bonus for 11 melded cards right after drawing; none: no big gin (R22)",
    "allow_discard_of_drawn_upcard": "may a card taken from the pile go back at once (R12)",
    "max_run_length": "longest run allowed; none: no limit (R05)",
    "target_score": "a game ends when a player's running score reaches this (R24)",
    "next_dealer": "who deals after a scored hand: alternate, winner or loser (R24)",
    "time_per_hand": "seconds of thinking per player per hand; none: no clock (R25)",
    "preset": "the named rule set these rules start from (R27)",
    "undercut_on_tie": "a knock at deadwood equal to the defender's is undercut; false: it scores nothing (R28)",
    "oklahoma": "Oklahoma gin: the first upcard's value sets the hand's knock limit (R29)",
    "oklahoma_ace": "Oklahoma with an ace upcard: one (knock at 1) or gin (gin only) (R29)",
    "oklahoma_spades": "Oklahoma: a spade first upcard doubles the hand's points (R30)",
    "box_bonus": "points per hand won (box, line bonus); 0: none (R31)",
    "box_timing": "boxes counted at the game's end (end) or into the running score at once (immediate) (R31)",
    "game_bonus": "bonus to the game's winner at its end; 0: none (R32)",
    "shutout": "when the loser scored nothing: none, double (the winner's hand points) or flat (+shutout_bonus) (R33)",
    "shutout_bonus": "the flat shutout bonus, with shutout = flat (R33)",
}
"""One line of meaning per ``Rules`` field (``ginsim rules``)."""
