"""A bot's mistakes found when it loads, and NumPy answers taken as Python's.

A class that leaves ``take_upcard`` or ``discard`` to ``Strategy``'s stubs (a missing or
misspelled method) is refused at load, with one line naming what is missing; numpy's bools
and ints are accepted wherever Python's are (take, knock, big gin, discard, melds, lay-offs).
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ginsim
from ginsim.engine.playhand import FORFEIT, play_hand
from ginsim.engine.rules import Rules
from ginsim.engine.spec import parse_spec
from ginsim.errors import StrategySpecError
from ginsim.run.seeding import deal_seed, deck_for

TYPO_BOT = textwrap.dedent(
    """
    from ginsim import Strategy

    class Typo(Strategy):
        name = "typo"

        def take_up_card(self, view):
            return False

        def discard(self, view):
            return view.best_discards()[1].bit_length() - 1
    """
)


class NoDiscard(ginsim.Strategy):
    def take_upcard(self, view: ginsim.PlayerView) -> bool:
        return False


class Plain(ginsim.Strategy):
    """``simple``'s decisions, with every hook answered, in plain Python values."""

    def take_upcard(self, view: ginsim.PlayerView) -> bool:
        return view.upcard is not None and view.would_meld(view.upcard)

    def discard(self, view: ginsim.PlayerView) -> int:
        cards = view.best_discards(1 << view.drawn if view.drawn_from_pile else 0)[1]  # type: ignore[operator]
        return (cards & -cards).bit_length() - 1

    def knock(self, view: ginsim.PlayerView) -> bool:
        return True

    def take_big_gin(self, view: ginsim.PlayerView) -> bool:
        return True

    def choose_melds(self, view: ginsim.PlayerView) -> list[int]:
        return list(view.best_melds().melds)

    def choose_layoffs(self, view: ginsim.PlayerView) -> int:
        return ginsim.best_layoff(view.hand, view.knocker_melds, view._tables)[1]


class Numpy(Plain):
    """The same answers as numpy scalars, as a NumPy- or torch-based bot gives them."""

    def take_upcard(self, view: ginsim.PlayerView) -> bool:
        return np.bool_(super().take_upcard(view))  # type: ignore[return-value]

    def discard(self, view: ginsim.PlayerView) -> int:
        return np.int64(super().discard(view))  # type: ignore[return-value]

    def knock(self, view: ginsim.PlayerView) -> bool:
        return np.True_  # type: ignore[return-value]

    def take_big_gin(self, view: ginsim.PlayerView) -> bool:
        return np.True_  # type: ignore[return-value]

    def choose_melds(self, view: ginsim.PlayerView) -> list[int]:
        return [np.int64(m) for m in super().choose_melds(view)]  # type: ignore[misc]

    def choose_layoffs(self, view: ginsim.PlayerView) -> int:
        return np.uint64(super().choose_layoffs(view))  # type: ignore[return-value]


def test_a_misspelled_decision_is_one_line_and_exit_2(tmp_path: Path, run_cli: Any) -> None:
    bot = tmp_path / "typo.py"
    bot.write_text(TYPO_BOT)
    r = run_cli("match", f"{bot}:Typo", "simple", "--hands", "10", "--out", str(tmp_path / "run"))
    assert r.code == 2, (r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "does not define take_upcard" in lines[0], r.err
    assert "'take_up_card' looks like 'take_upcard'" in lines[0]
    assert not (tmp_path / "run").exists() or not any((tmp_path / "run").rglob("*.parquet"))


def test_a_missing_decision_is_refused_from_python_too() -> None:
    with pytest.raises(StrategySpecError, match="NoDiscard does not define discard"):
        ginsim.play_hand(strategies=[NoDiscard, "simple"], seed=1)
    with pytest.raises(StrategySpecError, match="does not define discard"):
        ginsim.play_hand(strategies=[NoDiscard(), "simple"], seed=1)
    with pytest.raises(StrategySpecError, match="does not define discard"):
        ginsim.match(NoDiscard, "simple", hands=10)
    parse_spec("simple").load_class()  # the built-ins all define their decisions


@pytest.mark.parametrize("rules", [Rules(), Rules(big_gin_bonus=31, undercut_on_tie=False)])
def test_numpy_answers_play_as_python_answers(rules: Rules) -> None:
    """Hand for hand, the numpy bot plays exactly as its plain twin: no forfeit, the
    same outcomes, points, melds and lay-offs."""
    outcomes = set()
    for i in range(300):
        deck = deck_for(deal_seed(77, i))
        opponent = parse_spec("simple").build()
        plain = play_hand(rules, (Plain(), opponent), deck, i % 2, seeds=(i, i + 1))
        mixed = play_hand(rules, (Numpy(), opponent), deck, i % 2, seeds=(i, i + 1))
        assert mixed.outcome != FORFEIT, mixed.forfeit_reason
        assert mixed == plain, i
        outcomes.add(plain.outcome)
    assert {"knock", "gin"} <= outcomes


def test_dir_of_ginsim_lists_the_run_functions() -> None:
    for name in ("match", "roundrobin", "sweep", "open_run", "Run", "Strategy", "deadwood"):
        assert name in dir(ginsim), name


def test_the_docs_example_bots_do_not_take_a_built_in_name() -> None:
    """An example named like a built-in (``patient``) makes ``ginsim.match("patient", ...)``
    run the built-in instead of the reader's copy."""
    import re

    from ginsim.engine.registry import BUILTINS

    root = Path(__file__).resolve().parents[2]
    for page in ("README.md", "docs/strategy-api.md"):
        names = re.findall(r'^\s+name = "([^"]+)"', (root / page).read_text(encoding="utf-8"), re.M)
        assert names, page
        assert not set(names) & set(BUILTINS), (page, names)
