"""``learned_search``: ``learned`` whose close choices are played out by ``learned`` itself in
worlds dealt from its view (``learned_search.RolloutJudge``), shipped under a name of its own
(an entry point of ginsim's own distribution, not a built-in)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ginsim.strategies.learned import Learned
from ginsim.strategies.learned_search import LearnedSearch, RolloutJudge, playout_self
from support.learned import hand_moves
from support.runs import ginsim_subprocess, hand_log
from support.training import training_module

from ginsim.engine.cards import cards_list
from ginsim.engine.game import run_game
from ginsim.engine.playhand import play_hand
from ginsim.engine.registry import BUILTINS, available
from ginsim.engine.rules import preset_rules
from ginsim.engine.spec import parse_spec
from ginsim.engine.strategy import Strategy
from ginsim.engine.view import DISCARD, PlayerView
from ginsim.run.seeding import deck_for


def _game_log(player: Strategy, preset: str, g: int) -> list[object]:
    """The move log of a whole game of ``player`` (seat 0) against ``simple``."""
    rules = preset_rules(preset)
    seats = [player, parse_spec("simple").build()]
    log: list[object] = []

    def one(h: int, dealer: int, scores: tuple[int, int]):  # type: ignore[no-untyped-def]
        return play_hand(rules, seats, deck_for(500 * g + h), dealer, scores, (3 * g + h, 3 * g + h + 1), log)

    run_game(rules, g % 2, one, 60)
    return log


def test_the_search_setting_plays_as_the_measured_roll_out_player() -> None:
    """Where undercuts cost more than 10 the setting is the experiments'
    ``rollout_player.py:Rollout`` with ``whole=1,hunter=threshold/knock_at=0`` (measured in the
    notes), move for move."""
    measured = training_module("rollout_player").Rollout(samples=4, whole=1, hunter="threshold/knock_at=0")
    mine = parse_spec("learned_search:search=4").build()
    assert isinstance(mine, LearnedSearch) and isinstance(mine.judge, RolloutJudge)
    assert _game_log(mine, "eaai", 1) == _game_log(measured, "eaai", 1)
    assert mine.searched > 0 and (mine.searched, mine.overridden) == (measured.searched, measured.overridden)
    assert mine.knock_searched == 0


@pytest.mark.parametrize("preset", ["default", "classic"])
def test_where_undercuts_are_cheap_it_plays_as_the_measured_knock_search(preset: str) -> None:
    """Under the default and classic rules its knocks are played out too: the experiments'
    ``knock_search_player.py:KnockSearch`` (the twenty-first attempt), move for move."""
    measured = training_module("knock_search_player").KnockSearch(search=4)
    mine = parse_spec("learned_search:search=4").build()
    assert _game_log(mine, preset, 1) == _game_log(measured, preset, 1)
    counts = ("searched", "overridden", "knock_searched", "knock_overridden")
    assert [getattr(mine, c) for c in counts] == [getattr(measured, c) for c in counts]
    assert mine.knock_searched > 0 and mine.knock_overridden > 0


@pytest.mark.parametrize("preset", ["default", "eaai"])
def test_without_a_confident_play_out_it_plays_as_learned(preset: str) -> None:
    me = LearnedSearch(search=3)
    me.judge.confidence = me.judge.hunter_confidence = 1e9  # no play-out is ever trusted
    for h in range(4):
        assert hand_moves(me, "simple", preset, 300, h) == hand_moves(Learned(), "simple", preset, 300, h)
    assert me.searched > 0 and me.overridden == 0 and me.take_overridden == 0 and me.knock_overridden == 0


def test_play_outs_value_each_option_in_chances_of_winning_the_game() -> None:
    me = LearnedSearch(search=4)
    judge = me.judge
    judge.confidence = judge.hunter_confidence = 0.0  # any gain at all overrides the model
    seen: list[list[list[float]]] = []
    evaluate = judge.evaluate

    def kept(view: PlayerView, options: list[tuple[int, bool]]) -> list[list[float]]:
        rows = evaluate(view, options)
        seen.append(rows)
        return rows

    judge.evaluate = kept  # type: ignore[method-assign]  # this test's own instance
    for h in range(3):
        hand_moves(me, "simple", "default", 300, h)
    assert seen and all(rows for rows in seen)
    for rows in seen:
        assert all(0.0 <= x <= 100.0 for row in rows for x in row) and len({len(r) for r in rows}) == 1
    assert me.searched > 0 and me.overridden > 0


def _at_a_discard(check: Callable[[PlayerView], None]) -> None:
    """``check(view)`` run on seat 0's live view at its first discard of a hand of ``learned``
    against ``learned`` (the engine changes the view as the hand goes on)."""
    done: list[bool] = []

    class Spy(Learned):
        def discard(self, view: PlayerView) -> int:
            if not done and view.phase is DISCARD and view.turn >= 2:
                check(view)
                done.append(True)
            return super().discard(view)

    play_hand(preset_rules("default"), [Spy(), Learned()], deck_for(9), 0, (0, 0), (1, 2))
    assert done


def test_the_gin_hunter_model_plays_where_the_games_evidence_says_hunter() -> None:
    me = LearnedSearch(search=3)
    judge = me.judge
    built: list[str] = []

    def model(name: str, spec: str) -> Callable[[], Strategy]:
        def make() -> Strategy:
            built.append(name)
            return parse_spec(spec).build()

        return make

    judge.opponent, judge.hunter = model("simple", "simple"), model("hunter", "threshold:knock_at=0")

    def check(view: PlayerView) -> None:
        for hunting, name in ((True, "hunter"), (False, "simple")):
            judge.hunting = lambda _view, h=hunting: h  # type: ignore[method-assign]  # the game's evidence, set
            built.clear()
            rows = judge.evaluate(view, [(c, False) for c in cards_list(view.hand)[:2]])
            assert rows and built and set(built) == {name}

    _at_a_discard(check)


def test_the_play_outs_self_holds_the_games_evidence_and_does_not_search() -> None:
    me = LearnedSearch(search=3)
    me._hunter.total, me._keeper.total = 2.5, -1.0

    def check(view: PlayerView) -> None:
        own = playout_self(me, view)
        assert type(own) is Learned
        assert (own._hunter.total, own._keeper.total) == (2.5, -1.0) and own._hunter.view is view

    _at_a_discard(check)


@pytest.mark.parametrize("bad", [1, -2, True, 2.5])
def test_bad_search_settings_are_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="search"):
        LearnedSearch(search=bad)  # type: ignore[arg-type]


def test_it_is_a_named_strategy_but_not_a_built_in() -> None:
    """Its name plays anywhere a name does; the built-ins' round-robin (the quick start's
    main job) and ``learned``'s canonical spec, which keys its documented runs, are as they were."""
    assert "learned_search" in available() and "learned_search" not in BUILTINS
    assert parse_spec("learned_search").canonical.endswith("learned_search:hunter_prior=0.3,model=,search=32")
    assert "search" not in parse_spec("learned").defaults()


def test_it_keeps_the_contract_plays_in_tournament_mode_and_refuses_a_bad_setting(tmp_path: Path) -> None:
    """From the command line, as a user runs it: ``ginsim validate``, a match under
    ``--isolate`` (each strategy in its own process, seeing a copy of its view), and one line
    with status 2 for a bad ``search``."""
    checked = ginsim_subprocess("validate", "learned_search:search=2", "--hands", "2", timeout=300)
    assert checked.returncode == 0 and "ok: the strategy keeps the contract" in checked.stdout, checked.stderr
    out = tmp_path / "run"
    args = ["learned_search:search=2", "simple", "--hands", "4", "--isolate", "-q", "--no-plots", "--out", str(out)]
    played = ginsim_subprocess("match", *args, timeout=300)
    assert played.returncode == 0, played.stderr
    assert len(hand_log(out)) == 4
    bad = ginsim_subprocess("match", "learned_search:search=1", "simple", "--hands", "2")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "search must be" in bad.stderr
