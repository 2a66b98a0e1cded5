"""The package's layout as users meet it: the documented plugin surface, the
named vocabularies, and plugins loaded from the folder ginsim runs in."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import ginsim
from ginsim.engine import result, view
from ginsim.engine.playhand import OUTCOMES, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.vocab import Action, Outcome, Phase
from ginsim.run.seeding import deal_seed, deck_for

PLUGIN_SURFACE = {
    "ginsim": ["Strategy", "PlayerView", "Rules", "parse_spec", "play_hand", "play_game", "tables_for", "MeldTables"],
    "ginsim.cards": ["VALUE_OF", "Card", "Mask", "parse_card", "format_cards", "cards_of", "cards_list", "melds_with"],
    "ginsim.view": ["PlayerView", "Event", "DRAW", "OFFER", "DISCARD", "KNOCK", "LAYOFF"],
    "ginsim.strategy": ["Strategy"],
    "ginsim.playout": ["playout", "Policy", "deal_hidden", "shuffled_stock", "score_knock", "outs_mask"],
    "ginsim.opponent": ["OpponentModel", "near_mask", "MELD_PAIRS"],
}


@pytest.mark.parametrize("module", sorted(PLUGIN_SURFACE))
def test_the_documented_plugin_surface_imports(module: str) -> None:
    mod = importlib.import_module(module)
    for name in PLUGIN_SURFACE[module]:
        assert hasattr(mod, name), f"{module}.{name}"


def test_plugin_modules_are_the_engines_objects() -> None:
    import ginsim.cards
    import ginsim.engine.cards
    import ginsim.engine.strategy
    import ginsim.strategy
    import ginsim.view

    assert ginsim.cards.VALUE_OF is ginsim.engine.cards.VALUE_OF
    assert ginsim.view.PlayerView is view.PlayerView is ginsim.PlayerView
    assert ginsim.strategy.Strategy is ginsim.engine.strategy.Strategy


def test_no_top_level_strategies_package_is_installed() -> None:
    """The built-ins are ginsim.strategies; a top-level ``strategies`` would shadow a
    user's own folder of that name (checked from a folder with none)."""
    code = "import importlib.util, ginsim.strategies.simple; print(importlib.util.find_spec('strategies'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "None"


def test_a_users_strategies_folder_loads_both_ways(tmp_path: Path, ginsim_proc) -> None:
    (tmp_path / "strategies").mkdir()
    (tmp_path / "strategies" / "mybot.py").write_text(
        "from ginsim.strategies.simple import Simple\n\n\nclass Bot(Simple):\n    pass\n"
    )
    for spec in ("strategies.mybot:Bot", "strategies/mybot.py:Bot"):
        r = ginsim_proc("match", spec, "simple", "--hands", "4", "--jobs", "1", "--no-plots", "-q", cwd=tmp_path)
        assert r.returncode == 0, (spec, r.stderr)
    r = ginsim_proc("match", "strategies.nobot:Bot", "simple", "--hands", "4", cwd=tmp_path)
    assert r.returncode == 2 and "nobot" in r.stderr and "Traceback" not in r.stderr


def test_phases_and_outcomes_match_the_compiled_constants() -> None:
    assert {str(p) for p in Phase} == {view.OFFER, view.DRAW, view.DISCARD, view.KNOCK, view.LAYOFF, view.OVER}
    assert [str(o) for o in Outcome] == list(OUTCOMES)
    assert Outcome.DRAW == result.DRAWN and Outcome.KNOCK == result.KNOCK_WON


def test_every_history_action_is_in_the_vocabulary() -> None:
    seen: set[str] = set()
    rules = Rules(big_gin_bonus=31)
    for i in range(300):
        s = deal_seed(7, i)
        log: list = []
        strategies = (parse_spec("random").build(), parse_spec("simple").build())
        play_hand(rules, strategies, deck_for(s), i % 2, seeds=(s, s + 1), log=log)
        seen |= {action for _seat, action, _card in log}
    assert seen <= {str(a) for a in Action}
    assert {"pass", "take", "draw", "discard", "knock"} <= seen


def test_the_engine_imports_no_analysis_library() -> None:
    """The engine layer never imports pandas or matplotlib (checked in a fresh interpreter)."""
    code = (
        "import sys, ginsim, ginsim.engine.game, ginsim.engine.registry, ginsim.engine.spec, ginsim.playout;"
        "print(sorted(m for m in ('pandas', 'matplotlib', 'pyarrow') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_version_is_one_value() -> None:
    from ginsim.version import __version__

    assert ginsim.__version__ == __version__
