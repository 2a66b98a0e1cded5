"""ginsim: seeded bot-vs-bot Gin Rummy simulation and analysis.

The library's front door::

    from ginsim import deadwood, best_melds, Rules, play_hand
    deadwood("7H 8H 9H KS")          # 10
"""

# first: decides whether the hot modules below load compiled or as sources
from ginsim import _native  # noqa: F401
from ginsim.cards import Card, Mask, format_card, format_cards, parse_card, parse_cards, to_mask
from ginsim.engine import Hand, HandResult, play_hand
from ginsim.errors import (
    CardError,
    GinsimError,
    IllegalMoveError,
    RulesError,
    RunError,
    StrategySpecError,
)
from ginsim.game import GameResult, play_game
from ginsim.layoff import best_layoff
from ginsim.melds import Melds, best_discards, best_melds, deadwood, tables_for
from ginsim.presets import PRESET_NAMES
from ginsim.registry import parse_spec
from ginsim.rules import Rules, load_rules, load_rules_file, preset_rules
from ginsim.strategy import Strategy
from ginsim.view import PlayerView

__version__ = "0.1.0"

__all__ = [
    "PRESET_NAMES",
    "Card",
    "CardError",
    "GameResult",
    "GinsimError",
    "Hand",
    "HandResult",
    "IllegalMoveError",
    "Mask",
    "Melds",
    "PlayerView",
    "Rules",
    "RulesError",
    "RunError",
    "Strategy",
    "StrategySpecError",
    "__version__",
    "best_discards",
    "best_layoff",
    "best_melds",
    "deadwood",
    "format_card",
    "format_cards",
    "load_rules",
    "load_rules_file",
    "parse_card",
    "parse_cards",
    "parse_spec",
    "play_game",
    "play_hand",
    "preset_rules",
    "tables_for",
    "to_mask",
]
