"""ginsim: seeded bot-vs-bot Gin Rummy simulation and analysis.

The library's front door::

    from ginsim import deadwood, best_discards, play_hand
    deadwood("7H 8H 9H KS")                            # 10
    best_discards("7H 8H 9H 7C 7D 7S 2C 3D KS QS 4C")  # (19, ['QS', 'KS'])
    r = play_hand(strategies=["simple", "random"], seed=7)
    r.describe(), r.as_dict()                          # card names, not masks

    import ginsim
    run = ginsim.match("simple", "random", hands=2000)   # a Run (ginsim.api)
    run.summary, run.hands, run.plot("outcomes")

``match``, ``roundrobin``, ``sweep``, ``gauntlet``, ``open_run`` and ``Run`` load on first use (they
bring pandas and the runner), so ``import ginsim`` stays light. Importing the package also
imports ``ginsim.outside``, which registers the ``java:`` spec prefix with the engine's
registry: every spec parser (CLI, API, runner) sees Java players, and the engine itself
imports no layer above it. It registers the ``rlpolicy:`` prefix too (a reinforcement-
learning policy as a strategy, ``ginsim.rl.policy``), whose loader imports ``ginsim.rl``
only when such a spec is read.

The layers (engine → outside → run → analysis beside terminal → launch, hands, testing →
api → cli) are an import contract in pyproject.toml, checked by tests/test_layers.py;
no module of ginsim imports this root package, and the built-in strategies
(``ginsim.strategies``) import ``ginsim``, ``ginsim.cards``, ``ginsim.view``,
``ginsim.strategy``, ``ginsim.playout``, ``ginsim.sampling``, ``ginsim.opponent`` and
``ginsim.valuemodel`` only.
"""

from typing import Any

# ginsim.engine.playhand (imported first by any of these) decides whether its hot modules load
# compiled or as sources
from ginsim.engine.cards import Card, Mask, format_card, format_cards, parse_card, parse_cards, to_mask
from ginsim.engine.game import GameResult
from ginsim.engine.layoff import best_layoff
from ginsim.engine.melds import Melds, MeldTables, best_melds, deadwood, tables_for
from ginsim.engine.playhand import Hand, HandResult
from ginsim.engine.presets import PRESET_NAMES
from ginsim.engine.registry import register_prefix as _register_prefix
from ginsim.engine.rules import Rules, load_rules, load_rules_file, preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import PlayerView
from ginsim.errors import (
    CardError,
    GinsimError,
    IllegalMoveError,
    RulesError,
    RunError,
    StrategySpecError,
)
from ginsim.hands import best_discards, best_discards_mask, play_game, play_hand
from ginsim.version import __version__

from ginsim import outside  # noqa: F401  # isort: skip  (importing it registers the java: spec prefix)
from ginsim.engine import viewdoc as _viewdoc  # isort: skip

_viewdoc.attach()  # help(PlayerView) in the compiled build too (mypyc drops docstrings)


def _rl_policy(target: str, where: str) -> type:
    """The ``rlpolicy:`` prefix's loader: ``ginsim.rl.policy`` loads on first use."""
    from ginsim.rl.policy import load

    return load(target, where)


_register_prefix("rlpolicy", _rl_policy)

_LAZY = {"match", "roundrobin", "sweep", "gauntlet", "open_run", "Run"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:  # imported by name: the mypyc build of the engine does not follow it
        import importlib

        return getattr(importlib.import_module("ginsim.api"), name)
    raise AttributeError(f"module 'ginsim' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with the run functions it loads on first use (``match`` ...)."""
    return sorted({*globals(), *_LAZY})


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
    "MeldTables",
    "Melds",
    "PlayerView",
    "Rules",
    "RulesError",
    "Run",
    "RunError",
    "Strategy",
    "StrategySpecError",
    "__version__",
    "best_discards",
    "best_discards_mask",
    "best_layoff",
    "best_melds",
    "deadwood",
    "format_card",
    "format_cards",
    "gauntlet",
    "load_rules",
    "load_rules_file",
    "match",
    "open_run",
    "parse_card",
    "parse_cards",
    "parse_spec",
    "play_game",
    "play_hand",
    "preset_rules",
    "roundrobin",
    "sweep",
    "tables_for",
    "to_mask",
]
